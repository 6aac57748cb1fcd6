mkfifo pipe; printf "#define A 1\nA\n" > pipe & pmcpp -P pipe; wait

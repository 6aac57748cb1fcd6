# expected: Debian's output for a regular file named pipe (Debian rejects FIFOs)
export PACKAGE_BUILD_DATE=today
mkfifo pipe; printf "g {\n a.b A\n}\n" >pipe & pmgenmap pipe; wait

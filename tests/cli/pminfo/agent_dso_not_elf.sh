. "$CASE_DIR/agent.inc"
printf "not an object\n" >bad.so; pminfo -L -K clear -K add,30,./bad.so,fixed_init -n $NS -f fixed.i32

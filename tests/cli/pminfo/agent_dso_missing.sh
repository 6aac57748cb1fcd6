. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./nosuch.so,fixed_init -n $NS -f fixed.i32

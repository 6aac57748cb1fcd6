. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,failing_init -n $NS -dtf fixed.i32 30.0

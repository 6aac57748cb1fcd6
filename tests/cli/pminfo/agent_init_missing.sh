. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,nosuch_init -n $NS -f fixed.i32

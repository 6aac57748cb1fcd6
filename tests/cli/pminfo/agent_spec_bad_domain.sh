. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,511,./fixed.so,fixed_init -n $NS -f fixed.i32

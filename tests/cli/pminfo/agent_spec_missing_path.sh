. "$CASE_DIR/agent.inc"
pminfo -L -K add,30 -K clear,x -n $NS -f fixed.i32

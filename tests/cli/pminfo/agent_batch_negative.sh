. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -b -1 -m fixed.i32

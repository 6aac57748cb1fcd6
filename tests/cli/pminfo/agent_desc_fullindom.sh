. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -I fixed.inst fixed.i32

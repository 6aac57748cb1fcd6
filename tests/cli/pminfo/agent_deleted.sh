. "$CASE_DIR/agent.inc"
pminfo -L $K -K del,30 -n $NS -dt fixed.i32 30.0

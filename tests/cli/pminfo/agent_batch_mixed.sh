. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -f -b 2 fixed.i32 30.1 fixed.u32 fixed.i64 30.2

. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -b +2 -f fixed.i32 fixed.u32 fixed.i64

. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -b 0 -f fixed.i32 fixed.u32

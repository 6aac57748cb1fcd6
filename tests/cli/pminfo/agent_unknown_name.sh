. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -f fixed.nosuch fixed.i32 nosuch

. "$CASE_DIR/agent.inc"
pminfo -L -K bogus -n $NS -f fixed.i32

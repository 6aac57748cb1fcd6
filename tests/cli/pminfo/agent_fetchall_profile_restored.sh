. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -F -b 1 fixed.inst.hidden fixed.inst.hidden fixed.err.stubborn fixed.err.profile

. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -It fixed.float fixed.u64 fixed.inst.colour

. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -f fixed.inst.colour fixed.err.inst fixed.inst.strings fixed.err.inst

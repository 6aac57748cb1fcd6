. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -dmtTF fixed.inst.hidden fixed.err.profile fixed.err.profileempty fixed.i32

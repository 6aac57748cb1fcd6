. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,malformed_init -n $NS -F fixed.inst.colour fixed.inst.strings fixed.err.inst

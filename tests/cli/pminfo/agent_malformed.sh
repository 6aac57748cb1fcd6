. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,malformed_init -n $NS -f fixed.i32 fixed.u32 fixed.i64 fixed.u64 fixed.double fixed.string fixed.inst.colour fixed.inst.strings

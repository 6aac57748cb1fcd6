. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,erring_init -n $NS -dfmtT fixed.i32 fixed.inst fixed.u32 30.0

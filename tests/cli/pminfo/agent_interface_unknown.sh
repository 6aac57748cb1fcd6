. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,oldpmapi_init -n $NS -f fixed.i32

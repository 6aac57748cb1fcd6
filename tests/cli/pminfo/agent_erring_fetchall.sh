. "$CASE_DIR/agent.inc"
pminfo -L -K clear -K add,30,./fixed.so,erring_init -n $NS -F fixed.inst

. "$CASE_DIR/agent.inc"
pminfo -L $K -K add,31,./fixed.so,fixed_init -n $NS -dfm fixed.err.noagent

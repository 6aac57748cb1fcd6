. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -tT 30.0 30.1 30.2 30.9 31.0

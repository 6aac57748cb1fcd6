. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -d 30.0.0 30.0.99 31.0.0 30.0.4

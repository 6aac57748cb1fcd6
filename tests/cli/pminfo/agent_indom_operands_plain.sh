. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -dfmM 30.0 30.9 31.0

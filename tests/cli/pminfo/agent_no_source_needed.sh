. "$CASE_DIR/agent.inc"
pminfo -n $NS -m fixed.inst && pminfo -n $NS fixed.err

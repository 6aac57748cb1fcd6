. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -vdfFmMtTI fixed

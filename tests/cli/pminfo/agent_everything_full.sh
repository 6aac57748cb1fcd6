. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -dfMtTI fixed.inst fixed.err

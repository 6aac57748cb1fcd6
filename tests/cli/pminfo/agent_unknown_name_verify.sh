. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -v nosuch fixed.err.again

. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -vtT 30.0 30.1 fixed.err.again

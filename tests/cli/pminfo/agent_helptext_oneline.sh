. "$CASE_DIR/agent.inc"
pminfo -L $K -n $NS -tT fixed.i32 fixed.blank fixed.newlines fixed.unknown fixed.float

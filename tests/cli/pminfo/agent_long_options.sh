. "$CASE_DIR/agent.inc"
pminfo --local-PMDA --spec-local=clear --spec-local=add,30,./fixed.so,fixed_init --namespace=$NS --desc --fetch --fetchall --fullindom --pmid --oneline --helptext --batch=3 fixed.inst && pminfo -L $K -n $NS --fullpmid --verify fixed.err

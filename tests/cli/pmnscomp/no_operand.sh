pmnscomp -n ns

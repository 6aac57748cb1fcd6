# without -n the namespace is $PMNS_DEFAULT (else $PCP_VAR_DIR/pmns/root)
printf 'root {\n\tx\t2:0:1\n}\n' >ns
PMNS_DEFAULT=ns pmnscomp out.bin >/dev/null && pmnscomp --dump out.bin

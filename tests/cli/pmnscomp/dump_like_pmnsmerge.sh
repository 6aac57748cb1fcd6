# --dump prints the namespace as Debian's pmnsmerge writes it (groups in
# depth-first order, children in source order); .stdout is pmnsmerge's output
pmnscomp -n "$CASE_DIR/linux_like.pmns" out.bin >/dev/null && pmnscomp --dump out.bin

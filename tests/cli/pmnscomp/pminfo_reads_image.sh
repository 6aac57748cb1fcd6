# pminfo -n takes the image where it takes the text; .stdout is Debian's
# pminfo -n linux_like.pmns -m
export PCP_DERIVED_CONFIG=
pmnscomp -n "$CASE_DIR/linux_like.pmns" out.bin >/dev/null && pminfo -n out.bin -m

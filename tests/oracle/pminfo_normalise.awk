# pminfo_normalise.awk - for pminfo_local_diff.sh, after clock_values.awk:
# masks the clock and CPU values in pminfo's output (-f, -F, -v, ...: the
# metric's name starts a line, its values are indented four blanks) once
# checked, and copies everything else.
$1 ~ /^(simple|trivial|fixed|event)\.[a-z.]*:?$/ { cur = $1; sub(/:$/, "", cur) }
/^    (value|inst \[.*\] value) / { clock_value(cur, $NF) }
{ print }

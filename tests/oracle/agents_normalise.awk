# agents_normalise.awk - for agents_diff.sh and seed_compile.sh, after
# clock_values.awk: masks the values of the agents' clock and CPU metrics in
# pminfo -f, probe_store and dbpmda output once checked (clock_value), and
# the old values of stores.  Everything else is copied.
/^[a-z][a-z.]*$/ { cur = $0 }                                    # pminfo: a metric
/^  [a-z][a-z.]*: numval / { cur = substr($1, 1, length($1) - 1) } # probe: a metric
/^  [0-9.]+ \([a-z.]+\): numval/ {                                # dbpmda: a metric
    cur = substr($2, 2, length($2) - 3)
}
/^[a-z]+[: ]/ { cur = "" }                                       # a command
/^(253\.1\.[23]|250\.0\.0|253\.2\.4 \[[0-9]+\]): .* -> / {            # dbpmda: a store
    sub(/: .* -> /, ": <old> -> ")
}
/ value / {
    for (i = 1; i < NF && $i != "value"; i++)
        ;
    clock_value(cur, $(i + 1))
}
{ print }

# agents_normalise.awk - masks the values of the agents' clock and CPU
# metrics in pminfo -f, probe_store and dbpmda output, after checking each is
# plausible: simple.now 0..59, simple.time.user/sys a non-negative number,
# trivial.time between -v t0=SECONDS and -v t1=SECONDS (the epoch seconds
# before and after the run).  A value that fails its check is replaced by
# INVALID(value), which the caller looks for.  Everything else is copied.
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
    v = $(i + 1)
    if (cur == "simple.now")
        ok = v ~ /^[0-9]+$/ && v + 0 <= 59
    else if (cur == "simple.time.user" || cur == "simple.time.sys")
        ok = v ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/
    else if (cur == "trivial.time")
        ok = v ~ /^[0-9]+$/ && v + 0 >= t0 && v + 0 <= t1
    else {
        print
        next
    }
    sub(/ value .*$/, ok ? " value <" cur ">" : " value INVALID(" v ")")
}
{ print }

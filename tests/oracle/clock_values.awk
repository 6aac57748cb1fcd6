# clock_values.awk - for agents_normalise.awk and pminfo_normalise.awk (given
# first with -f): the check and mask of the agents' clock and CPU values.
#
# clock_value(cur, v): when metric cur is simple.now, simple.time.user,
# simple.time.sys or trivial.time, replaces " value ..." at the end of $0 by
# " value <cur>" if v is plausible -- simple.now 0..59, simple.time.user/sys
# a non-negative number, trivial.time between -v t0=SECONDS less one and
# -v t1=SECONDS (the epoch seconds before and after the run, from date +%s)
# -- and by " value INVALID(v)", which the callers look for, if not.
# Other metrics' lines are left alone.  The second below t0: the agents'
# time() reads CLOCK_REALTIME_COARSE, which trails CLOCK_REALTIME (date's)
# by up to a clock tick, so just after a second begins, date can say t0
# and the agent, an instant later, t0 - 1.
function clock_value(cur, v,    ok) {
    if (cur == "simple.now")
        ok = v ~ /^[0-9]+$/ && v + 0 <= 59
    else if (cur == "simple.time.user" || cur == "simple.time.sys")
        ok = v ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/
    else if (cur == "trivial.time")
        ok = v ~ /^[0-9]+$/ && v + 0 >= t0 - 1 && v + 0 <= t1
    else
        return
    sub(/ value .*$/, ok ? " value <" cur ">" : " value INVALID(" v ")")
}

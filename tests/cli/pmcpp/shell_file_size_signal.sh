# A #shell command started while pmcpp writes an outfile gets SIGXFSZ at
# its default action, as under real pmcpp: a write past the file size
# limit kills it (128 + SIGXFSZ).  pmcpp catches SIGXFSZ for its own
# outfile, where it is a write error; ignoring it would be inherited
# across exec, a caught signal is not.
# (pmcpp itself starts with the default action, whatever ctest inherited.)
printf '%s\n' "#shell 'ulimit -f 1; head -c 8192 /dev/zero >big 2>/dev/null; echo \"status \$?\"'" >in
env --default-signal=XFSZ pmcpp in out
cat out

# SIGTERM while pmcpp streams from a FIFO into an outfile: the old outfile
# stays as it was, no temporary is left behind, and the exit status is the
# signal's.  The kill waits until the temporary exists: it has no name
# (O_TMPFILE), so it is looked for among pmcpp's open files.
mkfifo in
echo old >out
pmcpp in out &
pid=$!
exec 3>in
printf 'line one\nline two\n' >&3
n=0
until ls -l /proc/$pid/fd 2>/dev/null | grep -q "$(pwd)/.*(deleted)\|out.tmp"; do
    n=$((n + 1))
    [ $n -le 100 ] || { echo "no temporary after 10 s"; break; }
    sleep 0.1
done
kill -TERM $pid
{ wait $pid; } 2>/dev/null
echo "status $?"
exec 3>&-
ls
cat out

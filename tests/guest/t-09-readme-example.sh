# SPDX-License-Identifier: GPL-2.0
# The probe set the README shows, built from the README as written: it
# loads, its histogram counts sched_wakeup as the generic counter does,
# and the tool exports it typed.

plan 7

load tpstat
check "the README's example loads" load tpstat_example
load tpstat_count tracepoints=sched_wakeup
is "its probe is attached" "$(state_of wakeup sched_wakeup)" attached

# Freeze both, zero both, then count with the generic counter around it:
# every wakeup the example sees, the counter sees too.
echo 0 > $TP/wakeup/enable
echo 0 > $TP/count/enable
echo 1 > $TP/wakeup/reset
echo 1 > $TP/count/reset
echo 1 > $TP/count/enable
echo 1 > $TP/wakeup/enable
# Each sleep ends in a wakeup of the sleeper.
i=0
while [ $i -lt 20 ]; do
	sleep 0.05
	i=$((i + 1))
done
echo 0 > $TP/wakeup/enable
echo 0 > $TP/count/enable
seen=$(awk '$1 == "count" { print $2 }' $TP/wakeup/cpus)
within "it saw the 20 sleeps' wakeups, and no more than the counter" \
	"$seen" 20 "$(stat_of count sched_wakeup.hits)"
check "its file is a BCC-style histogram" grep -q '^ *cpu : count *distribution$' $TP/wakeup/cpus
check "the core declares its file's histogram in its metrics" \
	grep -q '^hist none cpus cpus 0\.\.65535 ' $TP/wakeup/metrics
# Exported with no change to the tool: its file's histogram a histogram,
# whose count is the file's; promtool reads it on the host.
/payload/bin/tpstat export --prometheus wakeup > /tmp/example.prom 2> /tmp/example.err
is "the tool exports the example: its histogram typed a histogram, nothing untyped, no warning" \
	"$(grep -c '^# TYPE tpstat_wakeup_cpus histogram$' /tmp/example.prom) $(grep -c untyped /tmp/example.prom) $(cat /tmp/example.err)" \
	"1 0 "
is "the export's count is the file's" \
	"$(awk '$1 == "tpstat_wakeup_cpus_count" { print $2 }' /tmp/example.prom)" "$seen"
for_host /tmp/example.prom
unload_all

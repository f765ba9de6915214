# SPDX-License-Identifier: GPL-2.0
# samples/tasklet-probe: every tasklet run is named, rate-limited, from
# irq:tasklet_entry/exit. tpstat_test_tasklet runs a tasklet of known name a
# known number of times, on the writer's CPU.

plan 10

RUN=/sys/kernel/debug/tpstat_test_tasklet/run

# Lines since line $1 naming the test tasklet (with the module %ps adds).
named_since() {
	kmsg_since "$1" | grep -cE \
		'tpstat_sample_tasklet: tasklet tpstat_test_tasklet_run \[tpstat_test_tasklet\] ran [0-9]+ ns on cpu'"$2"'$'
}

# What tpstat_sample_tasklet said at unload, since line $1.
saw_since() {
	kmsg_since "$1" | sed -n 's/.*tpstat_sample_tasklet: saw \([0-9]*\) tasklet runs$/\1/p'
}

# As in t-50: whole seconds since boot, and what the rate limit allows.
uptime_s() {
	read -r up rest < /proc/uptime
	echo "${up%.*}"
}
ratelimit_most() { echo $((10 * (($(uptime_s) - $1 + 1) / 5 + 1))); }

# tpstat_count counts every tasklet run too, on its own probe: what it
# counted from before the sample loads to after it unloads bounds from
# above what the sample may have seen, so a run counted twice shows.
runs() { stat_of count tasklet_entry.hits; }

load tpstat
load tpstat_count tracepoints=tasklet_entry
check "the test tasklet's module loads" load tpstat_test_tasklet
lines=$(kmsg_lines)
runs0=$(runs)
check "tpstat_sample_tasklet loads" load tpstat_sample_tasklet
taskset -c 1 sh -c "echo 5 > $RUN"
check "tpstat_sample_tasklet unloads" rmmod tpstat_sample_tasklet
is "each of 5 runs named once, by function, on the CPU it ran on" \
	"$(named_since "$lines" 1)" 5
within "it saw them all, and no more than tpstat_count counted meanwhile" \
	"$(saw_since "$lines")" 5 $(($(runs) - runs0))
kmsg_since "$lines" | grep 'tpstat_sample_tasklet:' > /tmp/t-52.log
is "no address in what it printed, in any base" "$(address_leaks /tmp/t-52.log)" ""
rm -f /tmp/t-52.log

# Ten lines at most in five seconds, whatever the number of runs.
lines=$(kmsg_lines)
runs0=$(runs)
load tpstat_sample_tasklet
t0=$(uptime_s)
echo 50 > $RUN
most=$(ratelimit_most "$t0")
rmmod tpstat_sample_tasklet
within "50 runs print at most ten lines per five seconds" \
	"$(named_since "$lines" '[0-9]+')" 1 "$most"
within "while it counts them all, and no more than tpstat_count did" \
	"$(saw_since "$lines")" 50 $(($(runs) - runs0))

# Either may come and go first.
load tpstat_sample_tasklet
check "the tasklet's module unloads under the probe" rmmod tpstat_test_tasklet
load tpstat_test_tasklet
lines=$(kmsg_lines)
taskset -c 0 sh -c "echo 3 > $RUN"
is "and is named again once back" "$(named_since "$lines" 0)" 3
unload_all

# SPDX-License-Identifier: GPL-2.0
# reset never detaches: the function tracer sees no tracepoint_probe_*()
# call for a thousand resets, and exactly the calls enable must make for a
# thousand toggles. Module loads go on while a reset loop runs; a reader
# never sees an impossible histogram while another CPU fires.

plan 12

FT=/sys/kernel/tracing

load tpstat
load tpstat_test_tp
load tpstat_test_probe
is "the set is attached" "$(state_of test tpstat_test_fire)" attached

# calls_during COMMAND...: tracepoint_probe_register/unregister calls the
# function tracer saw while COMMAND ran, as "registers unregisters".
calls_during() {
	echo > $FT/trace
	echo 'tracepoint_probe_register tracepoint_probe_unregister' > $FT/set_ftrace_filter
	echo function > $FT/current_tracer
	"$@"
	# Changing the tracer empties the buffer: stop it and read it first.
	echo 0 > $FT/tracing_on
	echo "$(grep -c ' tracepoint_probe_register <-' $FT/trace)" \
		"$(grep -c ' tracepoint_probe_unregister <-' $FT/trace)"
	echo nop > $FT/current_tracer
	echo 1 > $FT/tracing_on
	echo > $FT/set_ftrace_filter
}

# A thousand of each; two hundred on the debug kernel, where a thousand
# toggles take four minutes.
N=1000
debug_kernel && N=200
resets() {
	i=0
	while [ $i -lt $N ]; do
		echo 1 > $TP/test/reset
		i=$((i + 1))
	done
}
toggles() {
	i=0
	while [ $i -lt $N ]; do
		echo 0 > $TP/test/enable
		echo 1 > $TP/test/enable
		i=$((i + 1))
	done
}
detach_once() { echo 0 > $TP/test/enable; echo 1 > $TP/test/enable; }

# Each attached probe of the set is detached and attached once per toggle
# (the probe whose tracepoint is missing never is).
attached=$(awk '$1 == "test" && $3 == "attached"' $TP/probes | wc -l)
echo "# the test set has $attached attached probes"
# The tracer must see what it is asked to: one toggle, one of each a probe.
is "the function tracer sees one toggle" "$(calls_during detach_once)" "$attached $attached"
is "$N resets register and unregister nothing" "$(calls_during resets)" "0 0"
is "$N toggles detach and attach each probe once each" \
	"$(calls_during toggles)" "$((N * attached)) $((N * attached))"
is "still attached" "$(state_of test tpstat_test_fire)" attached
fire 5
is "counts after the resets and toggles" "$(stat_of test tpstat_test_fire.hits)" 5

# Events fired before a reset returns are gone; those after are all there.
fire_on 1 100
echo 1 > $TP/test/reset
fire_on 1 7
fire_on 0 6
is "after reset: exactly what fired since" "$(stat_of test hist.count)" 13
is "after reset: on cpu0" "$(stat_of test table.0.count)" 2

# Modules with tracepoints come and go while another task resets.
(
	while [ ! -e /tmp/t-07-stop ]; do
		echo 1 > $TP/test/reset
	done
) &
resetter=$!
n=0
while [ $n -lt 50 ]; do
	rmmod tpstat_test_tp && load tpstat_test_tp || break
	n=$((n + 1))
done
touch /tmp/t-07-stop
wait $resetter
rm -f /tmp/t-07-stop
is "50 module reloads under a reset loop" "$n" 50
is "attached after the reloads" "$(state_of test tpstat_test_fire)" attached
echo 1 > $TP/test/reset
fire 9
is "counts after the reloads" "$(stat_of test tpstat_test_fire.hits)" 9

# A reader on cpu0 while cpu1 fires: min <= p50 <= p90 <= p99 <= max, and
# min is never the empty histogram's U64_MAX once count is not zero.
echo 1 > $TP/test/reset
fire_on 1 3000000 &
firer=$!
bad=0
reads=0
while [ $reads -lt 200 ]; do
	line=$(taskset -c 0 grep '^count ' $TP/test/hist)
	set -- $line
	# count C avg A min MIN max MAX p50 P p90 P p99 P
	if [ "$2" -gt 0 ] && { [ "$6" -gt "$8" ] || [ "${10}" -lt "$6" ] ||
		[ "${12}" -lt "${10}" ] || [ "${14}" -lt "${12}" ] ||
		[ "$8" -lt "${14}" ]; }; then
		bad=$((bad + 1))
		echo "# impossible: $line"
	fi
	reads=$((reads + 1))
done
wait $firer
is "200 reads during firing, none impossible" "$bad" 0
unload_all

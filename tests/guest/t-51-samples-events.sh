# SPDX-License-Identifier: GPL-2.0
# samples/trace-events: the events' tracefs files, exact records, filters,
# a hist trigger, tpstat_count on them, and the producer thread that exists
# only while sample_produced has a listener. "fire N" runs seq = 0..N-1:
# sample_fields for each, sample_even or sample_odd by parity, sample_tenth
# when seq is a multiple of ten (TP_CONDITION).

plan 55

TR=/sys/kernel/tracing
EV=$TR/events/tpstat_sample
SFIRE=/sys/kernel/debug/tpstat_sample_events/fire

sfire() { echo "$1" > $SFIRE; }

# Records of event $1 in the trace buffer.
recorded() { grep -c " $1: " $TR/trace; }

# The producer thread's PID, or "none"; kthread_stop() returns before the
# task is reaped, hence the wait of up to 10 s for it to come or go.
producer_pid() {
	for c in /proc/[0-9]*/comm; do
		comm=
		read -r comm 2>/dev/null < "$c"
		if [ "$comm" = tpstat_producer ]; then
			c=${c#/proc/}
			echo "${c%/comm}"
			return
		fi
	done
	echo none
}
until_producer() {
	n=0
	while [ $n -lt 100 ]; do
		pid=$(producer_pid)
		case $1 in
		running) [ "$pid" != none ] && break ;;
		stopped) [ "$pid" = none ] && break ;;
		esac
		sleep 0.1
		n=$((n + 1))
	done
	[ "$pid" = none ] && echo stopped || echo running
}

# Enabling an event also records task names, through probes on the
# scheduler's tracepoints; patching that hot code in and out hangs a CPU now
# and then under qemu's TCG (text_poke_bp), so these tests do without names.
echo 0 > $TR/options/record-cmd
echo > $TR/trace
check "tpstat_sample_events loads" load tpstat_sample_events
for e in sample_fields sample_even sample_odd sample_tenth sample_produced; do
	check "$e has format, filter, enable and trigger" test -f $EV/$e/format \
		-a -f $EV/$e/filter -a -f $EV/$e/enable -a -f $EV/$e/trigger
done
for f in 'unsigned int seq;' 'char comm\[16\];' '__data_loc char\[\] word;' \
	 '__data_loc u32\[\] squares;' '__data_loc unsigned long\[\] cpus;'; do
	check "format has field:$f" grep -q "field:$f" $EV/sample_fields/format
done
is "sample_even and sample_odd share their class's record" \
	"$(sed 1,2d $EV/sample_even/format)" "$(sed 1,2d $EV/sample_odd/format)"
is "no producer thread while nothing listens" "$(producer_pid)" none

# Exact records of every event.
for e in sample_fields sample_even sample_odd sample_tenth; do
	echo 1 > $EV/$e/enable
done
sfire 20
for e in sample_fields sample_even sample_odd sample_tenth; do
	echo 0 > $EV/$e/enable
done
is "20 sample_fields" "$(recorded sample_fields)" 20
is "10 sample_even" "$(recorded sample_even)" 10
is "10 sample_odd" "$(recorded sample_odd)" 10
is "sample_tenth only where TP_CONDITION holds: seq 0 and 10" \
	"$(grep -o 'sample_tenth: seq=[0-9]*' $TR/trace | tr '\n' ' ')" \
	"sample_tenth: seq=0 sample_tenth: seq=10 "
check "every kind of field is recorded (seq 13)" grep -q \
	'sample_fields: seq=13 comm=sh word=bravo squares={0x0,0x1,0x4} cpus=[0-9a-f,]*$' $TR/trace
check "an empty dynamic array (seq 15)" grep -q \
	'sample_fields: seq=15 comm=sh word=delta squares={} ' $TR/trace

# Filters: events that do not match are not recorded.
echo > $TR/trace
echo 'seq >= 5 && seq < 8' > $EV/sample_fields/filter
echo 1 > $EV/sample_fields/enable
sfire 20
is "numeric filter: seq 5, 6 and 7 only" \
	"$(grep -o 'sample_fields: seq=[0-9]*' $TR/trace | tr '\n' ' ')" \
	"sample_fields: seq=5 sample_fields: seq=6 sample_fields: seq=7 "
echo > $TR/trace
echo 'word == "bravo"' > $EV/sample_fields/filter
sfire 20
is "string filter on a __string field: 5 of 20" "$(recorded sample_fields)" 5
is "each of them bravo" "$(grep -c ' sample_fields: seq=[0-9]* comm=sh word=bravo ' $TR/trace)" 5
echo > $TR/trace
echo 'comm == "nobody"' > $EV/sample_fields/filter
sfire 20
is "filter on an __array field that nothing matches" "$(recorded sample_fields)" 0
echo 0 > $EV/sample_fields/enable
is "a filter on a field the event lacks is refused" \
	"$(write_error $EV/sample_fields/filter 'nonesuch == 1')" EINVAL
echo 0 > $EV/sample_fields/filter
echo > $TR/trace
echo 'seq < 7' > $EV/sample_even/filter
echo 1 > $EV/sample_even/enable
echo 1 > $EV/sample_odd/enable
sfire 20
echo 0 > $EV/sample_even/enable
echo 0 > $EV/sample_odd/enable
echo 0 > $EV/sample_even/filter
is "a filter on one event of a class: 4 sample_even" "$(recorded sample_even)" 4
is "leaves its sibling alone: 10 sample_odd" "$(recorded sample_odd)" 10

# A trigger: a histogram keyed on the string, with the event off.
echo 'hist:keys=word' > $EV/sample_fields/trigger
sfire 20
for w in alpha bravo charlie delta; do
	check "hist trigger: $w 5 times" grep -q "{ word: $w *} hitcount: *5$" \
		$EV/sample_fields/hist
done
echo '!hist:keys=word' > $EV/sample_fields/trigger

# The generic counter counts them; TP_CONDITION applies to it too.
load tpstat
load tpstat_count tracepoints=sample_fields,sample_even,sample_odd,sample_tenth
sfire 30
is "tpstat_count: 30 sample_fields" "$(stat_of count sample_fields.hits)" 30
is "tpstat_count: 15 sample_even" "$(stat_of count sample_even.hits)" 15
is "tpstat_count: 15 sample_odd" "$(stat_of count sample_odd.hits)" 15
is "tpstat_count: 3 sample_tenth" "$(stat_of count sample_tenth.hits)" 3
is "still no producer thread" "$(producer_pid)" none

# TRACE_EVENT_FN: the thread runs while sample_produced has a listener.
echo > $TR/trace
echo 1 > $EV/sample_produced/enable
is "enabling the event starts the producer" "$(until_producer running)" running
first=$(producer_pid)
sleep 1
echo 0 > $EV/sample_produced/enable
is "disabling it stops the producer" "$(until_producer stopped)" stopped
n=$(recorded sample_produced)
within "it produced while enabled" "$n" 1 1000
is "every record came from that thread" \
	"$(grep -c -e "-$first  *\[[0-9]*\] .* sample_produced: nr=" $TR/trace)" "$n"
echo 1 > $EV/sample_produced/enable
is "enabling it again starts a producer" "$(until_producer running)" running
check "a new one" test "$(producer_pid)" != "$first"
echo 0 > $EV/sample_produced/enable
is "which stops again" "$(until_producer stopped)" stopped

# Any probe is a listener: tpstat's too, which holds no module reference.
echo sample_produced > $TP/count/control
is "a tpstat probe starts the producer" "$(until_producer running)" running
sleep 1
echo 0 > $TP/count/enable
is "disabling the set stops it" "$(until_producer stopped)" stopped
c=$(stat_of count sample_produced.hits)
within "tpstat counted while it ran" "$c" 1 1000
echo 1 > $TP/count/enable
is "enabling the set starts it again" "$(until_producer running)" running
check "the module unloads under tpstat's probe" rmmod tpstat_sample_events
is "and unloading stopped the producer" "$(until_producer stopped)" stopped
is "the probe waits for the module" "$(state_of count sample_produced)" waiting
load tpstat_sample_events
is "the module's return restarts it" "$(until_producer running)" running
echo '!sample_produced' > $TP/count/control
is "removing the probe stops it" "$(until_producer stopped)" stopped

# Nothing pins the module while its event is enabled: unloading turns the
# event off (after exit, which stops the thread itself).
echo 1 > $EV/sample_produced/enable
is "enabled once more, the producer runs" "$(until_producer running)" running
check "the module unloads with its event enabled" rmmod tpstat_sample_events
is "unloading stopped the producer" "$(until_producer stopped)" stopped
check "its events are gone from tracefs" test ! -e $EV
echo > $TR/trace
echo 1 > $TR/options/record-cmd
unload_all

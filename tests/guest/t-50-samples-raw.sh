# SPDX-License-Identifier: GPL-2.0
# samples/raw-tracepoint and samples/tpstat-probe. tpstat_sample_tp defines
# two raw tracepoints and fires them from /proc/tpstat-sample: each open is
# one subsys_event_tp and ten subsys_eventb_tp, then fails with EPERM.
# tpstat_sample_classic probes them with register_trace_*(), which ties its
# load order to the definer's; tpstat_sample_set probes them by name.

plan 45

SAMPLE=/proc/tpstat-sample
MODDIR=/lib/modules/$(uname -r)

# open_sample N: N opens from this shell, without a fork; each fails.
open_sample() {
	i=0
	while [ $i -lt "$1" ]; do
		true < $SAMPLE 2>/dev/null
		i=$((i + 1))
	done
}

# kmsg_count N PATTERN: kernel log lines since line N matching PATTERN.
kmsg_count() { kmsg_since "$1" | grep -cE "$2"; }

# classic_saw N: what tpstat_sample_classic said at unload, since line N.
classic_saw() {
	kmsg_since "$1" | sed -n 's/.*tpstat_sample_classic: saw \([0-9]*\) subsys_event_tp and \([0-9]*\) subsys_eventb_tp$/\1 \2/p'
}

# ratelimit_most T0: lines printk_ratelimited() allows from second T0 on,
# ten per five-second interval begun: 10 when all took under four seconds.
ratelimit_most() { echo $((10 * (($(uptime_s) - $1 + 1) / 5 + 1))); }

CLASSIC_OPEN='tpstat_sample_classic: open of tpstat-sample$'
SET_OPEN='tpstat_sample_set: open of tpstat-sample$'

# The definer alone, counted by the generic counter.
check "the definer loads" load tpstat_sample_tp
check "it creates $SAMPLE" test -e $SAMPLE
is "cat fails with the documented error" "$(cat $SAMPLE 2>&1)" \
	"cat: can't open '$SAMPLE': Operation not permitted"
check "cat's exit status says it failed" sh -c "! cat $SAMPLE 2>/dev/null"
load tpstat
check "tpstat_count counts both tracepoints" \
	load tpstat_count tracepoints=subsys_event_tp,subsys_eventb_tp
is "subsys_event_tp is attached" "$(state_of count subsys_event_tp)" attached
cat $SAMPLE 2>/dev/null
is "one cat: exactly one subsys_event_tp" "$(stat_of count subsys_event_tp.hits)" 1
is "one cat: exactly ten subsys_eventb_tp" "$(stat_of count subsys_eventb_tp.hits)" 10
open_sample 9
is "ten opens: ten subsys_event_tp" "$(stat_of count subsys_event_tp.hits)" 10
is "ten opens: a hundred subsys_eventb_tp" "$(stat_of count subsys_eventb_tp.hits)" 100

# The classic probe needs the definer's exports.
check "the definer unloads" rmmod tpstat_sample_tp
lines=$(kmsg_lines)
is "the classic probe alone is refused" "$(load_error tpstat_sample_classic)" ENOENT
check "the log names the missing tracepoint" test \
	"$(kmsg_count "$lines" 'tpstat_sample_classic: Unknown symbol __tracepoint_subsys_event')" -ge 1
load tpstat_sample_tp
check "after the definer, the classic probe loads" load tpstat_sample_classic
check "the definer is pinned while the classic probe uses it" \
	sh -c "! rmmod tpstat_sample_tp 2>/dev/null"
lines=$(kmsg_lines)
open_sample 3
check "the classic probe unloads" rmmod tpstat_sample_classic
is "it printed the file's name once per open" "$(kmsg_count "$lines" "$CLASSIC_OPEN")" 3
is "it counted one and ten per open" "$(classic_saw "$lines")" "3 30"
is "tpstat_count counted the same opens" "$(stat_of count subsys_event_tp.hits)" 13

# Its printk is rate-limited: ten lines at most in five seconds.
lines=$(kmsg_lines)
load tpstat_sample_classic
t0=$(uptime_s)
open_sample 50
most=$(ratelimit_most "$t0")
rmmod tpstat_sample_classic
within "50 opens print at most ten lines per five seconds" \
	"$(kmsg_count "$lines" "$CLASSIC_OPEN")" 1 "$most"
is "while the counts stay exact" "$(classic_saw "$lines")" "50 500"
rmmod tpstat_sample_tp
unload_all

# modprobe reads the dependency from modules.dep and loads the definer first.
cp $KO/tpstat_sample_tp.ko $KO/tpstat_sample_classic.ko $MODDIR/extra/
check "depmod" depmod
is "modules.dep: the classic probe needs the definer" \
	"$(grep '^extra/tpstat_sample_classic.ko:' $MODDIR/modules.dep)" \
	"extra/tpstat_sample_classic.ko: extra/tpstat_sample_tp.ko"
check "modprobe tpstat_sample_classic" modprobe tpstat_sample_classic
check "it loaded the definer, now used by the probe" \
	grep -q '^tpstat_sample_tp .* tpstat_sample_classic,' /proc/modules
lines=$(kmsg_lines)
cat $SAMPLE 2>/dev/null
check "modprobe -r removes both" modprobe -r tpstat_sample_classic
is "the classic probe saw the open" "$(classic_saw "$lines")" "1 10"
check "nothing of them is left" sh -c "! grep -q '^tpstat_sample_' /proc/modules"
rm $MODDIR/extra/tpstat_sample_tp.ko $MODDIR/extra/tpstat_sample_classic.ko
depmod

# The tpstat way: by name, in any order, across reloads of the definer.
load tpstat
check "the tpstat probe set loads before the definer" load tpstat_sample_set
is "subsys_event_tp waits" "$(state_of sample subsys_event_tp)" waiting
is "subsys_eventb_tp waits" "$(state_of sample subsys_eventb_tp)" waiting
load tpstat_sample_tp
is "subsys_event_tp attached when the definer came" "$(state_of sample subsys_event_tp)" attached
is "subsys_eventb_tp attached too" "$(state_of sample subsys_eventb_tp)" attached
lines=$(kmsg_lines)
cat $SAMPLE 2>/dev/null
is "one cat: one hit" "$(stat_of sample subsys_event_tp.hits)" 1
is "one cat: ten hits" "$(stat_of sample subsys_eventb_tp.hits)" 10
check "the definer unloads under the attached set" rmmod tpstat_sample_tp
is "the probes wait again" "$(state_of sample subsys_event_tp)" waiting
load tpstat_sample_tp
open_sample 2
is "counts carry on after the reload" \
	"$(stat_of sample subsys_event_tp.hits) $(stat_of sample subsys_eventb_tp.hits)" "3 30"
is "it printed the file's name once per open" "$(kmsg_count "$lines" "$SET_OPEN")" 3

# All three probes on the same opens.
load tpstat_sample_classic
load tpstat_count tracepoints=subsys_event_tp,subsys_eventb_tp
echo 1 > $TP/sample/reset
lines=$(kmsg_lines)
open_sample 4
is "tpstat_count: 4 and 40" \
	"$(stat_of count subsys_event_tp.hits) $(stat_of count subsys_eventb_tp.hits)" "4 40"
is "the tpstat set: 4 and 40" \
	"$(stat_of sample subsys_event_tp.hits) $(stat_of sample subsys_eventb_tp.hits)" "4 40"
rmmod tpstat_sample_classic
is "the classic probe: 4 and 40" "$(classic_saw "$lines")" "4 40"
check "the tpstat set unloads before the definer" rmmod tpstat_sample_set
check "then the definer" rmmod tpstat_sample_tp
check "$SAMPLE is gone with it" test ! -e $SAMPLE
unload_all

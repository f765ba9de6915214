# SPDX-License-Identifier: GPL-2.0
# The tpstat command (tools/tpstat/): its errors with tpstat not loaded,
# with debugfs unmounted (in a mount namespace of its own) and as a user
# that is not root; list and show against the files they read; the
# controls (enable, reset, add, remove, filter) against the kernel's files
# and events fired on purpose; watch's
# rates against a rate driven on purpose, and a reset in the middle of a
# watch; entries of the stack set, sets inside it, listed, shown and
# watched by their paths; stat -p of two processes and what they fork,
# exact beside events of others; stat -a, every task's until SIGTERM; the
# export of every set (count with a filter, net with traffic, lo's
# received packets as lo counted them, the stack set's entries), none of
# whose lines is left untyped, which goes to the host for promtool and
# node_exporter (scripts/check-export).

plan 55

TOOL=/payload/bin/tpstat

# run ARGS...: "STATUS OUTPUT" of the tool, stderr included.
run() {
	out=$("$TOOL" "$@" 2>&1)
	echo "$? $out"
}

# Before tpstat is loaded.
is "not loaded: one line, exit 1" "$(run list)" \
	"1 tpstat: tpstat is not loaded (no /sys/kernel/debug/tpstat): modprobe tpstat, or insmod core/tpstat.ko"
out=$(unshare -m sh -c "umount -l /sys/kernel/debug && $TOOL list" 2>&1)
is "debugfs unmounted in a mount namespace: one line, exit 1" "$? $out" \
	"1 tpstat: debugfs is not mounted on /sys/kernel/debug: mount -t debugfs none /sys/kernel/debug"
check "debugfs is still mounted outside that namespace" \
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_test_tasks
load tpstat_count tracepoints=sched_switch,kmalloc
load tpstat_irq
load tpstat_sched
load tpstat_kmem
load tpstat_net
load tpstat_stack
check "every set loads" [ "$(ls -d $TP/*/ | wc -l)" -eq 8 ]
# A filter that rejects nearly every event count sees.
echo 'comm == tpstat_nobody' > $TP/count/filter

# sets: the sets, each followed by those inside it (a directory inside a
# set's with a stats file), by their paths.
sets() {
	for d in $TP/*/; do
		d=${d%/}
		echo "${d#$TP/}"
		for n in $d/*/; do
			[ -e "${n}stats" ] || continue
			n=${n%/}
			echo "${n#$TP/}"
		done
	done
}

is "--version: the modules' version" "$(run --version)" "0 tpstat $(cat $TP/version)"
# /payload is root's only: nobody runs a copy.
cp $TOOL /tmp/tpstat-nobody
chmod 755 /tmp/tpstat-nobody
out=$(/payload/bin/run-as 65534 /tmp/tpstat-nobody list 2>&1)
is "not root: one line, exit 1" "$? $out" \
	"1 tpstat: /sys/kernel/debug/tpstat: permission denied: tpstat's files are root's only; run tpstat as root"
is "an unknown set: one line, exit 1" "$(run show nope)" \
	"1 tpstat: no set 'nope' is loaded (tpstat list names them)"
is "an unknown file: one line, exit 1" "$(run show test nope)" \
	"1 tpstat: test has no file 'nope' (its files: enable hist metrics reset stats table)"

fire 100
# list: the first line from version and memory, then a line per directory.
$TOOL list > /tmp/list
total=$(awk '$1 == "total" { print $2 }' $TP/memory)
is "list: version, sets and memory first" "$(head -n 1 /tmp/list)" \
	"tpstat $(cat $TP/version): $(sets | wc -l) sets loaded, $total bytes of aggregation data"
is "list: a line per set, as the directories" \
	"$(tail -n +3 /tmp/list | awk '{ print $1 }' | tr '\n' ' ')" \
	"$(sets | tr '\n' ' ')"
is "list: the test set's state, probes by state (the one not attached named) and files" \
	"$(awk '$1 == "test" { $3 = "T"; print }' /tmp/list)" \
	"test enabled T s 2 attached, 1 missing: tpstat_test_absent hist table"
is "list: count's state after its enable file says 0" \
	"$(echo 0 > $TP/count/enable; $TOOL list count | awk '$1 == "count" { print $2 }')" \
	disabled
echo 1 > $TP/count/enable
# list -v: each probe's row, as the probes file has it.
is "list -v: the test set's probes, as the probes file" \
	"$($TOOL list -v test | awk 'NR > 3 { print $1, $2, $3, $5 }')" \
	"$(awk '$1 == "test" { print $2, $3, $4, $5 }' $TP/probes)"

# The controls on the real module, each checked against the kernel's own
# files and events fired on purpose: enable 0 detaches the test set (its
# stats say so, 50 events fired do not count), enable attaches it again,
# reset zeroes it (30 fired, 30 counted); filter without an expression
# lifts count's; add and remove count's tracepoints (20 fired, 20
# counted; its probe gone from the probes file); filter with one sets
# count's back; a line the file refuses says the errno a write of it gets.
hits=$(stat_of test tpstat_test_fire.hits)
is "tpstat enable test 0: detached, what it fires not counted" \
	"$(run enable test 0)|$(stat_of test enabled)|$(fire 50; stat_of test tpstat_test_fire.hits)" \
	"0 |0|$hits"
is "tpstat enable test, tpstat reset test: attached and zeroed, 30 fired counted" \
	"$(run enable test)|$(run reset test)|$(stat_of test enabled)|$(fire 30; stat_of test tpstat_test_fire.hits)" \
	"0 |0 |1|30"
is "tpstat filter count: none" "$(run filter count)|$(cat $TP/count/filter)" "0 |none"
is "tpstat add count tpstat_test:tpstat_test_fire: counted, 20 fired" \
	"$(run add count tpstat_test:tpstat_test_fire)|$(fire 20; stat_of count tpstat_test_fire.hits)" \
	"0 |20"
is "tpstat remove count tpstat_test_fire: its probe gone" \
	"$(run remove count tpstat_test_fire)|$(awk '$1 == "count" && $2 == "tpstat_test_fire"' $TP/probes)" \
	"0 |"
is "tpstat filter count EXPR: the expression in force" \
	"$(run filter count comm == tpstat_nobody)|$(cat $TP/count/filter)" \
	"0 |comm == tpstat_nobody"
is "tpstat add count 1bad: the file's own errno, one line, exit 1" \
	"$(write_error $TP/count/control '1bad\n')|$(run add count 1bad)" \
	"EINVAL|1 tpstat: count/control: cannot add '1bad': Invalid argument"

# show: as cat, but for the time since the reset, which moves.
mask() { sed 's/: [0-9.]* s since reset$/: T s since reset/'; }
is "show SET FILE: the file, as cat shows it" \
	"$($TOOL show test hist | mask)" "$(mask < $TP/test/hist)"
is "show SET: its read-only files but stats" \
	"$($TOOL show test | mask)" "$( (cat $TP/test/hist; echo; cat $TP/test/table) | mask)"

# watch_col OUTPUT GROUP COLUMN: the column's values, one per line of
# rates. The group is the name in dashes over the column in the header's
# first line; a line of rates has a field per column, in their order; the
# keyed tables under it (a title "  NAME by KEYS", then rows) do not count.
watch_col() {
	awk -v group="$2" -v column="$3" '
	function spans(s, start, end, name,   n, pos) {
		n = 0
		pos = 0
		while (match(s, /[^ ]+/)) {
			n++
			start[n] = pos + RSTART
			end[n] = pos + RSTART + RLENGTH - 1
			name[n] = substr(s, RSTART, RLENGTH)
			pos += RSTART + RLENGTH - 1
			s = substr(s, RSTART + RLENGTH)
		}
		return n
	}
	/^ -/ { top = $0; table = 0; getline
		if (want != "")
			next
		ng = spans(top, gs, ge, gn)
		nc = spans($0, cs, ce, cn)
		for (c = 1; c <= nc; c++)
			for (g = 1; g <= ng; g++) {
				name = gn[g]
				gsub(/^-+|-+$/, "", name)
				if (ce[c] >= gs[g] && ce[c] <= ge[g] && name == group &&
				    cn[c] == column)
					want = c
			}
		next
	}
	/^  [^ ].* by / { table = 1 }
	!table && /^ *[0-9-]/ && want != "" { print $want }' "$1"
}

# watch's rates against a rate driven on purpose. fire-rate writes 100 to
# the fire file every T = 0.1 s at fixed deadlines: R = 1000 events/s, no
# write lost to a late one. Between two readings L seconds apart lie L/T
# deadlines, give or take one at each edge, and a burst may fall on the
# other side of an edge by its wake-up latency (under T here): the
# interval holds L/T - 2 to L/T + 2 bursts, and since watch divides by L
# itself (the kernel's time between its readings), each rate lies within
# R +- 2 * 100 / L. watch reads at fixed deadlines 2 s apart, each late by
# its own wake-up latency: 750 to 1250 holds while L is 0.8 s or more, so
# while two readings' latencies differ by under 1.2 s, and leaves a loaded
# host, with L near 2 s, room for 3 more bursts astray. (At 1 s apart, a
# load average of 7 put rates of 2094 and 716 on a line.)
# driven BURSTS: bursts enough to outlast the watch (it is killed after),
# should watch start late on a busy host.
driven() {
	/payload/bin/fire-rate $FIRE 100 100 "$1" > /dev/null &
	driver=$!
	# Its first writes before watch's first reading.
	sleep 0.5
}
# The columns asked for: the default leaves the tracepoints' out (132
# columns), and says so on stderr.
WATCH_COLUMNS='tpstat_test_fire.*,hist.count'
driven 100
$TOOL watch -i 2 -n 3 -c "$WATCH_COLUMNS" test > /tmp/watch 2>&1
kill $driver
wait $driver 2>/dev/null
hits=$(watch_col /tmp/watch tpstat_test_fire hits | tr '\n' ' ')
counts=$(watch_col /tmp/watch hist count | tr '\n' ' ')
good=1
is "watch -i 2 -n 3: three lines" "$(echo $hits | wc -w)" 3 || good=0
for i in 1 2 3; do
	within "watch: the fire probe's hits per second, line $i, 1000 driven" \
		"$(echo $hits | cut -d ' ' -f $i)" 750 1250 || good=0
done
is "watch: none dropped" \
	"$(watch_col /tmp/watch tpstat_test_fire dropped | tr '\n' ' ')" "0 0 0 " || good=0
for i in 1 2 3; do
	within "watch: the histogram's count per second, line $i, 1000 driven" \
		"$(echo $counts | cut -d ' ' -f $i)" 750 1250 || good=0
done
# The comm table's line under each line of rates ("  wtable by comm,
# count: COMM RATE ..."): the driver's row first, at its rate.
rows=$(awk '/^  wtable by comm, count: / { print $5, $6 }' /tmp/watch)
is "watch: the driver's command tops the comm table under each line, 750 to 1250" \
	"$(echo "$rows" | awk '$1 == "fire-rate" && $2 >= 750 && $2 <= 1250' | wc -l)" 3 ||
	good=0
[ $good -eq 1 ] || sed 's/^/# /' /tmp/watch

# A reset half-way through the second of three intervals (any of the
# three will do, should the guest stall): the line over it has rates over
# the time since the reset, S seconds, and a line under it says so. The
# events in them, rate * S, are S/T - 2 to S/T + 2 bursts of 100, as above.
driven 100
$TOOL watch -i 1 -n 3 -t 0 -c "$WATCH_COLUMNS" test > /tmp/watch 2>&1 &
watcher=$!
sleep 1.5
echo 1 > $TP/test/reset
wait $watcher
kill $driver
wait $driver 2>/dev/null
good=1
is "watch: a reset is said once" \
	"$(grep -c '^# test was reset [0-9.]* s before this line: these rates are over that time$' /tmp/watch)" \
	1 || good=0
check "watch: no rate is negative, none shown as -" \
	[ -z "$(watch_col /tmp/watch tpstat_test_fire hits | grep -e -)" ] || good=0
since=$(sed -n 's/^# test was reset \([0-9.]*\) s before.*/\1/p' /tmp/watch)
# The line over the note: its rank among the lines of rates.
# Its two header lines, the first of which begins with " -", are not.
line=$(awk '/^# test was reset/ { print n; exit } /^ -/ { getline; next }
	/^ *[0-9-]/ { n++ }' /tmp/watch)
rate=$(watch_col /tmp/watch tpstat_test_fire hits | sed -n "${line:-0}p")
check "watch: after the reset, $rate/s over $since s: 100 per 0.1 s, +-2 bursts" \
	awk -v r="$rate" -v s="$since" 'BEGIN {
		e = r * s
		exit !(s > 0 && e >= (s / 0.1 - 2) * 100 && e <= (s / 0.1 + 2) * 100)
	}' || good=0
[ $good -eq 1 ] || sed 's/^/# /' /tmp/watch

# The stack set's entries, each a set inside it: kmalloc by stack and
# comm, busy; the test event by stack and comm, fired 20 times by a
# command of a known name from one place: one row.
echo 'kmalloc by stack,comm' > $TP/stack/control
echo 'tpstat_test_fire by stack,comm' > $TP/stack/control
check "stack: two entries, each a set inside it" \
	test -e $TP/stack/kmalloc/stats -a -e $TP/stack/tpstat_test_fire/stats
sh -c "printf tpstat_t20 > /proc/self/comm; echo 20 > $FIRE"
is "list SET: the stack set, then its entries by their paths, each with its probe" \
	"$($TOOL list stack | awk 'NR > 2 { s = $1; for (i = 5; i <= NF; i++) s = s " " $i; print s }')" \
	"stack no probes control
stack/kmalloc 1 attached folded stacks
stack/tpstat_test_fire 1 attached folded stacks"
is "show SET/SET FILE: an entry's stacks, as cat shows them" \
	"$($TOOL show stack/tpstat_test_fire stacks | mask)" \
	"$(mask < $TP/stack/tpstat_test_fire/stacks)"
out=$($TOOL watch -i 0.5 -n 1 stack/kmalloc 2>&1)
is "watch SET/SET: an entry, its events per second" \
	"$? $(echo "$out" | wc -l) $(echo "$out" | sed -n 2p | awk '{ print $3, $4 }')" \
	"0 3 events other"
# Traffic on lo, for net's rows, counted from a reset by lo itself: from
# before the reset to after the export, lo's own count holds the set's,
# and nothing else uses lo here, so the two are equal.
lo_rx() { cat /sys/class/net/lo/statistics/rx_packets; }
lo0=$(lo_rx)
echo 1 > $TP/net/reset
ping -A -q -c 2 -W 5 127.0.0.1 > /dev/null

# The export of every set, left for the host's checks; none of its lines
# escapes the tool's description of the sets tpstat ships.
rm -f /tmp/tpstat.prom*
out=$($TOOL export --prometheus -o /tmp/tpstat.prom 2>&1)
is "export -o: exit 0, no warning" "$? $out" "0 "
is "export -o: mode 0644, no temporary file left" \
	"$(stat -c %a /tmp/tpstat.prom) $(ls /tmp/tpstat.prom* | wc -l)" "644 1"
is "export: every line of every set described, none untyped" \
	"$(grep -c '^# TYPE .* untyped$' /tmp/tpstat.prom)" 0
# The test set moves only when fired: its stats and the export agree.
is "export: the fire probe's hits as in stats" \
	"$(grep '^tpstat_test_hits_total{tracepoint="tpstat_test_fire"} ' /tmp/tpstat.prom)" \
	"tpstat_test_hits_total{tracepoint=\"tpstat_test_fire\"} $(stat_of test tpstat_test_fire.hits)"
is "export: the histogram's sum and count as in stats" \
	"$(grep -E '^tpstat_test_hist_(count|sum) ' /tmp/tpstat.prom | tr '\n' ' ')" \
	"tpstat_test_hist_sum $(stat_of test hist.sum) tpstat_test_hist_count $(stat_of test hist.count) "
E='{tracepoint="tpstat_test_fire"'
is "export: an entry's events and hits (its tracepoint once), labelled by its tracepoint, as its stats; its ranked row, a rank, not by default" \
	"$(grep -E "^tpstat_stack_(events_total|hits_total|ranked_row_events)$E" /tmp/tpstat.prom | tr '\n' ' ')" \
	"tpstat_stack_hits_total$E} $(stat_of stack/tpstat_test_fire tpstat_test_fire.hits) tpstat_stack_events_total$E} 20 "
is "export --keep pid: the entry's ranked row, by rank, its 20 events" \
	"$($TOOL export --prometheus --keep pid stack 2>/dev/null |
	   grep -E "^tpstat_stack_ranked_row_events$E")" \
	"tpstat_stack_ranked_row_events$E,rank=\"1\",comm=\"tpstat_t20\"} 20"
check "export: count's filter.rejected a counter, the events it rejected counted" \
	awk '/^# TYPE tpstat_count_filter_rejected_total counter$/ { typed = 1 }
	     /^tpstat_count_filter_rejected_total / && $2 > 0 { counted = 1 }
	     END { exit !(typed && counted) }' /tmp/tpstat.prom
is "export: net's lo by device and ifindex, its packets received as lo counted them" \
	"$(awk '/^tpstat_net_dev_rx_packets_total\{device="lo",ifindex="1"\} / {
		print $2 }' /tmp/tpstat.prom)" $(($(lo_rx) - lo0))
for_host /tmp/tpstat.prom
out=$($TOOL export --json -o /tmp/tpstat.json 2>&1)
is "export --json -o: exit 0, no warning" "$? $out" "0 "
for_host /tmp/tpstat.json
# A second scrape, after more events: the host checks that each histogram
# has the same le set in both (scripts/check-export).
fire 7
out=$($TOOL export --prometheus -o /tmp/tpstat2.prom 2>&1)
is "export --prometheus again, after 7 more events: exit 0, no warning" "$? $out" "0 "
for_host /tmp/tpstat2.prom

# stat -p PID,PID: two processes, each waiting at a gate, then firing
# events itself and from a child it forks (5 and 2, 4 and 3); a third
# process's 8 and this shell's 10 beside them are not counted. The count
# goes on after the first has exited, until the second has: one table,
# their 14. -i's lines (stderr is unbuffered) say when the instance has
# been reset, and that the tool looked again after the first's exit.
# Last, as its events are the stack set's entry's too, exported above.
rm -f /tmp/ga /tmp/gb /tmp/gc
mkfifo /tmp/ga /tmp/gb /tmp/gc
sh -c "read x < /tmp/ga; echo 5 > $FIRE; sh -c 'echo 2 > $FIRE'" &
pa=$!
sh -c "read x < /tmp/gb; echo 4 > $FIRE; sh -c 'echo 3 > $FIRE'" &
pb=$!
sh -c "read x < /tmp/gc; echo 8 > $FIRE" &
pc=$!
# The file is there, empty, before the wait reads it, as for stat -a below
# (seen on 6.12: "can't open /tmp/statp", the wait ended at once and the
# first's 5 were fired before the instance was made: 9 counted, not 14).
: > /tmp/statp
$TOOL stat -i 0.2 -e tpstat_test_fire -p $pa,$pb 2> /tmp/statp &
st=$!
# await_lines N: until -i has printed more than N lines, 20 s at most.
await_lines() {
	n=0
	while [ "$(wc -l < /tmp/statp)" -le "$1" ] && [ $n -lt 200 ]; do
		n=$((n + 1))
		sleep 0.1
	done
}
await_lines 0
fire 10
timeout 10 sh -c 'echo go > /tmp/gc'
wait $pc
timeout 10 sh -c 'echo go > /tmp/ga'
wait $pa
await_lines "$(wc -l < /tmp/statp)"
is "stat -p PID,PID: still counting after the first has exited" \
	"$(grep -c '^ tpstat stat of' /tmp/statp)" 0
timeout 10 sh -c 'echo go > /tmp/gb'
wait $pb
wait $st
st_rc=$?
# What it said, when it failed.
[ $st_rc -eq 0 ] || sed 's/^/# stat -p: /' /tmp/statp
is "stat -p PID,PID: exit 0 once both have exited, one table of both, the instance gone" \
	"$st_rc $(grep -c "^ tpstat stat of processes $pa, $pb and what they forked:$" /tmp/statp)|$(cat $TP/count/instances)" \
	"0 1|"
is "stat -p PID,PID: their events and their children's, 14, not the 18 beside them" \
	"$(awk '/^ tpstat stat of / { t = 1 } t && $NF == "tpstat_test_fire" { print $1 }' /tmp/statp)" 14
out=$($TOOL stat -p $$,4000000 -e tpstat_test_fire 2>&1)
is "stat -p PID,PID whose second is no process: one line, exit 1, no instance left" \
	"$? $out|$(cat $TP/count/instances)" "1 tpstat: no process 4000000|"

# stat -a: every task's, until SIGTERM ends it: 6 fired by this shell and
# 9 by another process, neither stat's nor what it forked, 15, fired once
# the first -i line says the instance is made; the table, exit 0, the
# instance gone.
# The file is there, empty, before the wait reads it: else the wait could
# end before stat has opened it (seen once: 0 counted, fired too soon).
: > /tmp/stata
$TOOL stat -a -i 0.2 -e tpstat_test_fire 2> /tmp/stata &
st=$!
n=0
while [ "$(wc -l < /tmp/stata)" -le 0 ] && [ $n -lt 200 ]; do
	n=$((n + 1))
	sleep 0.1
done
fire 6
sh -c "echo 9 > $FIRE"
kill -TERM $st
wait $st
st_rc=$?
good=1
is "stat -a: exit 0 after SIGTERM, the table of every task, the instance gone" \
	"$st_rc $(grep -c '^ tpstat stat of every task:$' /tmp/stata)|$(cat $TP/count/instances)" \
	"0 1|" || good=0
is "stat -a: this shell's 6 and another process's 9, 15" \
	"$(awk '/^ tpstat stat of / { t = 1 } t && $NF == "tpstat_test_fire" { print $1 }' /tmp/stata)" \
	15 || good=0
[ $good -eq 1 ] || sed 's/^/# stat -a: /' /tmp/stata

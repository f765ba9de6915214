# SPDX-License-Identifier: GPL-2.0
# tpstat_irq.ko against what was driven on purpose (tpstat_test_irq.ko: a
# shared software IRQ line, tasklets, a held tasklet) and against the
# kernel's own counters in /proc/interrupts and /proc/softirqs.

plan 83

IRQ=$TP/irq
TI=/sys/kernel/debug/tpstat_test_irq
NCPU=$(nproc)
SNAP=/tmp/t-40-irq
mkdir -p $SNAP

# on CPU FILE N: writes N to the test module's FILE from CPU.
on() { taskset -c "$1" sh -c "echo $3 > $TI/$2"; }

# /proc/interrupts and our hardirq counts as "irq cpu count [handler]".
proc_irqs() {
	awk -v n="$NCPU" '$1 ~ /^[0-9]+:$/ {
		sub(":", "", $1)
		for (c = 0; c < n; c++) print $1, c, $(c + 2)
	}' /proc/interrupts
}
our_irqs() {
	awk '$1 ~ /^hardirq\.[0-9]+\..*\.cpu[0-9]+$/ {
		n = split($1, p, "."); h = $1
		sub(/^hardirq\.[0-9]+\./, "", h); sub(/\.cpu[0-9]+$/, "", h)
		print p[2], substr(p[n], 4), $2, h
	}'
}
# /proc/softirqs and our softirq runs as "vector cpu count [vector]"; with
# /proc/softirqs, tpstat_count's count of tasklet runs (all CPUs, as
# "TASKLETS all N"), another probe's count the tasklet rows must match.
proc_softirqs() {
	awk -v n="$NCPU" '$1 ~ /^[A-Z_]+:$/ {
		sub(":", "", $1)
		for (c = 0; c < n; c++) print $1, c, $(c + 2)
	}' /proc/softirqs
	echo "TASKLETS all $(stat_of count tasklet_entry.hits)"
}
our_softirqs() {
	awk '$1 ~ /^softirq\.[A-Z_]+\.cpu[0-9]+$/ {
		split($1, p, "."); print p[2], substr(p[3], 4), $2, p[2]
	}'
}

# snap KIND WHO NAME: /proc's (WHO proc) or our (WHO our) counts into
# NAME; ours from one read of the stats, kept whole as NAME.stats.
snap() {
	if [ "$2" = our ]; then
		cp $IRQ/stats $SNAP/$3.stats
		our_$1 < $SNAP/$3.stats > $SNAP/$3
	else
		proc_$1 > $SNAP/$3
	fi
}

# Reads in this order: p1 t1 p1b, the workload, p2b t2 p2. The kernel's
# count at t1 lies between p1 and p1b, at t2 between p2b and p2, so our
# count over t1..t2 must lie between p2b - p1b and p2 - p1, CPU by CPU,
# give or take one event the kernel counted and the probe has not yet:
# /proc counts on entry to the flow handler or softirq, we at the probe.
# Prints every (item, cpu) out of bounds, and lines of /proc that moved by
# more than that slack while we saw nothing of them.
out_of_bounds() {
	awk '
	FILENAME ~ /p1$/ { p1[$1 " " $2] = $3; next }
	FILENAME ~ /p1b$/ { p1b[$1 " " $2] = $3; next }
	FILENAME ~ /p2b$/ { p2b[$1 " " $2] = $3; next }
	FILENAME ~ /p2$/ { p2[$1 " " $2] = $3; next }
	FILENAME ~ /t1$/ { t1[$1 " " $4 " " $2] = $3; next }
	FILENAME ~ /t2$/ { t2[$1 " " $4 " " $2] = $3; ours[$1 " " $2] = 1 }
	END {
		for (k in t2) {
			split(k, f, " "); pc = f[1] " " f[3]
			got = t2[k] - t1[k]
			low = p2b[pc] - p1b[pc] - 1; high = p2[pc] - p1[pc] + 1
			if (!(pc in p2) || got < low || got > high)
				print "#", f[1], f[2], "cpu" f[3], "got", got, "want", low, "to", high
		}
		for (pc in p2)
			if (pc !~ / all$/ && p2b[pc] - p1b[pc] > 1 && !(pc in ours))
				print "#", pc, "moved", p2b[pc] - p1b[pc], "unseen"
	}' $SNAP/$1.p1 $SNAP/$1.p1b $SNAP/$1.p2b $SNAP/$1.p2 $SNAP/$1.t1 $SNAP/$1.t2
}

# line_delta IRQ CPU SNAPSHOT: the IRQ's /proc/interrupts count on CPU.
line_delta() {
	awk -v k="$1 $2 " 'index($0, k) == 1 { print $3 }' $SNAP/irq.$3
}

# stat_delta KEY: KEY's value in the t2 stats minus the t1 stats.
stat_delta() {
	a=$(awk -v k="$1" '$1 == k { print $2 }' $SNAP/stats.t1)
	b=$(awk -v k="$1" '$1 == k { print $2 }' $SNAP/stats.t2)
	echo $((${b:-0} - ${a:-0}))
}

# hist_in FILE PREFIX: histogram PREFIX of a copy of the stats, as
# "BUCKETS COUNT": its bucket lines added up, and its count line.
hist_in() {
	awk -v p="$2." 'index($1, p) == 1 {
		r = substr($1, length(p) + 1)
		if (r ~ /^bucket_[0-9]+_[0-9]+$/)
			b += $2
		else if (r == "count")
			c = $2
	} END { print b + 0, c + 0 }' "$1"
}

# hist_delta PREFIX FROM TO: hist_in of TO minus that of FROM.
hist_delta() {
	# shellcheck disable=SC2046
	set -- $(hist_in "$2" "$1") $(hist_in "$3" "$1")
	echo $(($3 - $1)) $(($4 - $2))
}

# drawn FILE HEADER: the block drawn like BCC under the line that starts
# with HEADER, as "BUCKETS COUNT": its rows added up, and its count line.
drawn() {
	awk -v h="$2" 'index($0, h) == 1 { on = 1; next }
	on && /^$/ { exit }
	on && /^count [0-9]+ / { c = $2 }
	on && / -> .* : / { b += $5 }
	END { print b + 0, c + 0 }' "$1"
}

# hists_off irq|sirq: every histogram whose buckets or count moved over
# the window by other than the events the kernel counted there: a
# handler's by the /proc/interrupts count of its line, a vector's run
# times by its /proc/softirqs count, its latencies by at most that (a run
# may have none), the tasklets' together by tpstat_count's count of
# tasklet_entry. Bounded as out_of_bounds does, give or take one event in
# flight per CPU: /proc and tpstat_count count at the entry, these at the
# exit. Prints "# histogram got BUCKETS COUNT want LOW to HIGH" for each,
# then "checked N", the histograms that moved.
hists_off() {
	awk -v n="$NCPU" -v kind="$1" '
	FILENAME ~ /\.p1$/ { p1[$1] += $3; next }
	FILENAME ~ /\.p1b$/ { p1b[$1] += $3; next }
	FILENAME ~ /\.p2b$/ { p2b[$1] += $3; next }
	FILENAME ~ /\.p2$/ { p2[$1] += $3; next }
	{ h = $1; what = "" }
	h ~ /\.bucket_[0-9]+_[0-9]+$/ { what = "b"; sub(/\.bucket_[0-9]+_[0-9]+$/, "", h) }
	h ~ /\.count$/ { what = "c"; sub(/\.count$/, "", h) }
	what == "" || h !~ /\.(ns|latency)$/ { next }
	FILENAME ~ /\.t1\.stats$/ { v1[h, what] += $2; next }
	{ v2[h, what] += $2; hist[h] = 1 }
	function low(k) { return p2b[k] - p1b[k] - n }
	function high(k) { return p2[k] - p1[k] + n }
	function off(h, lo, hi, b, c) {
		if (b > 0)
			checked++
		if (b < lo || b > hi || c < lo || c > hi)
			print "#", h, "got", b, c, "want", lo, "to", hi
	}
	END {
		for (h in hist) {
			split(h, f, ".")
			k = f[2]
			b = v2[h, "b"] - v1[h, "b"]
			c = v2[h, "c"] - v1[h, "c"]
			if (kind == "irq" && h ~ /^hardirq\.[0-9]+\./) {
				if (!(k in p2))
					print "#", h, "has no line in /proc/interrupts"
				off(h, low(k), high(k), b, c)
				all_lo += low(k)
				all_hi += high(k)
			} else if (kind == "irq" && h == "hardirq.all.ns") {
				all_b = b
				all_c = c
			} else if (kind == "sirq" && h ~ /^softirq\.[A-Z_]+\.ns$/) {
				off(h, low(k), high(k), b, c)
			} else if (kind == "sirq" && h ~ /^softirq\.[A-Z_]+\.latency$/) {
				off(h, 0, high(k), b, c)
			} else if (kind == "sirq" && h ~ /^tasklet\./) {
				tb += b
				tc += c
				if (b > 0)
					checked++
			}
		}
		if (kind == "irq")
			off("hardirq.all.ns", all_lo, all_hi, all_b, all_c)
		else
			off("tasklet.*.ns", low("TASKLETS"), high("TASKLETS"), tb, tc)
		print "checked", checked + 0
	}' $SNAP/$1.p1 $SNAP/$1.p1b $SNAP/$1.p2b $SNAP/$1.p2 $SNAP/$1.t1.stats $SNAP/$1.t2.stats
}

IRQ_TPS="irq_handler_entry irq_handler_exit softirq_raise softirq_entry
	softirq_exit tasklet_entry tasklet_exit"
EVENTS=/sys/kernel/tracing/events/irq/enable

# Two other probes stay on these tracepoints throughout, the generic counter
# and ftrace's events: ours must count the same beside them, and attaching
# and detaching ours then never patches kernel text, which qemu mishandles
# when it runs a thread per vCPU (see scripts/vm-run).
load tpstat
check "tpstat_count.ko loads on the same tracepoints" \
	load tpstat_count tracepoints=$(echo $IRQ_TPS | tr ' ' ,)
echo 1 > $EVENTS
check "tpstat_test_irq.ko loads" load tpstat_test_irq
check "tpstat_irq.ko loads" load tpstat_irq
for p in $IRQ_TPS; do
	is "$p attached" "$(state_of irq $p)" attached
done
LINE=$(awk '/tpstat_test_irq_a/ { sub(":", "", $1); print $1 }' /proc/interrupts)
SERIAL=$(awk '/ttyS0/ { sub(":", "", $1); print $1 }' /proc/interrupts)
A=hardirq.$LINE.tpstat_test_irq_a
B=hardirq.$LINE.tpstat_test_irq_b
HI=tasklet.tpstat_test_irq_hi_[tpstat_test_irq]
NEST=tasklet.tpstat_test_irq_in_tasklet_[tpstat_test_irq]

# Exact counts from a clean start.
echo 1 > $IRQ/reset
on 1 fire 300
on 0 fire 200
is "shared line: handler a counted every interrupt" "$(stat_of irq $A.count)" 500
is "handler a claimed them all" "$(stat_of irq $A.handled)" 500
is "handler b was called as often" "$(stat_of irq $B.count)" 500
is "handler b claimed none (IRQ_NONE)" "$(stat_of irq $B.handled)" 0
is "a on cpu0" "$(stat_of irq $A.cpu0)" 200
is "a on cpu1" "$(stat_of irq $A.cpu1)" 300
cp $IRQ/stats $SNAP/stats.t0
is "a's histogram: buckets and count hold the 500 calls" \
	"$(hist_delta $A.ns /dev/null $SNAP/stats.t0)" "500 500"
is "b's histogram: the same 500" "$(hist_delta $B.ns /dev/null $SNAP/stats.t0)" "500 500"
is "hardirq_hist draws a's 500 calls" \
	"$(drawn $IRQ/hardirq_hist "irq $LINE tpstat_test_irq_a:")" "500 500"
is "and b's" "$(drawn $IRQ/hardirq_hist "irq $LINE tpstat_test_irq_b:")" "500 500"
check "hardirq file: a row per handler of the line" \
	grep -q "^$LINE  *tpstat_test_irq_a  *500  *500 .* 200  *300$" $IRQ/hardirq
check "hardirq file: b's row" \
	grep -q "^$LINE  *tpstat_test_irq_b  *500  *0 .* 200  *300$" $IRQ/hardirq

# HI: nothing else in the guest raises it (its /proc/softirqs row is 0
# from boot to here), so every count is exact, and /proc/softirqs says on
# its own that the kernel ran it 150 times, all on cpu1.
proc_softirqs > $SNAP/hi.p1
on 1 tasklet_hi 150
proc_softirqs > $SNAP/hi.p2
cp $IRQ/stats $SNAP/stats.t0
hi_delta() {
	echo $(($(awk -v c="$1" '$1 == "HI" && $2 == c { print $3 }' $SNAP/hi.p2) -
		$(awk -v c="$1" '$1 == "HI" && $2 == c { print $3 }' $SNAP/hi.p1)))
}
is "/proc/softirqs: HI ran 150 times on cpu1, none on cpu0" \
	"$(hi_delta 1) $(hi_delta 0)" "150 0"
is "tasklet shown by name, counted exactly" "$(stat_of irq "$HI.count")" 150
is "it ran on cpu1" "$(stat_of irq "$HI.cpu1")" 150
check "tasklet file names it by symbol" \
	grep -q '^tpstat_test_irq_hi \[tpstat_test_irq\]  *150 ' $IRQ/tasklet
is "HI softirq raised once per schedule" "$(stat_of irq softirq.HI.raised)" 150
is "HI softirq ran on cpu1 for each" \
	"$(stat_of irq softirq.HI.cpu1) $(stat_of irq softirq.HI.cpu0)" "150 0"
is "HI's run times: buckets and count hold the 150 runs" \
	"$(hist_delta softirq.HI.ns /dev/null $SNAP/stats.t0)" "150 150"
# Each run waited for the one before, so every raise led to its own run.
is "one raise-to-run latency per run" \
	"$(hist_delta softirq.HI.latency /dev/null $SNAP/stats.t0)" "150 150"
is "the tasklet's times: buckets and count hold the 150 runs" \
	"$(hist_delta "$HI.ns" /dev/null $SNAP/stats.t0)" "150 150"
is "softirq_hist draws HI's 150 runs" "$(drawn $IRQ/softirq_hist HI:)" "150 150"
is "softirq_latency draws HI's 150 latencies" \
	"$(drawn $IRQ/softirq_latency HI:)" "150 150"
is "worst HI latency was on cpu1" "$(stat_of irq softirq.HI.latency.worst_cpu)" 1
check "softirq_latency names the worst case's CPU and time" \
	grep -q '^HI: worst [0-9]* ns on cpu1, [0-9]*\.[0-9]* s after reset$' $IRQ/softirq_latency
# shellcheck disable=SC2046
leaks=$(address_leaks $(find $IRQ -type f -perm -0400))
if [ -z "$leaks" ]; then
	pass "no file prints a kernel address, in any base, nor a hashed one"
else
	fail "no file prints a kernel address, in any base, nor a hashed one"
	echo "$leaks" | sed 's/^/# /'
fi

# Exclusive time: each run of this tasklet is interrupted by one interrupt
# of the line (both handlers), whose time its TASKLET softirq run gives up.
cp $IRQ/stats $SNAP/stats.t1
on 0 fire_in_tasklet 100
cp $IRQ/stats $SNAP/stats.t2
is "nested tasklet counted" "$(stat_delta "$NEST.count")" 100
is "its interrupts counted" "$(stat_delta $A.cpu0)" 100
is "its times: buckets and count hold the 100 runs" \
	"$(hist_delta "$NEST.ns" $SNAP/stats.t1 $SNAP/stats.t2)" "100 100"
is "a's and b's histograms: 100 calls each" \
	"$(hist_delta $A.ns $SNAP/stats.t1 $SNAP/stats.t2) $(hist_delta $B.ns $SNAP/stats.t1 $SNAP/stats.t2)" \
	"100 100 100 100"
taken=$(stat_delta softirq.TASKLET.irq_ns)
nested=$(($(stat_delta $A.ns.sum) + $(stat_delta $B.ns.sum)))
within "TASKLET softirq gave up at least its nested handlers' time" "$taken" "$nested" 999999999999
within "and no more than all handler time" "$taken" 0 "$(stat_delta hardirq.all.ns.sum)"

# Against /proc/interrupts and /proc/softirqs over a window with the line
# fired on both CPUs, serial output, loopback pings and tasklets.
snap irqs proc irq.p1; snap irqs our irq.t1; snap irqs proc irq.p1b
snap softirqs proc sirq.p1; snap softirqs our sirq.t1; snap softirqs proc sirq.p1b
on 0 fire 400
on 1 fire 250
on 1 tasklet_hi 50
on 0 fire_in_tasklet 50
i=0
while [ $i -lt 30 ]; do
	echo "t-40-irq: serial output $i" > /dev/ttyS0
	i=$((i + 1))
done
ping -c 10 -i 0.02 127.0.0.1 > /dev/null
snap softirqs proc sirq.p2b; snap softirqs our sirq.t2; snap softirqs proc sirq.p2
snap irqs proc irq.p2b; snap irqs our irq.t2; snap irqs proc irq.p2
bad=$(out_of_bounds irq)
is "hardirq counts match /proc/interrupts, CPU by CPU" "$bad" ""
bad=$(out_of_bounds sirq)
is "softirq runs match /proc/softirqs, CPU by CPU" "$bad" ""
is "the line's /proc/interrupts count moved by what we fired (cpu0)" \
	$(($(line_delta $LINE 0 p2) - $(line_delta $LINE 0 p1))) 450
is "and on cpu1" $(($(line_delta $LINE 1 p2) - $(line_delta $LINE 1 p1))) 250
serial=$(awk -v i="$SERIAL" '$1 == i && $4 == "ttyS0" { s += $3 } END { print s + 0 }' $SNAP/irq.t2)
serial0=$(awk -v i="$SERIAL" '$1 == i && $4 == "ttyS0" { s += $3 } END { print s + 0 }' $SNAP/irq.t1)
within "serial output raised interrupts tpstat saw" $((serial - serial0)) 1 1000000
# What was driven, exactly: 400 + 250 + 50 interrupts of the line, 50
# runs of each tasklet, 50 of HI.
is "a's and b's histograms: the 700 calls of the line" \
	"$(hist_delta $A.ns $SNAP/irq.t1.stats $SNAP/irq.t2.stats) $(hist_delta $B.ns $SNAP/irq.t1.stats $SNAP/irq.t2.stats)" \
	"700 700 700 700"
is "the tasklets' histograms: 50 runs each" \
	"$(hist_delta "$HI.ns" $SNAP/sirq.t1.stats $SNAP/sirq.t2.stats) $(hist_delta "$NEST.ns" $SNAP/sirq.t1.stats $SNAP/sirq.t2.stats)" \
	"50 50 50 50"
is "HI's run times and latencies: 50 each" \
	"$(hist_delta softirq.HI.ns $SNAP/sirq.t1.stats $SNAP/sirq.t2.stats) $(hist_delta softirq.HI.latency $SNAP/sirq.t1.stats $SNAP/sirq.t2.stats)" \
	"50 50 50 50"
# And every other histogram against what the kernel counted.
hists_off irq > $SNAP/off
hists_off sirq >> $SNAP/off
check "every hardirq, softirq and tasklet histogram moved as the kernel counted" \
	sh -c "! grep -q '^#' $SNAP/off"
grep '^#' $SNAP/off
within "histograms checked that hold events" \
	"$(awk '$1 == "checked" { n += $2 } END { print n + 0 }' $SNAP/off)" 10 100000

# enable and reset.
c0=$(stat_of irq $A.cpu0)
echo 0 > $IRQ/enable
on 0 fire 10
is "disabled: nothing counted" "$(stat_of irq $A.cpu0)" $c0
echo 1 > $IRQ/enable
on 0 fire 10
is "enabled again: counted" "$(stat_of irq $A.cpu0)" $((c0 + 10))
echo 1 > $IRQ/reset
is "reset empties the tasklet rows" "$(stat_of irq "$HI.count")" none
is "reset zeroes the softirq rows" "$(stat_of irq softirq.HI.raised)" 0
on 1 fire 7
is "counts after reset" "$(stat_of irq $A.cpu1)" 7
rmmod tpstat_irq

# Capacity: the first handler seen takes the only slot, the rest go to the
# "other" row, shown, never lost.
check "loads with max_handlers=1 max_tasklets=1" \
	load tpstat_irq max_handlers=1 max_tasklets=1
on 0 fire 20
on 0 tasklet_hi 5
on 0 fire_in_tasklet 5
is "one handler kept" "$(stat_of irq hardirq.keys)" 1
within "events of the others in the other row" "$(stat_of irq hardirq.other)" 20 1000000
is "one tasklet kept" "$(stat_of irq tasklet.keys)" 1
within "the other tasklet's runs in the other row" "$(stat_of irq tasklet.other)" 5 1000000
within "the hardirq file shows the other row" \
	"$(awk '$1 == "-" && $2 == "other" { print $3 }' $IRQ/hardirq)" 20 1000000
rmmod tpstat_irq
for p in max_handlers=0 max_handlers=4097 max_tasklets=0 max_tasklets=4097; do
	lines=$(kmsg_lines)
	is "refuses $p" "$(load_error tpstat_irq $p)" EINVAL
	kmsg_noise 1
	within "$p: one log line" "$(kmsg_ours_since "$lines" | wc -l)" 0 1
done

# A tasklet already running on cpu1 when the probes attach: its exit has
# no entry, and must be skipped, not counted as a run of huge duration.
# wait_held Y|N: polls the held file without forking, for 10 s at most.
wait_held() {
	n=0
	read -r h < $TI/held
	while [ "$h" != "$1" ] && [ $n -lt 200 ]; do
		sleep 0.05
		read -r h < $TI/held
		n=$((n + 1))
	done
	echo "$h"
}
# This shell must stay off cpu1 meanwhile. run-tests sources us in a
# pipeline's subshell, where $$ is still its parent: ask a child instead.
sh -c 'echo $PPID' > $SNAP/pid
read -r me < $SNAP/pid
mask=$(taskset -p $me | sed 's/.*: //')
taskset -p 1 $me > /dev/null
HOLD=tasklet.tpstat_test_irq_hold_[tpstat_test_irq]
echo 1 > $TI/hold
is "cpu1 holds a tasklet" "$(wait_held Y)" Y
check "tpstat_irq.ko loads meanwhile" load tpstat_irq
echo 1 > $TI/release
is "the tasklet ended" "$(wait_held N)" N
is "a run that began before the probes is not counted" "$(stat_of irq "$HOLD.count")" none
within "its exit counted as unpaired" "$(stat_of irq tasklet.unpaired)" 1 100
within "so is its softirq's" "$(stat_of irq softirq.unpaired)" 1 100
echo 1 > $TI/hold
wait_held Y > /dev/null
echo 1 > $TI/release
is "a held run seen whole is counted once" "$(wait_held N) $(stat_of irq "$HOLD.count")" "N 1"
# Probes detached and attached again while a run is held: its entry may
# not be paired with its exit (scratch state is emptied by the re-attach).
echo 1 > $TI/hold
wait_held Y > /dev/null
unpaired=$(stat_of irq tasklet.unpaired)
echo 0 > $IRQ/enable
echo 1 > $IRQ/enable
echo 1 > $TI/release
is "a run held across a re-attach is not counted" "$(wait_held N) $(stat_of irq "$HOLD.count")" "N 1"
within "its exit counted as unpaired" $(($(stat_of irq tasklet.unpaired) - unpaired)) 1 100
taskset -p "$mask" $me > /dev/null

# reset, enable and unload while both CPUs fire, run tasklets and ping.
lines=$(kmsg_lines)
rm -f $SNAP/stop
for c in 0 1; do
	taskset -c $c sh -c "while [ ! -e $SNAP/stop ]; do
		echo 20 > $TI/fire; echo 5 > $TI/fire_in_tasklet
		echo 5 > $TI/tasklet_hi; ping -c 2 -i 0.01 127.0.0.1 > /dev/null
	done" &
done
i=0
while [ $i -lt 8 ]; do
	echo 1 > $IRQ/reset && echo 0 > $IRQ/enable && echo 1 > $IRQ/enable &&
		cat $IRQ/hardirq $IRQ/softirq $IRQ/tasklet $IRQ/stats > /dev/null &&
		rmmod tpstat_irq && load tpstat_irq || break
	i=$((i + 1))
done
touch $SNAP/stop
wait
is "8 rounds of reset, enable and reload under load" $i 8
is "kernel log clean meanwhile" "$(kmsg_since $lines | grep -cE "$BAD")" 0
echo 1 > $IRQ/reset
on 1 fire 33
is "exact again afterwards" "$(stat_of irq $A.cpu1)" 33
echo 0 > $EVENTS
rm -rf $SNAP
unload_all

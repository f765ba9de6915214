# SPDX-License-Identifier: GPL-2.0
# Turns the BENCH lines of one kernel's two boots into its results section.
# usage: awk -f report.awk ICOUNT_LOG WALL_LOG MEMORY_LOG
# Prints markdown; exits 1 if any check failed, any check the guest should
# have printed is missing, or any value is not measured (each on stderr):
# every number and verdict it prints is then from the run.

function median(list, k,    v, c, i, j, t) {
	c = split(list, v, " ")
	for (i = 2; i <= c; i++)
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	if (!c)
		return ""
	return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
}

function lowest(list,    v, c, i, m) {
	c = split(list, v, " ")
	for (i = 1; i <= c; i++)
		if (i == 1 || v[i] + 0 < m)
			m = v[i] + 0
	return m
}

function highest(list,    v, c, i, m) {
	c = split(list, v, " ")
	for (i = 1; i <= c; i++)
		if (i == 1 || v[i] + 0 > m)
			m = v[i] + 0
	return m
}

function count(list,    v) { return split(list, v, " ") }

# A value the report needs and the logs lack: the run fails. "where" names
# the table row being printed.
function na() {
	nas++
	printf "%s: not measured\n", where > "/dev/stderr"
	return "n/a"
}

# A failure of the run's completeness, other than a value: the run fails.
function missed(msg) {
	missing++
	print msg > "/dev/stderr"
}

# A workload's median in millions, with the range of the runs beside it.
function spread(list) {
	return list == "" ? na() : sprintf("%.1f (%.1f to %.1f)", median(list) / 1e6,
		lowest(list) / 1e6, highest(list) / 1e6)
}

function fmt(x) { return x == "" ? na() : sprintf(x < 100 && x > -100 ? "%.1f" : "%.0f", x) }
function ratio(x) { return x == "" ? na() : sprintf("%.2f", x) }
function pct(x) { return x == "" ? na() : sprintf("%+.2f%%", x) }

# What a loop configuration's loop counts: the kmalloc loops kmalloc and
# kfree pairs, nk to a loop; the net_ loops packets, np to a loop; the
# stack_ loops events, nstack to a loop; the others events, n to a loop.
function per_loop(label) {
	return label ~ /^kmalloc_/ ? nk : label ~ /^net_/ ? np : label ~ /^stack_/ ? nstack : n
}

# Per-event cost of a loop configuration, from the median loop time. Tests
# for a value, not for the key: looking an element up creates it.
function per_event(clock, label,    per) {
	per = per_loop(label)
	return rep[clock, label] != "" && per > 0 ? median(rep[clock, label]) / per : ""
}

# A loop's cost above its baseline: the disabled loop, or for packets the
# loop without probes.
function over(clock, label,    c, d) {
	c = per_event(clock, label)
	d = per_event(clock, label ~ /^net_/ ? "net_none" : "disabled")
	return c == "" || d == "" ? "" : c - d
}

function times_empty(clock, label,    o, e) {
	o = over(clock, label)
	e = over(clock, "empty")
	return o == "" || e == "" || e <= 0 ? "" : o / e
}

FNR == 1 { clock = FILENAME == ARGV[1] ? "icount" : FILENAME == ARGV[2] ? "wall" : "memory" }

{ sub(/\r$/, "") }

$1 == "BENCH" && $2 == "conf" { n = $3; reps = $4; conf[clock] = $3 " " $4 }
$1 == "BENCH" && $2 == "kconf" { nk = $3 }
$1 == "BENCH" && $2 == "pconf" { np = $3; pevents = $4; pconf[clock] = $3 " " $4 }
$1 == "BENCH" && $2 == "sconf" { nstack = $3; sconf[clock] = $3 }
$1 == "BENCH" && $2 == "frames" { frames[clock, $3] = $4 }
$1 == "BENCH" && $2 == "loop" {
	if ($4 == "rep")
		rep[clock, $3] = rep[clock, $3] " " $5
	else
		cold[clock, $3] = $5
}
$1 == "BENCH" && $2 == "all" && $4 == "rep" { all[clock, $3, $5] = all[clock, $3, $5] " " $6; cpus[$5] = 1 }
$1 == "BENCH" && $2 == "work" && $4 == "rep" { work[clock, $3] = work[clock, $3] " " $5 }
$1 == "BENCH" && $2 == "events" && $4 == "rep" { events[clock, $3] = events[clock, $3] " " $5 }
$1 == "BENCH" && $2 == "sched" && $4 == "rep" { sched[clock, $3] = sched[clock, $3] " " $5 }
$1 == "BENCH" && $2 == "switches" && $3 == "rep" { switches[clock] = switches[clock] " " $4 }
$1 == "BENCH" && $2 == "sets" {
	setlist[clock] = ""
	for (i = 3; i <= NF; i++)
		setlist[clock] = setlist[clock] " " $i
}
$1 == "BENCH" && $2 == "mem" { mem[clock, $4] = $5; possible[clock] = $3 }
$1 == "BENCH" && $2 == "check" {
	checks++
	seen[clock, $3]++
	if ($4 != $5 || NF != 5) {
		bad++
		printf "%s boot: %s counted %s, want %s\n", clock, $3, $4, $5 > "/dev/stderr"
	}
}

# expect(CLOCK, WHAT, TIMES): the guest prints check WHAT TIMES times in
# that boot; a check that never ran cannot have passed.
function expect(clock, what, times) {
	if (seen[clock, what] + 0 != times)
		missed(sprintf("%s boot: check %s ran %d times, want %d", clock, what,
			seen[clock, what], times))
}

# want_reps(CLOCK, WHAT, LIST): REPS repeats of a measure, no fewer or more.
function want_reps(clock, what, list) {
	if (count(list) != reps)
		missed(sprintf("%s boot: %s has %d repeats, want %d", clock, what,
			count(list), reps))
}

# What each boot must have printed, checks and repeats alike.
function completeness(    c, clk, i, k, v, s, m) {
	for (c = 1; c <= 2; c++) {
		clk = c == 1 ? "icount" : "wall"
		if (!(clk in conf))
			missed(sprintf("%s boot: no conf line", clk))
		else if (conf[clk] != conf["icount"])
			missed(sprintf("%s boot: conf '%s', want the icount boot's '%s'",
				clk, conf[clk], conf["icount"]))
		expect(clk, "settled", 1)
		k = split(LOOPS, v, " ")
		for (i = 1; i <= k; i++) {
			expect(clk, v[i] ".fired", 1)
			want_reps(clk, "loop " v[i], rep[clk, v[i]])
			if (!((clk SUBSEP v[i]) in cold))
				missed(sprintf("%s boot: loop %s has no cold loop", clk, v[i]))
		}
		k = split(MODES, v, " ")
		for (i = 1; i <= k; i++)
			expect(clk, v[i] ".state", 1)
		k = split(COUNTED, v, " ")
		for (i = 1; i <= k; i++)
			expect(clk, v[i], 1)
		expect(clk, "empty.calls", 1)
		expect(clk, "sched_tpstat.latencies", reps + 1)
		expect(clk, "sched_bpf.latencies", reps + 1)
		expect(clk, "sched_offcpu.waits", reps + 1)
		expect(clk, "sched_offcpu.other", reps + 1)
		expect(clk, "sched_bpf_offcpu.waits", reps + 1)
		expect(clk, "work_sets.loaded", reps + 1)
		expect(clk, "work_sets.unattached_probes", reps + 1)
		expect(clk, "work_others.loaded", reps + 1)
		expect(clk, "work_others.unattached_probes", reps + 1)
		expect(clk, "filter_reject.rejected", 1)
		want_reps(clk, "work none", work[clk, "none"])
		want_reps(clk, "work loaded", work[clk, "loaded"])
		want_reps(clk, "work others", work[clk, "others"])
		k = split(KMALLOC_CHECKS, v, " ")
		for (i = 1; i <= k; i++)
			expect(clk, v[i], 1)
		if (!(clk in pconf))
			missed(sprintf("%s boot: no pconf line", clk))
		else if (pconf[clk] != pconf["icount"])
			missed(sprintf("%s boot: pconf '%s', want the icount boot's '%s'",
				clk, pconf[clk], pconf["icount"]))
		k = split(NET_CHECKS, v, " ")
		for (i = 1; i <= k; i++)
			expect(clk, v[i], 1)
		if (!(clk in sconf))
			missed(sprintf("%s boot: no sconf line", clk))
		else if (sconf[clk] != sconf["icount"])
			missed(sprintf("%s boot: sconf '%s', want the icount boot's '%s'",
				clk, sconf[clk], sconf["icount"]))
		k = split(STACKS, v, " ")
		for (i = 1; i <= k; i++)
			if (frames[clk, v[i]] !~ /^[0-9]+$/)
				missed(sprintf("%s boot: frames of %s is '%s'", clk, v[i],
					frames[clk, v[i]]))
		k = split(STACK_CHECKS " " SCOPE_CHECKS, v, " ")
		for (i = 1; i <= k; i++)
			expect(clk, v[i], 1)
		want_reps(clk, "events loaded", events[clk, "loaded"])
		want_reps(clk, "events kmem", events[clk, "kmem"])
		want_reps(clk, "switches", switches[clk])
		want_reps(clk, "sched none", sched[clk, "none"])
		want_reps(clk, "sched tpstat", sched[clk, "tpstat"])
		want_reps(clk, "sched bpf", sched[clk, "bpf"])
		want_reps(clk, "sched offcpu", sched[clk, "offcpu"])
		want_reps(clk, "sched bpf_offcpu", sched[clk, "bpf_offcpu"])
	}
	k = split(SCALED, v, " ")
	for (i = 1; i <= k; i++) {
		expect("wall", "all_" v[i] ".fired", 1)
		for (c in cpus)
			want_reps("wall", "all " v[i] " on CPU " c, all["wall", v[i], c])
	}
	for (c in cpus)
		ncpus++
	if (!ncpus)
		missed("wall boot: no loop on every CPU at once")
	# Every boot ends with the memory of every probe set.
	for (c = 1; c <= 3; c++) {
		clk = c == 1 ? "icount" : c == 2 ? "wall" : "memory"
		if (setlist[clk] == "" || setlist[clk] != setlist["icount"])
			missed(sprintf("%s boot: probe sets '%s', want the icount boot's '%s'",
				clk, setlist[clk], setlist["icount"]))
		k = split(setlist[clk], v, " ")
		for (i = 1; i <= k; i++) {
			expect(clk, "mem." v[i], 1)
			if (mem[clk, v[i]] !~ /^[0-9]+$/)
				missed(sprintf("%s boot: memory of %s is '%s'", clk, v[i],
					mem[clk, v[i]]))
		}
	}
}

# The farthest a repeat of any loop configuration lies from its median, in
# percent: how much the repeats of one boot agree.
function farthest(clock,    i, k, v, j, m, w, x, d) {
	k = split(LOOPS, v, " ")
	for (i = 1; i <= k; i++) {
		m = median(rep[clock, v[i]])
		if (m == "" || m <= 0)
			return ""
		split(rep[clock, v[i]], w, " ")
		for (j in w) {
			x = 100 * (w[j] - m) / m
			x = x < 0 ? -x : x
			if (x > d)
				d = x
		}
	}
	return d + 0
}

# The ping-pong's time per context switch of the run without probes.
function per_switch(clock, label,    s) {
	s = median(switches[clock])
	return sched[clock, label] != "" && s > 0 ? median(sched[clock, label]) / s : ""
}

# The two comparisons against a run without probes: KIND "sched", per
# context switch of the ping-pong, or "kmalloc", per kmalloc and kfree pair.
function unit_cost(kind, clock, label) {
	if (kind == "sched")
		return per_switch(clock, label)
	return per_event(clock, "kmalloc_" label)
}

function unit_over(kind, clock, label,    a, z) {
	a = unit_cost(kind, clock, label)
	z = unit_cost(kind, clock, "none")
	return a == "" || z == "" ? "" : a - z
}

# unit_table(KIND, WHAT, ROWS): ROWS is "label title|...", "none" first.
function unit_table(kind, what, rows,    r, k, i, label, c, clk) {
	print "| configuration | instr | over | ns | over |"
	print "|---|--:|--:|--:|--:|"
	k = split(rows, r, "|")
	for (i = 1; i <= k; i++) {
		label = substr(r[i], 1, index(r[i], " ") - 1)
		where = what ": " (kind == "sched" ? "" : "kmalloc_") label
		printf "| %s |", substr(r[i], index(r[i], " ") + 1)
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			printf " %s | %s |", fmt(unit_cost(kind, clk, label)),
				label == "none" ? "" : fmt(unit_over(kind, clk, label))
		}
		print ""
	}
}

# unit_share(KIND, MINE, RIVAL, K, TITLE): MINE's cost over the run without
# probes at most 1/K of RIVAL's.
function unit_share(kind, mine, rival, k, title,    a, b, c, d) {
	a = unit_over(kind, "icount", mine); b = unit_over(kind, "icount", rival)
	c = unit_over(kind, "wall", mine); d = unit_over(kind, "wall", rival)
	printf "| %s | %s vs %s | %s vs %s | %s |\n", title, fmt(a), fmt(b), fmt(c), fmt(d),
		verdict(a == "" || b == "" ? "" : a * k <= b, c == "" || d == "" ? "" : c * k <= d)
}

# Mean over the CPUs of each CPU's median loop, per event.
function all_per_event(label,    c, s, k) {
	for (c in cpus) {
		if (all["wall", label, c] == "" || !(n > 0))
			return ""
		s += median(all["wall", label, c]) / n
		k++
	}
	return k ? s / k : ""
}

function row(label, title,    c, per) {
	where = title
	printf "| %s |", title
	for (c = 1; c <= 2; c++) {
		clk = c == 1 ? "icount" : "wall"
		if (label == "disabled")
			printf " %s | | |", fmt(per_event(clk, label))
		else
			printf " %s | %s | %s |", fmt(per_event(clk, label)),
				fmt(over(clk, label)), ratio(times_empty(clk, label))
	}
	per = per_loop(label)
	printf " %s |\n", fmt(cold["icount", label] != "" && per > 0 ? cold["icount", label] / per : "")
}

# verdict(ICOUNT_OK, WALL_OK): judged by instructions, the repeatable
# measure; wall-clock time is named when it disagrees.
function verdict(a, b,    v) {
	if (a == "")
		return na()
	v = a ? "met" : "**missed**"
	if (b != "" && b != a)
		v = v " (wall-clock: " (b ? "met" : "missed") ")"
	return v
}

function le(x, limit) { return x == "" ? "" : x <= limit }
# as_deep(CLOCK, RIVAL): tpstat_stack kept at least the rival's frames of
# the same stack; a walk that saves fewer is not cheaper at the same work.
function as_deep(clock, rival,    x, y) {
	x = frames[clock, "stack_tpstat"]; y = frames[clock, rival]
	return x !~ /^[0-9]+$/ || y !~ /^[0-9]+$/ ? "" : x + 0 >= y + 0
}
function both(x, y) { return x == "" || y == "" ? "" : x && y }
function cheaper(clock, a, b,    x, y) {
	x = over(clock, a); y = over(clock, b)
	return x == "" || y == "" ? "" : x < y
}
function tenfold(clock, a,    x, y) {
	x = over(clock, a); y = over(clock, "ftrace")
	return x == "" || y == "" ? "" : 10 * x <= y
}
function half(clock, a, b,    x, y) {
	x = over(clock, a); y = over(clock, b)
	return x == "" || y == "" ? "" : 2 * x <= y
}
function slowdown(clock, with,    a, b) {
	a = median(work[clock, "none"]); b = median(work[clock, with])
	return a == "" || b == "" ? "" : 100 * (b - a) / a
}

# A configuration's cost per event above another's: what a filter adds to
# the same probe or program without one, what a scope adds to no scope.
function beyond(clock, label, base,    a, b) {
	a = over(clock, label); b = over(clock, base)
	return a == "" || b == "" ? "" : a - b
}

# filter_table(ROWS): ROWS is "label base title|...", base "-" for none.
function filter_table(rows,    r, k, i, w, c, clk) {
	print "| configuration | instr | over | filter adds | ns | over | filter adds |"
	print "|---|--:|--:|--:|--:|--:|--:|"
	k = split(rows, r, "|")
	for (i = 1; i <= k; i++) {
		split(r[i], w, " ")
		where = "filters: " w[1]
		printf "| %s |", substr(r[i], length(w[1]) + length(w[2]) + 3)
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			printf " %s | %s | %s |", fmt(per_event(clk, w[1])), fmt(over(clk, w[1])),
				w[2] == "-" ? "" : fmt(beyond(clk, w[1], w[2]))
		}
		print ""
	}
}

# Events a packet brings to a net_ configuration's probes or programs.
function packet_events(label) {
	return label ~ /devices$/ ? 2 : pevents
}

# Cost per packet event above the loop without probes.
function per_packet_event(clock, label,    o) {
	o = over(clock, label)
	return o == "" || !(packet_events(label) > 0) ? "" : o / packet_events(label)
}

# packet_table(ROWS): ROWS is "label title|...", net_none first.
function packet_table(rows,    r, k, i, label, c, clk) {
	print "| configuration | events | instr | over | per event | ns | over | per event |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|"
	k = split(rows, r, "|")
	for (i = 1; i <= k; i++) {
		label = substr(r[i], 1, index(r[i], " ") - 1)
		where = "packets: " label
		printf "| %s | %s |", substr(r[i], index(r[i], " ") + 1),
			label == "net_none" ? "" : packet_events(label)
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			if (label == "net_none")
				printf " %s | | |", fmt(per_event(clk, label))
			else
				printf " %s | %s | %s |", fmt(per_event(clk, label)),
					fmt(over(clk, label)), fmt(per_packet_event(clk, label))
		}
		print ""
	}
}

# What a filter adds per packet event to tpstat_net.
function net_filter_adds(clock, label,    a, b) {
	a = per_packet_event(clock, label); b = per_packet_event(clock, "net_tpstat")
	return a == "" || b == "" ? "" : a - b
}

# packet_third(A, B, TITLE): A per packet event at most a third of B's.
function packet_third(a, b, title,    w, x, y, z) {
	w = per_packet_event("icount", a); x = per_packet_event("icount", b)
	y = per_packet_event("wall", a); z = per_packet_event("wall", b)
	printf "| %s | %s vs %s | %s vs %s | %s |\n", title, fmt(w), fmt(x), fmt(y), fmt(z),
		verdict(w == "" || x == "" ? "" : w * 3 <= x, y == "" || z == "" ? "" : y * 3 <= z)
}

# ten_more(FN, LABEL, BASE, TITLE): a filter adds at most 10 instructions.
function ten_more(fn, label, base, title,    a, b) {
	if (fn == "net") {
		a = net_filter_adds("icount", label); b = net_filter_adds("wall", label)
	} else {
		a = beyond("icount", label, base); b = beyond("wall", label, base)
	}
	printf "| %s | %s | %s | %s |\n", title, fmt(a), fmt(b),
		verdict(a == "" ? "" : a <= 10, b == "" ? "" : b <= 10)
}

# scope_table(ROWS): ROWS is "label title|...", scope_all first.
function scope_table(rows,    r, k, i, label, c, clk) {
	print "| configuration | instr | over | vs no scope | ns | over | vs no scope |"
	print "|---|--:|--:|--:|--:|--:|--:|"
	k = split(rows, r, "|")
	for (i = 1; i <= k; i++) {
		label = substr(r[i], 1, index(r[i], " ") - 1)
		where = "scopes: " label
		printf "| %s |", substr(r[i], index(r[i], " ") + 1)
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			printf " %s | %s | %s |", fmt(per_event(clk, label)), fmt(over(clk, label)),
				label == "scope_all" ? "" : fmt(beyond(clk, label, "scope_all"))
		}
		print ""
	}
}

# stack_table(ROWS): ROWS is "label title|...": the main table's columns,
# with the frames of the stack each counted under.
function stack_table(rows,    r, k, i, label, c, clk, per) {
	print "| configuration | frames | instr | over | x empty | ns | over | x empty | cold instr |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|--:|"
	k = split(rows, r, "|")
	for (i = 1; i <= k; i++) {
		label = substr(r[i], 1, index(r[i], " ") - 1)
		where = "stacks: " label
		per = per_loop(label)
		printf "| %s | %s |", substr(r[i], index(r[i], " ") + 1),
			frames["icount", label] ~ /^[0-9]+$/ ? frames["icount", label] : na()
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			printf " %s | %s | %s |", fmt(per_event(clk, label)),
				fmt(over(clk, label)), ratio(times_empty(clk, label))
		}
		printf " %s |\n", fmt(cold["icount", label] != "" && per > 0 ? cold["icount", label] / per : "")
	}
}

BEGIN {
	# Every configuration bench/guest/bench times in a loop on CPU 0, the
	# tpstat_bench modes (each checked attached), those that count their
	# events (the empty probe is counted by a kprobe instead), and those
	# timed on every CPU at once in the wall-clock boot.
	LOOPS = "disabled empty counter hist table atomic keyed wide pairs generic second"
	LOOPS = LOOPS " ftrace ftrace_hist perf bpf_tp bpf_raw bpf_raw_hist"
	LOOPS = LOOPS " bpf_raw_table bpf_raw_keyed bpf_raw_wide bpf_raw_pairs"
	LOOPS = LOOPS " kmalloc_none kmalloc_tpstat kmalloc_bpf kmalloc_perf"
	LOOPS = LOOPS " kmalloc_tpstat_stacks kmalloc_bpf_stacks"
	FILTERS = "filter_none filter_1 filter_merged filter_3"
	LOOPS = LOOPS " " FILTERS " bpf_filter_merged bpf_filter_3"
	LOOPS = LOOPS " ftrace_filter_merged ftrace_filter_3"
	NETS = "net_tpstat net_filter_merged net_filter_3"
	LOOPS = LOOPS " net_none net_count " NETS " net_devices net_bpf_devices"
	LOOPS = LOOPS " net_bpf net_ftrace"
	SCOPES = "scope_all scope_out scope_in"
	STACKS = "stack_tpstat stack_bpf stack_ftrace"
	LOOPS = LOOPS " " SCOPES " " STACKS
	# Beside their counts: each stack configuration counted one stack,
	# tpstat_stack's probe attached and none of its events in other,
	# ftrace's dropping none and its trigger removed after.
	STACK_CHECKS = "stack_tpstat.state stack_tpstat.rows stack_tpstat.other"
	STACK_CHECKS = STACK_CHECKS " stack_bpf.stacks stack_ftrace.entries"
	STACK_CHECKS = STACK_CHECKS " stack_ftrace.dropped stack_ftrace.removed"
	# And each scope held the one task it was given.
	SCOPE_CHECKS = "scope_out.scope scope_in.scope"
	# The packet loops' other checks: the generic counter on each net
	# tracepoint, tpstat_net's counts (and its filter), devices' both ways.
	NET_TPS = "net_dev_queue net_dev_start_xmit net_dev_xmit netif_rx"
	NET_TPS = NET_TPS " netif_receive_skb_entry napi_gro_receive_entry"
	NET_TPS = NET_TPS " netif_receive_skb_list_entry netif_receive_skb kfree_skb consume_skb"
	NET_STATS = "failed_probes filter queued sent received dropped rx_path.backlog"
	NET_STATS = NET_STATS " queue.paired dev.lo.1.rx_packets dev.lo.1.tx_packets"
	NET_STATS = NET_STATS " drop.UNHANDLED_PROTO not_sent consumed rx_path.direct"
	NET_STATS = NET_STATS " rx_path.gro rx_path.list filter.rejected"
	NET_CHECKS = "net_devices.rx net_devices.tx"
	k = split(NET_TPS, v, " ")
	for (i = 1; i <= k; i++)
		NET_CHECKS = NET_CHECKS " net_count." v[i]
	k = split(NETS, w, " ")
	split(NET_STATS, v, " ")
	for (j = 1; j <= k; j++)
		for (i in v)
			NET_CHECKS = NET_CHECKS " " w[j] "." v[i]
	k = split(FILTERS, v, " ")
	for (i = 1; i <= k; i++)
		NET_CHECKS = NET_CHECKS " " v[i] ".filter " v[i] ".rejected"
	KMALLOC_CHECKS = "kmalloc_tpstat.events kmalloc_tpstat.outstanding_dropped"
	KMALLOC_CHECKS = KMALLOC_CHECKS " kmalloc_bpf.events kmalloc_perf.events kmalloc_perf.lost"
	KMALLOC_CHECKS = KMALLOC_CHECKS " kmalloc_tpstat_stacks.events kmalloc_tpstat_stacks.outstanding_dropped"
	KMALLOC_CHECKS = KMALLOC_CHECKS " kmalloc_tpstat_stacks.no_row kmalloc_bpf_stacks.events"
	MODES = "empty counter hist table atomic keyed wide pairs second"
	MODES = MODES " " FILTERS " devices"
	COUNTED = "counter hist table atomic keyed wide pairs generic second ftrace"
	COUNTED = COUNTED " ftrace_hist perf bpf_tp bpf_raw bpf_raw_hist"
	COUNTED = COUNTED " bpf_raw_table bpf_raw_keyed bpf_raw_wide bpf_raw_pairs"
	COUNTED = COUNTED " " FILTERS " bpf_filter_merged bpf_filter_3"
	COUNTED = COUNTED " ftrace_filter_merged ftrace_filter_3"
	COUNTED = COUNTED " net_bpf_devices net_bpf net_ftrace"
	COUNTED = COUNTED " " SCOPES " " STACKS
	SCALED = "disabled empty counter atomic"
}

END {
	completeness()
	print "Per event: N = " n " events per loop, median of " reps " loops after a cold one."
	print "`instr` is instructions (qemu -icount); `ns` is wall-clock under plain"
	print "emulation. `over` is the cost above the disabled loop; `x empty` is"
	print "that over the empty probe's. The last column is the first (cold) loop."
	where = "spread of the repeats"
	a = farthest("icount"); b = farthest("wall")
	printf "In this run no repeat lies more than %s%% from its configuration's median\n", fmt(a)
	printf "under -icount, nor more than %s%% in wall-clock time.\n", fmt(b)
	print ""
	print "| configuration | instr | over | x empty | ns | over | x empty | cold instr |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|"
	row("disabled", "tracepoint disabled (loop only)")
	row("empty", "empty probe (the floor)")
	row("counter", "tpstat counter")
	row("hist", "tpstat log2 histogram")
	row("table", "tpstat keyed table")
	row("generic", "generic counter (tpstat_count)")
	row("second", "an empty probe after the generic counter")
	row("atomic", "one shared atomic counter")
	row("ftrace", "ftrace event to the ring buffer")
	row("ftrace_hist", "ftrace hist trigger (value.log2)")
	row("perf", "perf counting (perf_event_open)")
	row("bpf_tp", "BPF tracepoint: count")
	row("bpf_raw", "BPF raw_tracepoint: count")
	row("bpf_raw_hist", "BPF raw_tracepoint: log2 histogram")
	row("bpf_raw_table", "BPF raw_tracepoint: keyed table")
	row("pairs", "tpstat pairing map (start, then end)")
	row("bpf_raw_pairs", "BPF hash map: update, then lookup and delete")
	row("keyed", "tpstat per-key histogram (keyed data)")
	row("bpf_raw_keyed", "BPF per-CPU hash of histograms")
	row("wide", "tpstat table, 16-byte key")
	row("bpf_raw_wide", "BPF per-CPU hash, 16-byte key")

	print ""
	print "Scaling: wall-clock ns per event above the disabled loop, on one CPU"
	print "and on every CPU at once. Contention shows only if the vCPUs truly run"
	print "in parallel, which single-threaded TCG (-icount, thread=single) never does."
	print ""
	print "| probe | one CPU | every CPU at once |"
	print "|---|--:|--:|"
	d1 = per_event("wall", "disabled"); dn = all_per_event("disabled")
	split("empty counter atomic", scale, " ")
	split("empty probe|tpstat counter (per CPU)|one shared atomic counter", names, "|")
	for (i = 1; i <= 3; i++) {
		where = "scaling: " names[i]
		one = per_event("wall", scale[i]); many = all_per_event(scale[i])
		printf "| %s | %s | %s |\n", names[i],
			fmt(one == "" || d1 == "" ? "" : one - d1),
			fmt(many == "" || dn == "" ? "" : many - dn)
	}

	print ""
	print "Whole system: the fixed workload (bench/user/workload.c), median and"
	print "range of the repeated runs, with no probe set and with every set"
	k = split(setlist["icount"], v, " ")
	sets = v[1]
	for (i = 2; i <= k; i++)
		sets = sets ", " v[i]
	print "under probes/ loaded (" sets ")."
	print ""
	print "| measure | no probe sets | all probe sets | slowdown | all but tpstat_kmem | slowdown |"
	print "|---|--:|--:|--:|--:|--:|"
	where = "whole system"
	printf "| instructions (M) | %s | %s | %s | %s | %s |\n", spread(work["icount", "none"]),
		spread(work["icount", "loaded"]), pct(slowdown("icount", "loaded")),
		spread(work["icount", "others"]), pct(slowdown("icount", "others"))
	printf "| wall-clock (ms) | %s | %s | %s | %s | %s |\n", spread(work["wall", "none"]),
		spread(work["wall", "loaded"]), pct(slowdown("wall", "loaded")),
		spread(work["wall", "others"]), pct(slowdown("wall", "others"))
	# A loaded workload the sets counted nothing of measured nothing.
	ev = median(events["icount", "loaded"])
	where = "events the probe sets counted"
	a = median(work["icount", "loaded"]); b = median(work["icount", "none"])
	if (ev > 0 && a != "" && b != "")
		printf "\nThe sets counted %d events per run: %.1f instructions each, all told.\n",
			ev, (a - b) / ev
	else
		printf "\nThe sets counted %s events per run.\n", na()
	# What tpstat_kmem's probes cost before doing anything: a further probe
	# on tracepoints the counter already probes, times its events.
	where = "tpstat_kmem's floor"
	kev = median(events["icount", "kmem"])
	a = over("icount", "second"); b = over("icount", "generic")
	z = median(work["icount", "none"])
	if (kev > 0 && a != "" && b != "" && z > 0) {
		floor = kev * (a - b)
		printf "tpstat_kmem's probes ran %d times per run. Another probe on a\n", kev
		printf "tracepoint costs %.1f instructions even when it does nothing (an\n", a - b
		print "empty probe after the generic counter, less the counter alone, in the"
		printf "loops above): %.2f%% of the workload before tpstat_kmem does any work;\n",
			100 * floor / z
		printf "with the other sets' %s, at least %s.\n", pct(slowdown("icount", "others")),
			pct(slowdown("icount", "others") + 100 * floor / z)
	} else {
		printf "tpstat_kmem's probes ran %s times per run.\n", na()
	}

	print ""
	print "Context switches: a pipe ping-pong (`sched-load pingpong`) with no probes,"
	print "with tpstat_sched, and with runqlat's logic as a BPF program (a wakeup"
	print "into a hash map, the switch-in looks it up, deletes it and adds to a"
	print "log2 histogram); with tpstat_stack's offcpu entry (`offcpu by"
	print "stack,pid,comm`, 16 frames), and with offcputime's work as a BPF program"
	print "(a voluntary switch out walks the kernel stack with bpf_get_stackid() and"
	print "saves {pid, stack id, comm} and the time in a hash map by pid; the switch"
	print "in takes it out and adds the time to that key's row in a per-CPU hash);"
	print "per context switch of the run without probes."
	print ""
	unit_table("sched", "context switches",
		"none no probes|tpstat tpstat_sched|bpf BPF runqlat|" \
		"offcpu tpstat_stack's offcpu entry|bpf_offcpu BPF offcputime's work")

	print ""
	printf "Slab allocations: a loop of %s kmalloc(64) and kfree pairs from one call\n", nk
	print "site, per pair, with no probes; with tpstat_kmem (every file, outstanding"
	print "allocations included); with memleak's work as a BPF program on the"
	print "kmalloc and kfree raw tracepoints (each allocation in a hash map keyed by"
	print "pointer, sums per call site); and with perf kmem record's event path (a"
	print "sample of every event into a ring buffer per CPU, drained as it fills)."
	print "By stack: tpstat_kmem with stacks=1 (16 frames, each allocation's stack"
	print "held in the stack storage, its handle saved in the pairing map), and"
	print "memleak's default work as a BPF program (bpf_get_stackid() of the kernel"
	print "stack at each allocation, saved with its size and time in a hash map"
	print "keyed by pointer, per-stack bytes and count added to; the free looks it"
	print "up, deletes it and takes it off its stack's sums)."
	print ""
	unit_table("kmalloc", "slab allocations",
		"none no probes|tpstat tpstat_kmem|bpf BPF memleak's work|perf perf kmem record's path|" \
		"tpstat_stacks tpstat_kmem stacks=1|bpf_stacks BPF memleak's work by stack")

	print ""
	print "Filters: the counter's probe with no filter and behind one over the"
	print "event's value, the CPU and the command (`tpstat_bench mode=filter`), per"
	print "event; raw_tracepoint BPF programs making the same tests; and the ftrace"
	print "event with the same filter. The expressions: `value < 65536` (one test);"
	print "`value >= 0 && value < 65536 && comm == \"sh\"`, whose two ranges of one"
	print "field merge into one test (two tests); and `value < 65536 && cpu < 64 &&"
	print "comm == \"sh\"` (three tests). Every event passes every test."
	print ""
	filter_table("filter_none - tpstat, no filter|" \
		"filter_1 filter_none tpstat, 1 term (1 test)|" \
		"filter_merged filter_none tpstat, 3 terms, 2 merged (2 tests)|" \
		"filter_3 filter_none tpstat, 3 terms (3 tests)|" \
		"bpf_raw - BPF raw_tracepoint: count, no filter|" \
		"bpf_filter_merged bpf_raw BPF, 3 terms, 2 merged|" \
		"bpf_filter_3 bpf_raw BPF, 3 terms|" \
		"ftrace - ftrace event, no filter|" \
		"ftrace_filter_merged ftrace ftrace, 3 terms, 2 merged|" \
		"ftrace_filter_3 ftrace ftrace, 3 terms")
	where = "filters: a test's cost"
	a = beyond("icount", "filter_3", "filter_1"); b = beyond("icount", "filter_1", "filter_none")
	c = beyond("icount", "filter_none", "counter")
	if (a != "" && b != "" && c != "") {
		printf "\nUnder -icount a test costs %.1f instructions (3 tests less 1, halved);\n", a / 2
		printf "filling the fields and entering the program, %.1f (1 test, less that\n", b - a / 2
		printf "test); a probe whose filter is lifted pays %.1f over the counter.\n", c
	} else {
		printf "\nA test costs %s instructions.\n", na()
	}

	print ""
	printf "Packets: a loop of %s frames of 128 bytes sent over lo with\n", np
	print "dev_queue_xmit(), of an ethertype no protocol takes, per packet. Each"
	printf "passes %s tracepoints of the ten tpstat_net probes (net_dev_queue,\n", pevents
	print "net_dev_start_xmit, net_dev_xmit, netif_rx, netif_receive_skb, kfree_skb):"
	print "`events` is how many reach the configuration's probes or programs, and"
	print "`per event` the cost above the loop without probes divided by them. The"
	print "generic counter counts the ten; tpstat_net runs every file, and then behind"
	print "`len > 100 && len < 5000 && dev == lo` (two tests) and `len > 100 && cpu <"
	print "64 && dev == lo` (three), which every packet passes; `devices` is its"
	print "per-device work alone (`tpstat_bench mode=devices`); the BPF programs"
	print "(tp_btf) do that work, then all of tpstat_net's; ftrace writes the ten"
	print "events to its ring buffer."
	print ""
	packet_table("net_none no probes|net_count generic counter (tpstat_count)|" \
		"net_tpstat tpstat_net|net_filter_merged tpstat_net, 3 terms, 2 merged|" \
		"net_filter_3 tpstat_net, 3 terms|net_devices tpstat_net's devices alone|" \
		"net_bpf_devices BPF: devices' work|net_bpf BPF: all of tpstat_net's work|" \
		"net_ftrace ftrace events to the ring buffer")
	where = "packets: tpstat_net against BPF's devices"
	x = over("icount", "net_tpstat"); y = over("icount", "net_bpf_devices")
	printf "\nPer packet, tpstat_net with every file adds %s instructions; BPF doing\n", fmt(x)
	printf "devices' work alone, %s.\n", fmt(y)
	print ""
	print "Scopes: an instance of tpstat_count counting the event for every task"
	print "(no scope); scoped to a task that never fires it, so that every event"
	print "is out of scope, checked and not counted; and scoped to the task that"
	print "fires it, every event checked and counted. `vs no scope` is the cost"
	print "above the instance's without a scope."
	print ""
	scope_table("scope_all instance, no scope|" \
		"scope_out instance, event out of scope (the check alone)|" \
		"scope_in instance, event in scope")
	where = "scopes: out of scope over the empty probe"
	a = beyond("icount", "scope_out", "empty"); b = beyond("wall", "scope_out", "empty")
	printf "\nAn event out of scope costs %s instructions (%s ns) over the empty probe.\n",
		fmt(a), fmt(b)

	print ""
	printf "Counting by kernel stack: a loop of %s events from one call path, each\n", nstack
	print "counted by its kernel stack of up to 16 frames: by tpstat_stack"
	print "(`tpstat_bench_fire by stack`); by a BPF raw_tracepoint program doing"
	print "bpftrace's `@[kstack] = count()` (bpf_get_stackid() into a stack map,"
	print "then a count per stack id in a per-CPU hash); and by an ftrace hist"
	print "trigger, `keys=stacktrace`. Each counted every event under one stack,"
	print "whose frames `frames` counts."
	print ""
	stack_table("stack_tpstat tpstat_stack, by stack|" \
		"stack_bpf BPF: bpf_get_stackid() and a per-CPU hash|" \
		"stack_ftrace ftrace hist trigger (keys=stacktrace)")

	print ""
	print "| target | instr | ns | verdict |"
	print "|---|--:|--:|---|"
	split("counter 1.25|hist 2|table 3", lim, "|")
	for (i = 1; i <= 3; i++) {
		split(lim[i], t, " ")
		where = "target: " t[1] " at most " t[2] "x the empty probe"
		a = times_empty("icount", t[1]); b = times_empty("wall", t[1])
		printf "| %s at most %sx the empty probe | %s | %s | %s |\n", t[1], t[2],
			ratio(a), ratio(b), verdict(le(a, t[2]), le(b, t[2]))
	}
	split("counter bpf_raw|hist bpf_raw_hist|table bpf_raw_table", pair, "|")
	for (i = 1; i <= 3; i++) {
		split(pair[i], t, " ")
		where = "target: " t[1] " cheaper than " t[2]
		printf "| %s cheaper than %s | %s vs %s | %s vs %s | %s |\n", t[1], t[2],
			fmt(over("icount", t[1])), fmt(over("icount", t[2])),
			fmt(over("wall", t[1])), fmt(over("wall", t[2])),
			verdict(cheaper("icount", t[1], t[2]), cheaper("wall", t[1], t[2]))
	}
	for (i = 1; i <= 3; i++) {
		split(pair[i], t, " ")
		where = "target: " t[1] " 10x cheaper than ftrace"
		printf "| %s 10x cheaper than an ftrace event | %s vs %s | %s vs %s | %s |\n", t[1],
			fmt(over("icount", t[1])), fmt(over("icount", "ftrace")),
			fmt(over("wall", t[1])), fmt(over("wall", "ftrace")),
			verdict(tenfold("icount", t[1]), tenfold("wall", t[1]))
	}
	split("pairs bpf_raw_pairs|keyed bpf_raw_keyed|wide bpf_raw_wide", pair2, "|")
	for (i = 1; i <= 3; i++) {
		split(pair2[i], t, " ")
		where = "target: " t[1] " at most half of " t[2]
		a = half("icount", t[1], t[2]); b = half("wall", t[1], t[2])
		printf "| %s at most half of %s | %s vs %s | %s vs %s | %s |\n", t[1], t[2],
			fmt(over("icount", t[1])), fmt(over("icount", t[2])),
			fmt(over("wall", t[1])), fmt(over("wall", t[2])), verdict(a, b)
	}
	where = "target: tpstat_sched per switch"
	unit_share("sched", "tpstat", "bpf", 3, "tpstat_sched at most a third of BPF runqlat per switch")
	where = "target: offcpu per switch"
	unit_share("sched", "offcpu", "bpf_offcpu", 2,
		"tpstat_stack's offcpu entry at most half of BPF offcputime's work per switch")
	where = "target: tpstat_kmem per kmalloc and kfree"
	unit_share("kmalloc", "tpstat", "bpf", 3, "tpstat_kmem at most a third of BPF memleak's work per kmalloc and kfree")
	where = "target: tpstat_kmem with stacks per kmalloc and kfree"
	unit_share("kmalloc", "tpstat_stacks", "bpf_stacks", 2,
		"tpstat_kmem with stacks at most half of BPF memleak's work with stacks, per kmalloc and kfree pair")
	where = "target: tpstat_net per packet event"
	packet_third("net_tpstat", "net_bpf", "tpstat_net at most a third of BPF doing its work, per packet event")
	where = "target: devices per packet event"
	packet_third("net_devices", "net_bpf_devices", "devices' work at most a third of BPF's, per packet event")
	where = "target: filter, 3 terms"
	ten_more("bench", "filter_3", "filter_none", "a 3-term filter (3 tests) adds at most 10 instructions to a probe")
	where = "target: filter, 3 terms merged"
	ten_more("bench", "filter_merged", "filter_none", "a 3-term filter (2 merged, 2 tests) adds at most 10 instructions")
	where = "target: tpstat_net's filter, 3 terms"
	ten_more("net", "net_filter_3", "", "tpstat_net's 3-term filter (3 tests) adds at most 10 per packet event")
	where = "target: tpstat_net's filter, 3 terms merged"
	ten_more("net", "net_filter_merged", "", "tpstat_net's 3-term filter (2 tests) adds at most 10 per packet event")
	split("stack_bpf BPF's `@[kstack] = count()`|stack_ftrace ftrace's `keys=stacktrace`",
		rival, "|")
	for (i = 1; i <= 2; i++) {
		t[1] = substr(rival[i], 1, index(rival[i], " ") - 1)
		t[2] = substr(rival[i], index(rival[i], " ") + 1)
		where = "target: tpstat_stack cheaper than " t[1]
		printf "| tpstat_stack cheaper than %s per event, with as many frames (%s vs %s) | %s vs %s | %s vs %s | %s |\n",
			t[2], frames["icount", "stack_tpstat"], frames["icount", t[1]],
			fmt(over("icount", "stack_tpstat")), fmt(over("icount", t[1])),
			fmt(over("wall", "stack_tpstat")), fmt(over("wall", t[1])),
			verdict(both(cheaper("icount", "stack_tpstat", t[1]), as_deep("icount", t[1])),
				both(cheaper("wall", "stack_tpstat", t[1]), as_deep("wall", t[1])))
	}
	where = "target: the scope check, in scope"
	a = beyond("icount", "scope_in", "scope_all"); b = beyond("wall", "scope_in", "scope_all")
	printf "| the scope check adds at most 5 instructions (in scope, over no scope) | %s | %s | %s |\n",
		fmt(a), fmt(b), verdict(le(a, 5), le(b, 5))
	where = "target: workload slowdown"
	a = slowdown("icount", "loaded"); b = slowdown("wall", "loaded")
	printf "| all probe sets slow the workload < 2%% | %s | %s | %s |\n",
		pct(a), pct(b), verdict(a == "" ? "" : a < 2, b == "" ? "" : b < 2)

	print ""
	print "Memory: bytes of aggregation data each probe set holds with its default"
	print "sizes (the memory file, the set loaded alone; tpstat_stack counting"
	print "sched_switch by stack), by possible CPUs: one column per boot."
	print ""
	split("icount wall memory", boots, " ")
	printf "| probe set |"
	for (i = 1; i <= 3; i++)
		printf " %s CPUs |", possible[boots[i]]
	printf "\n|---|"
	for (i = 1; i <= 3; i++)
		printf "--:|"
	print ""
	k = split(setlist["icount"], v, " ")
	for (j = 1; j <= k; j++) {
		where = "memory of " v[j]
		printf "| %s |", v[j]
		for (i = 1; i <= 3; i++) {
			x = mem[boots[i], v[j]]
			printf " %s |", x ~ /^[0-9]+$/ ? x : na()
		}
		print ""
	}
	print ""
	print "| target | bytes | verdict |"
	print "|---|--:|---|"
	for (j = 1; j <= k; j++) {
		where = "memory target of " v[j]
		big = mem["memory", v[j]] ~ /^[0-9]+$/ ? mem["memory", v[j]] : ""
		printf "| %s under 1 MiB at %s possible CPUs | %s | %s |\n", v[j],
			possible["memory"], big == "" ? na() : big,
			verdict(big == "" ? "" : big < 1048576, "")
	}

	print ""
	printf "Checks: %d of %d passed (counts against the events fired, probe states,\n",
		checks - bad, checks
	printf "loads); %d expected checks or repeats missing, %d values not measured.\n",
		missing, nas
	exit bad + missing + nas > 0
}

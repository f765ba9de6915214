# SPDX-License-Identifier: GPL-2.0
# Turns the BENCH lines of one kernel's two boots into its results section.
# usage: awk -f report.awk ICOUNT_LOG WALL_LOG MEMORY_LOG
# Prints markdown; exits 1 if any count check failed (each one on stderr).

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

# A workload's median in millions, with the range of the runs beside it.
function spread(list) {
	return list == "" ? "n/a" : sprintf("%.1f (%.1f to %.1f)", median(list) / 1e6,
		lowest(list) / 1e6, highest(list) / 1e6)
}

function fmt(x) { return x == "" ? "n/a" : sprintf(x < 100 ? "%.1f" : "%.0f", x) }
function ratio(x) { return x == "" ? "n/a" : sprintf("%.2f", x) }
function pct(x) { return x == "" ? "n/a" : sprintf("%+.2f%%", x) }

# Per-event cost of a loop configuration, from the median loop time.
function per_event(clock, label) {
	return (clock SUBSEP label) in rep ? median(rep[clock, label]) / n : ""
}

function over(clock, label,    c, d) {
	c = per_event(clock, label)
	d = per_event(clock, "disabled")
	return c == "" || d == "" ? "" : c - d
}

function times_empty(clock, label,    o, e) {
	o = over(clock, label)
	e = over(clock, "empty")
	return o == "" || e == "" || e <= 0 ? "" : o / e
}

FNR == 1 { clock = FILENAME == ARGV[1] ? "icount" : FILENAME == ARGV[2] ? "wall" : "memory" }

{ sub(/\r$/, "") }

$1 == "BENCH" && $2 == "conf" { n = $3; reps = $4 }
$1 == "BENCH" && $2 == "loop" {
	if ($4 == "rep")
		rep[clock, $3] = rep[clock, $3] " " $5
	else
		cold[clock, $3] = $5
}
$1 == "BENCH" && $2 == "all" && $4 == "rep" { all[clock, $3, $5] = all[clock, $3, $5] " " $6; cpus[$5] = 1 }
$1 == "BENCH" && $2 == "work" && $4 == "rep" { work[clock, $3] = work[clock, $3] " " $5 }
$1 == "BENCH" && $2 == "events" && $4 == "rep" { events[clock] = events[clock] " " $5 }
$1 == "BENCH" && $2 == "sched" && $4 == "rep" { sched[clock, $3] = sched[clock, $3] " " $5 }
$1 == "BENCH" && $2 == "switches" && $3 == "rep" { switches[clock] = switches[clock] " " $4 }
$1 == "BENCH" && $2 == "sets" { sets = $3; for (i = 4; i <= NF; i++) sets = sets ", " $i }
$1 == "BENCH" && $2 == "mem" { mem[$3, $4] = $5; possible[$3] = 1; memsets[$4] = 1 }
$1 == "BENCH" && $2 == "check" {
	checks++
	if ($4 != $5) {
		bad++
		printf "%s boot: %s counted %s, want %s\n", clock, $3, $4, $5 > "/dev/stderr"
	}
}

# The ping-pong's time per context switch of the run without probes.
function per_switch(clock, label,    s) {
	s = median(switches[clock])
	return (clock SUBSEP label) in sched && s > 0 ? median(sched[clock, label]) / s : ""
}

function switch_over(clock, label,    a, z) {
	a = per_switch(clock, label)
	z = per_switch(clock, "none")
	return a == "" || z == "" ? "" : a - z
}

# Mean over the CPUs of each CPU's median loop, per event.
function all_per_event(label,    c, s, k) {
	for (c in cpus) {
		if (!(("wall" SUBSEP label SUBSEP c) in all))
			return ""
		s += median(all["wall", label, c]) / n
		k++
	}
	return k ? s / k : ""
}

function row(label, title,    c) {
	printf "| %s |", title
	for (c = 1; c <= 2; c++) {
		clk = c == 1 ? "icount" : "wall"
		if (label == "disabled")
			printf " %s | | |", fmt(per_event(clk, label))
		else
			printf " %s | %s | %s |", fmt(per_event(clk, label)),
				fmt(over(clk, label)), ratio(times_empty(clk, label))
	}
	printf " %s |\n", fmt(((("icount" SUBSEP label) in cold) ? cold["icount", label] / n : ""))
}

# verdict(ICOUNT_OK, WALL_OK): judged by instructions, the repeatable
# measure; wall-clock time is named when it disagrees.
function verdict(a, b,    v) {
	if (a == "")
		return "not measured"
	v = a ? "met" : "**missed**"
	if (b != "" && b != a)
		v = v " (wall-clock: " (b ? "met" : "missed") ")"
	return v
}

function le(x, limit) { return x == "" ? "" : x <= limit }
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
function slowdown(clock,    a, b) {
	a = median(work[clock, "none"]); b = median(work[clock, "loaded"])
	return a == "" || b == "" ? "" : 100 * (b - a) / a
}

END {
	print "Per event: N = " n " events per loop, median of " reps " loops after a cold one."
	print "`instr` is instructions (qemu -icount); `ns` is wall-clock under plain"
	print "emulation. `over` is the cost above the disabled loop; `x empty` is"
	print "that over the empty probe's. The last column is the first (cold) loop."
	print ""
	print "| configuration | instr | over | x empty | ns | over | x empty | cold instr |"
	print "|---|--:|--:|--:|--:|--:|--:|--:|"
	row("disabled", "tracepoint disabled (loop only)")
	row("empty", "empty probe (the floor)")
	row("counter", "tpstat counter")
	row("hist", "tpstat log2 histogram")
	row("table", "tpstat keyed table")
	row("generic", "generic counter (tpstat_count)")
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
		one = per_event("wall", scale[i]); many = all_per_event(scale[i])
		printf "| %s | %s | %s |\n", names[i],
			fmt(one == "" || d1 == "" ? "" : one - d1),
			fmt(many == "" || dn == "" ? "" : many - dn)
	}

	print ""
	print "Whole system: the fixed workload (bench/user/workload.c), median and"
	print "range of the repeated runs, with no probe set and with every set"
	print "under probes/ loaded (" sets ")."
	print ""
	print "| measure | no probe sets | all probe sets | slowdown |"
	print "|---|--:|--:|--:|"
	printf "| instructions (M) | %s | %s | %s |\n", spread(work["icount", "none"]),
		spread(work["icount", "loaded"]), pct(slowdown("icount"))
	printf "| wall-clock (ms) | %s | %s | %s |\n", spread(work["wall", "none"]),
		spread(work["wall", "loaded"]), pct(slowdown("wall"))
	ev = median(events["icount"])
	if (ev > 0)
		printf "\nThe sets counted %d events per run: %.1f instructions each, all told.\n",
			ev, (median(work["icount", "loaded"]) - median(work["icount", "none"])) / ev

	print ""
	print "Context switches: a pipe ping-pong (`sched-load pingpong`) with no probes,"
	print "with tpstat_sched, and with runqlat's logic as a BPF program (a wakeup"
	print "into a hash map, the switch-in looks it up, deletes it and adds to a"
	print "log2 histogram), per context switch of the run without probes."
	print ""
	print "| configuration | instr | over | ns | over |"
	print "|---|--:|--:|--:|--:|"
	split("none no probes|tpstat tpstat_sched|bpf BPF runqlat", sc, "|")
	for (i = 1; i <= 3; i++) {
		label = substr(sc[i], 1, index(sc[i], " ") - 1)
		printf "| %s |", substr(sc[i], index(sc[i], " ") + 1)
		for (c = 1; c <= 2; c++) {
			clk = c == 1 ? "icount" : "wall"
			printf " %s | %s |", fmt(per_switch(clk, label)),
				label == "none" ? "" : fmt(switch_over(clk, label))
		}
		print ""
	}

	print ""
	print "| target | instr | ns | verdict |"
	print "|---|--:|--:|---|"
	split("counter 1.25|hist 2|table 3", lim, "|")
	for (i = 1; i <= 3; i++) {
		split(lim[i], t, " ")
		a = times_empty("icount", t[1]); b = times_empty("wall", t[1])
		printf "| %s at most %sx the empty probe | %s | %s | %s |\n", t[1], t[2],
			ratio(a), ratio(b), verdict(le(a, t[2]), le(b, t[2]))
	}
	split("counter bpf_raw|hist bpf_raw_hist|table bpf_raw_table", pair, "|")
	for (i = 1; i <= 3; i++) {
		split(pair[i], t, " ")
		printf "| %s cheaper than %s | %s vs %s | %s vs %s | %s |\n", t[1], t[2],
			fmt(over("icount", t[1])), fmt(over("icount", t[2])),
			fmt(over("wall", t[1])), fmt(over("wall", t[2])),
			verdict(cheaper("icount", t[1], t[2]), cheaper("wall", t[1], t[2]))
	}
	for (i = 1; i <= 3; i++) {
		split(pair[i], t, " ")
		printf "| %s 10x cheaper than an ftrace event | %s vs %s | %s vs %s | %s |\n", t[1],
			fmt(over("icount", t[1])), fmt(over("icount", "ftrace")),
			fmt(over("wall", t[1])), fmt(over("wall", "ftrace")),
			verdict(tenfold("icount", t[1]), tenfold("wall", t[1]))
	}
	split("pairs bpf_raw_pairs|keyed bpf_raw_keyed|wide bpf_raw_wide", pair2, "|")
	for (i = 1; i <= 3; i++) {
		split(pair2[i], t, " ")
		a = half("icount", t[1], t[2]); b = half("wall", t[1], t[2])
		printf "| %s at most half of %s | %s vs %s | %s vs %s | %s |\n", t[1], t[2],
			fmt(over("icount", t[1])), fmt(over("icount", t[2])),
			fmt(over("wall", t[1])), fmt(over("wall", t[2])), verdict(a, b)
	}
	a = switch_over("icount", "tpstat"); b = switch_over("icount", "bpf")
	c = switch_over("wall", "tpstat"); d = switch_over("wall", "bpf")
	printf "| tpstat_sched at most a third of BPF runqlat per switch | %s vs %s | %s vs %s | %s |\n",
		fmt(a), fmt(b), fmt(c), fmt(d),
		verdict(a == "" || b == "" ? "" : a * 3 <= b, c == "" || d == "" ? "" : c * 3 <= d)
	a = slowdown("icount"); b = slowdown("wall")
	printf "| all probe sets slow the workload < 2%% | %s | %s | %s |\n",
		pct(a), pct(b), verdict(a == "" ? "" : a < 2, b == "" ? "" : b < 2)

	print ""
	print "Memory: bytes of aggregation data each probe set holds with its default"
	print "sizes (the memory file, the set loaded alone), by possible CPUs."
	print ""
	ncol = 0
	for (p in possible)
		cols[++ncol] = p + 0
	for (i = 2; i <= ncol; i++)
		for (j = i; j > 1 && cols[j - 1] > cols[j]; j--) {
			t0 = cols[j]; cols[j] = cols[j - 1]; cols[j - 1] = t0
		}
	printf "| probe set |"
	for (i = 1; i <= ncol; i++)
		printf " %d CPUs |", cols[i]
	printf "\n|---|"
	for (i = 1; i <= ncol; i++)
		printf "--:|"
	print ""
	for (s in memsets) {
		printf "| %s |", s
		for (i = 1; i <= ncol; i++)
			printf " %s |", ((cols[i], s) in mem) ? mem[cols[i], s] : "n/a"
		print ""
	}
	print ""
	print "| target | bytes | verdict |"
	print "|---|--:|---|"
	for (s in memsets) {
		big = (64 SUBSEP s) in mem ? mem[64, s] : ""
		printf "| %s under 1 MiB at 64 possible CPUs | %s | %s |\n", s,
			big == "" ? "n/a" : big, verdict(big == "" ? "" : big < 1048576, "")
	}

	print ""
	printf "Count checks: %d of %d configurations counted exactly the events fired.\n",
		checks - bad, checks
	exit bad > 0
}

# SPDX-License-Identifier: GPL-2.0
# Each set's metrics file: the format's version first, then lines of a
# known kind and unit, a histogram's buckets a range of log2 buckets and
# none for the others, no metric given two kinds or units, and every line
# of the set's stats file, after a workload that fills it, described by
# one of its patterns. The patterns are read as include/tpstat/metric.h
# defines them, by a reader of this file's own (an ERE each), not the
# tpstat command's; a stats line no pattern matches is printed. And the
# copy of it the tool's tests read (tests/tool/metrics/, in the payload's
# fixture-metrics/) is the same to the byte, so that a module's change
# its copy missed fails here.

# The sets the tree ships, nested ones too, and the README's example.
SETS="irq sched kmem net count count/mine stack stack/tpstat_test_fire
stack/sched_switch stack/offcpu test test_tasks wakeup"
FIXTURE=/payload/fixture-metrics

plan 51

# fixture_of SET: the tool fixtures' copy of SET's metrics file, if any:
# a count instance has count's, the stack set's entries share one but
# the off-CPU entry, which has its own.
fixture_of() {
	case $1 in
	count/*) echo $FIXTURE/count ;;
	stack/offcpu) echo $FIXTURE/stack-offcpu ;;
	stack/*) echo $FIXTURE/stack-entry ;;
	*) [ ! -e $FIXTURE/$1 ] || echo $FIXTURE/$1 ;;
	esac
}

load tpstat
load tpstat_test_tp
for m in tpstat_irq tpstat_sched tpstat_net tpstat_test_probe \
	 tpstat_test_tasks tpstat_example; do
	load $m || fail "$m does not load"
done
# With its outstanding allocations by stack, whose lines are kmem's too.
load tpstat_kmem stacks=1 || fail "tpstat_kmem stacks=1 does not load"
load tpstat_count tracepoints=sched_switch,tpstat_test_fire
load tpstat_stack 'tracepoints="tpstat_test_fire by stack,comm;sched_switch by comm,pid;offcpu by stack,comm"'
echo mine > $TP/count/instances
echo sched_process_fork > $TP/count/mine/control

# A little of everything the sets count: forks, execs and switches,
# pings over lo, allocations, the test module's values.
i=0
while [ $i -lt 10 ]; do
	sh -c true
	fire $i
	fire $((i * 1000))
	i=$((i + 1))
done
echo $$ > $TP/count/mine/scope
sh -c true
ping_lo 4 600
sleep 0.2

# check_set SET: the three checks of one set's metrics file.
check_set() {
	m=$TP/$1/metrics
	s=$TP/$1/stats
	out=/tmp/t-21.out
	# A log2 bucket's lowest value is 0 or a power of two, its highest
	# one less than a power of two (all digits: awk's doubles hold them).
	awk 'function pow2(v) { while (v > 1 && v % 2 == 0) v /= 2; return v == 1 }
	NR == 1 { ok = $0 == "# tpstat metrics 2"; if (!ok) print "line 1: " $0; next }
	/^#/ { next }
	{
		split($5, r, /[.][.]/)
		range = $5 ~ /^[0-9]+[.][.][0-9]+$/ && (r[1] == 0 || pow2(r[1])) &&
			pow2(r[2] + 1) && r[1] + 0 <= r[2] + 0
	}
	NF < 6 || $1 !~ /^(counter|gauge|hist)$/ || $2 !~ /^(none|ns|bytes|bp)$/ ||
	($1 == "hist" ? !range : $5 != "-") {
		ok = 0
		print "line " NR ": " $0
	}
	END { exit !(ok && NR > 5) }' "$m" > $out
	rc=$?
	sed 's/^/# /' $out
	check "$1: its metrics file is version 2, each line of a known kind and unit, a histogram's buckets a range of log2 buckets" \
		[ $rc -eq 0 ]

	f=$(fixture_of $1)
	if [ -n "$f" ]; then
		cmp $m $f > $out 2>&1
		rc=$?
		[ $rc -eq 0 ] || diff $f $m | head -n 10 | sed 's/^/# /'
		check "$1: its metrics file is the tool fixtures' copy (tests/tool/metrics/${f##*/}) to the byte" \
			[ $rc -eq 0 ]
	fi

	awk '/^#/ { next }
	($4 in seen) && seen[$4] != $1 " " $2 {
		print $4 ": " seen[$4] " and " $1 " " $2
		bad = 1
	}
	!($4 in seen) { seen[$4] = $1 " " $2 }
	END { exit bad }' "$m" > $out
	rc=$?
	sed 's/^/# /' $out
	check "$1: no metric has two kinds or units" [ $rc -eq 0 ]

	awk -v out=$out '
	# A pattern as an ERE: a key of one component is any component alone
	# in it, a number among other characters; {label+} is one or more
	# components; [...] is optional.
	function ere(p,   r, i, j, c, label, before, after) {
		r = ""
		for (i = 1; i <= length(p); i++) {
			c = substr(p, i, 1)
			if (c == ".") {
				r = r "\\."
			} else if (c == "[") {
				r = r "("
			} else if (c == "]") {
				r = r ")?"
			} else if (c == "{") {
				j = index(substr(p, i), "}")
				label = substr(p, i + 1, j - 2)
				before = i > 1 ? substr(p, i - 1, 1) : "."
				after = i + j <= length(p) ? substr(p, i + j, 1) : "."
				if (label ~ /[+]$/)
					r = r ".+"
				else if (before ~ /^[.[]$/ && after ~ /^[].]$/)
					r = r "[^.]+"
				else
					r = r "[0-9]+"
				i += j - 1
			} else {
				r = r c
			}
		}
		return r
	}
	FNR == NR {
		if (/^#/ || NF < 6)
			next
		r = ere($3)
		if ($1 == "hist")
			r = r "\\.(count|sum|min|max|p50|p90|p99|bucket_[0-9]+_[0-9]+)"
		re[++nr] = "^" r "$"
		next
	}
	{
		lines++
		for (i = 1; i <= nr; i++)
			if ($1 ~ re[i])
				next
		print "unmatched: " $0
		bad = 1
	}
	END {
		print lines > out
		exit bad || !lines
	}' "$m" "$s" > $out.lines
	rc=$?
	sed 's/^/# /' $out.lines
	check "$1: each of its $(cat $out) stats lines has a pattern" [ $rc -eq 0 ]
	rm -f $out $out.lines
}

for set in $SETS; do
	check_set $set
done

# A set that declares a malformed metric is refused (tpstat_test_probe's
# bad_metric parameter gives its first one a blank in its name).
rmmod tpstat_test_probe
before=$(kmsg_lines)
err=$(load_error tpstat_test_probe bad_metric=1)
said=$(kmsg_ours_since "$before" | grep -c 'tpstat: test: metric 0 is malformed')
is "a metric with a blank in its name is refused, in one line" "$err $said" "EINVAL 1"
unload_all

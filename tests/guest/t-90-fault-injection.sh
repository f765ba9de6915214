# SPDX-License-Identifier: GPL-2.0
# Fault injection on load and reset (debug kernel only): the Nth allocation
# of the loading task fails, for N = 1, 2, ... until a load runs without
# reaching its Nth allocation. Each failed load must return an errno and
# leave nothing behind: kmemleak and the log check after the suite say
# whether it did. A reset that fails must change nothing.

if [ ! -d /sys/kernel/debug/failslab ]; then
	skip "loads and resets under fault injection" "this kernel has no fault injection"
else
	# fail-nth counts what the attributes let through: every slab
	# allocation, sleeping or not. Page allocations keep their defaults
	# (atomic, order 1 and up): counting each page of a module's vmalloc'd
	# image would multiply the boots' length for no new error path of ours.
	expect_alloc_failures
	echo N > /sys/kernel/debug/failslab/ignore-gfp-wait
	echo 0 > /sys/kernel/debug/failslab/verbose
	echo 0 > /sys/kernel/debug/fail_page_alloc/verbose

	# inject MODULE [PARAMS]: one line of TAP for all points of one module.
	inject() {
		out=$(/payload/bin/load-once --fail-all "$KO/$1.ko" "$2")
		case $out in
		"points "*) pass "$1: load fails cleanly at each of its ${out#points } allocations" ;;
		*) fail "$1: $out" ;;
		esac
		grep -q "^$1 " /proc/modules && rmmod "$1"
	}
	# The framework: the core, the typed test set, and every probe set.
	# Samples, the benchmark and the test's own helpers are left out: each
	# costs minutes under KASAN and emulation, for no path of the framework.
	inject tpstat
	load tpstat
	load tpstat_test_tp
	inject tpstat_count tracepoints=tpstat_test_fire,sched_switch
	inject tpstat_test_probe
	# Tables of a few entries: an allocation in a loop fails the same way
	# at any index. Full-size tables make hundreds of points, each of which
	# allocates and frees every entry before it again: quadratic, for no
	# new error path.
	for m in "$KO"/tpstat_*.ko; do
		m=$(basename "$m" .ko)
		case $m in
		tpstat|tpstat_count|tpstat_test_*|tpstat_sample_*|tpstat_bench*) ;;
		tpstat_irq) inject "$m" "max_handlers=4 max_tasklets=4" ;;
		*) inject "$m" ;;
		esac
	done
	unload_all

	# A reset that cannot allocate its new generation fails and keeps
	# every count: its Nth allocation fails, for N = 1, 2, ... until one
	# runs whole without reaching it. A failed allocation that does not
	# fail the reset is one kvmalloc() made up for with vmalloc(): that
	# reset must have zeroed.
	load tpstat
	load tpstat_test_tp
	load tpstat_test_probe
	fire 100
	n=1 kept=yes zeroed=yes failures=0
	while [ $n -le 500 ]; do
		result=$(printf 1 | /payload/bin/write-once --fail-nth $n $TP/test/reset)
		case $result in
		"ENOMEM reached")
			failures=$((failures + 1))
			[ "$(stat_of test hist.count)" = 100 ] || kept="no: after failure $n" ;;
		"accepted reached")
			[ "$(stat_of test hist.count)" = 0 ] || zeroed="no: after $n"
			fire 100 ;;
		*) break ;;
		esac
		n=$((n + 1))
	done
	is "reset: runs whole once no allocation fails" "$result" accepted
	is "reset: each one that failed kept every count" "$kept" yes
	is "reset: each one a fallback saved zeroed" "$zeroed" yes
	check "reset: $failures of $((n - 1)) failed allocations failed it" [ $failures -gt 0 ]
	is "reset: the last zeroed" "$(stat_of test hist.count)" 0
	unload_all
fi

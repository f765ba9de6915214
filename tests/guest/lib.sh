# SPDX-License-Identifier: GPL-2.0
# TAP helpers and tpstat shortcuts for tests run by busybox sh in the guest.
# A test file sets T to its name and uses these; run-tests sources both.

TP=/sys/kernel/debug/tpstat
FIRE=/sys/kernel/debug/tpstat_test/fire
KO=/payload/ko

pass() { echo "ok - $T: $1"; }
fail() { echo "not ok - $T: $1"; }

# check DESC COMMAND...: passes if the command succeeds.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# is DESC GOT WANT
is() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; fi
}

# within DESC GOT LOW HIGH: LOW <= GOT <= HIGH
within() {
	if [ "$2" -ge "$3" ] 2>/dev/null && [ "$2" -le "$4" ]; then
		pass "$1"
	else
		fail "$1 (got '$2', want $3 to $4)"
	fi
}

load() {
	m=$1
	shift
	insmod "$KO/$m.ko" "$@"
}

# The value of KEY in SET/stats, or "none".
stat_of() {
	while read -r k v; do
		if [ "$k" = "$2" ]; then
			echo "$v"
			return
		fi
	done < "$TP/$1/stats"
	echo none
}

# The state column of TRACEPOINT for SET in the probes file, or "none".
state_of() {
	while read -r s n st rest; do
		if [ "$s" = "$1" ] && [ "$n" = "$2" ]; then
			echo "$st"
			return
		fi
	done < "$TP/probes"
	echo none
}

fire() { echo "$1" > "$FIRE"; }

# Fires N events from CPU C.
fire_on() { taskset -c "$1" sh -c "echo $2 > $FIRE"; }

# What one write() of STRING (a printf format) to FILE gets: "accepted" or
# the errno's name.
write_error() { printf "$2" | /payload/bin/write-once "$1"; }

# What one load of MODULE with PARAMS gets: "loaded" or the errno's name.
load_error() { /payload/bin/load-once "$KO/$1.ko" "$2"; }

# Whole seconds since boot.
uptime_s() {
	read -r up rest < /proc/uptime
	echo "${up%.*}"
}

kmsg_lines() { dmesg | wc -l; }

# Kernel log lines since line N.
kmsg_since() { dmesg | tail -n "+$(($1 + 1))"; }

# Loads every module of the payload in an order their symbols allow: each
# pass loads what it can, until a pass loads nothing more. A module that
# never loads is a failure, with the error its last load got.
load_everything() {
	while :; do
		more=0
		for m in "$KO"/tpstat_*.ko; do
			m=$(basename "$m" .ko)
			grep -q "^$m " /proc/modules && continue
			load "$m" 2>/dev/null && more=1
		done
		[ $more -eq 1 ] || break
	done
	for m in "$KO"/tpstat_*.ko; do
		m=$(basename "$m" .ko)
		grep -q "^$m " /proc/modules ||
			fail "load_everything: $m does not load: $(load_error "$m")"
	done
}

# On the debug kernel nothing may be skipped.
debug_kernel() { case $(uname -r) in *-tpstat-debug-*) true ;; *) false ;; esac; }

# skip DESC REASON: a TAP skip, or a failure on the debug kernel.
skip() {
	if debug_kernel; then
		fail "$1 (skipped on the debug kernel: $2)"
	else
		echo "ok - $T: $1 # SKIP $2"
	fi
}

# Unloads every tpstat module, users before what they use: each pass removes
# those nothing depends on any more.
unload_all() {
	for pass in 1 2 3 4 5; do
		mods=$(grep -o '^tpstat[a-z0-9_]*' /proc/modules)
		[ -z "$mods" ] && return 0
		for m in $mods; do
			rmmod "$m" 2>/dev/null
		done
	done
	fail "unload_all: still loaded: $(grep -o '^tpstat[a-z0-9_]*' /proc/modules)"
}

# What a kernel developer never accepts in the log: oopses, warnings and
# what lockdep, KASAN, UBSAN, kmemleak's neighbours, RCU and the lockup
# detectors report. One list, for every check of the log.
BAD='BUG|WARNING|Oops|Call Trace|sleeping function called|refcount_t'
BAD="$BAD|list_del corruption|general protection|KASAN|UBSAN"
BAD="$BAD|suspicious RCU usage|inconsistent lock state|rcu: INFO"
BAD="$BAD|trying to register non-static key|blocked for more than"
BAD="$BAD|soft lockup|hard LOCKUP|hardlockup"

# A test that makes allocations fail on purpose says so: the kernel's
# report of each failure (a header line, then a stack up to </TASK>) is
# then expected, and only those reports are passed over.
expect_alloc_failures() { : > /tmp/expect-alloc-failures; }
ALLOC_FAILURE='/vmalloc error:|page allocation failure:/ { skip = 1 }'
ALLOC_FAILURE="$ALLOC_FAILURE"' skip && /<\/TASK>/ { skip = 0; next } !skip'

# log_clean LINE: one TAP line, the kernel log since LINE checked.
log_clean() {
	filter=1
	if [ -e /tmp/expect-alloc-failures ]; then
		filter=$ALLOC_FAILURE
		rm -f /tmp/expect-alloc-failures
	fi
	bad=$(kmsg_since "$1" | awk "$filter" | grep -E "$BAD")
	if [ -z "$bad" ]; then
		pass "kernel log clean"
	else
		fail "kernel log clean"
		echo "$bad" | sed 's/^/# /'
	fi
}

# plant NAME: a fault planted on purpose, to prove the host catches it,
# when the host asked for NAME (TPSTAT_PLANT): "kill" kills this test's
# shell, "bug" makes the kernel BUG() inside a write this shell makes.
plant() {
	[ "$TPSTAT_PLANT" = "$1" ] || return 0
	case $1 in
	kill) kill -9 $$ ;;
	bug) echo 1 > /sys/kernel/debug/tpstat_test/bug ;;
	esac
}

KMEMLEAK=/sys/kernel/debug/kmemleak

# Forgets what the kernel leaked before the tests (kernels with kmemleak).
kmemleak_start() {
	[ -e $KMEMLEAK ] || return 0
	echo scan > $KMEMLEAK
	echo clear > $KMEMLEAK
}

# With everything unloaded: no leak whose allocation came through a module.
# A frame of an unloaded module prints as a bare address, one of a loaded
# module as symbol [module]. An allocation the test module leaks on purpose
# must be reported first, so the check is known to see leaks.
kmemleak_check() {
	T=kmemleak
	if [ ! -e $KMEMLEAK ]; then
		skip "no leak from a tpstat module" "this kernel has no kmemleak"
		return 0
	fi
	unload_all
	load tpstat_test_tp
	echo 1 > /sys/kernel/debug/tpstat_test/leak
	# Objects younger than 5 s are never reported; two scans settle it.
	sleep 6
	check "kmemleak scans" sh -c "echo scan > $KMEMLEAK && echo scan > $KMEMLEAK"
	planted=$(grep -c 'tpstat_test_leak_write' $KMEMLEAK)
	is "kmemleak reports the allocation leaked on purpose" "$planted" 1
	echo 0 > /sys/kernel/debug/tpstat_test/leak
	rmmod tpstat_test_tp
	echo scan > $KMEMLEAK
	ours=$(grep -cE '\] 0xffffffff|\[tpstat' $KMEMLEAK)
	is "no leak from a tpstat module after unloading everything" "$ours" 0
	[ "$ours" -eq 0 ] || sed 's/^/# /' $KMEMLEAK
}

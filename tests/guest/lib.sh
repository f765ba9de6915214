# SPDX-License-Identifier: GPL-2.0
# TAP helpers and tpstat shortcuts for tests run by busybox sh in the guest.
# A test file sets T to its name and uses these; run-tests sources both.

TP=/sys/kernel/debug/tpstat
FIRE=/sys/kernel/debug/tpstat_test/fire
KO=/payload/ko

# plan N: the TAP lines this file prints, its own and its helpers', up to
# its "# end" line; the host counts them.
plan() { echo "# plan $T $1"; }

pass() { echo "ok - $T: $1"; }
fail() { echo "not ok - $T: $1"; }

# check DESC COMMAND...: passes if the command succeeds. Each of these
# returns 1 when it fails, for a test that says more then.
check() {
	desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; return 1; fi
}

# is DESC GOT WANT
is() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1 (got '$2', want '$3')"; return 1; fi
}

# within DESC GOT LOW HIGH: LOW <= GOT <= HIGH
within() {
	if [ "$2" -ge "$3" ] 2>/dev/null && [ "$2" -le "$4" ]; then
		pass "$1"
	else
		fail "$1 (got '$2', want $3 to $4)"
		return 1
	fi
}

# kv_bytes N: what the core's allocation of N bytes takes, as
# /proc/meminfo counts it: the kmalloc size class that holds N up to 8 KiB
# (SLUB's KMALLOC_MAX_CACHE_SIZE on x86-64, in Slab); above it whole pages
# of vmalloc (in VmallocUsed), where kmalloc would take the power of two.
kv_bytes() {
	for c in 8 16 32 64 96 128 192 256 512 1024 2048 4096 8192; do
		if [ "$1" -le $c ]; then
			echo $c
			return
		fi
	done
	echo $((($1 + 4095) / 4096 * 4096))
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

# for_host FILE: FILE goes to the host, printed by send_for_host (after
# the TAP copy, in run-tests); the host finds it in the guest's log by its
# name (scripts/guest-file).
HOST_FILES=/tmp/host
for_host() {
	mkdir -p $HOST_FILES
	cp "$1" $HOST_FILES/
}

# send_for_host: the files for_host kept, each between lines the host
# looks for, with its md5sum, so that the host knows it got them whole.
send_for_host() {
	for f in "$HOST_FILES"/*; do
		[ -f "$f" ] || continue
		echo "TPSTAT-FILE-BEGIN $(basename "$f") $(md5sum < "$f" | cut -d ' ' -f 1)"
		cat "$f"
		echo TPSTAT-FILE-END
	done
}

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

# ping_lo COUNT SIZE: COUNT pings of SIZE bytes over lo, each sent as soon
# as the last reply came.
ping_lo() { ping -A -q -c "$1" -s "$2" -W 5 127.0.0.1 > /dev/null; }

# await_tasks INSTANCE N: its scope's tasks, once they are N or after 20 s.
# A task leaves a scope when it is freed, a grace period after its reaping.
await_tasks() {
	n=0
	while [ "$(stat_of "count/$1" scope.tasks)" != "$2" ] && [ $n -lt 200 ]; do
		n=$((n + 1))
		sleep 0.1
	done
	stat_of "count/$1" scope.tasks
}

# tree_tasks PID: the tasks /proc has of PID and all it descends to.
tree_tasks() {
	cat /proc/[0-9]*/task/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
		{ ppid[$1] = $4 }
		END {
			for (p in ppid) {
				for (q = p; q != root && (q in ppid) && q > 1; q = ppid[q])
					;
				n += q == root
			}
			print n + 0
		}'
}

# ns_ping COUNT: COUNT pings over the lo of a network namespace made for
# them, gone after; prints the namespace's inode.
ns_ping() {
	unshare -n sh -c "ip link set lo up; readlink /proc/self/ns/net
		ping -A -q -c $1 -s 100 127.0.0.1 > /dev/null"
}

# netns_lo_rx: the packets each other namespace's lo received, as the net
# set's rows have them ("dev.lo.1@<namespace>.rx_packets"), those not 0,
# in rising order.
netns_lo_rx() {
	awk -F '[ .@]' '$1 == "dev" && $2 == "lo" && $3 == 1 && $4 != "" &&
		$5 == "rx_packets" && $NF > 0 { print $NF }' $TP/net/stats |
		sort -n | xargs
}

# Centiseconds since boot.
uptime_cs() {
	read -r up rest < /proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*\(.\)/\1/'
}

no_ipv6() {
	[ ! -e /proc/sys/net/ipv6/conf/$1 ] ||
		echo 1 > /proc/sys/net/ipv6/conf/$1/disable_ipv6
}

# veth_ns NAME ADDR PEER_ADDR: a veth pair, NAME here with ADDR/24, up,
# and its peer with PEER_ADDR/24, up, in a network namespace of its own
# held by a sleeping task: $VETH_NS, its pid, and $VETH_PEER, its name.
# IPv6 off on both, whose own packets (router solicitations, DAD) would
# land in a window of a test's at any time.
# busybox's ip passes no peer's name: the kernel names it (veth0), the
# device new besides NAME. A Debian kernel's veth is a module, which
# vm-run puts in the image.
veth_ns() {
	ls /sys/class/net > /tmp/veth-devs
	ip link add "$1" type veth 2> /dev/null ||
		{ insmod "/lib/modules/$(uname -r)/extra/veth.ko" &&
		  ip link add "$1" type veth; } || return 1
	VETH_PEER=$(ls /sys/class/net | grep -vx -f /tmp/veth-devs -e "$1")
	[ -n "$VETH_PEER" ] || { echo "no veth peer besides $1" >&2; return 1; }
	unshare -n sleep 1000000 &
	VETH_NS=$!
	# Until unshare has made the namespace, the task is in this one, and
	# the peer "moved" to it would stay here: after a fixed 0.2 s, a soak
	# on a loaded debug kernel once found no veth0 in the namespace.
	while [ "$(readlink /proc/$VETH_NS/ns/net)" = "$(readlink /proc/self/ns/net)" ]; do
		kill -0 $VETH_NS 2> /dev/null || return 1
		sleep 0.1
	done
	ip link set "$VETH_PEER" netns $VETH_NS || return 1
	no_ipv6 "$1"
	ip addr add "$2/24" dev "$1" && ip link set "$1" up || return 1
	nsenter -t $VETH_NS -n sh -c "ip link set lo up &&
		echo 1 > /proc/sys/net/ipv6/conf/$VETH_PEER/disable_ipv6;
		ip addr add $3/24 dev $VETH_PEER && ip link set $VETH_PEER up"
}

kmsg_lines() { dmesg | wc -l; }

# Kernel log lines since line N.
kmsg_since() { dmesg | tail -n "+$(($1 + 1))"; }

# The kernel log lines since line N that tpstat's modules printed: each
# begins with its module's name ("tpstat: ", "tpstat_count: "), as the
# kernel's module loader begins its own about a module. A check that counts
# lines in a window counts these: any other line of the kernel's may land
# in the window too (it did, on the debug kernel).
kmsg_ours_since() { kmsg_since "$1" | grep -E '(^|[]] )tpstat[a-z0-9_]*: '; }

# kmsg_noise N: N lines in the kernel log from none of tpstat's modules,
# written on purpose inside a window whose lines a test counts.
kmsg_noise() {
	noise_i=0
	while [ "$noise_i" -lt "$1" ]; do
		echo "$T: a line of no tpstat module's ($noise_i)" > /dev/kmsg
		noise_i=$((noise_i + 1))
	done
}

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

# Whether kernel lockdown is raised (mounting securityfs to see): debugfs
# then opens no file with a write bit, kmemleak's among them.
locked_down() {
	[ -e /sys/kernel/security/lockdown ] ||
		mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	grep -q '\[integrity\]\|\[confidentiality\]' /sys/kernel/security/lockdown 2>/dev/null
}

# Forgets what the kernel leaked before the tests (kernels with kmemleak).
kmemleak_start() {
	[ -e $KMEMLEAK ] && ! locked_down || return 0
	echo scan > $KMEMLEAK
	echo clear > $KMEMLEAK
}

# With everything unloaded: no leak whose allocation came through a module.
# A frame of an unloaded module prints as a bare address, one of a loaded
# module as symbol [module]. An allocation the test module leaks on purpose
# must be reported first, so the check is known to see leaks.
kmemleak_check() {
	T=kmemleak
	# Its lines, and the log check run-tests makes after it.
	if [ ! -e $KMEMLEAK ]; then
		plan 2
		skip "no leak from a tpstat module" "this kernel has no kmemleak"
		return 0
	fi
	# Not skip(), which fails on the debug kernel: its lockdown boot
	# cannot read kmemleak, and its suite's boot checks it.
	if locked_down; then
		plan 2
		echo "ok - $T: no leak from a tpstat module # SKIP kernel lockdown refuses kmemleak's file"
		return 0
	fi
	plan 4
	unload_all
	load tpstat_test_tp
	# From a process that then exits: a stale copy of a pointer on a
	# living task's kernel stack, which kmemleak scans whole, would hide it.
	# Four allocations, so that one stale copy elsewhere hides one at most.
	sh -c "echo 1 > /sys/kernel/debug/tpstat_test/leak"
	# Objects younger than 5 s are never reported.
	sleep 5
	scanned=yes
	for try in 1 2 3; do
		# The writer's kernel stack may wait in its CPU's cache of
		# stacks (kernel/fork.c keeps two a CPU, put there from an RCU
		# callback), which kmemleak scans: forks on each online CPU
		# take them and clear them. CI's debug guest once saw no leak.
		for cpu in $(online_columns | sed 's/cpu//g'); do
			taskset -c "$cpu" sh -c 'sh -c :; sh -c :; sh -c :'
		done
		# Two scans: an object is reported once unchanged between them.
		sh -c "echo scan > $KMEMLEAK && echo scan > $KMEMLEAK" ||
			scanned=no
		planted=$(grep -c 'tpstat_test_leak_write' $KMEMLEAK)
		[ "$planted" -gt 0 ] && break
		echo "# kmemleak: no planted leak reported after scan $try"
		sleep 1
	done
	echo "# kmemleak: $planted of the 4 planted reported, scan $try"
	is "kmemleak scans" "$scanned" yes
	within "kmemleak reports the allocations leaked on purpose" "$planted" 1 4
	echo 0 > /sys/kernel/debug/tpstat_test/leak
	rmmod tpstat_test_tp
	echo scan > $KMEMLEAK
	ours=$(grep -cE '\] 0xffffffff|\[tpstat' $KMEMLEAK)
	is "no leak from a tpstat module after unloading everything" "$ours" 0
	[ "$ours" -eq 0 ] || sed 's/^/# /' $KMEMLEAK
}

# Every address range the kernel's code and data may lie in, from the
# kernel itself, as "LO HI" lines of 16 lowercase hex digits: the image
# (_stext to _end in /proc/kallsyms, whose addresses are real for root),
# each module (its lowest to its highest symbol, widened to whole pages,
# since a module's sections are page-aligned; its per-CPU symbols show as
# offsets into the per-CPU area, below the kernel half, and are left out),
# and each segment of
# /proc/kcore (the direct map, vmalloc and module areas, vmemmap), so that
# heap pointers count too.
kernel_ranges() {
	awk '
	$3 == "_stext" { lo = $1 }
	$3 == "_end" { hi = $1 }
	$4 ~ /^\[/ && "x" $1 >= "x8000000000000000" {
		a = "x" $1
		if (!($4 in mlo) || a < mlo[$4])
			mlo[$4] = a
		if (!($4 in mhi) || a > mhi[$4])
			mhi[$4] = a
	}
	END {
		if (lo != "" && hi != "")
			print lo, hi
		for (m in mlo)
			print substr(mlo[m], 2, 13) "000", substr(mhi[m], 2, 13) "fff"
	}' /proc/kallsyms
	[ -r /proc/kcore ] || return 0
	# The ELF program headers: 56 bytes each, from e_phoff, in 8-byte
	# words as od prints them (little-endian, as the kernel wrote them).
	od -A n -t x8 -v -N 8192 /proc/kcore | awk '
	function num(h,   i, n) {
		n = 0
		for (i = 1; i <= length(h); i++)
			n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return n
	}
	# (a + b) mod 2^64, digit by digit: awk numbers are doubles.
	function add(a, b,   i, c, d, s) {
		s = ""
		c = 0
		for (i = 16; i >= 1; i--) {
			d = num(substr(a, i, 1)) + num(substr(b, i, 1)) + c
			c = int(d / 16)
			s = substr("0123456789abcdef", d % 16 + 1, 1) s
		}
		return s
	}
	{ for (i = 1; i <= NF; i++) w[n++] = $i }
	END {
		phoff = num(w[4]) / 8
		phnum = num(substr(w[7], 13, 4))
		for (i = 0; i < phnum; i++) {
			p = phoff + 7 * i
			# PT_LOAD, in the low half of the word with p_flags.
			if (substr(w[p], 9, 8) != "00000001" || w[p + 5] ~ /^0+$/)
				continue
			print w[p + 2], add(add(w[p + 2], w[p + 5]), "ffffffffffffffff")
		}
	}'
}

# address_leaks FILE...: every number in FILEs ("-" for stdin) that falls
# inside one of kernel_ranges, read as decimal, as hex after "0x", or as
# bare hex of 8 digits or more; and the shape of a hashed %p (16 hex digits,
# the first 8 zeros) or of one printed before hashing was ready. Prints
# "FILE: NUMBER (how it was read)" for each; nothing if there is none.
address_leaks() {
	kernel_ranges > /tmp/kernel-ranges
	awk '
	# Exact, on digit strings: awk numbers are doubles.
	function dec2hex(s,   h, q, r, i, d, n) {
		h = ""
		while (s != "" && s !~ /^0+$/) {
			q = ""
			r = 0
			for (i = 1; i <= length(s); i++) {
				d = r * 10 + substr(s, i, 1)
				n = int(d / 16)
				r = d - n * 16
				if (q != "" || n)
					q = q n
			}
			h = substr("0123456789abcdef", r + 1, 1) h
			s = q
		}
		return h
	}
	# Compared as strings of equal length, "x" first so never as numbers.
	function inside(h, what,   i) {
		sub(/^0+/, "", h)
		if (length(h) > 16)
			return
		h = "x" substr("0000000000000000", 1, 16 - length(h)) h
		for (i = 0; i < nr; i++)
			if (h >= lo[i] && h <= hi[i]) {
				print FILENAME ": " what " in " substr(lo[i], 2) "-" substr(hi[i], 2)
				return
			}
	}
	BEGIN { nr = 0 }
	FNR == NR { lo[nr] = "x" $1; hi[nr] = "x" $2; nr++; next }
	index($0, "ptrval") { print FILENAME ": " $0 " (a %p before hashing)" }
	{
		line = tolower($0)
		s = line
		while (match(s, /0x[0-9a-f]+/)) {
			t = substr(s, RSTART + 2, RLENGTH - 2)
			inside(t, "0x" t " (hex)")
			s = substr(s, RSTART + RLENGTH)
		}
		s = line
		while (match(s, /[0-9]+/)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			inside(dec2hex(t), t " (decimal)")
		}
		s = line
		while (match(s, /[0-9a-f]+/)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (length(t) == 16 && t ~ /^00000000/)
				print FILENAME ": " t " (a hashed %p)"
			else if (length(t) >= 8)
				inside(t, t " (bare hex)")
		}
	}' /tmp/kernel-ranges "$@"
}

# tpstat_files: every readable file of tpstat's and of the test and sample
# modules' debugfs directories.
tpstat_files() {
	find /sys/kernel/debug/tpstat* -type f -perm -0400
}

# same DESC GOT WANT: files GOT and WANT hold the same lines, in any order;
# if not, the lines only one of them holds, "-" wanted and "+" got.
same() {
	sort "$2" > /tmp/same.got
	sort "$3" > /tmp/same.want
	if cmp -s /tmp/same.got /tmp/same.want; then
		pass "$1"
	else
		fail "$1"
		diff /tmp/same.want /tmp/same.got | grep '^[-+][^-+]' | sed 's/^/# /'
	fi
	rm -f /tmp/same.got /tmp/same.want
}

# The online CPUs as the files' columns title them: "0-1,3" -> "cpu0 cpu1 cpu3".
online_columns() {
	for r in $(tr , ' ' < /sys/devices/system/cpu/online); do
		c=${r%-*}
		while [ "$c" -le "${r#*-}" ]; do
			printf 'cpu%d ' "$c"
			c=$((c + 1))
		done
	done | sed 's/ $//'
}

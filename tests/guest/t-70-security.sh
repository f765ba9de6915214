# SPDX-License-Identifier: GPL-2.0
# Root-only files, no kernel addresses in any output, memory fixed at load
# and reported exactly.

# Possible CPUs, as the kernel sizes per-CPU data: "0-1" -> 2.
possible=$(cat /sys/devices/system/cpu/possible)
ncpus=$((${possible#*-} + 1))
mem() { stat_line "$TP/memory" "$1"; }
stat_line() {
	while read -r k v; do
		[ "$k" = "$2" ] && echo "$v"
	done < "$1"
}

load tpstat
load tpstat_test_tp
load tpstat_test_probe
load tpstat_count tracepoints=tpstat_test_fire,sched_switch,kmalloc
load_everything
fire 100

wide=$(find $TP -type f | while read -r f; do
	case $(stat -c %a "$f") in 400|600|200) ;; *) echo "$f" ;; esac
done)
is "every file is root-only (0400, 0600 or 0200)" "$wide" ""

# x86-64 kernel addresses start with ffff; hashed %p values are 0x-prefixed.
leaks=$(find $TP -type f -perm -0400 | while read -r f; do
	grep -lE 'ffff[0-9a-f]{12}|0x[0-9a-f]{8}' "$f"
done)
is "no file prints a kernel address" "$leaks" ""

is "memory: total is the sum of the kinds" "$(mem total)" \
	$(($(mem counters) + $(mem histograms) + $(mem tables) + $(mem scratch)))
before=$(mem counters)
echo kfree > $TP/count/control
# hits and dropped, each one u64 per CPU; one generation between resets.
is "memory: a probe adds two u64 counters per CPU" $(($(mem counters) - before)) $((2 * 8 * ncpus))

rmmod tpstat_test_probe
load tpstat_test_probe table_keys=64
small=$(mem tables)
rmmod tpstat_test_probe
load tpstat_test_probe table_keys=1024
# 2x the keys rounded up to a power of two, 32-byte slots, per CPU.
is "memory: tables grow with table_keys, exactly" $(($(mem tables) - small)) \
	$((ncpus * (2048 - 128) * 32))
unload_all
load tpstat
is "memory: nothing left once the sets are gone" "$(mem total)" 0
unload_all

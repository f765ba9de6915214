# SPDX-License-Identifier: GPL-2.0
# tpstat_kmem's outstanding allocations by stack (stacks=1) against a
# leak driven on purpose: K kmallocs of S bytes held by
# tpstat_test_kmem_leak() show under one stack, the allocator's entry
# called from that function, as exactly K allocations of K*S bytes (the
# size requested), their oldest as old as the time since they were made
# against /proc/uptime; the same in the folded file, outermost first,
# which tpstat flame draws; no address printed; then nothing under that
# stack once they are freed. A reset drops the rows, not the
# allocations: held across it, they are counted apart. A table of one
# stack counts the leak under its row or under none, never loses it.

plan 17

K=$TP/kmem
TK=/sys/kernel/debug/tpstat_test_kmem
F=$K/outstanding_stacks
N=250 S=100

# leak_rows FILE: over the stacks of FILE whose second frame is
# tpstat_test_kmem_leak (their first is the allocator's entry it called:
# the stacks of kmemleak's own objects, made for each of these, hold the
# function further out), their number, allocations and bytes summed, and
# the oldest's age in ms; "0 0 0 0" if none.
leak_rows() {
	awk '
		function row() {
			if (leak) {
				rows++
				count += c
				bytes += b
				if (age > oldest)
					oldest = age
			}
			n = leak = 0
		}
		/^$/ { row(); next }
		/^        [0-9]+ allocations, [0-9]+ bytes, oldest [0-9]+ ms$/ {
			c = $1; b = $3; age = $6
			next
		}
		/^    [^ ]/ {
			n++
			if (n == 2 && $1 ~ /^tpstat_test_kmem_leak\+/)
				leak = 1
		}
		END { row(); print rows + 0, count + 0, bytes + 0, oldest + 0 }' "$1"
}

load tpstat
check "tpstat_kmem.ko loads with stacks=1" load tpstat_kmem stacks=1
check "tpstat_test_kmem.ko loads" load tpstat_test_kmem

t0=$(uptime_cs)
echo "$N $S" > $TK/leak
t1=$(uptime_cs)
sleep 1
t2=$(uptime_cs)
cat $F > /tmp/memleak-held
cat $K/outstanding_folded > /tmp/memleak-folded
t3=$(uptime_cs)
# The file's head, the leak's stack and its last lines, for the log.
awk 'NR <= 2 || /^$/ { block = ""; if (NR <= 2) print; next }
	{ block = block $0 "\n" }
	/^        [0-9]+ allocations/ && index(block, "\n    tpstat_test_kmem_leak+") &&
	    !index(block, "kmemleak") { printf "\n%s", block }' /tmp/memleak-held |
	sed 's/^/# /'
echo "# ..."
sed 's/^/# /' /tmp/memleak-held | tail -n 4
set -- $(leak_rows /tmp/memleak-held)
is "a leak of $N: one stack, called from tpstat_test_kmem_leak" "$1" 1
is "a leak of $N: its $N allocations outstanding" "$2" $N
is "a leak of $N: their $((N * S)) bytes, as requested" "$3" $((N * S))
# Made between t0 and t1, read between t2 and t3 (centiseconds), give or
# take a jiffy and a read's rounding.
within "a second later, its oldest's age is the time since it was made" \
	"$4" $(((t2 - t1) * 10 - 20)) $(((t3 - t0) * 10 + 20))
is "outstanding by site agrees: the leak's site, $N of $((N * S)) bytes" \
	"$(awk '$1 ~ /^tpstat_test_kmem_leak\+/ { print $3, $4 }' $K/outstanding)" \
	"$N $((N * S))"
# Folded, outermost first: the leak's function, then the allocator's
# entry, the last frame, and the bytes.
leak_line=$(grep -c ';tpstat_test_kmem_leak \[tpstat_test_kmem\];[^;]* '"$((N * S))"'$' \
	/tmp/memleak-folded)
if ! is "folded: one line ending in the leak's function and the allocator, with $((N * S)) bytes" \
	"$leak_line" 1; then
	grep 'tpstat_test_kmem_leak' /tmp/memleak-folded | sed 's/^/# /'
fi
# Every line is "FRAMES BYTES", the last the bytes under no row.
bad=$(awk '!/^[^ ;][^;]*(;[^;]+)* [0-9]+$/ { n++ }
	{ last = $1 }
	END { print n + 0, last }' /tmp/memleak-folded)
is "folded: every line is frames and bytes, the last [other]" "$bad" "0 [other]"

# Frames are named, never printed as addresses, in any base.
is "no address in outstanding_stacks, outstanding_folded or the stats" \
	"$(address_leaks /tmp/memleak-held /tmp/memleak-folded $K/stats)" ""

# tpstat flame reads the file by its path: a frame of the leak's function
# as wide as its bytes at least (on the debug kernel kmemleak's objects
# made for them are under it too).
svg_bytes=none
if /payload/bin/tpstat flame kmem/outstanding_folded -o /tmp/memleak.svg; then
	svg_bytes=$(grep -o 'tpstat_test_kmem_leak \[tpstat_test_kmem\]&#10;[0-9]*' \
		/tmp/memleak.svg | sed 's/.*;//' | sort -n | tail -n 1)
fi
within "tpstat flame draws it: the leak's frame, $((N * S)) bytes at least" \
	"$svg_bytes" $((N * S)) 1000000000

echo 0 > $TK/leak
is "freed: nothing under the leak's stack" "$(leak_rows $F)" "0 0 0 0"

# A reset drops the rows with the stacks, but not the allocations: those
# held across it are counted apart, with their bytes, and the leak has no
# row until it allocates again.
echo "$N $S" > $TK/leak
echo 1 > $K/reset
is "held across a reset: no row of the leak" "$(leak_rows $F)" "0 0 0 0"
within "held across a reset: its $N counted apart" \
	"$(stat_of kmem stacks.reset.outstanding)" $N 1000000000
echo 0 > $TK/leak

# A table of one stack, taken by the first allocation after the load: the
# leak is under its row if it was that one, else under no row, counted
# there since the reset and outstanding, with its bytes; never lost.
rmmod tpstat_kmem
check "tpstat_kmem.ko loads with stacks=1 max_stacks=1" \
	load tpstat_kmem stacks=1 max_stacks=1
echo 1 > $K/reset
echo "$N $S" > $TK/leak
cat $K/stats > /tmp/memleak-one
set -- $(leak_rows $F)
no_row=$(awk '$1 == "stacks.no_row" { print $2 }' /tmp/memleak-one)
held=$(awk '$1 == "stacks.no_row.outstanding" { print $2 }' /tmp/memleak-one)
held_bytes=$(awk '$1 == "stacks.no_row.outstanding_bytes" { print $2 }' /tmp/memleak-one)
if [ "$1 $2 $3" = "1 $N $((N * S))" ]; then
	got="row $N"
elif [ "$no_row" -ge $N ] && [ "$held" -ge $N ] &&
	[ "$held_bytes" -ge $((N * S)) ]; then
	got="no row $N"
else
	got="lost: rows $*, no row $no_row since the reset, $held ($held_bytes bytes) outstanding"
fi
echo "# a full table: $got"
is "a full table: the leak's $N under its row or under no row, with their bytes" \
	"${got##* }" $N
# Its one row stays taken until the reset, its allocations freed or not.
is "a full table holds its one stack" \
	"$(awk '$1 == "stacks.held" { print $2 }' /tmp/memleak-one)" 1
echo 0 > $TK/leak
unload_all

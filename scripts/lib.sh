# SPDX-License-Identifier: GPL-2.0
# Shell helpers the scripts share. Source it; it sets no options of its own.

TPSTAT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Where builds, logs and cached tools go; a separate one per concurrent user.
TPSTAT_OUT=${TPSTAT_OUT:-$TPSTAT_ROOT/build}

# What is built once per machine and kept across clones: the debug kernel.
TPSTAT_CACHE=${TPSTAT_CACHE:-/var/cache/tpstat}

# The Debian kernel series tpstat is built and tested on.
TPSTAT_SERIES=(6.1 6.12)

# Newest installed kernel of a series with both an image and a kbuild tree.
tpstat_kernel_of() {
	local v
	for v in $(ls /lib/modules 2>/dev/null | sort -rV); do
		case $v in "$1".*|"$1"-*) ;; *) continue ;; esac
		if [ -e "/boot/vmlinuz-$v" ] && [ -d "/lib/modules/$v/build" ]; then
			echo "$v"
			return 0
		fi
	done
	return 1
}

# Every installed kernel with a kbuild tree, one per line.
tpstat_installed_kernels() {
	local d
	for d in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V); do
		basename "$(dirname "$d")"
	done
}

# Every tested kernel, one per line; fails if a series is not installed.
tpstat_kernels() {
	local s
	for s in "${TPSTAT_SERIES[@]}"; do
		tpstat_kernel_of "$s" || return 1
	done
}

# The release name of the cached debug kernel built under KEY, if complete.
tpstat_debug_release() {
	local d
	for d in "$TPSTAT_CACHE"/kernels/*-tpstat-debug-"$1"; do
		[ -e "$d/vmlinuz" ] && basename "$d"
	done
	return 0
}

# The kbuild tree of a kernel: a Debian one, else the cached debug kernel.
tpstat_kdir() {
	if [ -d "/lib/modules/$1/build" ]; then
		echo "/lib/modules/$1/build"
	else
		echo "$TPSTAT_CACHE/kernels/$1/build"
	fi
}

# The bootable image of a kernel, the same way.
tpstat_kimage() {
	if [ -e "/boot/vmlinuz-$1" ]; then
		echo "/boot/vmlinuz-$1"
	else
		echo "$TPSTAT_CACHE/kernels/$1/vmlinuz"
	fi
}

# The guest test files the patterns in TESTS (default: all) name, one per
# line, as tests/guest/ has them; fails if a pattern matches none.
tpstat_test_files() {
	local pattern f found
	for pattern in ${TESTS:-t-*.sh}; do
		found=
		for f in "$TPSTAT_ROOT"/tests/guest/$pattern; do
			[ -f "$f" ] || continue
			basename "$f"
			found=1
		done
		if [ -z "$found" ]; then
			echo "TESTS: '$pattern' names no file in tests/guest/" >&2
			return 1
		fi
	done
}

# tpstat's version, from the one place it is kept.
tpstat_version() {
	sed -n 's/^#define TPSTAT_VERSION[[:space:]]*"\(.*\)"$/\1/p' "$TPSTAT_ROOT/core/internal.h"
}

# Long runs end with the time each stage took. tpstat_stage NAME ends the
# stage under way, if any, and starts NAME; tpstat_stage_took NAME SECONDS
# records one timed elsewhere (in the background); tpstat_stage_times
# PREFIX ends the last and prints them all, then the whole run's time.
TPSTAT_STAGE_TIMES=()
tpstat_stage() {
	tpstat_stage_end
	TPSTAT_STAGE=$1
	TPSTAT_STAGE_START=$SECONDS
}
tpstat_stage_end() {
	[ -n "${TPSTAT_STAGE:-}" ] || return 0
	tpstat_stage_took "$TPSTAT_STAGE" $((SECONDS - TPSTAT_STAGE_START))
	TPSTAT_STAGE=
}
tpstat_stage_took() {
	TPSTAT_STAGE_TIMES+=("$(printf '%6d s  %s' "$2" "$1")")
}
tpstat_stage_times() {
	local line
	tpstat_stage_end
	echo "${1}time each stage took:"
	for line in "${TPSTAT_STAGE_TIMES[@]}"; do
		echo "$1$line"
	done
	printf '%s%6d s  %s\n' "$1" "$SECONDS" "the whole run"
}

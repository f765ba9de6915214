# SPDX-License-Identifier: GPL-2.0
# Shell helpers the scripts share. Source it; it sets no options of its own.

TPSTAT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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

# Every tested kernel, one per line; fails if a series is not installed.
tpstat_kernels() {
	local s
	for s in "${TPSTAT_SERIES[@]}"; do
		tpstat_kernel_of "$s" || return 1
	done
}

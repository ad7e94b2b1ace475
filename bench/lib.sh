# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - what the comparison scripts share; sourced, not run.
# Sets TOP (the tree), IB (its interbench, which must be built) and TMP
# (a directory removed on exit), and defines median and ib_lockwait.

TOP=$(cd "$(dirname "$0")/.." && pwd)
IB="$TOP/interbench"
[ -x "$IB" ] || { echo "build interbench first (make)"; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ibbench.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# The median of the numbers on stdin, one a line; "-" for none.
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) print "-"
		      else if (NR % 2) print v[(NR + 1) / 2]
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ib_lockwait OUT ARGS...: "$IB" ARGS with its output in the file OUT.
# While another interbench measures (exit 3, "another interbench": the
# run lock), wait and try again, two minutes at most, rather than
# measure beside it. 0, or 1 (OUT says why).
ib_lockwait() {
	lw_out=$1
	shift
	lw_n=0
	while :; do
		"$IB" "$@" >"$lw_out" 2>&1 && return 0
		grep -q "another interbench" "$lw_out" && [ $lw_n -lt 60 ] ||
			return 1
		lw_n=$((lw_n + 1))
		sleep 2
	done
}

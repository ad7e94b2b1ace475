# SPDX-License-Identifier: GPL-2.0-or-later
# bench/lib.sh - what the comparison scripts share; sourced, not run.
# Sets TOP (the tree), IB (its interbench, which must be built) and TMP
# (a directory removed on exit), and defines median.

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

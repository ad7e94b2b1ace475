#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/trace-overhead.sh - what --trace costs the figures it explains:
# ROUNDS rounds, each a run without --trace and one with it (in turn
# first, so that drift over time falls on both alike), of Audio and Video
# under None and Burn for SECONDS a cell. Prints each cell's median p50
# and p99 latency over the rounds, without and with, and their ratios
# (with / without; 1.00 is no cost). Needs root (tracefs) and jq.
#
#   bench/trace-overhead.sh [ROUNDS [SECONDS]]   (5, 10)
#   TRACE=--trace-timer: measure that instead of --trace
#   IB=path: the binary (copied first: a rebuild meanwhile changes nothing)
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${1:-5}
SECS=${2:-10}
IB=${IB:-./interbench}
TRACE=${TRACE:---trace}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/ibtrace.XXXXXX") || exit 1
trap 'rm -rf "$OUT"' EXIT
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
[ -x "$IB" ] || make -s interbench || exit 1
cp "$IB" "$OUT/ib" && IB=$OUT/ib || exit 1

run() {	# run ROUND MODE: one run's cells into $OUT/MODE.ROUND.json
	opt=
	[ "$2" = trace ] && opt=$TRACE
	# Exit 3: another run holds the lock or the trace instance (a test
	# suite's): wait for it, a few times.
	for try in 1 2 3 4 5 6; do
		"$IB" -c -t "$SECS" -W Audio -W Video -w None -w Burn $opt \
			--json "$OUT/$2.$1.json" >"$OUT/$2.$1.out" 2>&1
		rc=$?
		[ $rc = 3 ] || break
		echo "round $1, $2: exit 3, again in 20 s (try $try)" >&2
		sleep 20
	done
	[ $rc = 0 ] || { cat "$OUT/$2.$1.out" >&2; exit 1; }
}

r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then run $r plain; run $r trace
	else run $r trace; run $r plain; fi
	echo "round $r of $ROUNDS done" >&2
	r=$((r + 1))
done

# bench load mode p50 p99, one line per cell and run; then medians.
for f in "$OUT"/*.json; do
	mode=$(basename "$f" | cut -d. -f1)
	jq -r --arg m "$mode" '.results[] | select(.status == "ok") |
		"\(.bench) \(.load) \($m) \(.latency_us.p50) \(.latency_us.p99)"' "$f"
done | sort | awk -v rounds="$ROUNDS" -v secs="$SECS" -v trace="$TRACE" '
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j] + 0 < a[j - 1] + 0; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	k = $1 " " $2
	if (!(k in seen)) { seen[k] = 1; cells[++nc] = k }
	p50[k, $3] = p50[k, $3] " " $4
	p99[k, $3] = p99[k, $3] " " $5
}
END {
	printf "%s overhead: %d rounds of %g s cells; median latency in us\n",
		trace, rounds, secs
	printf "%-7s %-5s %9s %9s %6s %9s %9s %6s\n", "bench", "load",
		"p50", "traced", "ratio", "p99", "traced", "ratio"
	for (i = 1; i <= nc; i++) {
		k = cells[i]; split(k, c, " ")
		a = median(p50[k, "plain"]); b = median(p50[k, "trace"])
		x = median(p99[k, "plain"]); y = median(p99[k, "trace"])
		printf "%-7s %-5s %9.1f %9.1f %6.2f %9.1f %9.1f %6.2f\n",
			c[1], c[2], a, b, b / a, x, y, y / x
	}
}'

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/gaming-clock.sh - what reading the thread's CPU clock in the hot
# path changes. Builds the other way (-DIB_BENCH_CPU_CLOCK, never
# shipped: the burn reads CLOCK_THREAD_CPUTIME_ID every 20 us and Gaming
# reads it around every frame, its latency being wall time minus CPU
# time) next to the shipped one (the burn looks only at CLOCK_MONOTONIC;
# a frame's latency is the burn's gaps), then runs ROUNDS rounds, each a
# run of both (in turn first) of Gaming under None and Burn for SECONDS a
# cell, plus Audio and Video (whose burns read the CPU clock too). Prints
# each cell's median over the rounds of latency p50, p99 and % desired
# CPU, and the ratios (shipped / CPU clock). Needs jq and a C compiler.
#
#   bench/gaming-clock.sh [ROUNDS [SECONDS]]   (5, 5)
#   IB=path: the shipped binary to compare (default ./interbench)
#   SRC=dir: the tree to build the other way from (default: this one)
cd "${SRC:-$(dirname "$0")/..}" || exit 1
ROUNDS=${1:-5}
SECS=${2:-5}
CC=${CC:-cc}
OUT=$(mktemp -d "${TMPDIR:-/tmp}/ibclock.XXXXXX") || exit 1
trap 'rm -rf "$OUT"' EXIT
command -v jq >/dev/null || { echo "needs jq" >&2; exit 1; }
[ -n "$IB" ] || { make -s interbench || exit 1; IB=./interbench; }
# Copies: a rebuild meanwhile must not change what is measured.
cp "$IB" "$OUT/gaps" || exit 1
SRCS="stats.c hackbench.c $(ls lib/*.c core/*.c simulators/*.c loads/*.c \
	cli/*.c run/*.c outputs/*.c report/*.c compare/*.c cmd/*.c) interbench.c"
# shellcheck disable=SC2086
$CC -D_GNU_SOURCE -I. -O2 -std=gnu11 -pthread -DIB_BENCH_CPU_CLOCK \
	-o "$OUT/clock" $SRCS -lrt -lm || exit 1

run() {	# run ROUND WAY: one run's cells into $OUT/WAY.ROUND.json
	"$OUT/$2" -c -t "$SECS" -W Gaming -W Audio -W Video -w None -w Burn \
		--json "$OUT/$2.$1.json" >"$OUT/$2.$1.out" 2>&1 ||
		{ cat "$OUT/$2.$1.out" >&2; exit 1; }
}

r=1
while [ $r -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then run $r clock; run $r gaps
	else run $r gaps; run $r clock; fi
	echo "round $r of $ROUNDS done" >&2
	r=$((r + 1))
done

for f in "$OUT"/*.json; do
	way=$(basename "$f" | cut -d. -f1)
	jq -r --arg w "$way" '.results[] | select(.status == "ok") |
		"\(.bench) \(.load) \($w) \(.latency_us.p50) \(.latency_us.p99) \(.desired_cpu_pct) \(100 - (.interference.task_runq_wait_pct // 100))"' "$f"
done | sort | awk -v rounds="$ROUNDS" -v secs="$SECS" '
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
	cpu[k, $3] = cpu[k, $3] " " $6
	rq[k, $3] = rq[k, $3] " " $7
}
END {
	printf "CPU clock in the hot path: %d rounds of %g s cells; medians, latency in us\n",
		rounds, secs
	printf "(clock: the CPU clock read every 20 us of work; gaps: shipped, none;\n"
	printf " %%cpu: %% desired CPU; notwait: 100 - the threads\x27 runq wait %%, schedstat)\n"
	printf "%-7s %-5s %8s %8s %5s %8s %8s %5s %6s %6s %7s %6s\n", "bench",
		"load", "p50", "gaps", "ratio", "p99", "gaps", "ratio", "%cpu",
		"gaps", "notwait", "gaps"
	for (i = 1; i <= nc; i++) {
		k = cells[i]; split(k, c, " ")
		a = median(p50[k, "clock"]); b = median(p50[k, "gaps"])
		x = median(p99[k, "clock"]); y = median(p99[k, "gaps"])
		printf "%-7s %-5s %8.1f %8.1f %5.2f %8.1f %8.1f %5.2f %6.1f %6.1f %7.1f %6.1f\n",
			c[1], c[2], a, b, a ? b / a : 0, x, y, x ? y / x : 0,
			median(cpu[k, "clock"]), median(cpu[k, "gaps"]),
			median(rq[k, "clock"]), median(rq[k, "gaps"])
	}
}'

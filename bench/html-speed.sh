#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/html-speed.sh - what --html and compare cost as the cells grow:
# 10, 100 and 1000 results.
#  - --html: made-up results through the run's page sink (tests/pagebench,
#    built here), cells of 0 and 20 ms, and a page drawn after every
#    result as --html did before; the seconds the pages took in all.
#  - compare: two made-up files of N cells (one repeat, small
#    histograms), the median of three runs of `interbench compare`.
# Linear: ten times the cells, about ten times the seconds.
#
#   bench/html-speed.sh [every]   (every: also the old way, 3 minutes)
. "$(dirname "$0")/lib.sh"
make -s -C "$TOP" tests/pagebench || exit 1
PB=$TOP/tests/pagebench
echo "--html (the run's page sink), seconds of pages in all:"
for n in 10 100 1000; do
	"$PB" $n 0
	"$PB" $n 20
	[ "${1:-}" = every ] && "$PB" $n 0 every
done
# A file of N cells (tasks T0.. x 10 loads), one repeat each; shift
# scales its latencies.
mkfile() {
	awk -v n="$1" -v seed="$2" -v shift="$3" 'BEGIN {
		srand(seed)
		printf "{\"schema\": \"interbench-result/1\", "
		printf "\"interbench_version\": \"0.40\", \"results\": ["
		for (c = 0; c < n; c++) {
			m = (100 + c % 10) * shift * (1 + rand() / 20)
			printf "%s{\"bench\": \"T%d\", \"load\": \"L%d\", ", c ? ", " : "", c / 10, c % 10
			printf "\"repeat\": 1, \"status\": \"ok\", "
			printf "\"latency_us\": {\"mean\": %g, \"max\": %g, \"p99\": %g}, ", m, m * 4, m * 3
			printf "\"desired_cpu_pct\": %g, \"deadlines_met_pct\": %g, ", 100 - rand(), 100 - 2 * rand()
			printf "\"histogram\": {\"unit\": \"ns\", \"buckets\": [[1000, 1007, 5]]}}"
		}
		printf "]}\n"
	}' >"$4"
}
echo "compare, two files of N cells, median of 3 runs:"
for n in 10 100 1000; do
	mkfile $n 1 1.00 "$TMP/a$n.json"
	mkfile $n 2 1.01 "$TMP/b$n.json"
	for i in 1 2 3; do
		t0=$(date +%s%N)
		"$IB" compare "$TMP/a$n.json" "$TMP/b$n.json" >/dev/null 2>&1
		echo $(( ($(date +%s%N) - t0) / 1000 ))
	done | median | awk -v n=$n '{ printf "%d cells: %.3f s\n", n, $1 / 1e6 }'
done

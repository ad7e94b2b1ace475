#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/compare-speed.sh - time `interbench compare` on 10 result files of
# 50 cells and 10 repeats each (made up here, the histograms small):
# three runs, their median. Target: under 2 seconds.
#
#   bench/compare-speed.sh [INTERBENCH]      (default ./interbench)
IB=${1:-./interbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for f in 0 1 2 3 4 5 6 7 8 9; do
	awk -v seed=$((f * 7919 + 1)) -v shift="1.0$f" 'BEGIN {
		srand(seed)
		printf "{\"schema\": \"interbench-result/1\", "
		printf "\"interbench_version\": \"0.40\", \"results\": ["
		n = 0
		for (r = 1; r <= 10; r++)
			for (t = 0; t < 4; t++)
				for (l = 0; l < 13; l++) {
					if (t * 13 + l >= 50)
						continue
					m = (100 + 10 * l) * shift * (1 + rand() / 20)
					printf "%s{\"bench\": \"T%d\", \"load\": \"L%d\", ", n++ ? ", " : "", t, l
					printf "\"repeat\": %d, \"status\": \"ok\", ", r
					printf "\"latency_us\": {\"mean\": %g, \"max\": %g, \"p99\": %g}, ", m, m * 4, m * 3
					printf "\"desired_cpu_pct\": %g, \"deadlines_met_pct\": %g, ", 100 - rand(), 100 - 2 * rand()
					printf "\"histogram\": {\"unit\": \"ns\", \"buckets\": [[1000, 1007, 5]]}, "
					printf "\"load_work\": {\"burn_loops_per_s\": %g}}", 1e9 * (1 + rand() / 50)
				}
		printf "]}\n"
	}' >"$dir/r$f.json"
done
times=""
for i in 1 2 3; do
	s=$(date +%s.%N)
	"$IB" compare "$dir"/r0.json "$dir"/r[1-9].json >"$dir/out" || exit 1
	e=$(date +%s.%N)
	times="$times $(echo "$e - $s" | bc 2>/dev/null || awk "BEGIN { print $e - $s }")"
done
echo "10 files x 50 cells x 10 repeats: $(wc -l <"$dir/out") lines of report;" \
	"seconds:$times; median $(echo $times | tr ' ' '\n' | sort -n | sed -n 2p)"

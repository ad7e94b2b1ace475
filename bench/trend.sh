#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/trend.sh - `interbench trend`'s calibration and speed.
#
#   bench/trend.sh calib [FAMILIES]   tests/unit-changepoint at log-SDs
#                                     0.05 to 0.3 (a real -t 2 cell's
#                                     p99 is 0.05 to 0.6): how often
#                                     nothing is found when nothing
#                                     changed, how often a 30 % step at
#                                     file 8 of 12 is found there; the
#                                     outlying nights' line: how often a
#                                     night is flagged with nothing wrong,
#                                     how often one night 1.3, 1.5, 2x is
#   bench/trend.sh speed              50 files of 50 cells x 3 repeats
#                                     (made up here; two cells 30 %
#                                     slower from file 40): three runs,
#                                     their median. Target: under 2 s.
. "$(dirname "$0")/lib.sh"

calib() {
	make -C "$TOP" -s tests/unit-changepoint || exit 1
	for s in 0.05 0.10 0.15 0.20 0.30; do
		"$TOP/tests/unit-changepoint" families="${1:-200}" sigma=$s |
			sed -n 's/^# //p'
	done
}

speed() {
	for f in $(seq 1 50); do
		awk -v seed=$((f * 7919 + 1)) -v f=$f 'BEGIN {
			srand(seed)
			printf "{\"schema\": \"interbench-result/1\", "
			printf "\"interbench_version\": \"0.40\", "
			printf "\"tag\": \"night%d\", \"results\": [", f
			n = 0
			for (r = 1; r <= 3; r++)
				for (c = 0; c < 50; c++) {
					step = (c < 2 && f >= 40) ? 1.3 : 1
					m = (100 + 10 * c) * step * exp(0.1 * (rand() + rand() + rand() - 1.5))
					printf "%s{\"bench\": \"T%d\", \"load\": \"L%d\", ", n++ ? ", " : "", c % 5, c / 5
					printf "\"repeat\": %d, \"status\": \"ok\", ", r
					printf "\"latency_us\": {\"mean\": %g, \"p50\": %g, \"p90\": %g, \"max\": %g, \"p99\": %g}, ", m, m, m * 2, m * 4, m * 3
					printf "\"desired_cpu_pct\": %g, \"deadlines_met_pct\": %g, ", 100 - rand(), 100 - 2 * rand()
					printf "\"histogram\": {\"unit\": \"ns\", \"buckets\": [[1000, 1007, 5]]}}"
				}
			printf "]}\n"
		}' >"$TMP/n$(printf %02d "$f").json"
	done
	times=""
	for i in 1 2 3; do
		s=$(date +%s.%N)
		"$IB" trend "$TMP"/n*.json >"$TMP/out"
		rc=$?
		e=$(date +%s.%N)
		[ $rc -le 1 ] || { cat "$TMP/out"; exit 1; }
		times="$times $(awk "BEGIN { print $e - $s }")"
	done
	grep -c " at " "$TMP/out" | sed 's/^/changes reported: /'
	grep "^T0/L0 \|^T1/L0 " "$TMP/out" | cut -c1-100
	echo "50 files x 50 cells x 3 repeats: median of 3 runs" \
		"$(echo "$times" | tr ' ' '\n' | grep . | median) s (runs:$times)"
}

case $1 in
calib) calib "$2" ;;
speed) speed ;;
*) echo "usage: bench/trend.sh calib [FAMILIES] | speed" >&2; exit 2 ;;
esac

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mknights.sh - write a made-up series of nightly result files for
# `interbench trend`: 50 cells (Audio, Video, X, Custom, Cyclic under ten
# loads), each night's repeats drawn around a fixed base per cell with a
# log-SD of SIGMA in each latency figure (p50, p90 and p99 drawn apart;
# the mean is the p50) but the max, whose log-SD is MAXSIGMA (a run's
# worst wakeup varies far more than its median), % desired CPU 100 and
# % deadlines met about 99.5 (SD 0.2 points).
#
# Usage: mknights.sh [-n NIGHTS] [-r REPEATS] [-S SIGMA] [-M MAXSIGMA] [-s SEED]
#                    [-k CELL:NIGHT:FACTOR]... [-o CELL:NIGHT:FACTOR]...
#                    [-B BUCKETS] DIR PREFIX
#   -n  nights (files; default 12), written DIR/PREFIX01.json ... in order
#       (zero-padded to the last night's width, so that a glob sorts them)
#   -r  repeats a night (default 3)
#   -S  the repeats' log-SD (default 0.03: a 3 % run-to-run spread)
#   -M  the max latency's log-SD (default 0.25)
#   -s  seed of the draws (default 1): the same arguments, the same files
#   -k  CELL (e.g. Video/Burn) times FACTOR from night NIGHT on (1-based)
#   -o  CELL times FACTOR on night NIGHT alone
#   -B  histogram buckets a result (default 1; 150 gives a real run's
#       size, about 600 KB a file of 150 results)
# Draws are Wichmann and Hill's, so every awk gives the same files.
nights=12 reps=3 sigma=0.03 maxsigma=0.25 seed=1 steps="" ones="" buckets=1
while getopts n:r:S:M:s:k:o:B: opt; do
	case $opt in
	n) nights=$OPTARG ;;
	r) reps=$OPTARG ;;
	S) sigma=$OPTARG ;;
	M) maxsigma=$OPTARG ;;
	s) seed=$OPTARG ;;
	k) steps="$steps $OPTARG" ;;
	o) ones="$ones $OPTARG" ;;
	B) buckets=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
	echo "usage: mknights.sh [options] DIR PREFIX" >&2
	exit 2
fi
awk -v nights="$nights" -v reps="$reps" -v sigma="$sigma" -v s0="$seed" \
    -v maxsigma="$maxsigma" \
    -v steps="$steps" -v ones="$ones" -v buckets="$buckets" \
    -v dir="$1" -v prefix="$2" '
# Wichmann and Hill (1982): three small generators summed, exact in awk
# doubles (Park-Miller alone put the repeats of a cell, 500 draws apart,
# on a lattice: all three of one cell low together).
function rnd(   u) {
	s1 = (171 * s1) % 30269; s2 = (172 * s2) % 30307; s3 = (170 * s3) % 30323
	u = s1 / 30269 + s2 / 30307 + s3 / 30323
	u -= int(u)
	return u > 0 ? u : 0.5 / 30269
}
function gauss() { return sqrt(-2 * log(rnd())) * cos(6.283185307179586 * rnd()) }
# FACTOR for cell on night f: a step from its night on, or that night alone
function factor(cell, f,   i, n, a, v) {
	v = 1
	n = split(steps, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], w, ":")
		if (w[1] == cell && f >= w[2] + 0) v *= w[3]
	}
	n = split(ones, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], w, ":")
		if (w[1] == cell && f == w[2] + 0) v *= w[3]
	}
	return v
}
BEGIN {
	nb = split("Audio Video X Custom Cyclic", bench, " ")
	nl = split("None Burn Write Read Compile Memload Hack Net Fork Hell", load, " ")
	s1 = 1 + (s0 * 7919) % 30268; s2 = 1 + (s0 * 104729) % 30306
	s3 = 1 + (s0 * 1299709) % 30322
	for (i = 0; i < 10; i++) rnd()
	# names that sort as the nights do: as wide as the last night
	width = length(nights "") < 2 ? 2 : length(nights "")
	for (f = 1; f <= nights; f++) {
		file = sprintf("%s/%s%0" width "d.json", dir, prefix, f)
		printf "{\"schema\": \"interbench-result/1\", \"interbench_version\": \"0.40\", " >file
		printf "\"tag\": \"night%d\", \"system\": {\"release\": \"6.18.0-n%d\", ", f, f >file
		printf "\"boot_id\": \"boot-%d\", \"invocation\": \"inv-%d\"}, \"results\": [", f, f >file
		n = 0
		for (r = 1; r <= reps; r++)
			for (b = 1; b <= nb; b++)
				for (l = 1; l <= nl; l++) {
					cell = bench[b] "/" load[l]
					base = 200 * b + 50 * l
					m = base * factor(cell, f)
					p50 = m * exp(sigma * gauss())
					p90 = 1.6 * m * exp(sigma * gauss())
					p99 = 2.5 * m * exp(sigma * gauss())
					mx = 4 * m * exp(maxsigma * gauss())
					printf "%s{\"bench\": \"%s\", \"load\": \"%s\", ", n++ ? ", " : "", bench[b], load[l] >file
					printf "\"repeat\": %d, \"status\": \"ok\", ", r >file
					printf "\"latency_us\": {\"mean\": %.3f, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f, \"max\": %.3f}, ", p50, p50, p90, p99, mx >file
					printf "\"desired_cpu_pct\": 100, \"deadlines_met_pct\": %.2f, ", 99.5 + 0.2 * gauss() >file
					printf "\"histogram\": {\"unit\": \"ns\", \"buckets\": [" >file
					for (k = 0; k < buckets; k++)
						printf "%s[%d, %d, %d]", k ? ", " : "", 1000 + 8 * k, 1007 + 8 * k, 1 + k % 7 >file
					printf "]}}" >file
				}
		printf "]}\n" >file
		close(file)
	}
}'

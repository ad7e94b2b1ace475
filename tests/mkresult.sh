#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mkresult.sh - write a made-up "interbench-result/1" file for the compare
# tests: cells Audio/None, Audio/Burn and Video/Burn with deterministic
# pseudo-random latencies around fixed base values times SCALE, and
# histograms consistent with the samples (stats.h's bucket geometry).
#
# Usage: mkresult.sh [-d CELL:REPEAT]... [-k CELL:FACTOR]... [-c FACTOR]
#                    [-g] [-i] [-n SAMPLES] [-s SEED] [-t TAG]
#                    [-b BOOT] [-v INVOCATION] [-H HOST] [-K KERNEL]
#                    [-I CELL:KEY:VALUE]... [-T CELL]... [-R]
#                    [-a ID:SIDE:LOOKS]
#                    VERSION REPEATS SCALE > file.json
#   -d  that repeat of that cell (e.g. Audio/Burn:2) died: status
#       "load died: signal 9" and no other fields
#   -k  scale that cell's latencies by FACTOR as well
#   -g  add a Gaming/None cell (deadlines_met_pct null)
#   -c  multiply % desired CPU and the frames met by FACTOR
#   -i  every repeat of a cell draws the same samples (no noise at all)
#   -n  latency samples per repeat (default 50)
#   -s  draw other samples (a file of another night; default 0)
#   -t  the run's tag (interbench --tag)
#   -b, -v  system.boot_id and system.invocation (interbench study)
#   -H, -K  system.hostname and system.release
#   -I  that cell's interference.KEY is VALUE in every repeat (e.g.
#       Audio/Burn:others_cpu_pct:34: the row mark [busy])
#   -T  that cell's every repeat had a thread stalled ("stalled": true)
#   -R  system.realtime_ok false: the run had no real-time rights
#   -a  side SIDE (A or B) of `interbench ab` run ID, which had LOOKS
#       looks (compare pairs such files, at alpha / LOOKS)
# The same arguments always give the same file; the random draws do not
# depend on SCALE, so SCALE 2 doubles every latency of SCALE 1.
died="" factors="" cpu=1 gaming=0 same=0 samples=50 fseed=0 tag=""
boot="" inv="" host="" kernel="" intf="" stalled="" nort=0 ab=""
while getopts d:k:c:gin:s:t:b:v:H:K:I:T:Ra: opt; do
	case $opt in
	d) died="$died $OPTARG" ;;
	k) factors="$factors $OPTARG" ;;
	c) cpu=$OPTARG ;;
	g) gaming=1 ;;
	i) same=1 ;;
	n) samples=$OPTARG ;;
	s) fseed=$OPTARG ;;
	t) tag=$OPTARG ;;
	b) boot=$OPTARG ;;
	v) inv=$OPTARG ;;
	H) host=$OPTARG ;;
	K) kernel=$OPTARG ;;
	I) intf="$intf $OPTARG" ;;
	T) stalled="$stalled $OPTARG" ;;
	R) nort=1 ;;
	a) ab=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 3 ]; then
	echo "usage: mkresult.sh [options] VERSION REPEATS SCALE" >&2
	exit 2
fi

awk -v version="$1" -v repeats="$2" -v scale="$3" -v died="$died" \
    -v factors="$factors" -v gaming="$gaming" -v same="$same" \
    -v cpu_f="$cpu" -v nsamp="$samples" -v fseed="$fseed" -v tag="$tag" \
    -v boot="$boot" -v inv="$inv" -v host="$host" -v kernel="$kernel" \
    -v intf="$intf" -v stalled="$stalled" -v nort="$nort" -v ab="$ab" '
# Park-Miller: products stay below 2^53, so awk doubles are exact.
function rnd() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }

# The bucket holding ns, as stats_bucket_low/high would give it.
function bucket(v,   e, w) {
	if (v < 128) { blow = v; bhigh = v; return }
	e = 0
	while (2 ^ (e + 1) <= v)
		e++
	w = 2 ^ (e - 7)
	blow = int(v / w) * w
	bhigh = blow + w - 1
}

# Nearest-rank percentile of the sorted s[1..n].
function pct(p, n,   r) {
	r = int(p / 100 * n)
	if (r < p / 100 * n)
		r++
	if (r < 1)
		r = 1
	return s[r]
}

function us(ns) { return sprintf("%.3f", ns / 1000) }

function lat_obj(name, n,   i, sum, mean, ss) {
	sum = 0
	for (i = 1; i <= n; i++)
		sum += s[i]
	mean = sum / n
	ss = 0
	for (i = 1; i <= n; i++)
		ss += (s[i] - mean) ^ 2
	printf "      \"%s\": {\n", name
	printf "        \"mean\": %s,\n", us(mean)
	printf "        \"sd\": %s,\n", us(n > 1 ? sqrt(ss / (n - 1)) : 0)
	printf "        \"min\": %s,\n", us(s[1])
	printf "        \"max\": %s,\n", us(s[n])
	printf "        \"p50\": %s,\n", us(pct(50, n))
	printf "        \"p90\": %s,\n", us(pct(90, n))
	printf "        \"p99\": %s,\n", us(pct(99, n))
	printf "        \"p99_9\": %s\n", us(pct(99.9, n))
	printf "      },\n"
}

function result(ci, r,   key, i, j, t, v, f, nb, cpu, met) {
	key = bench[ci] "/" load[ci]
	printf "%s    {\n", (nres++ ? ",\n" : "")
	printf "      \"bench\": \"%s\",\n", bench[ci]
	printf "      \"load\": \"%s\",\n", load[ci]
	printf "      \"repeat\": %d,\n", r
	if (index(" " died " ", " " key ":" r " ")) {
		printf "      \"status\": \"load died: signal 9\"\n    }"
		return
	}
	printf "      \"status\": \"ok\",\n"
	f = scale * (key in factor ? factor[key] : 1)
	seed = (ci * 7919 + (same ? 1 : r) * 104729 + fseed * 15485863 + 1) % 2147483647
	rf = 0.97 + 0.06 * rnd()	# this repeat runs a little slow or fast
	for (i = 1; i <= nsamp; i++) {
		v = base_us[ci] * rf * (0.8 + 0.4 * rnd())
		if (rnd() < 0.05)
			v *= 3
		s[i] = int(v * 1000 * f + 0.5)
	}
	for (i = 2; i <= nsamp; i++)		# insertion sort
		for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
			t = s[j]; s[j] = s[j - 1]; s[j - 1] = t
		}
	cpu = 99 + rnd()
	met = nsamp - (rnd() < 0.5 ? 1 : 0)
	# -c: the frames met fall with the percentage, as in a run
	met = int(met * cpu_f + 0.5)
	printf "      \"samples\": %d,\n", nsamp
	printf "      \"frames\": %d,\n", nsamp
	printf "      \"frames_met\": %d,\n", met
	printf "      \"frames_dropped\": %d,\n", nsamp - met
	lat_obj("latency_us", nsamp)
	lat_obj("timer_latency_us", nsamp)
	printf "      \"desired_cpu_pct\": %.3f,\n", cpu * cpu_f
	if (bench[ci] == "Gaming")
		printf "      \"deadlines_met_pct\": null,\n"
	else
		printf "      \"deadlines_met_pct\": %.3f,\n",
		       100 * met / nsamp
	if (key in ifig)
		printf "      \"interference\": {%s},\n", ifig[key]
	if (index(" " stalled " ", " " key " "))
		printf "      \"stalled\": true,\n"
	printf "      \"histogram\": {\n        \"unit\": \"ns\",\n"
	printf "        \"buckets\": ["
	nb = 0
	for (i = 1; i <= nsamp; i = j) {
		bucket(s[i])
		for (j = i + 1; j <= nsamp && s[j] <= bhigh; j++)
			;
		printf "%s\n          [%d, %d, %d]", (nb++ ? "," : ""),
		       blow, bhigh, j - i
	}
	printf "\n        ]\n      },\n"
	printf "      \"load_work\": {\n        \"burn_loops_per_s\": 1.2e9\n      }\n"
	printf "    }"
}

BEGIN {
	ncell = split("Audio Audio Video", bench, " ")
	split("None Burn Burn", load, " ")
	split("50 80 120", base_us, " ")
	if (gaming) {
		ncell++
		bench[ncell] = "Gaming"; load[ncell] = "None"; base_us[ncell] = 200
	}
	nf = split(factors, fl, " ")
	for (i = 1; i <= nf; i++) {
		split(fl[i], kv, ":")
		factor[kv[1]] = kv[2]
	}
	nf = split(intf, fl, " ")
	for (i = 1; i <= nf; i++) {
		split(fl[i], kv, ":")
		k = kv[1]
		ifig[k] = (k in ifig ? ifig[k] ", " : "") \
			  sprintf("\"%s\": %s", kv[2], kv[3])
	}
	printf "{\n"
	printf "  \"schema\": \"interbench-result/1\",\n"
	printf "  \"interbench_version\": \"%s\",\n", version
	printf "  \"command_line\": \"interbench --json made-up.json -t 1\",\n"
	printf "  \"started\": \"2026-11-22T02:40:00Z\",\n"
	printf "  \"finished\": \"2026-11-22T02:41:00Z\",\n"
	printf "  \"interrupted\": null,\n"
	if (tag != "")
		printf "  \"tag\": \"%s\",\n", tag
	if (ab != "") {
		split(ab, av, ":")
		printf "  \"ab\": {\"id\": \"%s\", \"side\": \"%s\", " \
		       "\"looks\": %d},\n", av[1], av[2], av[3]
	}
	printf "  \"system\": {\n"
	if (boot != "")
		printf "    \"boot_id\": \"%s\",\n", boot
	if (inv != "")
		printf "    \"invocation\": \"%s\",\n", inv
	if (host != "")
		printf "    \"hostname\": \"%s\",\n", host
	if (kernel != "")
		printf "    \"release\": \"%s\",\n", kernel
	if (nort)
		printf "    \"realtime_ok\": false,\n"
	printf "    \"cpus\": 4\n  },\n"
	printf "  \"settings\": {\n    \"duration_s\": 1,\n"
	printf "    \"repeats\": %d\n  },\n", repeats
	printf "  \"calibration\": {},\n"
	printf "  \"results\": [\n"
	for (ci = 1; ci <= ncell; ci++)
		for (r = 1; r <= repeats; r++)
			result(ci, r)
	printf "\n  ]\n}\n"
}'

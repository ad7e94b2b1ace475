#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# interbench's RtApp against rt-app itself: one periodic rt-app file, run
#   rt-app FILE                                   (its per-period log)
#   interbench -W rtapp:FILE -w None --json ...   (timer_wakeup_us)
# in alternating rounds on the same machine. The file: one thread, a
# timer of PERIOD us (ref "unique", relative) and RUN us of "runtime"
# (busy by the wall clock, so neither side's calibration enters), once
# SCHED_FIFO 50 and once SCHED_OTHER nice 0. rt-app's wu_lat for a period
# is woken - expiry of its timer, rounded to the us; interbench's
# timer_wakeup_us is the same difference in ns, from the same kind of
# sleep (clock_nanosleep TIMER_ABSTIME on CLOCK_MONOTONIC, no timing
# thread). Periods that came after their expiry (rt-app's slack < 0,
# our overruns) have no wakeup on either side and are left out.
#
#   bench/rtapp-vs-rtapp.sh [ROUNDS] [SECONDS] [PERIOD_US] [RUN_US]
#                                  (default 5 rounds of 10 s, 2000, 200)
#   bench/rtapp-vs-rtapp.sh examples [ROUNDS] [SECONDS]
#                                  (default 5 rounds of 10 s)
#
# "examples" runs rt-app's own interactive use cases instead, mp3-short
# and video-short from Debian's package (/usr/share/doc/rt-app/examples):
# rt-app runs what workgen makes of each (as the package means them to be
# run), interbench reads the file itself. Both get the same copy of it,
# its "global" changed only in what does not change the threads: the
# duration (SECONDS), the log (a buffer of 8 MB a thread, written at the
# end, in a folder of ours) and the calibration (rt-app's ns per loop,
# measured once at the start, so that its "run" events take this
# machine's time, as ours do). Per periodic thread (AudioTick; hwc_eventmon
# and waker), rt-app's per-period wu_lat against that thread's
# timer_wakeup in interbench's JSON, periods that came late left out on
# both sides, as above.
#
# PIN=CPU runs both on that one CPU (taskset), to tell a CPU's own
# latency from the tools'. QOS=0 holds /dev/cpu_dma_latency at 0 through
# the script (as cyclictest does by default): no CPU halts while idle,
# so no wakeup waits for the host to run a halted vCPU again.
#
# Prints each round's p50/p99 for both, then per workload the medians over
# the rounds, the interbench/rt-app ratios, and how noisy the machine was:
# the spread (min..max) of rt-app's own p99 over the rounds. Target:
# within 10 % on p50 and p99. rt-app 1.0 logs to a buffer in memory
# ("log_size": MB, written at its end) so that neither side writes files
# while it measures. Needs root (SCHED_FIFO, and rt-app locks its pages)
# and rt-app (apt-get install rt-app): skips cleanly without them.
set -u
if [ "${1:-}" = examples ]; then
	shift
	EXAMPLES=1
fi
ROUNDS=${1:-5}
SECS=${2:-10}
PERIOD=${3:-2000}
RUN=${4:-200}
. "$(dirname "$0")/lib.sh"
command -v rt-app >/dev/null ||
	{ echo "skip: rt-app not installed (apt-get install rt-app)"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root"; exit 0; }

[ -n "${EXAMPLES:-}" ] && { command -v workgen >/dev/null && command -v python3 >/dev/null; } ||
	[ -z "${EXAMPLES:-}" ] ||
	{ echo "skip: workgen (rt-app's package) and python3 needed"; exit 0; }

# The same file for both; logdir and log_* are rt-app's own (interbench
# reads and leaves them), and so is calibration (runtime does not use it).
mk() {
	cat >"$TMP/$1.json" <<EOF
{
	"global": {
		"duration": $SECS,
		"calibration": 100,
		"default_policy": "$2",
		"logdir": "$TMP/log",
		"log_basename": "$1",
		"log_size": 8,
		"lock_pages": true
	},
	"tasks": {
		"thread0": {
			"priority": $3,
			"runtime": $RUN,
			"timer": { "ref": "unique", "period": $PERIOD }
		}
	}
}
EOF
}
if [ -n "${EXAMPLES:-}" ]; then
	EX=/usr/share/doc/rt-app/examples
	# rt-app's ns per loop on this machine, once (its own calibration)
	sed 's/"duration" : 6/"duration" : 1/' "$EX/template.json" >"$TMP/cal.json"
	PLOAD=$(cd "$TMP" && rt-app cal.json 2>&1 |
		sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p')
	[ -n "$PLOAD" ] || { echo "rt-app did not calibrate"; exit 1; }
	echo "rt-app's calibration: $PLOAD ns per loop"
	for f in mp3-short video-short; do
		sed -e "s/\"duration\" : [0-9]*/\"duration\" : $SECS/" \
		    -e "s|\"logdir\" : \"[^\"]*\"|\"logdir\" : \"$TMP/log\"|" \
		    -e "s/\"calibration\" : \"CPU0\"/\"calibration\" : $PLOAD, \"log_size\" : 8/" \
		    "$EX/$f.json" >"$TMP/$f.json"
		grep -q "\"log_size\" : 8" "$TMP/$f.json" &&
		grep -q "\"duration\" : $SECS" "$TMP/$f.json" ||
			{ echo "$f.json: its global keys are not where expected"; exit 1; }
		workgen -d -o "$TMP/$f.wg.json" "$TMP/$f.json" >/dev/null
	done
fi

# The periodic threads of each file (those with a timer).
periodic() {
	case $1 in
	mp3-short) echo AudioTick ;;
	video-short) echo hwc_eventmon waker ;;
	esac
}

# rt-app on what workgen made of FILE: "thread p50 p99 wakeups" for
# each of the threads named after it.
ra_ex() {
	f=$1; shift
	rm -rf "$TMP/log" && mkdir "$TMP/log" || return 1
	(cd "$TMP" && pin rt-app "$TMP/$f.wg.json" >ra.out 2>&1) || return 1
	for t in "$@"; do
		printf '%s ' "$t"
		cat "$TMP"/log/*-"$t"-*.log |
			awk '!/^#/ && NF >= 11 && $8 >= 0 { print $11 }' | pcts
	done
}

# interbench on FILE: the same for its periodic threads (its JSON).
ib_ex() {
	(cd "$TMP" && pin "$IB" -c -t "$SECS" -W "rtapp:$TMP/$1.json" -w None \
		--json ib.json >ib.out 2>&1) || return 1
	python3 - "$TMP/ib.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    for t in r["threads"]:
        if not t["periodic"]:
            continue
        w = t["timer_wakeup"]
        if w["count"]:
            print(t["task"], w["p50_us"], w["p99_us"], w["count"])
        else:
            print(t["task"], "- - 0")
PY
}

mk fifo SCHED_FIFO 50
mk other SCHED_OTHER 0

if [ "${QOS:-}" = 0 ]; then
	exec 3>/dev/cpu_dma_latency || exit 1
	printf '\000\000\000\000' >&3
fi

pin() {
	if [ -n "${PIN:-}" ]; then taskset -c "$PIN" "$@"; else "$@"; fi
}

# "p50 p99 samples" of the wakeups in us, nearest rank as interbench's.
pcts() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (!NR) { print "- - 0"; exit }
		      r50 = int(NR * 0.50 + 0.9999); r99 = int(NR * 0.99 + 0.9999)
		      print v[r50], v[r99], NR }'
}

# rt-app's log: #idx perf run period start end rel_st slack c_duration
# c_period wu_lat, a line a period; slack < 0: it came late, no wakeup.
ra_run() {
	rm -rf "$TMP/log" && mkdir "$TMP/log" || return 1
	(cd "$TMP" && pin rt-app "$TMP/$1.json" >ra.out 2>&1) || return 1
	awk '!/^#/ && NF >= 11 && $8 >= 0 { print $11 }' \
		"$TMP/log/$1-thread0-0.log" | pcts
}

ib_run() {
	(cd "$TMP" && pin "$IB" -c -t "$SECS" -W "rtapp:$TMP/$1.json" -w None \
		--json ib.json >ib.out 2>&1) || return 1
	awk '/"timer_wakeup_us"/ { on = 1 }
	     on && /"count":/ { gsub(/[,"]/, ""); n = $2 }
	     on && /"p50":/ { gsub(/[,"]/, ""); p50 = $2 }
	     on && /"p99":/ { gsub(/[,"]/, ""); p99 = $2 }
	     on && /}/ { on = 0 }
	     END { if (n) print p50, p99, n; else print "- - 0" }' "$TMP/ib.json"
}

if [ -n "${EXAMPLES:-}" ]; then
	: >"$TMP/all"
	r=1
	while [ "$r" -le "$ROUNDS" ]; do
		if [ $((r % 2)) = 1 ]; then order="ra ib"; else order="ib ra"; fi
		for f in mp3-short video-short; do
			for t in $order; do
				if [ $t = ib ]; then
					out=$(ib_ex $f) || { echo "round $r: ib $f failed"; continue; }
				else
					out=$(ra_ex $f $(periodic $f)) ||
						{ echo "round $r: ra $f failed"; continue; }
				fi
				echo "$out" | while read -r th p50 p99 n; do
					echo "round $r $t $f $th: p50 $p50 us, p99 $p99 us, $n wakeups"
					echo "$t $f $th $p50 $p99 $n" >>"$TMP/all"
				done
			done
		done
		r=$((r + 1))
	done
	echo
	echo "medians over $ROUNDS rounds of $SECS s (us), each periodic thread's timer wakeups${PIN:+, on CPU $PIN}${QOS:+, PM QoS $QOS}"
	printf '%-11s %-13s %8s %8s %6s %8s %8s %6s  %-14s %s\n' file thread "ra p50" \
		"ib p50" ratio "ra p99" "ib p99" ratio "ra p99 spread" "wakeups ra/ib"
	awk '{ print $2, $3 }' "$TMP/all" | sort -u | while read -r f th; do
		m() { awk -v t="$1" -v f="$f" -v th="$th" -v k="$2" \
			'$1 == t && $2 == f && $3 == th && $4 != "-" { print $k }' "$TMP/all" | median; }
		a50=$(m ra 4) b50=$(m ib 4) a99=$(m ra 5) b99=$(m ib 5) an=$(m ra 6) bn=$(m ib 6)
		spread=$(awk -v f="$f" -v th="$th" '$1 == "ra" && $2 == f && $3 == th && $5 != "-" { print $5 }' \
			"$TMP/all" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo ".." hi }')
		awk -v f="$f" -v th="$th" -v a="$a50" -v b="$b50" -v c="$a99" -v d="$b99" \
		    -v s="$spread" -v an="$an" -v bn="$bn" 'BEGIN {
			printf "%-11s %-13s %8.1f %8.1f %6.2f %8.1f %8.1f %6.2f  %-14s %s/%s\n",
				f, th, a, b, (a > 0 ? b / a : 0), c, d, (c > 0 ? d / c : 0), s, an, bn }'
	done
	exit 0
fi

: >"$TMP/all"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) = 1 ]; then order="ra ib"; else order="ib ra"; fi
	for w in fifo other; do
		for t in $order; do
			v=$(${t}_run $w) || { echo "round $r: $t $w failed"; continue; }
			set -- $v
			echo "round $r $t $w: p50 $1 us, p99 $2 us, $3 wakeups"
			echo "$t $w $1 $2 $3" >>"$TMP/all"
		done
	done
	r=$((r + 1))
done

echo
echo "medians over $ROUNDS rounds of $SECS s (us): a timer every $PERIOD us, $RUN us runtime${PIN:+, on CPU $PIN}${QOS:+, PM QoS $QOS}"
printf '%-6s %8s %8s %6s %8s %8s %6s  %-14s %s\n' workload "ra p50" "ib p50" \
	ratio "ra p99" "ib p99" ratio "ra p99 spread" "wakeups ra/ib"
for w in fifo other; do
	m() { awk -v t="$1" -v w="$w" -v k="$2" '$1 == t && $2 == w && $3 != "-" { print $k }' "$TMP/all" | median; }
	a50=$(m ra 3) b50=$(m ib 3) a99=$(m ra 4) b99=$(m ib 4) an=$(m ra 5) bn=$(m ib 5)
	spread=$(awk -v w="$w" '$1 == "ra" && $2 == w && $4 != "-" { print $4 }' "$TMP/all" |
		sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo ".." hi }')
	awk -v w="$w" -v a="$a50" -v b="$b50" -v c="$a99" -v d="$b99" -v s="$spread" \
	    -v an="$an" -v bn="$bn" 'BEGIN {
		printf "%-6s %8.1f %8.1f %6.2f %8.1f %8.1f %6.2f  %-14s %s/%s\n",
			w, a, b, (a > 0 ? b / a : 0), c, d, (c > 0 ? d / c : 0), s, an, bn }'
done

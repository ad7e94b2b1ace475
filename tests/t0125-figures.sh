#!/bin/sh
# The figures of real runs held to bounds: what a task got of its CPU,
# the rate Server was asked for, a stopped thread's lost wakeups, rt-app's
# late timer. Other work on the machine moves these figures even at nice
# 19: beside a fork and exec storm (t0051's fuzz, t0090's option checks)
# Gaming got 75 to 79 % of its CPU with its threads waiting for one 1 to
# 15 % of the time, and a CI run failed here. So this script is alone.
# tests/run: alone (its assertions are figures other work would move).
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"

# What interbench controls, with room for a host that takes 10 % of
# every CPU in 10 ms bursts (make check-noisy NOISE=10:100 passes): the
# periodic tasks do all their work and meet most deadlines; Gaming (all
# the CPU it can get) loses what the host takes. A cell whose threads
# waited for a CPU a fifth of the time or more, or lost 5 % to the host,
# is the machine's.
if command -v jq >/dev/null; then
test_expect_success 'where they get a CPU the tasks get their CPU and most deadlines' '
	"$IB" -t 1 -c -W audio -W video -W x -W gaming -w none --json idle.json >out 2>&1 &&
	jq -r ".results[] | select(.interference.task_runq_wait_pct < 20 and
		.interference.steal_pct < 5) |
		\"\(.bench) \(.desired_cpu_pct) \(.deadlines_met_pct)\"" idle.json >cells &&
	awk "{
		if (\$1 == \"Audio\" && (\$2 < 99.9 || \$3 < 95)) bad = bad \" \" \$1
		if (\$1 == \"Video\" && (\$2 < 99.9 || \$3 < 80)) bad = bad \" \" \$1
		if ((\$1 == \"X\" || \$1 == \"Gaming\") && \$2 < 80) bad = bad \" \" \$1
	} END { if (bad != \"\") { print \"short of CPU or deadlines:\" bad; exit 1 } }" cells ||
	{ cat out cells; false; }
'
else
	test_skip 'where they get a CPU the tasks get their CPU' 'no jq'
fi

test_expect_success '--server-rps 100: about 100 requests a second, as asked' '
	"$IB" $LPM -t 3 -c -W server -w none --server-rps 100 >out 2>&1 ||
		{ cat out; false; } &&
	awk "/requests per second: p20/ { p50 = \$7 + 0 }
	     END { exit !(p50 >= 70 && p50 <= 110) }" out ||
		{ grep "requests per second" out; false; }
'

# Stopping the measuring process for 300 ms makes every wakeup due then
# late: the first is a sample some 300 ms late, the ones after it lost
# (a period late or more, not samples), and the sleeping goes on from a
# deadline still ahead: samples and lost add up to the run's periods.
test_expect_success 'a stopped Cyclic thread: late wakeups are lost, counted, not sampled' '
	"$IB" $LPM -t 3 -c -W cyclic -w none --cyclic-interval 1000 \
		--json stop.json >out 2>&1 &
	ib=$!
	n=0
	while [ -z "$(our_procs ib:bench:Cyclic)" ] && [ $n -lt 100 ]; do
		sleep 0.05; n=$((n + 1))
	done
	sleep 1
	our_kill STOP ib:bench:Cyclic && sleep 0.3 && our_kill CONT ib:bench:Cyclic
	wait $ib || { cat out; fail "the run failed"; }
	line=$(grep "cyclic: .* samples," out) &&
	samples=$(echo "$line" | sed "s/.*: \([0-9]*\) samples.*/\1/") &&
	lost=$(echo "$line" | sed "s/.* \([0-9]*\) wakeups lost.*/\1/") &&
	awk -v s="$samples" -v l="$lost" "BEGIN { exit !(l >= 200 && l <= 700 &&
		s + l >= 2850 && s + l <= 3010) }" ||
		fail "samples $samples, lost $lost: $line"
	mx=$(awk "/\"latency_us\": \{/ { f = 1 } f && /\"max\"/ { gsub(/,/, \"\"); print \$2; exit }" stop.json) &&
	awk -v m="$mx" "BEGIN { exit !(m >= 200000) }" || fail "max $mx us"
'

# An rt-app thread whose 3 ms of work overruns its 2 ms timer: each event
# late, each deadline missed, and (relative timing) each lateness the one
# overrun's 1 ms, not a sum growing run by run. Columns of its row in the
# thread table: 10 frames, 11 misses, 13 its latency.
rt_field() { grep "^ *slow\[0\] " "$1" | head -1 | awk -v k="$2" '{ print $k }'; }
test_expect_success 'rt-app late timer events: counted, the deadlines missed, relative starts over' '
	cat >late.json <<-EOF &&
	{ "tasks": { "slow": { "runtime": 3000, "timer": { "ref": "unique", "period": 2000 } } } }
	EOF
	"$IB" $LPM -c -t 0.5 -W rtapp:late.json -w none --json late.out.json >out 2>&1 &&
	has late.out.json "\"deadlines_met_pct\": [0-9.]*" &&
	f=$(rt_field out 10) l=$(rt_field out 11) &&
	[ "$l" -ge 100 ] && [ $((f - l)) -le 1 ] || fail "$f frames, $l missed" &&
	[ "$(rt_field out 13)" != - ] &&
	m=$(grep -A3 "\"latency\": {" late.out.json | sed -n "s/.*\"p50_us\": \([0-9.]*\).*/\1/p" | head -1) &&
	awk -v m="$m" "BEGIN { exit !(m > 800 && m < 1500) }" || fail "relative: lateness p50 $m us, not the 1 ms of one overrun"
'
test_done

#!/bin/sh
# The figures of real runs held to bounds: what a task got of its CPU,
# the rate Server was asked for, a stopped thread's lost wakeups, rt-app's
# late timer, mp3-short's rates and stalls against rt-app's own. Other work on the machine moves these figures even at nice
# 19: beside a fork and exec storm (t0051's fuzz, t0090's option checks)
# Gaming got 75 to 79 % of its CPU with its threads waiting for one 1 to
# 15 % of the time, and a CI run failed on two of these. A thread
# starved of its CPU has no passes without waiting on another (no stall,
# as interbench counts one), which mp3-short's check took for a stall
# with a busy machine beside it. So this script is alone.
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

# interbench's mp3-short against rt-app 1.0's own, alternated: each
# thread's passes a second near rt-app's, and stalls no likelier.
EX=/usr/share/doc/rt-app/examples
if command -v rt-app >/dev/null && command -v workgen >/dev/null &&
   [ -f "$EX/mp3-short.json" ]; then
# rt-app 1.0 itself on mp3-short cut to 1 s, first with the file's
# calibration (its pLoad is then given, so the other runs start at
# once): each thread's passes are the lines of its log (a pass the
# end cut short is not logged), a run with none for a thread stalled.
sed -e 's/"duration" : 6/"duration" : 1/' -e 's#"logdir" : "./"#"logdir" : "ra"#' \
	-e 's/"log_basename" : "mp3"/"log_basename" : "ra"/' "$EX/mp3-short.json" >ra.json &&
# workgen -d numbers the repeated keys (run, run1) and runs nothing
mkdir -p ra && workgen -d -o ra-gen.json ra.json >/dev/null 2>&1 &&
if timeout 90 rt-app ra-gen.json >ra.out 2>&1 && [ -s ra/ra-OMXCall-4.log ] &&
   pload=$(sed -n "s/.*pLoad = \([0-9]*\)ns.*/\1/p" ra.out) && [ -n "$pload" ]; then
	test_expect_success "mp3-short against rt-app 1.0: each thread's passes a second; stalls no likelier than rt-app's own; a stalled cell is named, in the row and the JSON, and misses its deadlines" '
		sed "s/\"calibration\" : \"CPU0\"/\"calibration\" : $pload/" ra-gen.json >ra-fix.json &&
		# alternated, 4 rt-app runs and 5 cells at a time, so
		# that what the machine does meanwhile falls on both
		: >ra.runs &&
		for b in 1 2 3 4; do
			for i in 1 2 3 4; do
				[ $b$i = 11 ] || timeout 30 rt-app ra-fix.json >ra.out 2>&1 ||
					fail "rt-app: $(tail -1 ra.out)"
				for t in AudioTick-0 AudioOut-1 AudioTrack-2 mp3.decoder-3 OMXCall-4; do
					printf "%s %s " $t $(grep -vc "^#" ra/ra-$t.log)
				done >>ra.runs
				echo >>ra.runs
			done
			"$IB" -c -t 0.5 -n 5 -W "rtapp:$EX/mp3-short.json" -w none \
				--json m$b.json >m.out 2>&1 || { cat m.out; exit 1; }
		done &&
		python3 - ra.runs m1.json m2.json m3.json m4.json <<-\PY
		import json, sys
		from math import comb
		runs = []
		for l in open(sys.argv[1]):
		    w = l.split()
		    runs.append({w[i].rsplit("-", 1)[0]: int(w[i + 1])
		                 for i in range(0, len(w), 2)})
		ra_stalled = [r for r in runs if min(r.values()) == 0]
		ok = sorted(r["AudioOut"] for r in runs if r not in ra_stalled)
		# rt-app paces the chain by AudioTick: every 30 ms, 33 a second
		ref = ok[len(ok) // 2]
		assert 20 <= ref <= 35, "rt-app ran AudioOut %d a second" % ref
		cells = [c for f in sys.argv[2:] for c in json.load(open(f))["results"]]
		stalled = 0
		for c in cells:
		    th = {t["task"]: t for t in c["threads"]}
		    secs = 0.5
		    idle = sorted(n for n, t in th.items() if t["loops"] == 0)
		    if idle:
		        # no passes while others ran: named, and its deadlines missed
		        stalled += 1
		        assert c["stalled"], c["stalled_threads"]
		        assert sorted(n[:-3] for n in c["stalled_threads"]) == idle, idle
		        assert all(th[n]["stalled"] for n in idle)
		        assert c["stall_deadlines_missed"] > 0
		        # its deadlines are frames none of which was met
		        assert c["frames"] >= c["frames_met"] + c["stall_deadlines_missed"]
		        assert abs(c["deadlines_met_pct"] - 100.0 * c["frames_met"] / c["frames"]) < 0.01
		        continue
		    assert not c["stalled"] and c["stalled_threads"] == []
		    for n in ("AudioOut", "AudioTrack", "mp3.decoder", "OMXCall"):
		        rate = th[n]["loops"] / secs
		        # generous: the host steals
		        assert ref / 2 <= rate <= ref * 1.5, "%s %.1f/s, rt-app %d" % (n, rate, ref)
		# The start race is in the file (doc/rtapp.txt): rt-app
		# stalls too. interbench must not stall more often than rt-app
		# here and now: one-sided Fisher exact test, false alarm 0.1 %.
		n1, n2, s1, s2 = len(cells), len(runs), stalled, len(ra_stalled)
		tot = comb(n1 + n2, s1 + s2)
		p = sum(comb(n1, k) * comb(n2, s1 + s2 - k)
		        for k in range(s1, min(n1, s1 + s2) + 1)) / tot
		print("stalled: interbench %d of %d cells, rt-app %d of %d runs; p %.4f"
		      % (s1, n1, s2, n2, p))
		# what to look at when it fails: the calibration, and which
		print("interbench calibration: %s; stalled cells: %s" % (
		      [json.load(open(f))["calibration"] for f in sys.argv[2:]],
		      [i for i, c in enumerate(cells) if c["stalled"]]))
		assert p >= 0.001, "interbench stalls more often than rt-app (p %.5f)" % p
		PY
	'
else
	test_skip "mp3-short against rt-app 1.0" "rt-app did not run mp3-short: $(tail -1 ra.out)"
fi
else
	test_skip "mp3-short against rt-app 1.0" "rt-app is not installed (apt-get install rt-app; it brings workgen and the examples)"
fi
test_done

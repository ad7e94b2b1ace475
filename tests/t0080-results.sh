#!/bin/sh
# Machine-readable results: a real run's JSON and CSV read back with the
# project's own reader and checked field by field; repeats; --fail-if.
. "$(dirname "$0")/lib.sh"

TOP=$(cd "$TESTS_DIR/.." && pwd)
LPM="-l 1000000"

test_expect_success 'a run with --json and --csv: every field read back and sane' '
	"$IB" $LPM -n 2 -t 0.3 -c -W audio -W x -W gaming -w none -w burn -w ring \
		--json r.json --csv r.csv >out 2>&1 || { cat out; false; }
	"$TOP/tests/resultcheck" r.json r.csv >rc.out 2>&1 ||
		{ grep -v "^ok" rc.out; false; }
	[ $(grep -c "^ok" rc.out) -ge 20 ] || { cat rc.out; false; }
'

test_expect_success 'repeats interleave: pass 2 runs the matrix backwards' '
	awk -F, "NR > 1 { print \$1 \"/\" \$2 \"/\" \$3 }" r.csv >order &&
	head -n 1 order | grep -q "^Audio/None/1$" &&
	sed -n 9,10p order | tr "\n" " " | grep -q "^Gaming/Ring/1 Gaming/Ring/2 $" &&
	tail -n 1 order | grep -q "^Audio/None/2$"
'

test_expect_success 'with repeats the tables show medians, counts and ranges' '
	has out "median of 2 repeats" && grep -q "^None .*\[2 of 2 ok; mean" out
'

test_expect_success 'the JSON says what each load got done' '
	grep -A 3 "\"load\": \"Burn\"" r.json >/dev/null &&
	has r.json "\"burn_loops_per_s\": [1-9]" && has r.json "\"ring_wakeups_per_s\": [1-9]"
'

test_expect_success '--fail-if passes a run that keeps its promise' '
	"$IB" $LPM -t 0.3 -c -W audio -w none --fail-if "deadlines<50" --fail-if "max>10s" >out 2>&1 &&
	hasnt out FAILED
'

test_expect_success '--fail-if fails a run that breaks it, saying which cell' '
	"$IB" $LPM -t 0.3 -c -W audio -w none -w burn --fail-if "p50>=0ns" --fail-if "cpu<=100" >out 2>&1
	rc=$?; [ $rc = 1 ] || fail "exit status $rc, wanted 1"
	grep -q "^FAILED --fail-if .p50>=0ns.: Audio under None has" out &&
	grep -q "^FAILED --fail-if .p50>=0ns.: Audio under Burn has" out &&
	grep -q "^FAILED --fail-if .cpu<=100.: Audio under None has [0-9.]* %" out
'

for e in "p99" "p99>" "p99>20" "p99>20h" "cpu<5ms" "speed>1" "p99=5ms" "p99>-1ms"; do
	test_expect_success "--fail-if rejects '$e'" '
		"$IB" $LPM -t 0.3 -c --fail-if "'"$e"'" >out 2>err; rc=$?
		[ $rc = 2 ] && grep -q "^interbench: option --fail-if" err && [ ! -s out ]
	'
done

test_expect_success '--json into a directory that cannot be written is refused first' '
	"$IB" $LPM -t 0.3 -c --json /nonexistent/r.json >out 2>err; rc=$?
	[ $rc = 2 ] && grep -q "^interbench: option --json: cannot write" err
'
# Frame pacing: on an idle machine Video's frames come at 60 a second and
# its 1 % low stays near 60 (generous: this VM's host steals time).
# Frame pacing's figures agree with each other (1 % low is 1000 over the
# mean of the slowest 1 % of frame times, so between 1000 over the max
# and over the p99; never above the mean FPS, which never passes the
# 60 Hz releases); and where Video's threads waited for a CPU less than 10 % of
# the time and the host stole under 5 % (tests/noise's 3 and 10 % pass),
# it keeps about 60 FPS. Another suite beside this one can keep it
# waiting two thirds of the time: that is the machine, not interbench.
test_expect_success 'frame pacing: Video keeps about 60 FPS where it got its CPU' '
	"$IB" $LPM -t 2 -c -W video -w none --json fp.json >out 2>&1 || { cat out; false; }
	jq -e ".results[0] | .fps.low_1pct > 0 and .fps.low_1pct <= .fps.mean and
		.fps.mean < 61 and .fps.low_0_1pct <= .fps.low_1pct and
		.fps.low_1pct * .frame_time_ms.max > 970 and
		.fps.low_1pct * .frame_time_ms.p99 < 1030 and
		.stutters >= 0" fp.json >/dev/null ||
		fail "figures disagree: $(jq -c ".results[0] | {fps, frame_time_ms}" fp.json)"
	jq -e ".results[0] | .interference.task_runq_wait_pct >= 10 or
		.interference.steal_pct >= 5 or
		(.fps.mean > 55 and .fps.low_1pct > 30)" fp.json >/dev/null ||
		fail "$(jq -c ".results[0] | {fps, interference}" fp.json)"
'

# The levels of replication: a run is this boot's, and its own process.
test_expect_success 'two runs: this boot in both, an invocation each' '
	jfield() { sed -n "s/^    \"$1\": \"\(.*\)\",\$/\1/p" "$2"; }
	[ "$(jfield boot_id r.json)" = "$(cat /proc/sys/kernel/random/boot_id)" ] &&
	[ "$(jfield boot_id fp.json)" = "$(jfield boot_id r.json)" ] &&
	[ -n "$(jfield invocation r.json)" ] && [ -n "$(jfield invocation fp.json)" ] &&
	[ "$(jfield invocation fp.json)" != "$(jfield invocation r.json)" ] ||
		fail "boots $(jfield boot_id r.json) $(jfield boot_id fp.json)," \
			"invocations $(jfield invocation r.json)" \
			"$(jfield invocation fp.json)"
'

test_done

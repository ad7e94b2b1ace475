#!/bin/sh
# --on-late: bad rules refused in one line before anything runs; under a
# culprit of our own every late frame (up to --on-late-max) is acted on
# after its cell: its trace window saved with the trace's header, a shell
# command given the frame's figures, a hanging one cut by its timeout,
# stop ending the run with exit 5 and the JSON whole. Root, tracefs, jq,
# bash and chrt, or skipped.
# tests/run: alone (it checks that a disturbance it plants is seen).
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
TFS=/sys/kernel/tracing

test_expect_success 'bad rules: one line each, exit 2, nothing run' '
	for r in "foo>5ms:save" "audio>5xs:save" "audio>:save" "audio>5ms" \
	    "audio>5ms:" "audio5ms:save" "audio>5ms:shell" "audio>5ms:shell=" \
	    "audio>5ms:bogus" "audio>5ms:signal=USR1" \
	    "audio>5ms:signal=USR1,pid=x" "audio>5ms:signal=NOSUCH,pid=1" \
	    "gaming>deadline:save"; do
		status_is 2 "$IB" $LPM -t 0.3 -c -W Audio -w None --on-late "$r" \
			>out 2>err &&
		[ "$(err_lines err)" = 1 ] && [ ! -s out ] &&
		has err "^interbench: option --on-late: .$r.: " ||
		{ echo "not refused: $r"; cat out err; return 1; }
	done &&
	status_is 2 "$IB" ab $LPM -t 0.3 -c -W Audio -w None -o x \
		--on-late "audio>5ms:save" >out 2>err &&
	[ "$(err_lines err)" = 1 ] && has err "option --on-late is not for ab" &&
	"$IB" --dry-run $LPM -W Video -w None \
		--on-late "video>deadline:signal=SIGUSR1,pid=1,save" \
		--on-late "any>0.5ms:continue" \
		--on-late "audio>800:save,shell=echo a,b" >out 2>err &&
	[ ! -s err ]
'

usable=
if is_root && command -v jq >/dev/null && command -v bash >/dev/null &&
   command -v chrt >/dev/null && command -v taskset >/dev/null; then
	grep -q " $TFS tracefs " /proc/self/mounts && [ -d "$TFS/instances" ] &&
	[ ! -d "$TFS/instances/interbench" ] && usable=1
fi
if [ -z "$usable" ]; then
	test_skip '--on-late on a real run' "needs root, a mounted tracefs at $TFS (no interbench instance), jq, bash, chrt"
	test_done
	exit
fi

# The culprit (tests/lib.sh): SCHED_FIFO bursts of 4 ms about every
# 14 ms on the benchmark's CPU, so some Audio frames wait for it.
make_culprit || fail "cannot make the culprit"
BCPU=$CULPRIT_CPU

test_expect_success 'save and shell=: every late frame up to the max, one line, a file and a JSON entry each' '
	chrt -f 1 taskset -c $BCPU ./ibculprit /dev/null culprit.fifo &
	cpid=$!
	taskset -c $BCPU "$IB" $LPM -t 2 -c -W audio -w none --json r.json \
		--on-late "audio>1ms:save,shell=env | grep ^IB_ >env.\$IB_FRAME" \
		--on-late-max 3 >out 2>&1; rc=$?
	kill $cpid; wait $cpid 2>/dev/null
	cat out
	[ $rc = 0 ] && [ ! -d "$TFS/instances/interbench" ] &&
	n=$(grep -c "^--on-late: Audio under None r1: a frame [0-9.]* ms late (> 1 ms): saved interbench-late-Audio-None-r1-f[0-9]*\.txt; shell ran$" out) &&
	[ "$n" -ge 1 ] && [ "$n" -le 3 ] &&
	[ "$(grep -c "^--on-late: " out)" -le 4 ] &&
	[ "$(ls interbench-late-*.txt | wc -l)" = "$n" ] &&
	jq -e ".trace.on_late.max == 3 and .trace.on_late.frames == $n and
		([.trace.on_late.actions[] | select(.action == \"save\" and .status == \"ok\" and .latency_us > 1000 and .bound_us == 1000)] | length == $n) and
		([.trace.on_late.actions[] | select(.action == \"shell\" and .status == \"ok\")] | length == $n)" r.json &&
	for f in $(jq -r ".trace.on_late.actions[] | select(.action == \"save\") | .file" r.json); do
		[ "$(stat -c %a "$f")" = 600 ] &&
		head -n 1 "$f" | grep -q "^# tracer: nop$" &&
		grep -q "^#           TASK-PID     CPU#" "$f" &&
		grep -q "sched_switch" "$f" &&
		k=${f##*-f}; k=${k%.txt} &&
		rel=$(jq ".trace.on_late.actions[] | select(.file == \"$f\") | .release_ns" r.json) &&
		lat=$(jq ".trace.on_late.actions[] | select(.file == \"$f\") | .latency_us" r.json) &&
		grep -q "^# interbench: late frame Audio under None r1 f$k: release [0-9.]* latency [0-9]* us" "$f" &&
		# every event within [release - 20 ms, run + 5 ms]
		grep -v "^#" "$f" | sed -n "s/.*\] [^ ]* *\([0-9]*\.[0-9]*\): .*/\1/p" |
			awk -v r="$rel" -v l="$lat" "{ t = \$1 * 1e9;
				if (t < r - 20e6 - 1e3 || t > r + l * 1e3 + 5e6 + 1e3) bad++ }
				END { exit bad > 0 || NR == 0 }" &&
		grep -q "^IB_TASK=Audio$" "env.$k" && grep -q "^IB_LOAD=None$" "env.$k" &&
		grep -q "^IB_REPEAT=1$" "env.$k" && grep -q "^IB_FILE=$f$" "env.$k" &&
		grep -q "^IB_RELEASE_NS=$rel$" "env.$k" &&
		grep -q "^IB_LATENCY_US=[0-9]*\.[0-9]$" "env.$k" &&
		grep -q "^IB_CPU=$BCPU$" "env.$k" ||
		{ echo "bad file $f"; cat "env.$k"; head -n 20 "$f"; return 1; }
	done
'

# -t 3: about one frame in five wakes inside a burst with over 1 ms of it
# left, so 20 frames (-t 1) had none late about once in a hundred runs
# (a clean clone's check saw it: max 0.862 ms); 60 have none about once
# in a million. The run stops at the first, so it costs nothing more.
test_expect_success 'a hanging shell is cut by its timeout; stop: exit 5, the JSON whole' '
	chrt -f 1 taskset -c $BCPU ./ibculprit /dev/null culprit.fifo &
	cpid=$!
	taskset -c $BCPU "$IB" $LPM -t 3 -c -W audio -w none --json s.json \
		--on-late "any>1ms:stop,shell=echo \$\$ >sh.pid; exec sleep 61" \
		>out 2>&1; rc=$?
	kill $cpid; wait $cpid 2>/dev/null
	cat out
	[ $rc = 5 ] && [ ! -d "$TFS/instances/interbench" ] &&
	[ "$(grep -c "^--on-late: " out)" = 1 ] &&
	has out "^--on-late: Audio under None r1: a frame [0-9.]* ms late (> 1 ms): shell still running after 5 s: killed; the run stops$" &&
	# the shell it started (its pid, which sleep kept) is gone
	[ -s sh.pid ] && ! kill -0 "$(cat sh.pid)" 2>/dev/null &&
	jq -e ".interrupted == \"on-late\" and (.results | length == 1) and
		.results[0].status == \"ok\" and
		([.trace.on_late.actions[].action] == [\"shell\", \"stop\"]) and
		(.trace.on_late.actions[0].status | startswith(\"still running after 5 s\"))" s.json
'

test_done

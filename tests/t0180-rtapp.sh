#!/bin/sh
# rt-app workloads: -W rtapp:FILE and -w rtapp:FILE run what the file
# says (every key of the subset, its figures, as a task and as a load),
# and a file outside the subset is refused in one line naming the file
# and the key, exit status 2, before anything starts.
# (tests/unit-rtapp.c checks the reader key by key.)
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"

# A periodic SCHED_OTHER thread: a timer every 5 ms, 1 ms of runtime.
cat >periodic.json <<'EOF'
{
	/* rt-app's own files have comments, and trailing commas */
	"global": { "duration": 2, "logdir": "./", "calibration": "CPU0", },
	"tasks": {
		"tick": {
			"runtime": 1000,
			"timer": { "ref": "unique", "period": 5000 },
		}
	}
}
EOF

test_expect_success 'a periodic file: its row, its frames, its thread, its wakeups' '
	"$IB" $LPM -c -t 1 -W rtapp:periodic.json -w none >out 2>&1 || { cat out; false; }
	has out "^--- Benchmarking simulated cpu of RtApp" &&
	grep -q "^None  *[0-9.e-]* +/- [0-9.e-]*  *[0-9.e-]*  *[0-9.]*  *[0-9.]*$" out &&
	has out "rt-app periodic.json ([0-9]* bytes, fnv1a [0-9a-f]*): 1 thread, 1 periodic" &&
	has out "tick\[0\] SCHED_OTHER 0: [0-9]* frames, [0-9]* met, [0-9]* late; latency p50" &&
	has out "timer wakeups (us): p50 [0-9.]*, p90 [0-9.]*, p99 [0-9.]*, max" &&
	n=$(sed -n "s/.*tick\[0\] SCHED_OTHER 0: \([0-9]*\) frames.*/\1/p" out) &&
	[ "$n" -ge 100 ] && [ "$n" -le 201 ] || fail "$n frames in 1 s at 5 ms (a late frame restarts the relative timer: fewer under load)"
'

test_expect_success 'the JSON: the file by name, size and checksum; figures by kind; each thread' '
	"$IB" $LPM -c -t 0.5 -W rtapp:periodic.json -w none --json r.json >/dev/null 2>&1 &&
	valid_json r.json &&
	has r.json "\"rtapp\": \"periodic.json ([0-9]* bytes, fnv1a [0-9a-f]\{8\})\"" &&
	has r.json "\"timer_wakeup_us\": {" && has r.json "\"workload\": {" &&
	has r.json "\"fnv1a\": \"[0-9a-f]\{8\}\"" && has r.json "\"periodic_threads\": 1" &&
	has r.json "\"task\": \"tick\"" && has r.json "\"latency_is\": \"from release\"" &&
	has r.json "\"frame_time_ms\"" && has r.json "\"loops_per_s\""
'

test_expect_success 'compare names two different rt-app files as a setting that differs' '
	sed "s/1000,/900,/" periodic.json >other.json &&
	"$IB" $LPM -c -t 0.3 -W rtapp:other.json -w none --json o.json >/dev/null 2>&1 &&
	"$IB" compare r.json o.json >cmp.out 2>&1; [ $? -le 1 ] &&
	has cmp.out "sim_options.rtapp" && has cmp.out "other.json"
'

# Every event, phases with their loops, instances, a thread's loop,
# policies and priorities, and the global keys interbench reads and
# leaves (or honours: default_policy, pi_enabled).
cat >all.json <<'EOF'
{
	"global": {
		"duration": 5, "calibration": 100, "default_policy": "SCHED_OTHER",
		"logdir": "./", "log_basename": "x", "log_size": 2, "gnuplot": false,
		"lock_pages": true, "ftrace": false, "pi_enabled": true,
		"cumulative_slack": false, "io_device": "/dev/null",
		"mem_buffer_size": 4096
	},
	"resources": {},
	"tasks": {
		"waker": {
			"priority": 1,
			"phases": {
				"p0": { "loop": 2, "run": 200, "sleep0": 1000 },
				"p1": { "runtime": 300, "resume": "sleeper",
					"timer": { "ref": "unique", "period": 10000, "mode": "absolute" },
					"barrier": "B" }
			}
		},
		"sleeper": { "suspend": "", "run0": 100, "barrier": "B" },
		"counted": { "instance": 2, "loop": 7, "run": 100, "sleep": 500 }
	}
}
EOF

test_expect_success 'every key: phases, loops, instances, barrier, suspend and resume' '
	"$IB" $LPM -c -t 1 -W rtapp:all.json -w none --json all.out.json >out 2>&1 || { cat out; false; }
	has out "rt-app all.json .*: 4 threads, 1 periodic" &&
	has out "waker\[0\] SCHED_OTHER 1: [0-9]* frames" &&
	has out "sleeper\[0\] SCHED_OTHER 0: [0-9]* loops; wakeups p50" &&
	has out "counted\[0\] SCHED_OTHER 0: 7 loops;" &&
	has out "counted\[1\] SCHED_OTHER 0: 7 loops;" &&
	has out "sleep overshoot (us): p50" && has out "resume -> running (us): p50" &&
	has out "barrier -> running (us): p50" &&
	w=$(sed -n "s/.*waker\[0\] SCHED_OTHER 1: \([0-9]*\) frames.*/\1/p" out) &&
	s=$(sed -n "s/.*sleeper\[0\] SCHED_OTHER 0: \([0-9]*\) loops.*/\1/p" out) &&
	[ "$w" -ge 60 ] && [ "$w" -le 101 ] || fail "$w waker frames in 1 s at 10 ms" &&
	{ [ "$s" -eq "$w" ] || [ "$s" -eq $((w - 1)) ]; } || fail "sleeper $s loops, waker $w frames: the barrier ties them" &&
	has all.out.json "\"resumes_lost\": 0" &&
	has all.out.json "\"barrier_latency_us\": {"
'

test_expect_success 'late timer events: counted, the deadlines missed, relative starts over' '
	cat >late.json <<-EOF &&
	{ "tasks": { "slow": { "runtime": 3000, "timer": { "ref": "unique", "period": 2000 } } } }
	EOF
	"$IB" $LPM -c -t 0.5 -W rtapp:late.json -w none --json late.out.json >out 2>&1 &&
	has out "slow\[0\] SCHED_OTHER 0: [0-9]* frames, [01] met, [0-9]* late" &&
	has late.out.json "\"deadlines_met_pct\": [0-9.]*" &&
	l=$(sed -n "s/.*frames, [01] met, \([0-9]*\) late.*/\1/p" out) && [ "$l" -ge 100 ] &&
	m=$(sed -n "s/.*slow.*latency p50 \([0-9.]*\), p99.*/\1/p" out) &&
	awk -v m="$m" "BEGIN { exit !(m > 800 && m < 1500) }" || fail "relative: lateness p50 $m us, not the 1 ms of one overrun"
'

if is_root; then
	test_expect_success 'as root: SCHED_FIFO and SCHED_RR threads at the file'"'"'s priorities' '
		cat >rt.json <<-EOF &&
		{ "global": { "default_policy": "SCHED_FIFO" },
		  "tasks": { "f": { "run": 100, "timer": { "ref": "unique", "period": 2000 } },
			     "r": { "policy": "SCHED_RR", "priority": 20, "run": 50, "sleep": 1000 } } }
		EOF
		"$IB" $LPM -c -t 0.5 -W rtapp:rt.json -w none --json rt.out.json >out 2>&1 &&
		has out "f\[0\] SCHED_FIFO 10: " && has out "r\[0\] SCHED_RR 20: " &&
		has rt.out.json "\"note\": \"rt-app rt.json: 2 threads (SCHED_FIFO 10, SCHED_RR 20)\""
	'
	if command -v setpriv >/dev/null; then
		test_expect_success 'without real-time rights a SCHED_FIFO thread fails its cell, saying why' '
			setpriv --bounding-set -sys_nice "$IB" $LPM -c -t 0.3 -W rtapp:rt.json -w none >out 2>&1
			[ $? = 4 ] || { cat out; fail "exit status $?"; }
			has out "task f: cannot run SCHED_FIFO 10 (needs real-time rights)"
		'
	else
		test_skip 'without real-time rights a SCHED_FIFO thread fails' 'no setpriv'
	fi
else
	test_skip 'as root: SCHED_FIFO and SCHED_RR threads' 'not root'
	test_expect_success 'without real-time rights a SCHED_FIFO thread fails its cell, saying why' '
		echo "{\"tasks\":{\"f\":{\"policy\":\"SCHED_FIFO\",\"run\":1,\"sleep\":100}}}" >rt.json &&
		"$IB" $LPM -c -t 0.3 -W rtapp:rt.json -w none >out 2>&1; [ $? = 4 ] &&
		has out "task f: cannot run SCHED_FIFO 10"
	'
fi

test_expect_success 'as a load: another task under it, its frames counted' '
	"$IB" $LPM -c -v -t 0.5 -W cyclic -w rtapp:periodic.json --json l.json >out 2>&1 || { cat out; false; }
	has out "^RtApp  *[0-9]" && has l.json "\"rtapp-load\": \"periodic.json (" &&
	grep -A3 "^RtApp" out | grep -q "frames"
'

test_expect_success 'an RtApp task under an RtApp load (two files), and under None' '
	"$IB" $LPM -c -t 0.3 -W rtapp:all.json -w rtapp:periodic.json -w none >out 2>&1 || { cat out; false; }
	has out "^RtApp  *[0-9]" && has out "^None  *[0-9]" &&
	has out "rt-app all.json" && no_ib_procs
'

test_expect_success 'no periodic thread: the wakeups are the row'"'"'s latency, passes a second' '
	echo "{\"tasks\":{\"s\":{\"run\":100,\"sleep\":1000}}}" >np.json &&
	"$IB" $LPM -c -t 0.5 -W rtapp:np.json -w none --json np.out.json >out 2>&1 &&
	grep -q "^None  *[0-9][0-9.e-]* +/- [0-9.e-]*  *[0-9.e-]*  *[0-9.]*  *-$" out &&
	has out "1 thread, 0 periodic; [0-9]* loops, [0-9.]* a second" &&
	has out "s\[0\] SCHED_OTHER 0: [0-9]* loops; wakeups p50" &&
	has np.out.json "\"latency_is\": \"wakeups\"" && has np.out.json "\"loops_per_s\": [0-9]"
'

test_expect_success 'the example files in contrib/rtapp are read whole' '
	for f in "$TESTS_DIR"/../contrib/rtapp/*.json; do
		"$IB" --dry-run -W "rtapp:$f" -w none >out 2>&1 || { cat out; fail "$f"; }
	done
'

test_expect_success 'a load of sleeps and runs counts its passes as its work' '
	echo "{\"tasks\":{\"s\":{\"run\":100,\"sleep\":1000}}}" >sr.json &&
	"$IB" $LPM -c -v -t 0.5 -W cyclic -w rtapp:sr.json >out 2>&1 || { cat out; false; }
	has out "^RtApp  *[0-9]" && grep -A3 "^RtApp" out | grep -q "frames"
'

test_expect_success 'a load whose threads all ended did no work: the cell says so, nothing hangs' '
	echo "{\"tasks\":{\"once\":{\"loop\":2,\"run\":100}}}" >once.json &&
	status_is 4 "$IB" $LPM -c -t 0.5 -W cyclic -w rtapp:once.json >out 2>&1 &&
	has out "^RtApp  *load did no work while the benchmark ran" && no_ib_procs
'

test_expect_success 'RtApp is in no default matrix: neither a task nor a load unless named' '
	"$IB" $LPM --dry-run -t 1 >out 2>&1 && hasnt out RtApp &&
	"$IB" --list >list && has list "^bench  *RtApp " && has list "^load  *RtApp "
'

# A refusal: exit 2, one line naming the file and the key, nothing started.
refused() {
	what=$1 want=$2; shift 2
	test_expect_success "refused: $what" '
		status_is 2 "$IB" '"$*"' >out 2>err &&
		[ $(err_lines err) = 1 ] || { cat err; fail "not one line"; }
		has err "'"$want"'" && [ ! -s out ] && no_ib_procs
	'
}
echo '{"tasks":{"t":{"cpus":[0],"run":100,"sleep":100}}}' >cpus.json
echo '{"tasks":{"t":{"run":100,"lock":"m","unlock":"m"}}}' >lock.json
echo '{"tasks":{"t":{"policy":"SCHED_DEADLINE","run":100}}}' >dl.json
echo '{"tasks":{"t":{"policy":"SCHED_FIFO","priority":99,"run":100}}}' >p99.json
echo '{"tasks":{"t":{"run":100,"sleep":100}},"global":{"frag":1}}' >glob.json
echo '{"tasks":{"t":{"run":100,"run":200}}}' >dup.json
echo '{"tasks":{"t":{"run":100}}' >broken.json
refused 'a key outside the subset (cpus)' 'cpus.json: tasks.t.cpus: outside the rt-app subset' -W rtapp:cpus.json -w none
refused 'an event outside the subset (lock), as a load too' "lock.json: tasks.t.lock: rt-app's lock event" -W audio -w rtapp:lock.json
refused 'SCHED_DEADLINE' 'dl.json: tasks.t.policy: SCHED_DEADLINE is outside' -W rtapp:dl.json
refused 'a priority above interbench'"'"'s own threads' 'p99.json: tasks.t.priority: 99 is above' -W rtapp:p99.json
refused 'an unknown global key' 'glob.json: global.frag: outside' -W rtapp:glob.json
refused 'a key twice' 'dup.json: tasks.t.run: given twice' -W rtapp:dup.json
refused 'malformed JSON' 'broken.json: not JSON rt-app can read: line 2, column 1' -W rtapp:broken.json
refused 'a missing file' 'nothere.json: No such file' -W rtapp:nothere.json
refused 'RtApp without a file' 'benchmark RtApp runs an rt-app file: -W rtapp:FILE.json' -W RtApp
refused 'the RtApp load without a file' 'load RtApp runs an rt-app file: -w rtapp:FILE.json' -W audio -w rtapp
refused 'two files as tasks' 'one rt-app file as a task per run (periodic.json is already one)' -W rtapp:periodic.json -W rtapp:all.json
refused 'two files as loads' 'one rt-app file as a load per run' -W audio -w rtapp:periodic.json -w rtapp:all.json

test_done

#!/bin/sh
# rt-app workloads: -W rtapp:FILE and -w rtapp:FILE run what the file
# says (every key, its figures, as a task and as a load), every example
# Debian's rt-app ships runs, and what interbench cannot run as rt-app
# does is refused in one line naming the file and the key, exit status 2,
# before anything starts. (tests/unit-rtapp.c checks the reader key by
# key.)
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"

# A thread's row in the table under a result: its fields, by name[inst].
# thread class prio woken-by loops wakeups p50 p99 max frames misses ...
row() { grep "^ *$2\[$3\] " "$1" | head -1; }
field() { row "$1" "$2" "$3" | awk -v k="$4" '{ print $k }'; }

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
	grep -q "^None  *[0-9.e-]* +/- [0-9.e-]*  *[0-9.e-]*  *[0-9.]*  *[0-9.]*$STEAL_MARK$" out &&
	has out "rt-app periodic.json ([0-9]* bytes, fnv1a [0-9a-f]*): 1 thread, 1 periodic" &&
	has out "^ *thread  *class  *woken by  *loops  *wakeups  *p50 us  *p99 us  *max us  *frames  *misses  *slack p50  *slack min$" &&
	grep -q "^ *tick\[0\]  *SCHED_OTHER 0  *timer  *[0-9]*  *[0-9]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9]*  *[0-9]*  *[0-9.]*  *-\{0,1\}[0-9.]*$" out &&
	has out "timer wakeups (us): p50 [0-9.]*, p90 [0-9.]*, p99 [0-9.]*, max" &&
	n=$(field out tick 0 10) &&
	[ "$n" -ge 100 ] && [ "$n" -le 201 ] || fail "$n frames in 1 s at 5 ms (a late frame restarts the relative timer: fewer under load)"
'

test_expect_success 'the JSON: the file by name, size and checksum; figures by kind; each thread' '
	"$IB" $LPM -c -t 0.5 -W rtapp:periodic.json -w none --json r.json >/dev/null 2>&1 &&
	valid_json r.json &&
	has r.json "\"rtapp\": \"periodic.json ([0-9]* bytes, fnv1a [0-9a-f]\{8\})\"" &&
	has r.json "\"timer_wakeup_us\": {" && has r.json "\"workload\": {" &&
	has r.json "\"fnv1a\": \"[0-9a-f]\{8\}\"" && has r.json "\"periodic_threads\": 1" &&
	has r.json "\"task\": \"tick\"" && has r.json "\"timer_wakeup\": {" &&
	has r.json "\"slack_min_us\": " && has r.json "\"misses\": [0-9]" &&
	has r.json "\"frame_time_ms\"" && has r.json "\"loops_per_s\""
'

test_expect_success 'compare names two different rt-app files as a setting that differs' '
	sed "s/1000,/900,/" periodic.json >other.json &&
	"$IB" $LPM -c -t 0.3 -W rtapp:other.json -w none --json o.json >/dev/null 2>&1 &&
	"$IB" compare r.json o.json >cmp.out 2>&1; [ $? = 8 ] &&
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
		"sleeper": { "suspend": "", "run0": 100 },
		"meet": { "barrier": "B", "run": 50 },
		"counted": { "instance": 2, "loop": 7, "run": 100, "sleep": 500 }
	}
}
EOF

test_expect_success 'every key: phases, loops, instances, barrier, suspend and resume' '
	"$IB" $LPM -c -t 1 -W rtapp:all.json -w none --json all.out.json >out 2>&1 || { cat out; false; }
	has out "rt-app all.json .*: 5 threads, 1 periodic" &&
	[ "$(field out waker 0 2)$(field out waker 0 3)" = SCHED_OTHER1 ] &&
	[ "$(field out sleeper 0 4)" = thread ] && [ "$(field out meet 0 4)" = barrier ] &&
	[ "$(field out counted 0 5)" = 7 ] && [ "$(field out counted 1 5)" = 7 ] &&
	has out "sleep overshoot (us): p50" && has out "wake -> running (us): p50" &&
	has out "barrier -> running (us): p50" &&
	w=$(field out waker 0 10) s=$(field out sleeper 0 5) m=$(field out meet 0 5) &&
	[ "$w" -ge 60 ] && [ "$w" -le 101 ] || fail "$w waker frames in 1 s at 10 ms" &&
	{ [ "$m" -eq "$w" ] || [ "$m" -eq $((w - 1)) ]; } || fail "meet $m loops, waker $w frames: the barrier ties them" &&
	[ "$s" -le $((w + 1)) ] && [ "$s" -ge $((w / 2)) ] || fail "sleeper $s loops, waker $w resumes (one lost when it is not yet suspended)" &&
	has all.out.json "\"wakes_lost\": [0-9]" &&
	has all.out.json "\"barrier_latency_us\": {"
'

if is_root; then
	test_expect_success 'as root: SCHED_FIFO and SCHED_RR threads at the file'"'"'s priorities' '
		cat >rt.json <<-EOF &&
		{ "global": { "default_policy": "SCHED_FIFO" },
		  "tasks": { "f": { "run": 100, "timer": { "ref": "unique", "period": 2000 } },
			     "r": { "policy": "SCHED_RR", "priority": 20, "run": 50, "sleep": 1000 } } }
		EOF
		"$IB" $LPM -c -t 0.5 -W rtapp:rt.json -w none --json rt.out.json >out 2>&1 &&
		[ "$(field out f 0 2)$(field out f 0 3)" = SCHED_FIFO10 ] &&
		[ "$(field out r 0 2)$(field out r 0 3)" = SCHED_RR20 ] &&
		has rt.out.json "\"note\": \"rt-app rt.json: 2 threads, 1 periodic\""
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
	grep -q "^None  *[0-9][0-9.e-]* +/- [0-9.e-]*  *[0-9.e-]*  *[0-9.]*  *-$STEAL_MARK$" out &&
	has out "1 thread, 0 periodic; [0-9]* loops, [0-9.]* a second" &&
	[ "$(field out s 0 4)" = sleep ] && [ "$(field out s 0 10)" = - ] &&
	has np.out.json "\"periodic\": false" && has np.out.json "\"loops_per_s\": [0-9]"
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

# workgen's grammar: a key repeated, a bare suspend; a global key rt-app
# ignores is ignored with a note.
cat >wg.json <<'EOF'
{
	/* as workgen reads it: no value for suspend, keys repeated */
	"tasks" : {
		"ping" : { "run" : 100, "resume" : "pong", "run" : 100,
			   "timer" : { "ref" : "unique", "period" : 5000 } },
		"pong" : { "suspend", "run" : 50, "sleep" : 100, "run" : 50 }
	},
	"global" : { "frag" : 1 }
}
EOF

test_expect_success 'workgen'"'"'s grammar runs: repeated keys, a bare suspend; an ignored key has a NOTE' '
	"$IB" $LPM -c -t 0.5 -W rtapp:wg.json -w none >out 2>&1 || { cat out; false; }
	has out "^NOTE: rt-app wg.json: global.frag: rt-app 1.0 does not read it: ignored" &&
	[ "$(field out pong 0 4)" = sleep+thread ] &&
	p=$(field out ping 0 10) q=$(field out pong 0 5) &&
	[ "$p" -ge 40 ] && [ "$q" -ge $((p / 2)) ] && [ "$q" -le "$p" ] ||
		fail "ping $p frames, pong $q loops: each ping resumes pong once"
'

test_expect_success 'a NOTE for an ignored key in --dry-run too, and nothing refused' '
	"$IB" --dry-run -W rtapp:wg.json -w none >out 2>&1 &&
	has out "^NOTE: rt-app wg.json: global.frag: " && has out "RtApp under None"
'

# Mutexes and conditions, memory and IO, CPUs, a delay.
cat >ev.json <<'EOF'
{
	"global" : { "mem_buffer_size" : 65536, "io_device" : "/dev/null",
		     "pi_enabled" : true },
	"resources" : { "m" : { "type" : "mutex" } },
	"tasks" : {
		"producer" : { "cpus" : [0], "lock" : "m", "signal" : "q",
			       "unlock" : "m", "mem" : 100000, "iorun" : 100000,
			       "yield" : "",
			       "timer" : { "ref" : "unique", "period" : 2000 } },
		"consumer" : { "lock" : "m", "wait" : { "ref" : "q", "mutex" : "m" },
			       "unlock" : "m", "run" : 50 },
		"a" : { "lock" : "s", "sync" : { "ref" : "c", "mutex" : "s" },
			"unlock" : "s", "run" : 20 },
		"b" : { "lock" : "s", "sync" : { "ref" : "c", "mutex" : "s" },
			"unlock" : "s", "run" : 20 },
		"w" : { "instance" : 2, "lock" : "n",
			"wait" : { "ref" : "d", "mutex" : "n" }, "unlock" : "n" },
		"caster" : { "lock" : "n", "broad" : "d", "unlock" : "n",
			     "timer" : { "ref" : "unique", "period" : 5000 } },
		"late" : { "delay" : 300000, "run" : 10,
			   "timer" : { "ref" : "unique", "period" : 10000 } }
	}
}
EOF

test_expect_success 'lock, wait, signal, sync, broad, mem, iorun, yield, cpus, delay: each thread in the table' '
	"$IB" $LPM -c -t 0.5 -W rtapp:ev.json -w none --json ev.out.json >out 2>&1 || { cat out; false; }
	has out "8 threads, 3 periodic" &&
	p=$(field out producer 0 10) c=$(field out consumer 0 5) &&
	[ "$p" -ge 100 ] && [ "$c" -ge $((p / 2)) ] && [ "$c" -le $((p + 1)) ] ||
		fail "producer $p frames, consumer $c loops: each signal wakes it once (the last signal may come before its frame)" &&
	[ "$(field out consumer 0 4)" = thread ] &&
	[ "$(field out a 0 5)" -ge 100 ] && [ "$(field out b 0 5)" -ge 100 ] ||
		fail "a and b woke each other $(field out a 0 5) and $(field out b 0 5) times" &&
	k=$(field out caster 0 10) w0=$(field out w 0 5) w1=$(field out w 1 5) &&
	[ "$w0" -ge $((k / 2)) ] && [ "$w1" -ge $((k / 2)) ] ||
		fail "broad: caster $k frames, waiters $w0 and $w1 loops" &&
	l=$(field out late 0 10) &&
	[ "$l" -ge 5 ] && [ "$l" -le 21 ] || fail "a 300 ms delay: $l frames of 10 ms in 0.5 s" &&
	has ev.out.json "\"woken_by_thread\": true" && has out "wake -> running (us): p50"
'

test_expect_success 'a workload asking more CPUs than it may use runs, and its row says so' '
	cat >over.json <<-EOF &&
	{ "tasks": { "hog": { "instance": 3, "run": 1000 } } }
	EOF
	"$IB" $LPM -c -t 0.3 -u -W rtapp:over.json -w none --json over.out.json >out 2>&1 || { cat out; false; }
	has out "OVERRUN: its threads ask 3.0 CPUs of the 1 they may run on" &&
	has over.out.json "\"overrun\": true" &&
	has over.out.json "\"note\": \"rt-app over.json: 3 threads, asking 3.0 CPUs of 1: overrun\""
'

if is_root && grep -q "^cgroup [^ ]* cgroup [^ ]*cpu[,ac ]" /proc/mounts &&
   mnt=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpu(,|$)/ { print $2; exit }' /proc/mounts) && [ -n "$mnt" ]; then
	test_expect_success 'a taskgroup: its threads run in the cpu group, made and removed' '
		tg=/ib-t0180-$$
		echo "{\"tasks\":{\"g\":{\"taskgroup\":\"$tg/sub\",\"run\":100,\"sleep\":1000}}}" >tg.json
		"$IB" $LPM -c -t 0.5 -W rtapp:tg.json -w none >out 2>&1 &
		pid=$! i=0
		[ -n "$tg" ] &&
		while [ ! -d "$mnt$tg/sub" ] && [ $i -lt 50 ]; do sleep 0.05; i=$((i + 1)); done &&
		sleep 0.2 && n=$(wc -l <"$mnt$tg/sub/tasks") && wait $pid ||
			{ cat out; fail "no group $mnt$tg/sub"; }
		[ "$n" = 1 ] || fail "$n threads in the group" &&
		[ "$(field out g 0 5)" -ge 50 ] && [ ! -d "$mnt$tg" ] || fail "the group stayed"
	'
else
	test_skip 'a taskgroup: its threads run in the cpu group' 'needs root and cgroup v1'"'"'s cpu controller'
fi

# Every example Debian's rt-app ships, as a new user would run it (the
# merge script's fragments and the cpufreq-governor harness aside: the
# first are pieces merge.py joins, the second templates its scripts fill
# in with sed).
EX=/usr/share/doc/rt-app/examples
if command -v rt-app >/dev/null && [ -d "$EX/tutorial" ]; then
	for f in "$EX"/*.json "$EX"/tutorial/*.json; do
		b=$(basename "$f" .json)
		if [ "$b" = example8 ] && [ "$(nproc)" -lt 3 ]; then
			test_expect_success "Debian's $b: CPU 2 is not here, refused naming it" '
				status_is 2 "$IB" $LPM -c -t 1 -W "rtapp:'"$f"'" -w none >out 2>err &&
				has err "example8.json: tasks.thread0.cpus: CPU 2 is not one interbench may use" &&
				[ $(wc -l <err) = 1 ] && [ ! -s out ]
			'
			continue
		fi
		test_expect_success "Debian's $b runs, each thread named in its table" '
			"$IB" $LPM -c -t 1 -W "rtapp:'"$f"'" -w none >out 2>&1 || { cat out; false; }
			n=$(sed -n "s/.*): \([0-9]*\) threads\{0,1\}, .*/\1/p" out) &&
			rows=$(grep -c "^ *[^ ]*\[[0-9]*\]  *SCHED_" out) &&
			[ -n "$n" ] && [ "$rows" = "$n" ] || fail "$rows rows for $n threads" &&
			for t in $(grep "^ *[^ ]*\[[0-9]*\]  *SCHED_" out | sed "s/^ *\([^ ]*\)\[.*/\1/" | sort -u); do
				grep -q "\"$t\"" "'"$f"'" || fail "$t is no task of the file"
			done
		'
	done
	test_expect_success "Debian's mp3-short: its global frag ignored with a note; its five threads" '
		"$IB" $LPM -c -t 1 -W "rtapp:$EX/mp3-short.json" -w none >out 2>&1 &&
		has out "^NOTE: rt-app mp3-short.json: global.frag: rt-app 1.0 does not read it: ignored" &&
		for t in AudioTick AudioOut AudioTrack mp3.decoder OMXCall; do
			row out "$t" 0 | grep -q . || fail "no $t"
		done &&
		[ "$(field out AudioTick 0 4)" = timer ] && [ "$(field out AudioTick 0 10)" -ge 30 ]
	'
	# mp3-short against rt-app 1.0 itself: t0125, alone.
	test_expect_success "Debian's example3 (12 threads at up to 90 %): allowed, its row says it overruns" '
		"$IB" $LPM -c -t 1 -W "rtapp:$EX/tutorial/example3.json" -w none >out 2>&1 &&
		has out "OVERRUN: its threads ask 6.0 CPUs of the"
	'
else
	test_skip "Debian's rt-app examples run" 'rt-app is not installed (apt-get install rt-app)'
fi

test_expect_success 'under -u, a CPU other than 0 is refused naming the key' '
	echo "{\"tasks\":{\"t\":{\"phases\":{\"p\":{\"cpus\":[1],\"run\":100,\"sleep\":100}}}}}" >c1.json &&
	if [ "$(nproc)" -ge 2 ]; then
		status_is 2 "$IB" -u -W rtapp:c1.json -w none >out 2>err &&
		has err "c1.json: tasks.t.phases.p.cpus: CPU 1 is not one interbench may use: -u runs everything on CPU 0" &&
		[ ! -s out ] && "$IB" --dry-run -W rtapp:c1.json -w none >/dev/null 2>&1
	else
		status_is 2 "$IB" --dry-run -W rtapp:c1.json -w none >out 2>err &&
		has err "c1.json: tasks.t.phases.p.cpus: CPU 1 is not one"
	fi
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
echo '{"tasks":{"t":{"cpus":[1023],"run":100,"sleep":100}}}' >cpus.json
echo '{"tasks":{"t":{"run":100,"lock":"m"}}}' >lock.json
echo '{"tasks":{"t":{"policy":"SCHED_DEADLINE","run":100}}}' >dl.json
echo '{"tasks":{"t":{"policy":"SCHED_FIFO","priority":99,"run":100}}}' >p99.json
echo '{"tasks":{"t":{"run":100,"sleep":100}},"global":{"ftrace":1}}' >glob.json
echo '{"tasks":{"t":{"suspend":"nobody","run":100}}}' >wait.json
echo '{"global":{"io_device":"/"},"tasks":{"t":{"iorun":100,"sleep":100}}}' >io.json
echo '{"tasks":{"t":{"run":100}}' >broken.json
refused 'a CPU that is not there' 'cpus.json: tasks.t.cpus: CPU 1023 is not one interbench may use' -W rtapp:cpus.json -w none
refused 'a mutex a phase does not give back, as a load too' "lock.json: tasks.t: locks 'm' and does not unlock it" -W audio -w rtapp:lock.json
refused 'SCHED_DEADLINE' 'dl.json: tasks.t.policy: SCHED_DEADLINE is not run' -W rtapp:dl.json
refused 'a priority above interbench'"'"'s own threads' 'p99.json: tasks.t.priority: 99 is above' -W rtapp:p99.json
refused 'a global key rt-app reads, of the wrong type' 'glob.json: global.ftrace: must be true or false' -W rtapp:glob.json
refused 'a suspend nothing resumes' "wait.json: tasks: 'nobody' is waited on" -W rtapp:wait.json
refused 'an io_device interbench will not write' 'io.json: global.io_device: / is a directory' -W rtapp:io.json
refused 'malformed JSON' 'broken.json: not JSON rt-app can read: line 2, column 1' -W rtapp:broken.json
refused 'a missing file' 'nothere.json: No such file' -W rtapp:nothere.json
refused 'RtApp without a file' 'benchmark RtApp runs an rt-app file: -W rtapp:FILE.json' -W RtApp
refused 'the RtApp load without a file' 'load RtApp runs an rt-app file: -w rtapp:FILE.json' -W audio -w rtapp
refused 'two files as tasks' 'one rt-app file as a task per run (periodic.json is already one)' -W rtapp:periodic.json -W rtapp:all.json
refused 'two files as loads' 'one rt-app file as a load per run' -W audio -w rtapp:periodic.json -w rtapp:all.json

test_done

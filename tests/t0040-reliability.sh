#!/bin/sh
# Reliability: signals at several moments, a stuck benchmark, a killed
# load, a full disk, no privileges. Nothing may be left running or lying
# around, and what was measured must survive.
. "$(dirname "$0")/lib.sh"

LOG="$(uname -r).log"
LPM="-l 1000000"	# skip calibration unless a test wants it

if disk_loads_ok; then
test_expect_success 'SIGINT inside a cell: out within 2 s, exit 130, results kept' '
	mkdir d &&
	"$IB" $LPM -t 1 -W audio -w none -w write -D d --json r.json --csv r.csv >out 2>&1 &
	pid=$! &&
	wait_proc ib:load:Write 10 && sleep 0.4 &&
	t0=$(date +%s%N) && kill -INT $pid &&
	wait_pid $pid 5 && t1=$(date +%s%N) &&
	[ "$rc" = 130 ] || fail "exit status $rc, wanted 130" &&
	[ $(( (t1 - t0) / 1000000 )) -lt 2000 ] || fail "took $(( (t1 - t0) / 1000000 )) ms to stop" &&
	no_ib_procs &&
	[ -z "$(ls d | grep interbench.write)" ] || fail "write file left: $(ls d)" &&
	has "$LOG" "Interrupted by signal 2" &&
	has "$LOG" "^None " && hasnt "$LOG" "^Write " &&
	valid_json r.json && has r.json "\"interrupted\": \"signal 2\"" &&
	[ $(grep -c "\"bench\":" r.json) = 1 ] &&
	[ $(wc -l <r.csv) = 2 ]
'
else
	test_skip 'SIGINT inside a cell (a Write cell)' "$DISK_WHY"
fi

test_expect_success 'SIGTERM while calibrating: exit 143 at once' '
	"$IB" -b -t 1 -W audio -w none -c >out 2>&1 &
	pid=$! && sleep 0.3 && kill -TERM $pid &&
	wait_pid $pid 3 && [ "$rc" = 143 ] && no_ib_procs
'

if disk_loads_ok; then
test_expect_success 'SIGHUP while the read file is made: exit 129, no half file' '
	mkdir -p h && rm -f h/interbench.read &&
	"$IB" $LPM -t 1 -W audio -w read -D h -c >out 2>&1 &
	pid=$! && wait_proc ib:prep:Read 10 && kill -HUP $pid &&
	wait_pid $pid 3 && [ "$rc" = 129 ] && no_ib_procs &&
	[ ! -e h/interbench.read ] || fail "half-made read file left: $(ls -l h)"
'
else
	test_skip 'SIGHUP while the read file is made' "$DISK_WHY"
fi

test_expect_success 'a load killed with SIGKILL is reported, the run completes' '
	"$IB" $LPM -t 1.5 -W audio -w burn -w none --json k.json >out 2>&1 &
	pid=$! && wait_proc ib:load:Burn 10 && sleep 0.5 &&
	our_kill KILL ib:load:Burn &&
	wait_pid $pid 20 && [ "$rc" = 4 ] || fail "exit status $rc, wanted 4" &&
	grep -q "^Burn  *load died: signal 9" out || fail "no load died row: $(cat out)" &&
	grep -q "^None  *[0-9]" out && no_ib_procs &&
	valid_json k.json && has k.json "\"status\": \"load died: signal 9"
'

# The load is stopped while it settles, before its work is counted: a
# tenth of -t (at most 2 s). Finding it (our_procs reads every process's
# environment) took 0.3-0.4 s on a busy machine, so -t 10: a settling of
# 1 s, not 0.4.
test_expect_success 'a load that does nothing while measured is reported' '
	"$IB" $LPM -t 10 -W audio -w burn -c >out 2>&1 &
	pid=$! && wait_proc ib:load:Burn 10 && our_kill STOP ib:load:Burn &&
	wait_pid $pid 30 && [ "$rc" = 4 ] || fail "exit status $rc, wanted 4" &&
	grep -q "^Burn  *load did no work while the benchmark ran" out ||
		fail "$(cat out)"
	no_ib_procs
'

if unshare -n true 2>/dev/null; then
	test_expect_success 'a load that fails says why in its row' '
		unshare -n "$IB" $LPM -t 0.3 -W audio -w net -w none -c >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4"
		grep -q "^Net  *load failed: no loopback network" out || fail "$(cat out)"
		grep -q "^None  *[0-9]" out
	'
else
	test_skip 'a load that fails says why in its row' 'cannot make a network namespace'
fi

test_expect_success 'a stuck benchmark is killed and reported as timed out' '
	"$IB" $LPM -t 0.5 -W audio -w none -w burn -c >out 2>&1 &
	pid=$! && wait_proc ib:bench:Audio 10 &&
	our_kill STOP ib:bench:Audio &&
	wait_pid $pid 30 && [ "$rc" = 4 ] || fail "exit status $rc, wanted 4" &&
	grep -q "^None  *timed out" out || fail "no timed out row: $(cat out)" &&
	grep -q "^Burn  *[0-9]" out && no_ib_procs
'

# A thread's voluntary switches: how often it went to sleep.
vcs() { sed -n "s/^voluntary_ctxt_switches:[[:space:]]*//p" "/proc/$1/task/$1/status"; }

# interbench used to wake every 50 ms to check on a cell, and the bench's
# main thread once a second to join its threads: on the bench's CPU,
# in step with Audio's releases. Both now sleep until something ends.
test_expect_success 'a running cell: interbench and the bench main thread sleep through it' '
	"$IB" $LPM -t 5 -W audio -w none -c >out 2>&1 &
	pid=$! && wait_proc ib:bench:Audio 10 && sleep 0.5 &&
	b=$(our_procs ib:bench:Audio) &&
	p1=$(vcs $pid) && b1=$(vcs $b) && sleep 2 && p2=$(vcs $pid) &&
	b2=$(vcs $b) &&
	echo "mid-cell, 2 s: interbench slept $((p2 - p1)) times, the bench main thread $((b2 - b1))" &&
	wait_pid $pid 20 && [ "$rc" = 0 ] &&
	[ $((p2 - p1)) -le 2 ] && [ $((b2 - b1)) -le 1 ]
'

test_expect_success 'a killed interbench leaves a valid JSON and no process' '
	"$IB" $LPM -t 1 -W audio -w none -w burn -w ring --json j.json -c >out 2>&1 &
	pid=$! && wait_proc ib:load:Burn 10 && sleep 0.3 &&
	kill -KILL $pid && wait_pid $pid 5 &&
	no_ib_procs && valid_json j.json &&
	[ $(grep -c "\"bench\":" j.json) = 1 ] && has j.json "\"finished\": null"
'

if is_root && mkdir tiny && mount -t tmpfs -o size=16m tmpfs tiny 2>/dev/null; then
	test_expect_success 'a full disk skips Write and Read with why, runs the rest' '
		"$IB" $LPM -t 0.3 -W audio -w write -w read -w burn -D tiny -c >out 2>&1
		rc=$?; [ $rc = 4 ] || fail "exit status $rc, wanted 4: $(cat out)"
		grep -q "^Write  *skipped: .*space" out || fail "$(cat out)"
		grep -q "^Read  *skipped: .*space" out || fail "$(cat out)"
		grep -q "^Burn  *[0-9]" out || fail "$(cat out)"
		[ -z "$(ls tiny)" ] || fail "files left: $(ls tiny)"
	'
	umount tiny
	mkdir ro && mount -t tmpfs -o ro,size=1m tmpfs ro
	test_expect_success 'a read-only load directory is refused before anything starts' '
		"$IB" $LPM -t 0.3 -W audio -w write -D ro -c >out 2>err; rc=$?
		[ $rc = 2 ] && grep -q "^interbench: option -D: cannot write in ro" err &&
		[ ! -s out ]
	'
	umount ro
else
	test_skip 'a full disk skips Write and Read with why' 'needs root to mount a tmpfs'
	test_skip 'a read-only load directory is refused' 'needs root to mount a tmpfs'
fi

if is_root && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IB"; then
	as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	chmod 755 "$TRASH" && mkdir u && chmod 777 u
	test_expect_success 'without real-time rights: warns once, marks log and JSON' '
		(cd u && as_nobody "$IB" $LPM -t 0.3 -W audio -w none --json n.json >out 2>&1)
		rc=$?; [ $rc = 0 ] || fail "exit status $rc: $(cat u/out)"
		[ $(grep -c "no real-time privileges" u/out) = 1 ] || fail "$(cat u/out)"
		grep -q "no real-time privileges" "u/$LOG" &&
		grep -q "\"realtime_ok\": false" u/n.json &&
		grep -q "^None  *[0-9]" u/out
	'
	test_expect_success 'without the right to raise priority, -N -5 is a clear error' '
		(cd u && as_nobody "$IB" $LPM -N -5 -t 0.3 -W audio -w none >out 2>err)
		rc=$?; [ $rc = 3 ] || fail "exit status $rc"
		grep -q "^interbench: -N -5 needs the right to raise priority" u/err && [ ! -s u/out ]
	'
	test_expect_success 'without real-time rights -r is a clear error' '
		(cd u && as_nobody "$IB" $LPM -r -t 0.3 -W audio -w none >out 2>err)
		rc=$?; [ $rc = 3 ] || fail "exit status $rc"
		grep -q "^interbench: -r needs real-time privileges" u/err && [ ! -s u/out ]
	'
else
	test_skip 'without real-time rights: warns once' 'needs root and setpriv to drop rights'
	test_skip 'without the right to raise priority, -N -5 is a clear error' 'needs root and setpriv'
	test_skip 'without real-time rights -r is a clear error' 'needs root and setpriv'
fi
test_done

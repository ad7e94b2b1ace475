#!/bin/sh
# One measuring run per machine: a second run refuses to start (exit 3,
# one line naming the other's pid) unless --allow-concurrent, which is
# recorded; compare, --list, --dry-run are never blocked; a killed run
# never blocks the next. lib.sh gives this script its own lock file
# (INTERBENCH_LOCK); the machine-wide default is tested in a private
# mount namespace, so that nothing here meets another suite's runs.
. "$(dirname "$0")/lib.sh"

LPM="-l 1000000"
QUICK="$LPM -t 0.2 -c -W audio -w none"

# A run holding the lock for a while; its pid in $bg.
hold() {
	"$IB" $LPM -t ${1:-4} -c -W audio -w none >bg.out 2>&1 &
	bg=$!
	wait_proc ib:bench:Audio || { cat bg.out; fail "no benchmark started"; }
}

test_expect_success 'a second run refuses to start: one line naming the other, exit 3' '
	hold &&
	status_is 3 "$IB" $QUICK --json no.json >out 2>err &&
	[ ! -s out ] && [ $(wc -l <err) = 1 ] &&
	has err "^interbench: another interbench (pid $bg) is measuring on this machine" &&
	has err "allow-concurrent" && [ ! -e no.json ] &&
	wait_pid $bg 20 && [ $rc = 0 ]
'

test_expect_success 'compare, --list, --dry-run, --help, --version and --completion are never blocked' '
	"$IB" $QUICK --json a.json >/dev/null 2>&1 &&
	hold &&
	"$IB" compare a.json a.json >cmp.out && has cmp.out "Summary" &&
	"$IB" --list >list && has list "^bench  *Audio" &&
	"$IB" --dry-run -W audio -w none >dry && has dry "Audio under None" &&
	"$IB" --help >help && "$IB" --version >v && "$IB" --completion bash >c &&
	wait_pid $bg 20
'

test_expect_success '--allow-concurrent runs, and the log, JSON and JUnit say so' '
	hold &&
	"$IB" $LPM -t 0.2 -W audio -w none --allow-concurrent --json c.json \
		--junit c.xml >out 2>&1 || { cat out; false; }
	LOG=$(uname -r).log &&
	has "$LOG" "WARNING: --allow-concurrent: another interbench (pid $bg) is measuring too" &&
	has c.json "\"allow_concurrent\": true" && has c.json "\"concurrent\": true" &&
	has c.json "\"concurrent_pid\": $bg" &&
	has c.xml "name=\"concurrent_pid\" value=\"$bg\"" &&
	wait_pid $bg 20
'

test_expect_success '--allow-concurrent with nobody else running says that too' '
	"$IB" $QUICK --allow-concurrent --json d.json >out 2>&1 &&
	has out "Note: --allow-concurrent given; no other interbench was measuring" &&
	has d.json "\"allow_concurrent\": true" && has d.json "\"concurrent\": false"
'

test_expect_success 'a run killed with SIGKILL does not block the next' '
	hold 10 && kill -9 $bg && wait_pid $bg 10 &&
	"$IB" $QUICK >out 2>&1 || { cat out; false; }
'

test_expect_success 'the lock file is never written to' '
	[ -f "$INTERBENCH_LOCK" ] && [ ! -s "$INTERBENCH_LOCK" ]
'

test_expect_success 'a link planted at the lock file is not followed' '
	echo "do not touch" >victim && rm -f "$INTERBENCH_LOCK" &&
	ln -s victim "$INTERBENCH_LOCK" &&
	status_is 3 "$IB" $QUICK >out 2>err &&
	has err "cannot take the lock .*: it is a symbolic link" &&
	[ "$(cat victim)" = "do not touch" ] && rm -f "$INTERBENCH_LOCK"
'

if is_root && unshare -m true 2>/dev/null; then
	test_expect_success 'without INTERBENCH_LOCK runs share one lock per machine (/run/lock or /tmp)' '
		cp "$IB" ib && chmod 755 ib &&
		env -u INTERBENCH_LOCK unshare -m sh -c "
			mount -t tmpfs tmpfs /run/lock && mount -t tmpfs tmpfs /tmp &&
			./ib $LPM -t 4 -c -W audio -w none >bg.out 2>&1 & bg=\$!
			i=0; while ! pgrep -P \$bg -x ib:bench:Audio >/dev/null && [ \$i -lt 200 ]; do
				sleep 0.05; i=\$((i + 1)); done
			./ib $QUICK >out 2>err; echo \$? >rc
			ls /run/lock /tmp >where
			kill \$bg; wait \$bg; true" &&
		[ "$(cat rc)" = 3 ] && has err "another interbench" &&
		has where "^interbench.lock$"
	'
	test_expect_success 'a run in another PID namespace is named as such' '
		hold &&
		unshare -pf --mount-proc "$IB" $QUICK >out 2>err; rc2=$?
		[ $rc2 = 3 ] && has err "another interbench (in another PID namespace)" &&
		wait_pid $bg 20
	'
else
	test_skip 'runs share one lock per machine' 'not root, or no unshare -m'
	test_skip 'a run in another PID namespace is named as such' 'not root, or no unshare'
fi

test_expect_success 'nothing was left running' 'no_ib_procs'
test_done

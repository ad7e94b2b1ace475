#!/bin/sh
# One measuring run per machine: a second run refuses to start (exit 3,
# one line naming the other's pid) unless --allow-concurrent, which is
# recorded; compare, --list, --dry-run are never blocked; a killed run
# never blocks the next; another user can neither block a run nor go
# unmentioned. lib.sh gives this script its own lock file
# (INTERBENCH_LOCK); the default places are tested in a private mount
# namespace, so that nothing here meets another suite's runs.
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
	[ ! -s out ] && [ $(err_lines err) = 1 ] &&
	has err "^interbench: another interbench (pid $bg) is measuring on this machine" &&
	has err "allow-concurrent" && [ ! -e no.json ] &&
	wait_pid $bg 20 && [ $rc = 0 ]
'

test_expect_success 'compare, --list, --dry-run, --help, --version and --completion are never blocked' '
	"$IB" $QUICK --json a.json >/dev/null 2>&1 &&
	hold &&
	status_is 8 "$IB" compare a.json a.json >cmp.out 2>/dev/null &&
	has cmp.out "Summary" &&
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
	# A private mount namespace with a fresh /run (mode 755, as a
	# system's): the default place, shared with no other suite's runs.
	cp "$IB" ib && chmod 755 ib . &&
	cat >ns.sh <<-\EOF
	mount -t tmpfs -o mode=755 tmpfs /run || exit 9
	hold() { "$@" -l 1000000 -t 4 -c -W audio -w none >bg.out 2>&1 & bg=$!
		i=0; while ! pgrep -P $bg -x ib:bench:Audio >/dev/null &&
			[ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done; }
	EOF
	test_expect_success 'without INTERBENCH_LOCK root runs share /run/interbench.lock, mode 0600' '
		env -u INTERBENCH_LOCK unshare -m sh -c ". ./ns.sh
			hold ./ib
			./ib $QUICK >out 2>err; echo \$? >rc
			stat -c %a:%U /run/interbench.lock >mode
			kill \$bg; wait \$bg; true" &&
		[ "$(cat rc)" = 3 ] && has err "another interbench" &&
		[ "$(cat mode)" = 600:root ]
	'
	if command -v setpriv >/dev/null 2>&1; then
		mkdir nob rt && chown 65534 nob rt && chmod 700 rt
		test_expect_success 'another user can neither take root'"'"'s lock nor block its runs, and is named' '
			env -u INTERBENCH_LOCK XDG_RUNTIME_DIR=$PWD/rt unshare -m sh -c ". ./ns.sh
				nob() { setpriv --reuid=65534 --regid=65534 --clear-groups \"\$@\"; }
				./ib $QUICK >/dev/null 2>&1
				nob sh -c \"exec 3</run/interbench.lock\" 2>/dev/null && echo opened >>bad
				nob ln -s /etc/passwd /run/x.lock 2>/dev/null && echo planted >>bad
				cd nob && hold setpriv --reuid=65534 --regid=65534 --clear-groups ../ib && cd ..
				ls rt >rtls
				./ib $QUICK --json o.json >out 2>err; echo \$? >rc
				kill \$bg; wait \$bg; true" &&
			[ ! -e bad ] && [ "$(cat rc)" = 0 ] && has rtls "^interbench.lock$" &&
			nob_pid=$(sed -n "s/.*\"concurrent_pid\": \([0-9]*\).*/\1/p" o.json) &&
			[ -n "$nob_pid" ] && has o.json "\"concurrent_uid\": 65534" &&
			has out "WARNING: another user.s interbench (pid $nob_pid, uid 65534) is running"
		'
	else
		test_skip 'another user can neither take root'"'"'s lock nor block its runs' 'no setpriv'
	fi
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

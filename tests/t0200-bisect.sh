#!/bin/sh
# A bisect that works, end to end: a scratch git repository of 8 commits
# whose 5th adds a stall (its setup.sh starts a SCHED_FIFO spinner, 20 ms
# every 70 ms, on the run's CPU: a period that beats with Audio's 50 ms,
# so that every repeat meets it, as t0160 says), and `git bisect run` with
# README's recipe, contrib/bisect/ab-step.sh: each commit's state (B)
# against the machine as it is (A), with `interbench ab`. The bisect must
# name the 5th commit as the first bad one. Every step's verdict is kept;
# the spinner never outlives a step. Needs root (SCHED_FIFO), git and
# tests/noise: skipped, saying so, without them.
. "$(dirname "$0")/lib.sh"

NOISE=$TESTS_DIR/noise
why=""
if ! is_root; then
	why="not root (the stall is a SCHED_FIFO spinner)"
elif ! command -v git >/dev/null; then
	why="no git (apt-get install git)"
elif [ ! -x "$NOISE" ]; then
	why="no tests/noise (make tests/noise)"
fi
if [ -n "$why" ]; then
	test_skip 'git bisect run with interbench ab finds the stall' "$why"
	test_done
	exit
fi

# The repository: setup.sh, which ab's B side runs as the commit's
# state, starts a spinner on CPU 0 from commit 5 on and nothing before.
export NOISE TRASH
git init -q repo && (
	cd repo && git config user.email t@example.org &&
	git config user.name t && for i in 1 2 3 4 5 6 7 8; do
		if [ $i -ge 5 ]; then
			cat >setup.sh <<-'EOF'
			# commit 5 on: a 20 ms in 70 ms SCHED_FIFO stall on CPU 0
			case $1 in
			start)
				taskset -c 0 "$NOISE" 20 70 300 >"$TRASH/noise.out" 2>&1 &
				echo $! >"$TRASH/noise.pid"
				i=0
				while ! grep -q "^noise: ready" "$TRASH/noise.out" &&
				    [ $i -lt 100 ]; do
					sleep 0.05
					i=$((i + 1))
				done
				grep -q "^noise: ready" "$TRASH/noise.out" ;;
			stop)	# state A only once the spinner is gone
				p=$(cat "$TRASH/noise.pid") && kill "$p" && i=0 &&
				while kill -0 "$p" 2>/dev/null && [ $i -lt 100 ]; do
					sleep 0.05
					i=$((i + 1))
				done
				! kill -0 "$p" 2>/dev/null ;;
			esac
			EOF
		else
			echo "# commit $i: nothing to set up" >setup.sh
		fi
		echo "commit $i" >version
		git add setup.sh version && git commit -qm "commit $i" || exit 1
	done
) || { echo "Bail out! cannot make the scratch repository"; exit 1; }

# README's recipe, as it is there: contrib/bisect/ab-step.sh with the
# commit's setup.sh as ab's B side.
STEP=$TESTS_DIR/../contrib/bisect/ab-step.sh
export IB IB_SETUP='sh ./setup.sh start' IB_UNDO='sh ./setup.sh stop'
export IB_OUT="$TRASH"
export IB_OPTS="-l 1000000 -u -c -t 1 -n 8 -W audio -w none --alpha 0.002"

test_expect_success 'git bisect run with interbench ab names the commit that added the stall' '
	bad=$(cd repo && git rev-list --reverse HEAD | sed -n 5p) &&
	(cd repo && git bisect start HEAD "$(git rev-list --reverse HEAD | head -1)" >/dev/null &&
	 timeout 600 git bisect run "$STEP" >../bisect.out 2>&1; echo $? >../bisect.rc
	 git bisect reset >/dev/null 2>&1) &&
	grep "^ab-step: " bisect.out >steps && cat steps &&
	[ "$(cat bisect.rc)" = 0 ] || fail "git bisect run: $(tail -5 bisect.out)" &&
	has bisect.out "^$bad is the first bad commit" &&
	# every step was judged, 0 or 1, and at least two were taken
	! grep -v ": interbench ab exit [01] " steps | grep . &&
	[ "$(wc -l <steps)" -ge 2 ]
'

test_expect_success 'the stall was seen in the tail: a bad step says which figures' '
	s=$(grep ": interbench ab exit 1 " steps | head -1 | cut -d" " -f2 | tr -d :) &&
	[ -n "$s" ] || fail "no step was judged worse" &&
	# worse, or a trade-off (the spinner also keeps CPU 0 awake: p50
	# better, doc/effects.txt), its tail worse either way
	grep -q "^ *=> \(worse\|mixed (a trade-off): worse\): .*max latency +" "ab-step-$s.out" ||
		fail "$(grep "=>" "ab-step-$s.out")" &&
	no_ib_procs && { [ ! -s noise.pid ] || ! kill -0 "$(cat noise.pid)" 2>/dev/null ||
		fail "the spinner outlived its step"; }
'

test_done

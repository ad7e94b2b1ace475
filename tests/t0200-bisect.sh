#!/bin/sh
# A bisect that works, end to end: a scratch git repository of 8 commits
# whose 5th adds a stall (its state file starts a SCHED_FIFO spinner,
# 20 ms every 100 ms, on the run's CPU), and `git bisect run` with a
# script that measures each commit against the machine as it is with
# `interbench ab` (A nothing, B the commit's state). The bisect must name
# the 5th commit as the first bad one. Every step's verdict is kept; the
# spinner never outlives a step. Needs root (SCHED_FIFO), git and
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

# The repository: commit N writes stall=1 into ./state from N = 5 on.
git init -q repo && (
	cd repo && git config user.email t@example.org &&
	git config user.name t && for i in 1 2 3 4 5 6 7 8; do
		echo "stall=$([ $i -ge 5 ] && echo 1 || echo 0)" >state
		git add state && git commit -qm "commit $i" || exit 1
	done
) || { echo "Bail out! cannot make the scratch repository"; exit 1; }

# The step git bisect run calls, in the repository: its exit status is
# ab's verdict (0 not worse, 1 worse); anything else (ab could not run
# or judge) stops the bisect (status 200 > 127: git's "abort"). -n 8
# pairs and --alpha 0.002: a bisect judges several times, and one false
# "worse" among its good commits would send it astray.
cat >step.sh <<EOF
. ./state
c=\$(git rev-parse --short HEAD)
if [ "\$stall" = 1 ]; then
	b="taskset -c 0 $NOISE 20 100 300 >$TRASH/noise.out 2>&1 &
		echo \\\$! >$TRASH/noise.pid; i=0
		while ! grep -q '^noise: ready' $TRASH/noise.out && [ \\\$i -lt 100 ]
		do sleep 0.05; i=\\\$((i + 1)); done
		grep -q '^noise: ready' $TRASH/noise.out"
	u="kill \\\$(cat $TRASH/noise.pid)"
else
	b=true u=true
fi
"$IB" ab -l 1000000 -u -c -t 1 -n 8 -W audio -w none --alpha 0.002 \\
	-o "$TRASH/step-\$c" --b "\$b" --b-undo "\$u" >"$TRASH/step-\$c.out" 2>&1
rc=\$?
echo "\$c stall=\$stall ab=\$rc" >>"$TRASH/steps"
case \$rc in 0|1) exit \$rc ;; *) exit 200 ;; esac
EOF

test_expect_success 'git bisect run with interbench ab names the commit that added the stall' '
	bad=$(cd repo && git rev-list --reverse HEAD | sed -n 5p) &&
	(cd repo && git bisect start HEAD "$(git rev-list --reverse HEAD | head -1)" >/dev/null &&
	 timeout 600 git bisect run sh ../step.sh >../bisect.out 2>&1; echo $? >../bisect.rc
	 git bisect reset -q) &&
	cat steps &&
	[ "$(cat bisect.rc)" = 0 ] || fail "git bisect run: $(tail -5 bisect.out)" &&
	has bisect.out "^$bad is the first bad commit" &&
	# every step was judged: the good ones not worse, the bad ones worse
	! grep -v "stall=0 ab=0\$" steps | grep -v "stall=1 ab=1\$" | grep . &&
	[ "$(wc -l <steps)" -ge 2 ]
'

test_expect_success 'the stall was seen in the tail: a bad step says which figures' '
	s=$(grep "stall=1 ab=1" steps | head -1 | cut -d" " -f1) &&
	[ -n "$s" ] && has "step-$s.out" "^ *=> worse: .*max latency +" &&
	no_ib_procs &&
	! kill -0 "$(cat noise.pid)" 2>/dev/null || fail "spinner left"
'

test_done

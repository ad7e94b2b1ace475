#!/bin/sh
# A bisect that works, end to end, and confirms before it names: a
# scratch git repository of 8 commits whose 5th adds a stall (its
# setup.sh starts a SCHED_FIFO spinner, 20 ms every 70 ms, on the run's
# CPU: a period that beats with Audio's 50 ms, so that every repeat meets
# it, as t0160 says), bisected with doc/ab.txt's recipe, contrib/bisect/
# bisect.sh: git bisect run with ab-step.sh (each commit's state against
# the machine as it is, with `interbench ab`), then the named commit
# against its parent with twice the pairs. It must name the 5th commit,
# confirmed. With a noisy step (a stand-in that calls the innocent 4th
# commit bad the first time it is asked) the bisect first names the 4th;
# the confirmation must reverse that verdict and the bisect go on to name
# the 5th. The spinner never outlives a run, nor the bisect its end.
#
# First, without measuring (a stand-in for interbench): bad input, a
# verdict reversed in the bisect's log, the rounds' bound, GOOD or BAD
# itself judged wrong, a step past its time limit, a signal. These need
# git only; the measuring cases need root (SCHED_FIFO) and tests/noise:
# each is skipped, saying so, without them.
# tests/run: alone (it checks that a disturbance it plants is seen).
. "$(dirname "$0")/lib.sh"

NOISE=$TESTS_DIR/noise
BISECT=$TESTS_DIR/../contrib/bisect/bisect.sh
if ! command -v git >/dev/null; then
	test_skip 'bisect.sh over a scratch repository' "no git (apt-get install git)"
	test_done
	exit
fi

# The repository: setup.sh, which ab runs as the commit's state, starts
# a spinner on CPU 0 from commit 5 on and nothing before.
export NOISE TRASH
git init -q repo && (
	cd repo && git config user.email t@example.org &&
	git config user.name t && for i in 1 2 3 4 5 6 7 8; do
		if [ $i -ge 5 ]; then
			cat >setup.sh <<-'EOF'
			# commit 5 on: a 20 ms in 70 ms SCHED_FIFO stall on CPU 0
			case $1 in
			start)	# not the last spinner's "ready": it may be read
				# before this one's output is opened
				rm -f "$TRASH/noise.out"
				taskset -c 0 "$NOISE" 20 70 300 >"$TRASH/noise.out" 2>&1 &
				echo $! >"$TRASH/noise.pid"
				i=0
				while ! grep -qs "^noise: ready" "$TRASH/noise.out" &&
				    [ $i -lt 100 ]; do
					sleep 0.05
					i=$((i + 1))
				done
				grep -qs "^noise: ready" "$TRASH/noise.out" ;;
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
# the commits the tests name (in their bodies, which shellcheck cannot see)
# shellcheck disable=SC2034
{
	C1=$(cd repo && git rev-list --reverse HEAD | sed -n 1p)
	C2=$(cd repo && git rev-list --reverse HEAD | sed -n 2p)
	C3=$(cd repo && git rev-list --reverse HEAD | sed -n 3p)
	C4=$(cd repo && git rev-list --reverse HEAD | sed -n 4p)
	C5=$(cd repo && git rev-list --reverse HEAD | sed -n 5p)
	C7=$(cd repo && git rev-list --reverse HEAD | sed -n 7p)
}
BRANCH=$(cd repo && git symbolic-ref HEAD)
short() { (cd "$TRASH/repo" && git rev-parse --short "$1"); }

# bisect OUTDIR GOOD BAD: bisect.sh in the repository, its files in
# OUTDIR, its output in OUTDIR.out, its status in OUTDIR.rc
bisect() {
	mkdir -p "$TRASH/$1" &&
	(cd "$TRASH/repo" && IB_OUT=$TRASH/$1 timeout 900 sh "$BISECT" "$2" "$3" \
		>"$TRASH/$1.out" 2>&1; echo $? >"$TRASH/$1.rc")
}
# tidy: the bisect reset, the checkouts removed, nothing left running
tidy() {
	(cd "$TRASH/repo" && ! git bisect log >/dev/null 2>&1 ||
		fail "the bisect was not reset") &&
	[ "$(cd "$TRASH/repo" && git worktree list | wc -l)" = 1 ] ||
		fail "checkouts left: $(cd "$TRASH/repo" && git worktree list)"
	[ "$(cd "$TRASH/repo" && git symbolic-ref -q HEAD)" = "$BRANCH" ] ||
		fail "not back on $BRANCH"
	no_ib_procs && { [ ! -s noise.pid ] || ! kill -0 "$(cat noise.pid)" 2>/dev/null ||
		fail "the spinner outlived its run"; }
}

# A stand-in for interbench ab: nothing measured, the verdict by the
# run's name (-o): FAKE_STEP for a step's, FAKE_CONFIRM for a
# confirmation's, FAKE_JUDGE for a judgement's; a run named FAKE_SLOW*
# waits to be stopped, then takes a second to put the machine back.
cat >fake-ib <<'EOF'
#!/bin/sh
[ "$1" = ab ] || exit 2
while [ $# -gt 0 ]; do [ "$1" = -o ] && name=${2##*/}; shift; done
case $name in
ab-step-*) rc=$FAKE_STEP ;;
confirm-*) rc=$FAKE_CONFIRM ;;
judge-*) rc=$FAKE_JUDGE ;;
*) exit 2 ;;
esac
case $name in
"${FAKE_SLOW:-none}"*)
	trap 'kill $! 2>/dev/null; sleep 1; echo back >>"$TRASH/slow"; exit 143' TERM
	echo started >>"$TRASH/slow"
	sleep 300 &
	wait ;;
esac
echo "Summary: fake $rc"
exit "$rc"
EOF
chmod +x fake-ib

test_expect_success 'bad input: one line, exit 2, nothing started, a bisect in progress left alone' '
	cd repo &&
	for args in "" "$C1" "nosuch HEAD" "HEAD $C1" "HEAD HEAD"; do
		# shellcheck disable=SC2086
		status_is 2 sh "$BISECT" $args >out 2>err || return 1
		[ ! -s out ] && [ "$(wc -l <err)" = 1 ] || fail "$args: $(cat out err)"
	done &&
	IB=$TRASH/fake-ib IB_ROUNDS=0 status_is 2 sh "$BISECT" "$C1" HEAD 2>err &&
	has err "IB_ROUNDS .0. is not a number" &&
	IB=/nonexistent status_is 2 sh "$BISECT" "$C1" HEAD 2>err &&
	has err "no interbench ./nonexistent." &&
	(cd .. && status_is 2 sh "$BISECT" "$C1" HEAD 2>err && has err "not in a git work tree") &&
	git bisect start HEAD "$C1" >/dev/null &&
	IB=$TRASH/fake-ib status_is 2 sh "$BISECT" "$C1" HEAD 2>err &&
	has err "a bisect is in progress here" &&
	git bisect log >/dev/null && git bisect reset >/dev/null 2>&1
'

REAL_IB=$IB
export IB="$TRASH/fake-ib"
test_expect_success 'a stand-in: a reversed verdict, the log replayed, the rounds bounded' '
	# every step bad, no confirmation: commit 2 named, judged good
	# again, reversed; then 3 named from the corrected log, its
	# confirmation the last of IB_ROUNDS=2
	FAKE_STEP=1 FAKE_CONFIRM=0 FAKE_JUDGE=0 IB_ROUNDS=2 bisect rounds "$C1" HEAD &&
	[ "$(cat rounds.rc)" = 1 ] || fail "exit $(cat rounds.rc): $(cat rounds.out)"
	has rounds.out "^bisect.sh: round 1 of 2: the bisect names $(short "$C2") " &&
	has rounds.out "^bisect.sh: reversed: $(short "$C2") is good, not bad as its step said" &&
	tail -1 rounds/bisect-1.log | grep -qx "git bisect good $C2" &&
	has rounds.out "^bisect.sh: round 2 of 2: " &&
	has rounds.out "^no commit confirmed: none in 2 rounds" &&
	[ -f "rounds/judge-1-$(short "$C2").out" ] && tidy
'

test_expect_success 'a stand-in: GOOD or BAD itself judged wrong is said, not bisected' '
	FAKE_CONFIRM=0 FAKE_JUDGE=0 bisect badbad "$C7" HEAD &&
	[ "$(cat badbad.rc)" = 1 ] &&
	has badbad.out "^no commit confirmed: BAD $(short HEAD) .* itself is judged good" &&
	FAKE_CONFIRM=0 FAKE_JUDGE=1 bisect goodgood "$C7" HEAD &&
	[ "$(cat goodgood.rc)" = 1 ] &&
	has goodgood.out "^no commit confirmed: GOOD $(short "$C7") .* itself is judged bad" &&
	FAKE_STEP=125 bisect skips "$C1" HEAD && [ "$(cat skips.rc)" = 1 ] &&
	has skips.out "^no commit confirmed: only skipped commits are left" && tidy
'

test_expect_success 'a stand-in: a step past IB_TIMEOUT stops the bisect (3), its ab ended first' '
	rm -f slow && start=$(date +%s) &&
	FAKE_STEP=0 FAKE_SLOW=ab-step IB_TIMEOUT=2 bisect late "$C1" HEAD &&
	[ "$(cat late.rc)" = 3 ] || fail "exit $(cat late.rc): $(cat late.out)"
	[ $(($(date +%s) - start)) -lt 60 ] || fail "took $(($(date +%s) - start)) s"
	has late.out "^bisect.sh: git bisect run stopped" &&
	[ "$(cat slow)" = "$(printf "started\nback")" ] || fail "the stand-in: $(cat slow)"
	tidy
'

test_expect_success 'a stand-in: SIGTERM in a confirmation: ab stopped, A undone, the bisect reset (143)' '
	rm -f slow undo.log && mkdir signal || return 1
	(cd repo && FAKE_STEP=1 FAKE_SLOW=confirm IB_SETUP=: \
	 IB_UNDO="pwd >>\"\$TRASH/undo.log\"" IB_OUT=$TRASH/signal \
	 exec sh "$BISECT" "$C1" HEAD >../signal.out 2>&1) &
	p=$! && i=0 &&
	while [ ! -s slow ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done &&
	has slow started && kill -TERM "$p" &&
	{ wait_pid "$p" 60 || fail "bisect.sh did not end"; } &&
	[ "$rc" = 143 ] || fail "exit $rc: $(cat signal.out)"
	has signal.out "^bisect.sh: stopped by a signal" &&
	[ "$(cat slow)" = "$(printf "started\nback")" ] || fail "the stand-in: $(cat slow)"
	# side A (commit 1) undone once, in its own checkout
	[ "$(wc -l <undo.log)" = 1 ] && grep -q "/wt-$C1\$" undo.log ||
		fail "A undone: $(cat undo.log)"
	tidy
'
IB=$REAL_IB

why=""
if ! is_root; then
	why="not root (the stall is a SCHED_FIFO spinner)"
elif [ ! -x "$NOISE" ]; then
	why="no tests/noise (make tests/noise)"
fi
if [ -n "$why" ]; then
	test_skip 'bisect.sh with interbench ab names the stall, confirmed' "$why"
	test_skip 'a noisy step: the confirmation reverses its verdict' "$why"
	test_done
	exit
fi

# doc/ab.txt's recipe: the commit's setup.sh as ab's side B. 5 pairs a step
# (the recipe's 8 take longer than a test should) and so 10 a confirmation.
export IB IB_SETUP='sh ./setup.sh start' IB_UNDO='sh ./setup.sh stop'
export IB_OPTS="-l 1000000 -u -c -t 1 -n 5 -W audio -w none --alpha 0.002"
export IB_TIMEOUT=300

test_expect_success 'bisect.sh with interbench ab names the commit that added the stall, confirmed' '
	bisect plain "$C1" HEAD &&
	grep "^ab-step: \|^bisect.sh: \|^first bad" plain.out &&
	[ "$(cat plain.rc)" = 0 ] || fail "bisect.sh exit $(cat plain.rc): $(tail -5 plain.out)"
	# named, then confirmed with twice the pairs; a step the host
	# misled may have been reversed on the way (a 5-pair step once
	# called commit 5 good on a busy machine)
	has plain.out "^bisect.sh: round [1-3] of 3: the bisect names $(short "$C5") .*-n 10 " &&
	has plain.out "^first bad commit: $C5 (confirmed: .*[1-9][0-9]* \(worse\|mixed\)" &&
	grep "^ab-step: " plain.out >steps &&
	# every step was judged, 0 or 1, and at least two were taken
	! grep -v ": interbench ab exit [01] " steps | grep . &&
	[ "$(wc -l <steps)" -ge 2 ] && tidy
'

test_expect_success 'the stall was seen in the tail: the confirmation says which figures' '
	s=$(grep ": interbench ab exit 1 " steps | head -1 | cut -d" " -f2 | tr -d :) &&
	[ -n "$s" ] || fail "no step was judged worse" &&
	grep -q "^ *=> \(worse\|mixed\)" "plain/ab-step-$s.out" ||
		fail "plain/ab-step-$s.out: no cell worse or mixed"
	# worse, or a trade-off (the spinner also keeps CPU 0 awake: p50
	# better, doc/effects.txt), its tail worse either way (a 5-pair
	# step may see only the 1 % low FPS on a busy host; 10 pairs see
	# the max too)
	f=$(ls plain/confirm-*-"$(short "$C5")".out | tail -1) &&
	grep -q "^ *=> \(worse\|mixed (a trade-off): worse\): .*max latency +" "$f" ||
		fail "$f: $(grep "=>" "$f")"
'

# The noisy step: commit 4, innocent, is "bad" the first time it is
# asked; every other step is ab-step.sh's. From commit 3 git asks 5
# (bad), then 4: the bisect names 4, whose parent is GOOD.
cat >noisy-step.sh <<EOF
#!/bin/sh
if [ "\$(git rev-parse HEAD)" = $C4 ] && [ ! -e "$TRASH/lied" ]; then
	: >"$TRASH/lied"
	echo "noisy-step: \$(git rev-parse --short HEAD): bad (a false verdict)"
	exit 1
fi
exec sh "$TESTS_DIR/../contrib/bisect/ab-step.sh"
EOF

test_expect_success 'a noisy step names the wrong commit: the confirmation reverses it, the 5th is named' '
	IB_STEP="sh $TRASH/noisy-step.sh" bisect noisy "$C3" HEAD &&
	grep "^ab-step: \|^noisy-step: \|^bisect.sh: \|^first bad" noisy.out &&
	[ "$(cat noisy.rc)" = 0 ] || fail "bisect.sh exit $(cat noisy.rc): $(tail -5 noisy.out)"
	has noisy.out "^noisy-step: $(short "$C4"): bad" &&
	# Under make check-noisy a real step may misjudge a commit too, and
	# its reversal costs a round: the rounds are not counted here.
	has noisy.out "^bisect.sh: round [12] of 3: the bisect names $(short "$C4") " &&
	has noisy.out "^bisect.sh: not confirmed: $(short "$C4") is not worse than its parent" &&
	has noisy.out "^bisect.sh: $(short "$C4") is good (ab exit 0" &&
	has noisy.out "^bisect.sh: reversed: $(short "$C4") is good, not bad as its step said" &&
	has noisy.out "^bisect.sh: round [23] of 3: the bisect names $(short "$C5") " &&
	has noisy.out "^first bad commit: $C5 (confirmed: " &&
	cat noisy/bisect-*.log | grep -qx "git bisect good $C4" && tidy
'

test_done

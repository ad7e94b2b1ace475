#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bisect/bisect.sh - a bisect over states of the machine that
# confirms before it names. Run in the repository bisected:
#
#   IB=$IBDIR/interbench IB_SETUP='sh ./setup.sh start' \
#       IB_UNDO='sh ./setup.sh stop' $IBDIR/contrib/bisect/bisect.sh GOOD BAD
#
# 1. git bisect start BAD GOOD, and git bisect run with IB_STEP (default
#    ab-step.sh: each commit's state against the machine as it is).
# 2. The first bad commit C it names is confirmed: interbench ab with C's
#    parent P (its first) as side A and C as side B, with more pairs
#    (IB_CONFIRM_OPTS). Each side's IB_SETUP and IB_UNDO run at the top
#    of a checkout of its commit of its own (git worktree), as a step's
#    run at the top of the bisect's. C worse than P: C is named, exit 0.
# 3. C not worse than P: a verdict that placed C was wrong. C is judged
#    again against the machine as it is, with IB_CONFIRM_OPTS: not worse,
#    and its step's "bad" was wrong; worse, and P is judged so too: worse,
#    and P's "good" was wrong. The wrong mark is reversed in the bisect's
#    log (git bisect replay) and the bisect goes on from there. Both as
#    their steps said: C is confirmed again. IB_ROUNDS confirmations at
#    most; then, or when the wrong verdict is GOOD's or BAD's own, "no
#    commit confirmed".
#
# Environment (IB, IB_SETUP, IB_UNDO, IB_OPTS and IB_OUT as ab-step.sh's):
#   IB_STEP          the step: a command line git bisect run runs at the
#                    top of the tree, with exec (default: sh ab-step.sh,
#                    beside this)
#   IB_CONFIRM_OPTS  ab's options for a confirmation and a judgement again
#                    (default: IB_OPTS with twice the pairs: -n N becomes
#                    2N, auto[:MAX] auto:2MAX, at most 100; none, auto:20)
#   IB_ROUNDS        confirmations at most (default 3)
#   IB_TIMEOUT       seconds a step, or an ab run of this script, may take
#                    (default 7200); then it is stopped (SIGTERM, SIGKILL
#                    150 s later) and the bisect with it
#   IB_OUT           holds each step's files (ab-step-C.*, as ab-step.sh
#                    names them), each confirmation's, confirm-R-C.*,
#                    each judgement's, judge-R-C.*, and each log the
#                    bisect was replayed from, bisect-R.log (R the round;
#                    default: the directory it was started in)
#
# Exit status: 0 a first bad commit named and confirmed ("first bad
# commit: C (confirmed: ab's summary)"); 1 no commit confirmed (the
# rounds used up, GOOD or BAD itself judged wrong, only skipped commits
# left: a line says which); 2 bad command line, or not in a git work
# tree, or a bisect already in progress there (nothing run, nothing
# reset); 3 a step or an ab run could not measure or timed out, or git
# failed (a line says which, the run's output why); 128+N stopped by
# signal N. At every exit the run in progress is stopped (ab puts the
# machine back in state A), side A's undo is run, the checkouts are
# removed and the bisect is reset.

me=bisect.sh
set -f	# option lists are split into words, never globbed

say() { printf '%s: %s\n' "$me" "$*"; }
die() {
	st=$1
	shift
	printf '%s: %s\n' "$me" "$*" >&2
	exit "$st"
}

if [ "$1" = -h ] || [ "$1" = --help ]; then
	sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"
	exit 0
fi
[ $# -eq 2 ] || die 2 "usage: $me GOOD BAD (in the repository bisected; -h for more)"

# --- the command line and the environment, checked before anything runs

here=$(cd "$(dirname "$0")" && pwd) || die 2 "cannot find my own directory"
top=$(git rev-parse --show-toplevel 2>/dev/null) ||
	die 2 "not in a git work tree: run me in the repository bisected"
good=$(git rev-parse -q --verify "$1^{commit}") || die 2 "GOOD '$1' is not a commit"
bad=$(git rev-parse -q --verify "$2^{commit}") || die 2 "BAD '$2' is not a commit"
[ "$good" != "$bad" ] || die 2 "GOOD and BAD are the same commit"
git merge-base --is-ancestor "$good" "$bad" ||
	die 2 "GOOD '$1' is not an ancestor of BAD '$2'"
if git bisect log >/dev/null 2>&1; then
	die 2 "a bisect is in progress here (git bisect reset ends it)"
fi
command -v timeout >/dev/null || die 2 "no timeout(1) (coreutils)"

ib=${IB:-interbench}
case $ib in
*/*) IB=$(cd "$(dirname "$ib")" 2>/dev/null && pwd)/$(basename "$ib") ;;
*) IB=$ib ;;
esac
command -v "$IB" >/dev/null || die 2 "no interbench '$ib' (set IB)"
IB_OUT=${IB_OUT:-.}
IB_OUT=$(cd "$IB_OUT" 2>/dev/null && pwd) ||
	die 2 "IB_OUT '${IB_OUT}' is not a directory"
IB_ROUNDS=${IB_ROUNDS:-3}
IB_TIMEOUT=${IB_TIMEOUT:-7200}
case $IB_ROUNDS in
'' | *[!0-9]* | 0*) die 2 "IB_ROUNDS '$IB_ROUNDS' is not a number of rounds (1 or more)" ;;
esac
case $IB_TIMEOUT in
'' | *[!0-9]* | 0*) die 2 "IB_TIMEOUT '$IB_TIMEOUT' is not a number of seconds (1 or more)" ;;
esac
IB_OPTS=$(IB_OPTS=$IB_OPTS sh "$here/ab-step.sh" --opts)

# twice N: the pairs a confirmation takes where a step takes N (-n's
# value); what is not a number is left for ab to refuse
twice() {
	case $1 in
	auto) echo auto:20 && return ;;
	auto:*) pre=auto: m=${1#auto:} ;;
	*) pre='' m=$1 ;;
	esac
	case $m in
	'' | 0* | *[!0-9]*) echo "$1" ;;
	*)
		n=$((m * 2))
		[ "$n" -le 100 ] || n=100
		echo "$pre$n"
		;;
	esac
}

# more_pairs OPTS: OPTS with -n N, -nN, --repeat N or --repeat=N doubled
more_pairs() {
	res='' next='' seen=''
	for w in $1; do
		if [ -n "$next" ]; then
			w=$(twice "$w")
			next=
		else
			case $w in
			-n | --repeat) next=1 seen=1 ;;
			-n?*) w=-n$(twice "${w#-n}") seen=1 ;;
			--repeat=*) w=--repeat=$(twice "${w#--repeat=}") seen=1 ;;
			esac
		fi
		res=${res:+$res }$w
	done
	[ -n "$seen" ] || res="${res:+$res }-n auto:20"
	printf '%s\n' "$res"
}

# cmd_limit OPTS: ab's --cmd-timeout in OPTS (default 60 s)
cmd_limit() {
	lim=60 next=''
	for w in $1; do
		if [ -n "$next" ]; then
			lim=$w next=''
		else
			case $w in
			--cmd-timeout) next=1 ;;
			--cmd-timeout=*) lim=${w#--cmd-timeout=} ;;
			esac
		fi
	done
	case $lim in '' | *[!0-9]*) lim=60 ;; esac
	echo "$lim"
}

IB_CONFIRM_OPTS=${IB_CONFIRM_OPTS:-$(more_pairs "$IB_OPTS")}
KILL_AFTER=150
UNDO_LIMIT=$(cmd_limit "$IB_CONFIRM_OPTS")

# q WORD: WORD quoted for sh
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

IB_STEP=${IB_STEP:-"sh $(q "$here/ab-step.sh")"}
export IB IB_OPTS IB_OUT IB_SETUP IB_UNDO IB_STEP IB_TIMEOUT

# --- clean-up: whatever the exit, nothing of ours is left running or set

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ib-bisect.XXXXXX") || die 3 "cannot make a temporary directory"
: >"$tmp/worktrees"
child=	 # the job this script waits for (git bisect run, or an ab)
a_undo=	 # side A's undo, owed after a confirmation's ab
started= # the bisect is ours: reset it

# gone PID: PID has ended (a zombie has)
gone() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	'' | Z*) return 0 ;;
	esac
	return 1
}

# wait_gone PID SECONDS: wait at most SECONDS for PID to end
wait_gone() {
	i=0
	while ! gone "$1"; do
		[ "$i" -lt "$2" ] || return 1
		sleep 1
		i=$((i + 1))
	done
}

# wait_group PGID SECONDS: wait at most SECONDS for process group PGID
# to be empty
wait_group() {
	i=0
	while kill -s 0 -- "-$1" 2>/dev/null; do
		[ "$i" -lt "$2" ] || return 1
		sleep 1
		i=$((i + 1))
	done
}

# stop_step: what is left of the last step is stopped and waited for.
# A step is a process group of its own (its time limit's, whose pid
# step.pid holds); SIGTERM to it ends ab's run, which puts the machine
# back in state A before it exits.
stop_step() {
	[ -s "$tmp/step.pid" ] || return 0
	pg=$(cat "$tmp/step.pid")
	: >"$tmp/step.pid"
	kill -s 0 -- "-$pg" 2>/dev/null || return 0
	kill -s TERM -- "-$pg" 2>/dev/null
	wait_group "$pg" $((KILL_AFTER + 30)) ||
		say "the step's processes (group $pg) did not end"
}

cleanup() {
	trap '' INT TERM HUP
	stop_step
	if [ -n "$child" ]; then
		kill -TERM "$child" 2>/dev/null
		wait_gone "$child" $((KILL_AFTER + 30)) ||
			say "pid $child did not end"
		wait "$child" 2>/dev/null
		# git bisect run may have started a step as it was stopped
		stop_step
	fi
	[ -z "$a_undo" ] || undo_a
	while read -r w; do
		git worktree remove --force "$w" >/dev/null 2>&1 ||
			say "cannot remove the checkout $w"
	done <"$tmp/worktrees"
	git worktree prune >/dev/null 2>&1
	if [ -n "$started" ]; then
		git bisect reset >"$tmp/reset.out" 2>&1 ||
			say "git bisect reset failed: $(tail -1 "$tmp/reset.out")"
	fi
	rm -rf "$tmp"
}

trap 'st=$?; cleanup; exit $st' EXIT
on_signal() {
	trap '' INT TERM HUP
	say "stopped by a signal: ending the run in progress, putting the machine back"
	exit "$1"
}
trap 'on_signal 129' HUP
trap 'on_signal 130' INT
trap 'on_signal 143' TERM

cd "$top" || die 3 "cannot enter $top"

# --- the pieces

short() { git rev-parse --short "$1"; }
desc() { git log -1 --format='%h ("%s")' "$1"; }

# bounded FILE CMD...: CMD under the time limit, its output in FILE, in
# the background so that a signal is acted on at once (and said here,
# not in FILE); its status in $rc (124: timed out)
bounded() {
	f=$1
	shift
	timeout -k "$KILL_AFTER" "$IB_TIMEOUT" "$@" </dev/null >"$f" 2>&1 &
	child=$!
	wait "$child"
	rc=$?
	child=
}

# checkout COMMIT: a checkout of COMMIT of its own, its path in $wt
checkout() {
	wt=$tmp/wt-$1
	[ -d "$wt" ] && return 0
	git worktree add -q --detach "$wt" "$1" >"$tmp/wt.out" 2>&1 ||
		die 3 "cannot check $(short "$1") out: $(tail -1 "$tmp/wt.out")"
	echo "$wt" >>"$tmp/worktrees"
}

# in_dir DIR CMD: CMD run at DIR
in_dir() { printf 'cd %s && %s' "$(q "$1")" "$2"; }

# undo_a: side A's undo, after a confirmation left the machine in state A
undo_a() {
	u=$a_undo
	a_undo=
	timeout -k 5 "$UNDO_LIMIT" sh -c "$u" </dev/null >"$tmp/undo.out" 2>&1 && return 0
	say "side A's undo ($u) failed: the machine may still be in its state: $(tail -1 "$tmp/undo.out")"
	return 1
}

# ab_run NAME A B: interbench ab with IB_CONFIRM_OPTS, side A in commit A's
# state (-: the machine as it is), side B in commit B's, its files
# IB_OUT/NAME.*; its status in $rc, its summary in $verdict. A run that
# could not measure or judge ends the script (3).
ab_run() {
	name=$1
	out=$IB_OUT/$1
	a=$2
	checkout "$3"
	set -- -o "$out"
	[ -z "$IB_SETUP" ] || set -- "$@" --b "$(in_dir "$wt" "$IB_SETUP")"
	[ -z "$IB_UNDO" ] || set -- "$@" --b-undo "$(in_dir "$wt" "$IB_UNDO")"
	if [ "$a" != - ]; then
		checkout "$a"
		[ -z "$IB_SETUP" ] || set -- "$@" --a "$(in_dir "$wt" "$IB_SETUP")"
		[ -z "$IB_UNDO" ] ||
			{ set -- "$@" --a-undo "$(in_dir "$wt" "$IB_UNDO")"
			  a_undo=$(in_dir "$wt" "$IB_UNDO"); }
	fi
	# shellcheck disable=SC2086
	bounded "$out.out" "$IB" ab $IB_CONFIRM_OPTS "$@"
	# ab ends in state A; out of it unless nothing ran (a bad option)
	if [ -n "$a_undo" ]; then
		if [ "$rc" = 2 ]; then a_undo=; else undo_a || rc=6; fi
	fi
	verdict=$(sed -n 's/^Summary: //p' "$out.out" | tail -1)
	case $rc in
	0 | 1 | 125) [ -n "$verdict" ] && return 0 ;;
	124) die 3 "$name: ab timed out after $IB_TIMEOUT s (IB_TIMEOUT; $out.out)" ;;
	esac
	die 3 "$name: ab exit $rc: $(grep -v '^interbench: warning' "$out.out" | tail -1) ($out.out)"
}

# named: the bisect has named its first bad commit, $c
named() {
	c=$(git bisect log 2>/dev/null |
	    sed -n 's/^# first bad commit: \[\([0-9a-f]*\)\].*/\1/p' | tail -1)
	[ -n "$c" ]
}

# only_skipped: the bisect ended on commits its steps skipped
only_skipped() {
	git bisect log 2>/dev/null | grep -q '^# possible first bad commit:' ||
		return 1
	echo "no commit confirmed: only skipped commits are left, the first bad among them:"
	git bisect log | sed -n 's/^# possible first bad commit: \[\([0-9a-f]*\)\] /  \1 /p'
	exit 1
}

# bisect_run: git bisect run with IB_STEP, each step under the time limit and
# its pid where stop_step finds it
bisect_run() {
	cat >"$tmp/step" <<-'EOF'
	#!/bin/sh
	# bisect.sh's step: IB_STEP under its time limit, whose pid (and
	# process group) bisect.sh stops on a signal
	echo $$ >"${0%/step}/step.pid" || exit 200
	exec timeout --verbose --preserve-status -k "$KILL_AFTER" "$IB_TIMEOUT" \
		sh -c "exec $IB_STEP" "$0"
	EOF
	chmod +x "$tmp/step" || die 3 "cannot write $tmp/step"
	say "git bisect run: each step $IB_STEP (at most $IB_TIMEOUT s)"
	KILL_AFTER=$KILL_AFTER git bisect run "$tmp/step" &
	child=$!
	wait "$child"
	rc=$?
	child=
	echo	# git's last line may lack its newline
	# a step that git saw end may have left its ab putting the
	# machine back (a step killed by its time limit): wait for it
	if [ -s "$tmp/step.pid" ]; then
		wait_group "$(cat "$tmp/step.pid")" $((KILL_AFTER + 30)) ||
			die 3 "the last step's processes did not end"
		: >"$tmp/step.pid"
	fi
	named && return 0
	only_skipped
	die 3 "git bisect run stopped (exit $rc): a step could not measure, failed or timed out (its output above; IB_OUT $IB_OUT)"
}

# reverse X OLD NEW: X's step said OLD, wrongly: the bisect replayed
# from its log with X marked NEW instead, and at the end
reverse() {
	git bisect log >"$tmp/log" || die 3 "git bisect log failed"
	if ! grep -qx "git bisect $2 $1" "$tmp/log"; then
		what=BAD
		[ "$2" = good ] && what=GOOD
		echo "no commit confirmed: $what $(desc "$1") itself is judged $3 (ab exit $rc: $verdict): the bisect's range is wrong"
		exit 1
	fi
	grep -vx -e "git bisect $2 $1" -e "# $2: \[$1\] .*" \
		-e '# \(possible \)\{0,1\}first bad commit: .*' \
		"$tmp/log" >"$IB_OUT/bisect-$round.log"
	printf '# %s: [%s] reversed by %s: %s\ngit bisect %s %s\n' "$3" "$1" \
		"$me" "$(basename "$out").out" "$3" "$1" >>"$IB_OUT/bisect-$round.log"
	say "reversed: $(short "$1") is $3, not $2 as its step said; the bisect goes on from $IB_OUT/bisect-$round.log"
	git bisect replay "$IB_OUT/bisect-$round.log" >"$tmp/replay.out" 2>&1 ||
		die 3 "git bisect replay failed: $(tail -1 "$tmp/replay.out")"
}

# judge X: X's state against the machine as it is, with IB_CONFIRM_OPTS;
# $judged bad or good (not shown worse)
judge() {
	say "judging $(desc "$1") again against the machine as it is: $IB_CONFIRM_OPTS"
	ab_run "judge-$round-$(short "$1")" - "$1"
	judged=good
	[ "$rc" != 1 ] || judged=bad
	say "$(short "$1") is $judged (ab exit $rc: $verdict)"
}

# --- the bisect, confirmed

say "bisecting from $(desc "$good"), good, to $(desc "$bad"), bad"
git bisect start "$bad" "$good" >"$tmp/start.out" 2>&1 ||
	die 3 "git bisect start failed: $(tail -1 "$tmp/start.out")"
started=1
round=0
while :; do
	named || only_skipped || bisect_run
	p=$(git rev-parse -q --verify "$c^1") ||
		{ echo "no commit confirmed: $(short "$c") has no parent"; exit 1; }
	round=$((round + 1))
	say "round $round of $IB_ROUNDS: the bisect names $(desc "$c"); confirming it against its parent $(desc "$p"): $IB_CONFIRM_OPTS"
	ab_run "confirm-$round-$(short "$c")" "$p" "$c"
	if [ "$rc" = 1 ]; then
		echo "first bad commit: $c (confirmed: $verdict)"
		grep -E '^ *=> (worse|mixed)' "$out.out"
		exit 0
	fi
	say "not confirmed: $(short "$c") is not worse than its parent (ab exit $rc: $verdict)"
	if [ "$round" -ge "$IB_ROUNDS" ]; then
		echo "no commit confirmed: none in $round rounds (IB_ROUNDS), the last named $(short "$c")"
		exit 1
	fi
	judge "$c"
	if [ "$judged" = good ]; then
		reverse "$c" bad good
		continue
	fi
	judge "$p"
	if [ "$judged" = bad ]; then
		reverse "$p" good bad
		continue
	fi
	say "$(short "$c") is worse than the machine as it is and $(short "$p") is not, yet not worse than $(short "$p"): confirming again"
done

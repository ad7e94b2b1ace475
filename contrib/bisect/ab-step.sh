#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/bisect/ab-step.sh - one step of `git bisect run` where each
# commit is a state of the running machine (a setting, a module, a
# scheduler, a daemon): the commit's state (B) is measured against the
# machine as it is (A) by `interbench ab`, paired, and ab's verdict
# becomes git's: 0 good (no cell worse), 1 bad (a cell worse or mixed).
# A step ab could not measure or judge (a bad option, a side's command
# failed, another run holds the machine) stops the bisect (200: git's
# "abort"), rather than calling the commit good or bad.
#
#   git bisect start BAD GOOD
#   IB_SETUP='sh ./setup.sh start' IB_UNDO='sh ./setup.sh stop' \
#       git bisect run /path/to/contrib/bisect/ab-step.sh
#
# Environment:
#   IB        the interbench to run (default: interbench in PATH)
#   IB_SETUP  shell command, run in the tree under test, that puts the
#             machine in this commit's state (ab's --b)
#   IB_UNDO   the command that takes it out again (ab's --b-undo)
#   IB_OPTS   ab's other options (default below: -n 8 pairs and alpha
#             0.002, because a bisect judges several times and one
#             false "worse" among the good commits sends it astray)
#   IB_OUT    where each step's files go (default: .), named
#             ab-step-COMMIT.A.json, .B.json and .out
# Without --bisect in IB_OPTS a step the data cannot decide counts as
# good: right when hunting a large regression (a stall). With --bisect
# such a step exits 125 and git skips the commit.
#
# A signal (Ctrl-C, or bisect.sh's time limit) stops ab, which puts the
# machine back in state A; the step waits for that and then aborts the
# bisect. `ab-step.sh --opts` prints the options a step would use
# (bisect.sh takes its confirmation's from them).
IB=${IB:-interbench}
IB_OPTS=${IB_OPTS:--u -c -t 1 -n 8 -W audio -w none --alpha 0.002}
IB_OUT=${IB_OUT:-.}
if [ "$1" = --opts ]; then
	printf '%s\n' "$IB_OPTS"
	exit 0
fi
commit=$(git rev-parse --short HEAD) || exit 200
out="$IB_OUT/ab-step-$commit"
# a trap, not an ignored signal: ab gets the signal and ends its run,
# and this shell runs the trap only once ab has returned
trap : INT TERM HUP
# shellcheck disable=SC2086
"$IB" ab $IB_OPTS -o "$out" ${IB_SETUP:+--b "$IB_SETUP"} \
	${IB_UNDO:+--b-undo "$IB_UNDO"} >"$out.out" 2>&1
rc=$?
echo "ab-step: $commit: interbench ab exit $rc ($out.out)"
case $rc in
0 | 1 | 125) exit $rc ;;
*) exit 200 ;;
esac

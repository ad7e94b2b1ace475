#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/compare-calibration.sh - how often `interbench compare` marks a
# table of identical kernels (A/A), and how often it finds real changes,
# on made-up result files with a known truth (tests/unit-verdict.c says
# how they are made), for 1, 3, 5 and 10 repeats.
#
#   bench/compare-calibration.sh [WAY...] [TABLES [RUN-TO-RUN-SD-PCT [FIG]]]
#                                (200, 3, each cell's decision figures)
#   bench/compare-calibration.sh [WAY...] paired [TABLES [SD-PCT [DRIFT-PCT]]]
#                                (200, 3, 10): separate runs against
#                                `interbench ab`'s pairs, with drift
#                                between pairs, and ab's -n auto
# WAY: plain (compare --plain: each cell on its own spread; moderated is
# the default), hetero (cells whose noise differs, 0.3 to 4.6 times),
# cells=N (the first N cells, 6-52: a table as small as an ab run's). The oracle column is
# cell 5's one changed figure tested alone at alpha: the data's limit,
# which the table's verdict is read against.
cd "$(dirname "$0")/.." || exit 1
make -s tests/unit-verdict || exit 1
set -- "$@" ""
ways=""
while :; do
	case $1 in
	plain|moderate|hetero|cells=*) ways="$ways $1"; shift ;;
	*) break ;;
	esac
done
[ -z "$1" ] && shift
if [ "$1" = paired ]; then
	# shellcheck disable=SC2086
	exec tests/unit-verdict $ways paired "${2:-200}" "${3:-3}" "${4:-10}"
fi
# shellcheck disable=SC2086
exec tests/unit-verdict $ways "${1:-200}" "${2:-3}" ${3:+"$3"}

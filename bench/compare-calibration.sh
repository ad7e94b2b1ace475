#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/compare-calibration.sh - how often `interbench compare` marks a
# table of identical kernels (A/A), and how often it finds real changes,
# on made-up result files with a known truth (tests/unit-verdict.c says
# how they are made), for 1, 3, 5 and 10 repeats.
#
#   bench/compare-calibration.sh [TABLES [RUN-TO-RUN-SD-PCT [FIG]]]
#                                (200, 3, each task's primary figure)
#   bench/compare-calibration.sh paired [TABLES [SD-PCT [DRIFT-PCT]]]
#                                (200, 3, 10): separate runs against
#                                `interbench ab`'s pairs, with drift
#                                between pairs, and ab's -n auto
cd "$(dirname "$0")/.." || exit 1
make -s tests/unit-verdict || exit 1
if [ "$1" = paired ]; then
	exec tests/unit-verdict paired "${2:-200}" "${3:-3}" "${4:-10}"
fi
tests/unit-verdict "${1:-200}" "${2:-3}" ${3:+"$3"}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/sweep-calibration.sh - `interbench sweep`'s rule on made-up
# sweeps with a known truth (tests/unit-sweep.c says how they are made):
# a base A and K = 8 candidates measured side by side, each pass under
# a drift all nine share; candidates 1-7 A/A, candidate 8 with one cell
# 25 % or 18 % slower. Each candidate is judged against A as ab judges
# B (paired, moderated) at alpha/8 (Bonferroni over the candidates). It
# prints, at 3, 5 and 10 pairs: the sweeps with any false mark, with the
# correction and without it (each candidate at alpha), the A/A
# candidates marked either way, and how often the bad cell is found
# worse by the sweep and by ab judging candidate 8 alone at alpha.
#
#   bench/sweep-calibration.sh [SWEEPS [SD-PCT [DRIFT-PCT [PAIRS]]]]
#                              (200, 3, 10; PAIRS: that row alone,
#                              so that rows can run side by side)
cd "$(dirname "$0")/.." || exit 1
make -s tests/unit-sweep || exit 1
exec tests/unit-sweep "${1:-200}" "${2:-3}" "${3:-10}" ${4:+"$4"}

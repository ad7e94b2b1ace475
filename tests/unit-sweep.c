// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-sweep - `interbench sweep`'s rule on made-up sweeps with a known
 * truth: a base A and K = 8 candidates, every cell measured once in each
 * state every pass, each candidate judged against A as ab judges B
 * (paired by pass, moderated), at alpha / 8 (Bonferroni over the K
 * candidates; compare's false-discovery control within each).
 *
 * The files are tests/synthtab.h's (unit-verdict's): 52 cells, each run
 * a run-to-run factor (SD 3 % by default) times 200 lognormal frames. A
 * sweep measures the K + 1 states side by side, so each (cell, pass) has
 * a drift factor (SD 10 % by default) common to all of them, on top of
 * each run's own. Candidates 1-7 are A/A; candidate 8 is worse in one
 * cell (cell 5, every frame slower): by 25 % (unit-verdict's cell25), or
 * by SMALL_SLOW, a change ab finds at 5 pairs about two times in three.
 * Both bad candidates are judged beside the same A and candidates 1-7:
 * two sweeps that share seven candidates.
 *
 * Counted over the sweeps: those with a false mark (a cell of candidates
 * 1-7 marked better, worse or mixed, or a cell of candidate 8 other than
 * cell 5, or cell 5 marked better or mixed), with the correction and
 * without it (each candidate at alpha: the naive way); and cell 5 of
 * candidate 8 found worse at alpha / 8, against ab's power on the same
 * files (candidate 8 alone at alpha, as `interbench ab` would judge it).
 *
 *   unit-sweep                     TAP: a small calibration with bounds
 *   unit-sweep SWEEPS [SD [DRIFT [PAIRS]]]
 *                                  the rates at 3, 5 and 10 pairs (at
 *                                  PAIRS alone if given, so that rows
 *                                  can run side by side); SD and DRIFT
 *                                  in % (3, 10)
 *                                  (bench/sweep-calibration.sh)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "compare/compare.h"
#include "compare/verdict.h"
#include "stats.h"
#include "synthtab.h"

#define K		8	/* candidates */
#define ALPHA		0.05
#define BIG_SLOW	1.25	/* unit-verdict's cell25 */
#define SMALL_SLOW	1.18	/* ab finds it at 5 pairs in 50-80 % */

enum change { BIG, SMALL, NCHANGES };

struct sweep_tally {
	int sweeps;
	int false_sweep[2];		/* [naive]: sweeps with a false mark */
	int false_cand[2];		/* [naive]: A/A candidates marked */
	int found[NCHANGES][2];		/* [naive]: cell 5 of candidate 8
					 * worse; naive is ab's power */
};

/* Does cell i of p carry a mark (worse, better or mixed)? */
static bool marked(const struct cmp_pair *p, int i)
{
	enum cmp_verdict v = p->cells[i].verdict;

	return v == CV_WORSE || v == CV_BETTER || v == CV_MIXED;
}

/*
 * The false marks of a candidate's judgment p: every cell marked, but
 * cell 5 of a bad one marked worse (better or mixed is false there too).
 */
static int false_marks(const struct cmp_pair *p, bool bad)
{
	int i, n = 0;

	for (i = 0; i < p->ncells; i++)
		if (marked(p, i) &&
		    !(bad && i == 5 && p->cells[i].verdict == CV_WORSE))
			n++;
	return n;
}

/*
 * Candidate c against base a, at alpha / share (share K: the sweep's
 * rule; 1: the naive way, and ab's for one candidate): its false marks,
 * and in *found whether cell 5 came out worse. -1: compare failed.
 */
static int judge(const struct made *a, const struct made *c, int share,
		 bool bad, bool *found)
{
	static struct cmp_metric m[CMP_MAX_METRICS];
	static int nm;
	struct cmp_opts o = { ALPHA / share, 5, 1, 1 - ALPHA / share, -1,
			      true, true, NULL };
	struct cmp_pair p;
	int n;

	if (!nm)
		nm = cmp_metrics(m, CMP_MAX_METRICS);
	if (cmp_pair_run(&a->rf, &c->rf, &o, m, nm, &p))
		return -1;
	n = false_marks(&p, bad);
	*found = p.cells[5].verdict == CV_WORSE;
	cmp_pair_free(&p);
	return n;
}

/*
 * One sweep of PAIRS passes: A, seven A/A candidates and the two bad
 * ones, every run of a pass under the same drift; each candidate judged
 * the sweep's way and the naive way. 0, or -1 if compare failed.
 */
static int one_sweep(struct sweep_tally *ty, int pairs, double sd)
{
	static struct made a, aa[K - 1], bad[NCHANGES];
	static const double slow[NCHANGES] = { BIG_SLOW, SMALL_SLOW };
	int j, naive, n, f[2] = { 0, 0 }, fb[NCHANGES][2] = { { 0 } };
	bool found;

	tab_drift();
	make_file(&a, pairs, AA, false, sd);
	for (j = 0; j < K - 1; j++)
		make_file(&aa[j], pairs, AA, true, sd);
	for (j = 0; j < NCHANGES; j++) {
		cell25_slow = slow[j];
		make_file(&bad[j], pairs, CELL25, true, sd);
	}
	cell25_slow = BIG_SLOW;
	for (naive = 0; naive < 2; naive++) {
		int share = naive ? 1 : K;

		for (j = 0; j < K - 1; j++) {
			n = judge(&a, &aa[j], share, false, &found);
			if (n < 0)
				return -1;
			f[naive] += n > 0;
		}
		for (j = 0; j < NCHANGES; j++) {
			n = judge(&a, &bad[j], share, true, &found);
			if (n < 0)
				return -1;
			fb[j][naive] = n;
			ty->found[j][naive] += found;
		}
		ty->false_cand[naive] += f[naive];
		/* the sweep of A, candidates 1-7 and the 25 % one */
		ty->false_sweep[naive] += f[naive] + fb[BIG][naive] > 0;
	}
	ty->sweeps++;
	return 0;
}

static struct sweep_tally calibrate(int sweeps, int pairs, double sd)
{
	struct sweep_tally ty = { 0 };
	int i;

	for (i = 0; i < sweeps; i++)
		if (one_sweep(&ty, pairs, sd))
			break;
	return ty;
}

static double pct(int k, int n)
{
	return n ? 100.0 * k / n : NAN;
}

/* The table at 3, 5 and 10 pairs, or at PAIRS alone if > 0. */
static int report(int sweeps, double sd, double dsd, int pairs)
{
	static const int reps[] = { 3, 5, 10 };
	size_t r;

	drift_sd = dsd;
	printf("%d sweeps of A and %d candidates per row, each run's own factor "
	       "SD %.1f %%,\ndrift between passes SD %.1f %% (shared by the %d "
	       "states of a pass), %d cells;\ncandidates 1-%d A/A, candidate "
	       "%d's cell 5 %.0f %% (big) or %.0f %% (small) slower;\nalpha "
	       "%.2f: the sweep judges each candidate at alpha/%d, the naive "
	       "way at alpha,\nab candidate %d alone at alpha; min change 5 "
	       "%%, paired, moderated\n", sweeps, K, sd * 100, dsd * 100,
	       K + 1, ncells, K - 1, K, (BIG_SLOW - 1) * 100,
	       (SMALL_SLOW - 1) * 100, ALPHA, K, K);
	printf("%-6s %13s %13s %13s %13s %10s %10s %10s %10s\n", "pairs",
	       "false sweep %", "false naive %", "A/A cand a/8", "A/A cand a",
	       "big sweep", "big ab", "small swp", "small ab");
	for (r = 0; r < sizeof(reps) / sizeof(reps[0]); r++) {
		struct sweep_tally y;

		if (pairs > 0 && reps[r] != pairs)
			continue;
		y = calibrate(sweeps, reps[r], sd);
		printf("%-6d %13.1f %13.1f %13.2f %13.2f %10.1f %10.1f %10.1f "
		       "%10.1f\n", reps[r], pct(y.false_sweep[0], y.sweeps),
		       pct(y.false_sweep[1], y.sweeps),
		       pct(y.false_cand[0], y.sweeps * (K - 1)),
		       pct(y.false_cand[1], y.sweeps * (K - 1)),
		       pct(y.found[BIG][0], y.sweeps),
		       pct(y.found[BIG][1], y.sweeps),
		       pct(y.found[SMALL][0], y.sweeps),
		       pct(y.found[SMALL][1], y.sweeps));
		fflush(stdout);
	}
	return 0;
}

/*
 * Bounds with room for chance (doc/compare.txt has the rates of 1000
 * sweeps; here 60 sweeps of 5 pairs, 1 SE about 3 points on the false
 * marks): the sweep's false marks at most twice alpha, clearly fewer
 * than the naive way's; the big change found at least 0.8 times as
 * often as ab finds it; the small one less often than ab, the price of
 * alpha / 8. Judged at alpha, the last two fail, as does the first's
 * comparison with the naive way.
 */
static int checks(void)
{
	struct sweep_tally y;
	int cor, naive;

	drift_sd = 0.10;
	y = calibrate(60, 5, 0.03);
	cor = y.false_sweep[0];
	naive = y.false_sweep[1];
	check(y.sweeps == 60 && pct(cor, y.sweeps) <= 2 * 100 * ALPHA,
	      "K = %d, 7 A/A and one cell worse, 5 pairs: %.1f %% of %d "
	      "sweeps with a false mark, each candidate at alpha / %d (at "
	      "most 2 alpha asked)", K, pct(cor, y.sweeps), y.sweeps, K);
	check(naive >= cor + 3,
	      "... %.1f %% the naive way, each candidate at alpha (at least "
	      "3 sweeps more)", pct(naive, y.sweeps));
	printf("# A/A candidates marked: %.2f %% at alpha / %d, %.2f %% at "
	       "alpha\n", pct(y.false_cand[0], y.sweeps * (K - 1)), K,
	       pct(y.false_cand[1], y.sweeps * (K - 1)));
	check(y.found[BIG][0] >= 0.8 * y.found[BIG][1] && y.found[BIG][1],
	      "cell 5 %.0f %% worse: found by the sweep in %.1f %%, by ab "
	      "(one candidate, alpha) in %.1f %% (at least 0.8 times asked)",
	      (BIG_SLOW - 1) * 100, pct(y.found[BIG][0], y.sweeps),
	      pct(y.found[BIG][1], y.sweeps));
	check(y.found[SMALL][1] >= y.found[SMALL][0] + 5,
	      "cell 5 %.0f %% worse: found by the sweep in %.1f %%, by ab in "
	      "%.1f %% (alpha / %d costs power: at least 5 sweeps fewer)",
	      (SMALL_SLOW - 1) * 100, pct(y.found[SMALL][0], y.sweeps),
	      pct(y.found[SMALL][1], y.sweeps), K);
	drift_sd = 0;
	return check_done();
}

int main(int argc, char **argv)
{
	tab_init();
	if (argc > 1)
		return report(atoi(argv[1]), argc > 2 ? atof(argv[2]) / 100 :
			      0.03, argc > 3 ? atof(argv[3]) / 100 : 0.10,
			      argc > 4 ? atoi(argv[4]) : 0);
	return checks();
}

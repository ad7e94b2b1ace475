// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/unit-cpuwork.c - when the burn's check says the machine is busy:
 * on the figures it was decided from (doc/methods.txt has where they
 * were measured), then on a real check of this machine, whose figures
 * must be consistent whatever the host is doing.
 */
#include <math.h>
#include "lib/cpuwork.h"
#include "check.h"

static bool busy(double off, double others, double error)
{
	struct calibration cal = { .loops_per_ms = 1350000,
				   .check_off_pct = off,
				   .check_others_pct = others,
				   .error_pct = error };

	return calibration_disturbed(&cal);
}

int main(void)
{
	struct calibration cal = { 0 };

	/* the user's quiet VM: load 0.16, the burn +2.9 to +5.2 % */
	check(!busy(0.0, 0.0, 4.13), "a quiet VM's +4.13 %% is no warning");
	check(!busy(0.0, 0.0, 5.2), "... nor its +5.2 %%");
	/* ours under a test suite, at SCHED_OTHER: held off half the time */
	check(busy(50.5, 50.5, 25.9), "held off 50.5 %% (+25.9 %%): busy");
	check(busy(2.5, 2.5, 0.1), "held off past 2 %% is busy, whatever "
	      "the cost");
	check(!busy(1.9, 1.9, 12.0), "held off 1.9 %% is not, whatever the "
	      "cost");
	/* the host's steal holds it off too: no wait, off all the same */
	check(busy(10.0, 0.0, 8.0), "the host held it 10 %%: busy");
	check(!busy(NAN, NAN, 30.0), "unknown is no warning");
	/* a real check: its shares are shares */
	cal.loops_per_ms = 1000000;
	check(calibration_check(&cal) == 0, "a real check runs");
	check(cal.check_off_pct >= 0 && cal.check_off_pct <= 100,
	      "off its CPU %.2f %% of the check", cal.check_off_pct);
	check(isnan(cal.check_others_pct) ||
	      (cal.check_others_pct >= 0 &&
	       cal.check_others_pct <= cal.check_off_pct),
	      "others %.2f %% within it", cal.check_others_pct);
	return check_done();
}

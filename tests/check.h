/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h - a tiny TAP unit-test helper for interbench's C tests.
 *
 *	check(cond, "what is being checked %d", x);
 *	check_near(got, want, tol, "what");
 *	return check_done();
 *
 * Prints "ok N - what" or "not ok N - what" (with the values) per check;
 * tests/run adds them up.
 */
#ifndef INTERBENCH_CHECK_H
#define INTERBENCH_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int check_n, check_failed;

static void __attribute__((format(printf, 2, 3)))
check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++check_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		check_failed++;
}

/* |got - want| <= tol */
#define check_near(got, want, tol, what)				\
	do {								\
		double g_ = (got), w_ = (want), t_ = (tol);		\
		check(fabs(g_ - w_) <= t_, "%s (got %.9g, want %.9g +/- %g)", \
		      (what), g_, w_, t_);				\
	} while (0)

static inline int check_done(void)
{
	printf("1..%d\n", check_n);
	return check_failed ? 1 : 0;
}

#endif

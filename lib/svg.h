/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/svg.h - the drawing primitives of interbench's pictures: inline SVG
 * plots (axes with real log ticks, lines, dots, cells, legends), written
 * into lib/text.h's string buffer with its escaper (sb_esc). Pure: no
 * files, no clocks; a page is built in memory and written whole
 * (report.c), so a failure never leaves half a page.
 *
 * Colours are Okabe and Ito's palette, told apart by people with any
 * common colour-vision deficiency; the same load gets the same colour on
 * every plot of a page (its index in the run's list of loads).
 */
#ifndef INTERBENCH_SVG_H
#define INTERBENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/text.h"

#define SVG_PALETTE_N	8
/* Colour i (any i >= 0; it wraps) as "#rrggbb". */
const char *svg_colour(int i);
/* A dash pattern for i / SVG_PALETTE_N (0: solid): wrapped colours differ. */
const char *svg_dash(int i);

/* An axis: linear, or log10 (lo > 0). */
struct svg_axis {
	double lo, hi;
	bool log;
	const char *title;	/* with its unit, e.g. "latency" */
	int unit;		/* SVG_UNIT_*: how tick labels read */
	/* Categories instead of numbers: ticks at 0.5, 1.5, ... (lo 0) */
	const char *const *cats;
	int ncats;
	bool bare;		/* no ticks: the plot labels it itself */
};

#define SVG_UNIT_PLAIN	0	/* 0.5, 10, 1e+06 */
#define SVG_UNIT_US	1	/* a time in us: "1 us", "10 ms", "1 s" */
#define SVG_UNIT_PCT	2	/* "50 %" */
#define SVG_UNIT_FRAC	3	/* 0..1 as "%": 0.99 -> "99 %" (CDF) */
#define SVG_UNIT_TAIL	4	/* 1e-3 as "0.1 %" (complementary CDF) */
#define SVG_UNIT_RATIO	5	/* log10 of a ratio, as the ratio: "x0.5" */

/* A plot: its size and the data area inside its margins. */
struct svg_plot {
	struct sbuf *b;
	int w, h;		/* whole picture, px */
	int left, right, top, bottom;	/* margins */
	struct svg_axis x, y;
};

/* Open an <svg> of w x h with a title (its <title>, for screen readers). */
void svg_begin(struct sbuf *b, int w, int h, const char *title);
void svg_end(struct sbuf *b);
/*
 * Open a plot of w x h; a title too wide for one line wraps, and the
 * picture grows by its lines (p->h, p->top).
 */
void svg_plot_begin(struct svg_plot *p, struct sbuf *b, int w, int h,
		    const char *title);
/* The plot's frame, grid, ticks with labels and axis titles. */
void svg_axes(struct svg_plot *p);
/* Data to pixels (values outside the axis are clamped to its ends). */
double svg_px(const struct svg_plot *p, double x);
double svg_py(const struct svg_plot *p, double y);

/*
 * A polyline through n points (NaN points break it into pieces), colour
 * c, in the plot; class names it for tests and CSS ("curve"). Points
 * within half a pixel of the last one drawn are left out: a page stays
 * small however many buckets a histogram has.
 */
void svg_line(struct svg_plot *p, const double *x, const double *y, int n,
	      int c, const char *cls, const char *label);
/* A dot at (x, y) of radius r. */
void svg_dot(struct svg_plot *p, double x, double y, double r, int c,
	     const char *cls, const char *label);
/* A legend: n names with colours, in a box at the plot's top right. */
void svg_legend(struct svg_plot *p, const char *const *names,
		const int *colours, int n);
/* Text at pixel x, y; anchor "start", "middle" or "end". */
void svg_text(struct sbuf *b, double x, double y, const char *anchor,
	      const char *cls, const char *text);

/*
 * The width in px of text in a sans-serif font of size px: an estimate
 * from above, made for DejaVu Sans Bold (wider than Arial, Helvetica or
 * Liberation Sans), so that text given this room is never cut.
 */
double svg_text_width(const char *text, double px);
/*
 * Text of class cls in a font of px at x, baseline y, broken at spaces
 * into lines of at most width px, px + 3 apart: how many lines. b NULL
 * counts them only, for the picture's height. A plot's title is class
 * ptitle, 13 px bold; a legend's ltext, 11 px.
 */
int svg_lines(struct sbuf *b, double x, double y, double width,
	      const char *cls, double px, const char *text);

/* A sequential colour for t in [0, 1] (0 good, 1 bad): pale to dark. */
const char *svg_heat(double t, char *buf, size_t n);
/* Is the text on heat colour t better black (false) or white (true)? */
bool svg_heat_dark(double t);

/* Log ticks: the powers of ten within [lo, hi]; how many (at most max). */
int svg_log_ticks(double lo, double hi, double *t, int max);
/* Nice linear ticks within [lo, hi]; how many (at most max). */
int svg_lin_ticks(double lo, double hi, double *t, int max);
/*
 * Ticks of a log10-ratio axis at ratios a reader knows (x0.5, x2, ...),
 * in log10 units; how many (at most max).
 */
int svg_ratio_ticks(double lo, double hi, double *t, int max);
/* A tick label of v in unit into buf. */
void svg_tick_label(double v, int unit, char *buf, size_t n);

#endif

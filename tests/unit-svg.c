// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-svg.c - the drawing primitives of the pictures (svg.c): ticks and
 * their labels, escaping, colours, and a plot's shape.
 */
#include <math.h>
#include <string.h>
#include "lib/svg.h"
#include "report/page.h"
#include "tests/check.h"

static void ticks(void)
{
	double t[16];
	char lab[32];
	int n;

	n = svg_log_ticks(1, 1e6, t, 16);
	check(n == 7 && t[0] == 1 && t[6] == 1e6, "log ticks 1 us..1 s: 7");
	svg_tick_label(1, SVG_UNIT_US, lab, sizeof(lab));
	check(!strcmp(lab, "1 us"), "1 us (got %s)", lab);
	svg_tick_label(1000, SVG_UNIT_US, lab, sizeof(lab));
	check(!strcmp(lab, "1 ms"), "1 ms (got %s)", lab);
	svg_tick_label(1e6, SVG_UNIT_US, lab, sizeof(lab));
	check(!strcmp(lab, "1 s"), "1 s (got %s)", lab);
	svg_tick_label(0.001, SVG_UNIT_TAIL, lab, sizeof(lab));
	check(!strcmp(lab, "0.1 %"), "tail 1e-3 is 0.1 %% (got %s)", lab);
	n = svg_log_ticks(3, 2000, t, 16);
	check(n == 3 && t[0] == 10 && t[2] == 1000, "log ticks inside 3..2000");
	n = svg_lin_ticks(0, 1, t, 7);
	check(n >= 3 && n <= 7 && t[0] == 0 && t[n - 1] == 1,
	      "linear ticks 0..1 end on both ends (%d)", n);
	n = svg_lin_ticks(-55, 55, t, 9);
	check(n >= 3 && n <= 9, "linear ticks of a symmetric axis (%d)", n);
	/* x0.5 .. x2: the forest plot's axis of ratios, in log10 units. */
	n = svg_ratio_ticks(log10(0.4), log10(2.5), t, 16);
	check(n >= 3 && fabs(t[0] - log10(0.5)) < 1e-12 &&
	      fabs(t[n - 1] - log10(2)) < 1e-12,
	      "ratio ticks x0.5..x2, in order (%d)", n);
	svg_tick_label(log10(0.5), SVG_UNIT_RATIO, lab, sizeof(lab));
	check(!strcmp(lab, "\u00d70.5"), "x0.5 (got %s)", lab);
	n = svg_ratio_ticks(-3.2, 3.2, t, 16);
	check(n >= 7 && n <= 9, "a wide ratio axis keeps the coarse ticks "
	      "(%d)", n);
}

static void text(void)
{
	struct sbuf b;

	sb_init(&b);
	sb_esc(&b, "<a href=\"x\">&'\x01");
	check(b.s && !strcmp(b.s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39; "),
	      "escaping (got %s)", b.s ? b.s : "(null)");
	sb_free(&b);
	/* A comm of any bytes: UTF-8 kept, each other byte U+FFFD */
	sb_init(&b);
	sb_esc(&b, "\xc2\xb5s\xff\xc3(\xe2\x82\xac\xe2\x82");
	check(b.s && !strcmp(b.s, "\xc2\xb5s&#xfffd;&#xfffd;(\xe2\x82\xac"
			     "&#xfffd;&#xfffd;"), "bytes that are not UTF-8 "
	      "escaped as U+FFFD (got %s)", b.s ? b.s : "(null)");
	sb_free(&b);
}

static void colours(void)
{
	char c0[16], c1[16];

	check(!strcmp(svg_colour(0), svg_colour(SVG_PALETTE_N)) &&
	      strcmp(svg_dash(0), svg_dash(SVG_PALETTE_N)),
	      "a wrapped colour gets a dash pattern");
	svg_heat(0, c0, sizeof(c0));
	svg_heat(1, c1, sizeof(c1));
	check(!strcmp(c0, "#fde725") && !strcmp(c1, "#440154"),
	      "heat ramp ends (%s, %s)", c0, c1);
	check(!svg_heat_dark(0) && svg_heat_dark(1), "text on heat colours");
}

static void plot(void)
{
	double x[4] = { 1, 10, NAN, 1000 }, y[4] = { 0, 0.5, 0.7, 1 };
	struct svg_plot p = { 0 };
	struct sbuf b;

	sb_init(&b);
	p.x = (struct svg_axis){ .lo = 1, .hi = 1e6, .log = true,
		.title = "latency", .unit = SVG_UNIT_US };
	p.y = (struct svg_axis){ .lo = 0, .hi = 1, .title = "share",
		.unit = SVG_UNIT_FRAC };
	svg_plot_begin(&p, &b, 600, 340, "a <plot>");
	svg_axes(&p);
	check(svg_px(&p, 1) == p.left && svg_px(&p, 1e6) == 600 - p.right,
	      "the log axis spans the plot");
	check(svg_px(&p, 0.001) == p.left, "values below it are clamped");
	svg_line(&p, x, y, 4, 0, "curve", "l");
	svg_end(&b);
	check(!b.err && strstr(b.s, "<title>a &lt;plot&gt;</title>") &&
	      strstr(b.s, ">1 us<") && strstr(b.s, ">1 s<") &&
	      strstr(b.s, ">100 %<"), "titles and tick labels");
	check(strstr(b.s, "<polyline") && strstr(strstr(b.s, "<polyline") + 1,
						  "<polyline"),
	      "a NaN point breaks the line in two");
	sb_free(&b);
}

/*
 * Titles are never cut: the width estimate is above what Chromium drew
 * with DejaVu Sans Bold (13 px) on the 2-CPU VM, and a title too wide
 * for its plot wraps, every word kept, the picture taller by its lines.
 */
static void wrap(void)
{
	static const char t[] = "Summary: geometric mean of the change over "
		"the cells, with its interval (it describes the cells; the "
		"cells' verdicts decide)";
	struct svg_plot p = { .left = 170 };
	struct sbuf b;
	const char *at;
	int n;

	check(svg_text_width("Gaming under None (3 ms windows)", 13) >= 265.5,
	      "wider than DejaVu Sans Bold's 265.5 px (%g)",
	      svg_text_width("Gaming under None (3 ms windows)", 13));
	check(svg_text_width(t, 13) >= 893.8, "the summary's title: 893.8 px");
	n = svg_lines(NULL, 6, 16, 748, "ptitle", 13, t);
	check(n == 2, "the summary's title in 748 px: 2 lines (%d)", n);
	sb_init(&b);
	p.x = (struct svg_axis){ .lo = 0, .hi = 1, .title = "x" };
	p.y = (struct svg_axis){ .lo = 0, .hi = 1, .title = "y" };
	svg_plot_begin(&p, &b, 760, 200, t);
	check(p.h == 216 && p.top == 44, "one more line: 16 px taller (%d, "
	      "top %d)", p.h, p.top);
	at = b.s ? strstr(b.s, "class=\"ptitle\">") : NULL;
	check(at && strstr(at, "<tspan>Summary: geometric mean") &&
	      strstr(at, "<tspan x=\"6.0\" dy=\"16\">") &&
	      strstr(at, "verdicts decide)</tspan></text>") &&
	      strstr(b.s, "height=\"216\""), "wrapped from the left, whole");
	sb_free(&b);
	n = svg_lines(NULL, 0, 0, 10, "ltext", 11, "supercalifragilistic");
	check(n == 1, "a word longer than the line is a line alone (%d)", n);
	check(svg_lines(NULL, 0, 0, 100, "ltext", 11, "") == 1,
	      "no text: one line");
}

static void cdf(void)
{
	static struct lat_stats s;
	double x[8], y[8];
	int n;

	stats_init(&s);
	stats_add(&s, 1000);
	stats_add(&s, 1000);
	stats_add(&s, 50000);
	stats_add(&s, 2000000);
	n = cdf_points(&s, x, y, 8);
	check(n == 4 && y[0] == 0 && y[1] == 0.5 && y[3] == 1,
	      "CDF points: a start at 0, one per bucket, ending at 1 (%d)", n);
	check(x[3] >= 2000 && x[3] < 2000 * 1.01, "in us (%g)", x[3]);
}

int main(void)
{
	ticks();
	text();
	colours();
	plot();
	wrap();
	cdf();
	return check_done();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lib/svg.c - drawing primitives for the pictures (see svg.h). Pure.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/svg.h"

/* Okabe & Ito (2008), black last: distinct for common colour blindness. */
static const char *const palette[SVG_PALETTE_N] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7",
	"#D55E00", "#56B4E9", "#000000", "#F0E442",
};

const char *svg_colour(int i)
{
	return palette[(i < 0 ? 0 : i) % SVG_PALETTE_N];
}

const char *svg_dash(int i)
{
	static const char *const dash[] = { "", "6 3", "2 2", "8 3 2 3" };

	return dash[((i < 0 ? 0 : i) / SVG_PALETTE_N) % 4];
}

void svg_begin(struct sbuf *b, int w, int h, const char *title)
{
	sb_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		  "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
		  " font-size=\"12\" role=\"img\"><title>", w, h, w, h);
	sb_esc(b, title);
	sb_printf(b, "</title>\n");
}

void svg_end(struct sbuf *b)
{
	sb_printf(b, "</svg>\n");
}

void svg_text(struct sbuf *b, double x, double y, const char *anchor,
	      const char *cls, const char *text)
{
	sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y,
		  anchor);
	if (cls)
		sb_printf(b, " class=\"%s\"", cls);
	sb_printf(b, ">");
	sb_esc(b, text);
	sb_printf(b, "</text>\n");
}

/*
 * DejaVu Sans Bold's advances, rounded up, in em: narrow letters and
 * punctuation, the middling ones (f r t, brackets, the space), the wide
 * (m w M W %), other capitals, and the rest (lower case, digits).
 */
double svg_text_width(const char *text, double px)
{
	const unsigned char *s = (const unsigned char *)text;
	double em = 0;

	for (; s && *s; s++) {
		if ((*s & 0xc0) == 0x80)
			continue;	/* inside a UTF-8 character */
		if (*s >= 0x80)
			em += 1.0;
		else if (strchr("ijlI.,:;'|!", *s))
			em += 0.36;
		else if (strchr("frt()[]{}-/ ", *s))
			em += 0.5;
		else if (strchr("mwMW%@", *s))
			em += 1.06;
		else if (*s >= 'A' && *s <= 'Z')
			em += 0.8;
		else
			em += 0.72;
	}
	return em * px;
}

#define TITLE_PX	13

int svg_lines(struct sbuf *b, double x, double y, double width,
	      const char *cls, double px, const char *text)
{
	const char *s = text ? text : "", *end;
	char line[512];
	int lines = 0;

	if (b)
		sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\""
			  " class=\"%s\">", x, y, cls);
	while (*s) {
		size_t n = 0, fit = 0;

		/* The most words that fit (a longer word: a line alone). */
		for (end = s; ; end++) {
			if (*end == ' ' || !*end) {
				n = (size_t)(end - s);
				if (n >= sizeof(line))
					n = sizeof(line) - 1;
				memcpy(line, s, n);
				line[n] = '\0';
				if (fit && svg_text_width(line, px) > width)
					break;
				fit = n;
				if (!*end)
					break;
			}
		}
		if (!fit)
			fit = strlen(s) < sizeof(line) ? strlen(s) :
			      sizeof(line) - 1;
		memcpy(line, s, fit);
		line[fit] = '\0';
		if (b) {
			if (lines)
				sb_printf(b, "<tspan x=\"%.1f\" dy=\"%g\">",
					  x, px + 3);
			else
				sb_printf(b, "<tspan>");
			sb_esc(b, line);
			sb_printf(b, "</tspan>");
		}
		lines++;
		for (s += fit; *s == ' '; s++)
			;
	}
	if (b)
		sb_printf(b, "</text>\n");
	return lines ? lines : 1;
}

/*
 * Category labels wider than their slot (11 px text: about 6.5 px a
 * character) go on two staggered rows, so that none overlaps another.
 */
static bool cats_crowded(const struct svg_plot *p)
{
	double slot;
	int i;

	if (!p->x.cats || p->x.ncats < 2)
		return false;
	slot = (double)(p->w - (p->left ? p->left : 64) -
			(p->right ? p->right : 16)) / p->x.ncats;
	for (i = 0; i < p->x.ncats; i++)
		if (strlen(p->x.cats[i]) * 6.5 + 4 > slot)
			return true;
	return false;
}

void svg_plot_begin(struct svg_plot *p, struct sbuf *b, int w, int h,
		    const char *title)
{
	int x, extra;

	p->b = b;
	p->w = w;
	p->h = h;
	if (!p->left)
		p->left = 64;
	if (!p->right)
		p->right = 16;
	if (!p->top)
		p->top = 28;
	if (!p->bottom)
		p->bottom = cats_crowded(p) ? 58 : 44;
	/*
	 * The title over the plot's frame when it fits there, else from
	 * the picture's left, on as many lines as it takes: never cut.
	 */
	x = p->left;
	if (svg_text_width(title, TITLE_PX) > w - x - 6)
		x = 6;
	extra = (TITLE_PX + 3) * (svg_lines(NULL, x, 16, w - x - 6, "ptitle",
					    TITLE_PX, title) - 1);
	p->top += extra;
	p->h = h + extra;
	svg_begin(b, w, p->h, title);
	svg_lines(b, x, 16, w - x - 6, "ptitle", TITLE_PX, title);
}

/* Where v lies along axis a, from 0 to 1, clamped. */
static double axis_frac(const struct svg_axis *a, double v)
{
	double f;

	if (a->log) {
		v = v > a->lo ? v : a->lo;
		f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	} else {
		f = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0;
	}
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

double svg_px(const struct svg_plot *p, double x)
{
	return p->left + axis_frac(&p->x, x) * (p->w - p->left - p->right);
}

double svg_py(const struct svg_plot *p, double y)
{
	return p->h - p->bottom -
	       axis_frac(&p->y, y) * (p->h - p->top - p->bottom);
}

int svg_log_ticks(double lo, double hi, double *t, int max)
{
	double v = pow(10, ceil(log10(lo) - 1e-9));
	int n = 0;

	for (; v <= hi * (1 + 1e-9) && n < max; v *= 10)
		t[n++] = v;
	return n;
}

int svg_lin_ticks(double lo, double hi, double *t, int max)
{
	double span = hi - lo, step, mag, v;
	int n = 0;

	if (!(span > 0) || max < 2)
		return 0;
	/* About five steps of 1, 2 or 5 times a power of ten. */
	mag = pow(10, floor(log10(span / 5)));
	step = span / 5 / mag >= 5 ? 5 * mag : span / 5 / mag >= 2 ?
	       2 * mag : mag;
	while (span / step > max - 1)
		step *= 2;
	for (v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9 &&
	     n < max; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

int svg_ratio_ticks(double lo, double hi, double *t, int max)
{
	/* Coarse ones first: the fine ones only while room is left. */
	static const double coarse[] = { 0.001, 0.01, 0.1, 0.5, 1, 2, 10,
					 100, 1000 };
	static const double fine[] = { 0.002, 0.005, 0.02, 0.05, 0.2, 0.8,
				       0.9, 1.1, 1.25, 5, 20, 50, 200, 500 };
	double all[32];
	int i, j, n = 0, k = 0;

	for (i = 0; i < (int)(sizeof(coarse) / sizeof(*coarse)); i++)
		if (log10(coarse[i]) >= lo && log10(coarse[i]) <= hi)
			all[n++] = log10(coarse[i]);
	for (i = 0; i < (int)(sizeof(fine) / sizeof(*fine)) && n < 9; i++)
		if (log10(fine[i]) >= lo && log10(fine[i]) <= hi)
			all[n++] = log10(fine[i]);
	/* In order along the axis. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && all[j - 1] > all[j]; j--) {
			double x = all[j];

			all[j] = all[j - 1];
			all[j - 1] = x;
		}
	for (i = 0; i < n && k < max; i++)
		t[k++] = all[i];
	return k;
}

void svg_tick_label(double v, int unit, char *buf, size_t n)
{
	switch (unit) {
	case SVG_UNIT_US:
		if (v >= 1e6)
			snprintf(buf, n, "%g s", v / 1e6);
		else if (v >= 1e3)
			snprintf(buf, n, "%g ms", v / 1e3);
		else
			snprintf(buf, n, "%g us", v);
		break;
	case SVG_UNIT_PCT:
		snprintf(buf, n, "%g %%", v);
		break;
	case SVG_UNIT_RATIO:
		snprintf(buf, n, "\u00d7%g", pow(10, v));
		break;
	case SVG_UNIT_FRAC:
	case SVG_UNIT_TAIL:
		snprintf(buf, n, "%g %%", v * 100);
		break;
	default:
		snprintf(buf, n, "%g", v);
	}
}

/* Ticks of one axis: gridlines and labels. */
static void axis_ticks(struct svg_plot *p, bool xaxis)
{
	const struct svg_axis *a = xaxis ? &p->x : &p->y;
	double t[16], last = -1e9;
	char lab[32];
	int i, n;

	if (a->bare)
		return;
	if (a->cats) {
		bool two = cats_crowded(p);

		for (i = 0; i < a->ncats; i++)
			svg_text(p->b, svg_px(p, i + 0.5), p->h - p->bottom +
				 (two && i % 2 ? 28 : 15), "middle", "tick",
				 a->cats[i]);
		return;
	}
	n = a->unit == SVG_UNIT_RATIO ?
		svg_ratio_ticks(a->lo, a->hi, t, 16) :
	    a->log ? svg_log_ticks(a->lo, a->hi, t, 16) :
		     svg_lin_ticks(a->lo, a->hi, t, xaxis ? 9 : 7);
	for (i = 0; i < n; i++) {
		svg_tick_label(t[i], a->unit, lab, sizeof(lab));
		if (xaxis) {
			double x = svg_px(p, t[i]);

			/* Ratio ticks crowd near x1: none may overlap. */
			if (x - 3.5 * strlen(lab) < last + 6)
				continue;
			last = x + 3.5 * strlen(lab);

			sb_printf(p->b, "<line class=\"grid\" x1=\"%.1f\" "
				  "y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", x,
				  p->top, x, p->h - p->bottom);
			svg_text(p->b, x, p->h - p->bottom + 15, "middle",
				 "tick", lab);
		} else {
			double y = svg_py(p, t[i]);

			sb_printf(p->b, "<line class=\"grid\" x1=\"%d\" "
				  "y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
				  p->left, y, p->w - p->right, y);
			svg_text(p->b, p->left - 5, y + 4, "end", "tick", lab);
		}
	}
}

void svg_axes(struct svg_plot *p)
{
	char tr[64];

	axis_ticks(p, true);
	axis_ticks(p, false);
	sb_printf(p->b, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\""
		  " height=\"%d\" fill=\"none\"/>\n", p->left, p->top,
		  p->w - p->left - p->right, p->h - p->top - p->bottom);
	svg_text(p->b, p->left + (p->w - p->left - p->right) / 2.0,
		 p->h - 8, "middle", "atitle", p->x.title);
	snprintf(tr, sizeof(tr), "%d", p->top + (p->h - p->top - p->bottom) / 2);
	sb_printf(p->b, "<text class=\"atitle\" text-anchor=\"middle\" "
		  "transform=\"translate(14,%s) rotate(-90)\">", tr);
	sb_esc(p->b, p->y.title);
	sb_printf(p->b, "</text>\n");
}

void svg_line(struct svg_plot *p, const double *x, const double *y, int n,
	      int c, const char *cls, const char *label)
{
	double lx = 0, ly = 0, px, py;
	bool open = false;
	int i;

	sb_printf(p->b, "<g class=\"%s\" stroke=\"%s\"", cls, svg_colour(c));
	if (*svg_dash(c))
		sb_printf(p->b, " stroke-dasharray=\"%s\"", svg_dash(c));
	sb_printf(p->b, "><title>");
	sb_esc(p->b, label);
	sb_printf(p->b, "</title>");
	for (i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i])) {
			if (open)
				sb_printf(p->b, "\"/>");
			open = false;
			continue;
		}
		px = svg_px(p, x[i]);
		py = svg_py(p, y[i]);
		if (open && i + 1 < n && fabs(px - lx) < 0.5 &&
		    fabs(py - ly) < 0.5)
			continue;
		sb_printf(p->b, "%s%.1f,%.1f", open ? " " :
			  "<polyline fill=\"none\" points=\"", px, py);
		lx = px;
		ly = py;
		open = true;
	}
	if (open)
		sb_printf(p->b, "\"/>");
	sb_printf(p->b, "</g>\n");
}

void svg_dot(struct svg_plot *p, double x, double y, double r, int c,
	     const char *cls, const char *label)
{
	sb_printf(p->b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" "
		  "r=\"%.1f\" fill=\"%s\"><title>", cls, svg_px(p, x),
		  svg_py(p, y), r, svg_colour(c));
	sb_esc(p->b, label);
	sb_printf(p->b, "</title></circle>\n");
}

void svg_legend(struct svg_plot *p, const char *const *names,
		const int *colours, int n)
{
	size_t len, wide = 0;
	double x, y;
	int i;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		wide = len > wide ? len : wide;
	}
	x = p->w - p->right - 34 - 7.0 * (double)wide;
	y = p->top + 6;
	sb_printf(p->b, "<g class=\"legend\"><rect x=\"%.1f\" y=\"%.1f\" "
		  "width=\"%.1f\" height=\"%d\" fill=\"#fff\" "
		  "fill-opacity=\"0.85\" stroke=\"#999\"/>\n", x, y,
		  30 + 7.0 * (double)wide, 16 * n + 6);
	for (i = 0; i < n; i++) {
		double ly = y + 14 + 16 * i;

		sb_printf(p->b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			  "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"",
			  x + 4, ly - 4, x + 22, ly - 4,
			  svg_colour(colours[i]));
		if (*svg_dash(colours[i]))
			sb_printf(p->b, " stroke-dasharray=\"%s\"",
				  svg_dash(colours[i]));
		sb_printf(p->b, "/>");
		svg_text(p->b, x + 26, ly, "start", "ltext", names[i]);
	}
	sb_printf(p->b, "</g>\n");
}

/* Viridis, reversed: pale yellow is good, dark purple is bad. */
static const unsigned char heat[][3] = {
	{ 0xfd, 0xe7, 0x25 }, { 0x5e, 0xc9, 0x62 }, { 0x21, 0x91, 0x8c },
	{ 0x3b, 0x52, 0x8b }, { 0x44, 0x01, 0x54 },
};

const char *svg_heat(double t, char *buf, size_t n)
{
	int last = (int)(sizeof(heat) / sizeof(heat[0])) - 1, i, k;
	unsigned char c[3];
	double f;

	t = isnan(t) ? 0 : t < 0 ? 0 : t > 1 ? 1 : t;
	i = (int)(t * last);
	if (i >= last)
		i = last - 1;
	f = t * last - i;
	for (k = 0; k < 3; k++)
		c[k] = (unsigned char)lround(heat[i][k] +
					     f * (heat[i + 1][k] - heat[i][k]));
	snprintf(buf, n, "#%02x%02x%02x", c[0], c[1], c[2]);
	return buf;
}

bool svg_heat_dark(double t)
{
	return t > 0.45;
}

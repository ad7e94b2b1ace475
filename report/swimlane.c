// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report/swimlane.c - the picture of a late frame (page.h): a lane per
 * CPU from a little before the frame's release to a little after it ran,
 * each slice of a CPU's time coloured by whose it was (the benchmarked
 * thread, its timing thread, a load, a kernel thread, another task, an
 * interrupt, a softirq, idle, the host's), its <title> naming it; lines
 * at the release, the timer's firing, the wakeup, the run and the
 * deadline; the timer part and the wait part spanned above the lanes
 * with their ms. Drawn from the result file alone (rf_picture), so an
 * old run's page draws it as a new one's. doc/pictures.txt says how to
 * read it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report/page.h"
#include "core/schema.h"

#define LANE_PX		26
#define MARK_ROWS	3	/* rows of the marks' labels */
#define MARK_PX		12
#define SPAN_PX		20	/* the parts' band above the lanes */
#define LEGEND_PX	16	/* a row of the legend */
#define LEGEND_COLS	6
#define PIC_W		900

static const struct {
	const char *name, *fill;
} kinds[SK_COUNT] = {
	[SK_BENCH] = { "benchmarked thread", "#0072b2" },
	[SK_TIMING] = { "timing thread", "#56b4e9" },
	[SK_LOAD] = { "load", "#e69f00" },
	[SK_KTHREAD] = { "kernel thread", "#009e73" },
	[SK_OTHER] = { "other task", "#d55e00" },
	[SK_IRQ] = { "hard IRQ", "#cc79a7" },
	[SK_SOFTIRQ] = { "softirq", "#f0e442" },
	[SK_IDLE] = { "idle", "#eeeeee" },
	[SK_HOST] = { "host (VM)", "#7f7f7f" },
	[SK_THROTTLED] = { "throttled", "#3d3d3d" },
	[SK_MERGED] = { "short slices merged", "#c9b99b" },
};

struct lanes {
	int cpu[64], n;
};

/* The lanes: the CPUs of the slices and the frame's, in order. */
static void lanes_of(const struct rf_picture *p, struct lanes *l)
{
	int i, j, c, extra[2] = { p->timer_cpu, p->cpu };

	l->n = 0;
	for (i = -2; i < p->n; i++) {
		c = i < 0 ? extra[i + 2] : p->s[i].cpu;
		for (j = 0; c >= 0 && j < l->n && l->cpu[j] != c; j++)
			;
		if (c >= 0 && j == l->n && l->n < 64)
			l->cpu[l->n++] = c;
	}
	/* in CPU order, a few at most: insertion sort */
	for (i = 1; i < l->n; i++)
		for (j = i; j > 0 && l->cpu[j] < l->cpu[j - 1]; j--) {
			c = l->cpu[j];
			l->cpu[j] = l->cpu[j - 1];
			l->cpu[j - 1] = c;
		}
}

static int lane_index(const struct lanes *l, int cpu)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->cpu[i] == cpu)
			return i;
	return -1;
}

/* Lane i's pixel top and height: CPU order from the top. */
static double lane_y(const struct svg_plot *pl, const struct lanes *l,
		     int i, double *h)
{
	double top = svg_py(pl, l->n - i);

	*h = svg_py(pl, l->n - i - 1) - top;
	return top;
}

static void lane_names(struct svg_plot *pl, const struct lanes *l)
{
	char name[16];
	double y, h;
	int i;

	for (i = 0; i < l->n; i++) {
		y = lane_y(pl, l, i, &h);
		snprintf(name, sizeof(name), "CPU %d", l->cpu[i]);
		svg_text(pl->b, pl->left - 6, y + h / 2 + 4, "end", "tick",
			 name);
	}
}

static void slices(struct svg_plot *pl, const struct rf_picture *p,
		   const struct lanes *l)
{
	int i;

	for (i = 0; i < p->n; i++) {
		const struct rf_slice *s = &p->s[i];
		int k = s->kind >= 0 && s->kind < SK_COUNT ? s->kind : SK_OTHER;
		double x0 = svg_px(pl, s->from_us / 1e3);
		double x1 = svg_px(pl, s->to_us / 1e3);
		int lane = lane_index(l, s->cpu);
		double y, h;

		if (lane < 0)
			continue;
		y = lane_y(pl, l, lane, &h);
		sb_printf(pl->b, "<rect class=\"slice\" x=\"%.2f\" y=\"%.1f\" "
			  "width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
			  "stroke=\"#fff\" stroke-width=\"0.3\" "
			  "data-cpu=\"%d\" data-pid=\"%d\" data-kind=\"%s\" "
			  "data-from-us=\"%.3f\" data-to-us=\"%.3f\"><title>",
			  x0, y + 2, fmax(x1 - x0, 0.5), h - 4, kinds[k].fill, s->cpu, s->pid,
			  kinds[k].name, s->from_us, s->to_us);
		sb_esc(pl->b, s->name);
		if (k == SK_MERGED)
			sb_printf(pl->b, ": %d slices", s->pid);
		else if (s->pid > 0)
			sb_printf(pl->b, ":%d", s->pid);
		sb_printf(pl->b, " (%s), CPU %d, %.3f to %.3f ms: %.3f ms"
			  "</title></rect>\n", kinds[k].name, s->cpu,
			  s->from_us / 1e3, s->to_us / 1e3,
			  (s->to_us - s->from_us) / 1e3);
	}
}

/* A mark: a line down the lanes, its label in the first row it fits. */
static void mark(struct svg_plot *pl, double *row_end, double us,
		 const char *cls, const char *label, const char *colour)
{
	double x, w = svg_text_width(label, 11), lx, y;
	int r;

	if (!isfinite(us) || us < pl->x.lo * 1e3 || us > pl->x.hi * 1e3)
		return;
	x = svg_px(pl, us / 1e3);
	lx = fmin(fmax(x, pl->left + w / 2), pl->w - pl->right - w / 2);
	for (r = 0; r < MARK_ROWS - 1 && row_end[r] > lx - w / 2; r++)
		;
	row_end[r] = lx + w / 2 + 4;
	y = pl->top - SPAN_PX - MARK_PX * (MARK_ROWS - 1 - r) - 2;
	sb_printf(pl->b, "<g class=\"%s\" data-us=\"%.3f\"><line x1=\"%.2f\" "
		  "y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"%s\" "
		  "stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>", cls, us,
		  x, y + 2, x, (double)(pl->h - pl->bottom), colour);
	svg_text(pl->b, lx, y, "middle", "ltext", label);
	sb_printf(pl->b, "</g>\n");
}

/* A part of the latency: a bracket above the lanes, its ms on it. */
static void span(struct svg_plot *pl, double from_us, double to_us,
		 const char *cls, const char *what)
{
	double x0 = svg_px(pl, from_us / 1e3), x1 = svg_px(pl, to_us / 1e3);
	double y = pl->top - SPAN_PX + 12, w, lx;
	char label[64];

	if (!(to_us > from_us))
		return;
	snprintf(label, sizeof(label), "%s %.3g ms", what,
		 (to_us - from_us) / 1e3);
	w = svg_text_width(label, 11);
	lx = fmin(fmax((x0 + x1) / 2, pl->left + w / 2),
		  pl->w - pl->right - w / 2);
	sb_printf(pl->b, "<g class=\"%s\" data-from-us=\"%.3f\" "
		  "data-to-us=\"%.3f\" data-x0=\"%.2f\" data-x1=\"%.2f\">"
		  "<path d=\"M%.2f %.1fv4H%.2fv-4\" fill=\"none\" "
		  "stroke=\"#222\"/>", cls, from_us, to_us, x0, x1, x0, y + 2,
		  x1);
	svg_text(pl->b, lx, y, "middle", "ltext", label);
	sb_printf(pl->b, "</g>\n");
}

/* The kinds drawn, as swatches in rows under the axis. */
static void legend(struct svg_plot *pl, const bool *used)
{
	double y = pl->h - pl->bottom + 36, x = pl->left;
	int k, col = 0;

	sb_printf(pl->b, "<g class=\"legend\">");
	for (k = 0; k < SK_COUNT; k++) {
		if (!used[k])
			continue;
		if (col == LEGEND_COLS) {
			col = 0;
			x = pl->left;
			y += LEGEND_PX;
		}
		sb_printf(pl->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
			  "height=\"10\" fill=\"%s\" stroke=\"#999\"/>", x,
			  y - 9, kinds[k].fill);
		svg_text(pl->b, x + 16, y, "start", "ltext", kinds[k].name);
		x += 16 + svg_text_width(kinds[k].name, 11) + 12;
		col++;
	}
	sb_printf(pl->b, "</g>\n");
}

static void marks(struct svg_plot *pl, const struct rf_picture *p)
{
	double row_end[MARK_ROWS] = { 0 };
	char dl[48];

	mark(pl, row_end, 0, "mark-release", "release", "#222");
	if (isfinite(p->fired_us) && p->fired_us > 0)
		mark(pl, row_end, p->fired_us, "mark-fired", "timer fired",
		     "#cc79a7");
	if (p->timer_us > 0 && p->timer_us < p->latency_us)
		mark(pl, row_end, p->timer_us, "mark-wakeup", "wakeup",
		     "#56b4e9");
	mark(pl, row_end, p->latency_us, "mark-running", "running",
	     "#0072b2");
	if (isfinite(p->deadline_us) && p->deadline_us <= pl->x.hi * 1e3) {
		mark(pl, row_end, p->deadline_us, "mark-deadline", "deadline",
		     "#a03000");
	} else if (isfinite(p->deadline_us)) {
		snprintf(dl, sizeof(dl), "deadline at %.3g ms ->",
			 p->deadline_us / 1e3);
		svg_text(pl->b, pl->w - pl->right, pl->h - pl->bottom + 30,
			 "end", "ltext", dl);
	}
}

bool rep_swimlane(struct page *pg, const struct jval *frame,
		  const char *title)
{
	struct rf_picture p;
	struct svg_plot pl = { .left = 64, .right = 16 };
	struct lanes l;
	bool used[SK_COUNT] = { false };
	int i, rows;

	if (rf_picture(frame, &p) || !p.n)
		return false;
	lanes_of(&p, &l);
	for (i = 0; i < p.n; i++)
		used[p.s[i].kind >= 0 && p.s[i].kind < SK_COUNT ?
		     p.s[i].kind : SK_OTHER] = true;
	for (i = rows = 0; i < SK_COUNT; i++)
		rows += used[i];
	rows = (rows + LEGEND_COLS - 1) / LEGEND_COLS;
	pl.top = 28 + MARK_ROWS * MARK_PX + SPAN_PX;
	pl.bottom = 46 + rows * LEGEND_PX;
	pl.x = (struct svg_axis){ .lo = p.from_us / 1e3, .hi = p.to_us / 1e3,
				  .title = "ms from the frame's release" };
	pl.y = (struct svg_axis){ .lo = 0, .hi = l.n, .bare = true };
	svg_plot_begin(&pl, &pg->b, PIC_W, pl.top + 8 + l.n * LANE_PX +
		       pl.bottom, title);
	sb_printf(&pg->b, "<g class=\"swimlane\" data-cpu=\"%d\" "
		  "data-timer-cpu=\"%d\">\n", p.cpu, p.timer_cpu);
	svg_axes(&pl);
	lane_names(&pl, &l);
	slices(&pl, &p, &l);
	span(&pl, 0, p.timer_us, "span-timer", "timer");
	span(&pl, p.timer_us, p.latency_us, "span-wait", "wait");
	marks(&pl, &p);
	legend(&pl, used);
	sb_printf(&pg->b, "</g>\n");
	svg_end(&pg->b);
	return true;
}

/*
 * Under "Why it was late": each explained frame's picture, in the order
 * of the table above it, at most REP_MAX_LANES pictures a file.
 */
static double fnum(const struct jval *f, const char *k)
{
	const struct jval *v = json_get_type(f, k, J_NUM);

	return v ? v->num : NAN;
}

void rep_swimlanes(struct page *pg, const struct result_file *rf)
{
	char title[256];
	size_t i, r, k, mark;
	int n = 0;

	for (i = 0; i < rf->n_cells; i++)
		for (r = 0; r < rf->cells[i].n_ok; r++) {
			const struct file_cell *c = &rf->cells[i];
			const struct jval *a = json_get_type(c->ok[r].res,
						K_WORST_FRAMES, J_ARR);

			for (k = 0; a && k < a->n && n < REP_MAX_LANES; k++) {
				const struct jval *f = &a->items[k];

				if (!json_get_type(f, K_PICTURE, J_OBJ))
					continue;
				if (!n)
					sb_printf(&pg->b, "<h3>The worst frames "
						  "on their CPUs</h3>\n");
				snprintf(title, sizeof(title), "%s under %s, "
					 "repeat %d, frame %zu: %.3g ms late, "
					 "waited on CPU %.0f", c->bench, c->load,
					 c->ok[r].repeat, k + 1,
					 fnum(f, RF_KEY(frame, latency_us)) / 1e3,
					 fnum(f, RF_KEY(frame, cpu)));
				mark = pic_begin(pg);
				if (!rep_swimlane(pg, f, title))
					continue;
				pic_end(pg, mark, "swimlane-%s-%s-%d-%zu",
					c->bench, c->load, c->ok[r].repeat,
					k + 1);
				n++;
			}
		}
	if (n)
		sb_printf(&pg->b, "<p class=\"note\">A lane per CPU; hover over "
			  "a slice for whose it was (comm:pid) and when. "
			  "Times in ms from the frame's release; the timer "
			  "part ends when the timing thread is awake and wakes "
			  "the task (wakeup), the wait part when it runs.</p>\n");
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/html.c - --html, the run's page, as a sink (sink.h). The run
 * so far is made its result file in memory and handed to the page's
 * drawer, report/'s, which cmd/ hands down in the sink's state: the
 * tower that measures and the one that judges meet only at the result
 * file (HACKING).
 *
 * A page shows the whole run, so each drawing costs the run's size:
 * drawn after every result, a long run would cost the square of its
 * cells. It is drawn after a result only while drawing has taken at
 * most PAGE_SHARE of the run's time so far, and always at the end (a
 * stopped run's too), so it costs a bounded share of the run, linear in
 * its cells. A run's cells take a second or more and a page of a
 * hundred cells some milliseconds, so in practice every result is drawn
 * (bench/html-speed.sh).
 */
#include <errno.h>
#include <stdlib.h>
#include "outputs/sink.h"
#include "core/resultfile.h"
#include "lib/base.h"

/* The most of the run's time the page may take between results. */
#define PAGE_SHARE	0.05

int out_page(const char *path, out_page_fn draw,
	     const struct results_info *ri, const struct result *res, int n)
{
	struct result_file rf;
	char err[512], *text = NULL;
	size_t len = 0;
	int ret;

	if (!draw)
		return -ENOTSUP;
	ret = results_json_text(ri, res, n, &text, &len);
	if (ret)
		return ret;
	/* rf_parse owns text from here, freed or not */
	ret = rf_parse(&rf, path, text, len, err, sizeof(err));
	if (ret)
		return ret;
	rf.path = "this run";
	ret = draw(path, &rf);
	rf_free(&rf);
	return ret;
}

static int page_draw(struct output_sink *s, const struct results_info *ri,
		     const struct result *res, int n)
{
	uint64_t t = now_ns();
	int ret = out_page(s->path, s->draw, ri, res, n);

	s->page.spent += now_ns() - t;
	return ret;
}

static int page_open(struct output_sink *s)
{
	s->page.began = now_ns();
	s->page.spent = 0;
	return s->draw ? 0 : -ENOTSUP;
}

static int page_add(struct output_sink *s, const struct results_info *ri,
		    const struct result *res, int n)
{
	uint64_t run = now_ns() - s->page.began;

	if ((double)s->page.spent > PAGE_SHARE * (double)run)
		return 0;
	return page_draw(s, ri, res, n);
}

/* Nothing at the start: the first page is drawn with the first result. */
const struct output_sink_ops output_sink_html = {
	.name = "--html",
	.open = page_open,
	.add = page_add,
	.end = page_draw,
};

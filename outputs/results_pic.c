// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * outputs/results_pic.c - the JSON's picture of an explained frame
 * (run/trace_pic.c): what each CPU ran around it, slice by slice, so that
 * a result file alone redraws it (report/swimlane.c). doc/trace.txt says
 * what a frame costs in bytes.
 */
#include <math.h>
#include <stdint.h>
#include "outputs/results.h"
#include "core/schema.h"
#include "lib/base.h"
#include "run/trace.h"

#define US(ns)	((double)(ns) / NSEC_PER_USEC)

static const char *const slice_kinds[SK_COUNT] = {
#define SK_NAME(e, name)	[e] = name,
	SLICE_KINDS(SK_NAME)
#undef SK_NAME
};

/* ns of CLOCK_MONOTONIC as us from the frame's release */
static double rel_us(const struct why_frame *f, uint64_t ns)
{
	return (double)(int64_t)(ns - f->release_ns) / 1e3;
}

/*
 * The frame's picture (trace_pic.c): its window, its deadline, and what
 * each CPU ran, [cpu, from_us, to_us, kind, name, pid] a slice.
 */
void results_picture(struct jw *w, const struct why_frame *f)
{
	int i;

	if (!f->pic_to) {
		jw_null(w, K_PICTURE);
		return;
	}
	jw_obj_begin(w, K_PICTURE);
	jw_num(w, K_PIC_FROM, rel_us(f, f->pic_from));
	jw_num(w, K_PIC_TO, rel_us(f, f->pic_to));
	jw_num(w, K_PIC_DEADLINE, f->deadline_ns ? US(f->deadline_ns) : NAN);
	jw_arr_begin(w, K_PIC_SLICES);
	for (i = 0; i < f->nslices && i < WHY_SLICES; i++) {
		const struct why_slice *x = &f->slice[i];

		jw_arr_begin(w, NULL);
		jw_int(w, NULL, x->cpu);
		jw_num(w, NULL, rel_us(f, x->from));
		jw_num(w, NULL, rel_us(f, x->to));
		jw_str(w, NULL, x->kind < SK_COUNT ? slice_kinds[x->kind] :
		       "other");
		jw_str(w, NULL, x->name);
		jw_int(w, NULL, x->pid);
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

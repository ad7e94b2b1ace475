// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare/confound.c - what confounds a comparison: each cell's row marks
 * on either side (core/rowmarks.h: [busy], [steal], ...), as the runs'
 * consoles said them, carried by the cell in compare's table, JSON and
 * page, and counted under the verdict. A mark does not change a verdict
 * (none does: steal never did); it says how far to trust it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"

int cmp_cell_marks(const struct cmp_cell *cc, const struct result_file *a,
		   const struct result_file *b, struct rm_cell side[2])
{
	const struct file_cell *fc[2] = { cc->a, cc->b };
	const struct result_file *rf[2] = { a, b };
	int s;

	for (s = 0; s < 2; s++) {
		memset(&side[s], 0, sizeof(side[s]));
		if (fc[s] && rm_cell_marks(fc[s], rm_file_no_rt(rf[s]),
					   &side[s]))
			return -ENOMEM;
	}
	return 0;
}

int cmp_cell_marks_text(const struct rm_cell side[2], char *buf, size_t n)
{
	size_t at;
	int k;

	k = rm_cell_text(&side[0], "A ", buf, n);
	at = strlen(buf);
	if (k && side[1].has && at + 2 < n) {
		strcpy(buf + at, ", ");
		at += 2;
	}
	return k + rm_cell_text(&side[1], "B ", buf + at, n - at);
}

int cmp_marked_count(const struct cmp_pair *c, const struct result_file *a,
		     const struct result_file *b, struct cmp_marked *mk)
{
	struct rm_cell side[2];
	int i, s, k;

	memset(mk, 0, sizeof(*mk));
	for (i = 0; i < c->ncells; i++) {
		const struct cmp_cell *cc = &c->cells[i];

		if (cmp_cell_marks(cc, a, b, side))
			return -ENOMEM;
		mk->compared++;
		if (!side[0].has && !side[1].has)
			continue;
		mk->cells++;
		/* a verdict the marks weaken: one the data gave */
		mk->decided += cc->verdict == CV_BETTER ||
			       cc->verdict == CV_WORSE ||
			       cc->verdict == CV_MIXED ||
			       cc->verdict == CV_UNCHANGED;
		for (s = 0; s < 2; s++)
			for (k = 0; k < RM_KINDS; k++)
				mk->n[s][k] += !!(side[s].has & 1u << k);
	}
	return 0;
}

/* "A: busy 38, steal 2; B: busy 38" */
static size_t sides_text(const struct cmp_marked *mk, char *buf, size_t n)
{
	size_t at = 0;
	int s, k, w;

	buf[0] = '\0';
	for (s = 0; s < 2; s++) {
		const char *sep = s && at ? "; B: " : s ? "B: " : "A: ";

		for (k = 0; k < RM_KINDS; k++) {
			if (!mk->n[s][k])
				continue;
			w = snprintf(buf + at, n - at, "%s%s %d", sep,
				     rm_names[k], mk->n[s][k]);
			if (w > 0 && at + (size_t)w < n)
				at += (size_t)w;
			sep = ", ";
		}
	}
	return at;
}

void cmp_marked_text(const struct cmp_marked *mk, char *buf, size_t n)
{
	char sides[256];

	if (!mk->cells) {
		snprintf(buf, n, "no cell compared carries a row mark on "
			 "either side");
		return;
	}
	sides_text(mk, sides, sizeof(sides));
	snprintf(buf, n, "%d of %d cells compared carry row marks (%s), %d "
		 "of them with a verdict the data gave (better, worse, mixed "
		 "or unchanged): %s", mk->cells, mk->compared, sides,
		 mk->decided, rm_verdict_caveat);
}

void cmp_marked_print(const struct cmp_marked *mk)
{
	char text[1024];
	const char *p = text;
	int col = 0;

	if (!mk->cells)
		return;
	cmp_marked_text(mk, text, sizeof(text));
	fputs("Row marks: ", stdout);
	col = 11;
	/* folded at 79 columns, as the rest of compare's text */
	while (*p) {
		size_t w = strcspn(p, " ");

		if (col && col + 1 + (int)w > 79) {
			putchar('\n');
			col = 0;
		} else if (col > 11 || (col && p != text)) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, w, stdout);
		col += (int)w;
		p += w;
		p += strspn(p, " ");
	}
	printf(".\n");
}

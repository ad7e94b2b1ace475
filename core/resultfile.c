// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * core/resultfile.c - read an interbench result file back (see resultfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/resultfile.h"
#include "core/schema.h"
#include "stats.h"
#include "core/load.h"

void *grow_array(void *p, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *q;

	if (n < *cap)
		return p;
	ncap = *cap ? *cap * 2 : 8;
	q = realloc(p, ncap * sz);
	if (q)
		*cap = ncap;
	return q;
}

static int read_file(const char *path, char **text, size_t *len, char *err,
		     size_t errlen)
{
	size_t cap = 65536, n = 0, got;
	char *buf = NULL, *nb;
	struct stat st;
	FILE *f = NULL;
	int fd;

	/* O_NONBLOCK: a FIFO nobody writes is an empty file, not a hang */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && (S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode))) {
		close(fd);
		snprintf(err, errlen, "%s: not a result file (a device)",
			 path);
		return -EINVAL;
	}
	if (fd >= 0)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (fd >= 0 && !(f = fdopen(fd, "r")))
		close(fd);
	if (!f) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	for (;;) {
		/* A bound on what is read: a result file is far smaller */
		if (n >= RF_MAX_BYTES) {
			free(buf);
			fclose(f);
			snprintf(err, errlen, "%s: more than %d MiB: not a result "
				 "file interbench writes", path,
				 (int)(RF_MAX_BYTES >> 20));
			return -EFBIG;
		}
		if (!buf || n == cap) {
			if (buf)
				cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -ENOMEM;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		free(buf);
		fclose(f);
		return -e;
	}
	fclose(f);
	*text = buf;
	*len = n;
	return 0;
}

/* Field look-ups that name what is wrong, as "results[3].latency_us.p99". */
static int need(const struct jval *obj, const char *key, enum jtype type,
		const char *where, const struct jval **out, char *err,
		size_t errlen)
{
	static const char *const type_names[] = {
		[J_NULL] = "null", [J_BOOL] = "a boolean",
		[J_NUM] = "a number", [J_STR] = "a string",
		[J_ARR] = "an array", [J_OBJ] = "an object",
	};
	const struct jval *v = json_get(obj, key);

	if (!v) {
		snprintf(err, errlen, "%s%s%s is missing", where,
			 *where ? "." : "", key);
		return -EINVAL;
	}
	if (v->type != type) {
		snprintf(err, errlen, "%s%s%s is not %s", where,
			 *where ? "." : "", key, type_names[type]);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* A number that may be null (NaN). */
static int need_num(const struct jval *obj, const char *key,
		    const char *where, double *out, char *err, size_t errlen)
{
	const struct jval *v = json_get(obj, key);

	if (v && v->type == J_NULL) {
		*out = NAN;
		return 0;
	}
	if (need(obj, key, J_NUM, where, &v, err, errlen))
		return -EINVAL;
	*out = v->num;
	return 0;
}

/* A figure of a result: in its group's object, or the result itself. */
static int need_figure(const struct jval *res, const struct figure *f,
		       const char *where, double *out, char *err,
		       size_t errlen)
{
	const struct jval *obj = res;
	char in[96];

	if (!f->group)
		return need_num(res, f->key, where, out, err, errlen);
	if (need(res, f->group, J_OBJ, where, &obj, err, errlen))
		return -EINVAL;
	snprintf(in, sizeof(in), "%s.%s", where, f->group);
	return need_num(obj, f->key, in, out, err, errlen);
}

/* A figure a file may not have: 0 (NaN if absent or null), -EINVAL. */
static int have_figure(const struct jval *res, const struct figure *f,
		       double *out)
{
	const struct jval *obj = f->group ? json_get(res, f->group) : res;
	const struct jval *v = obj && obj->type == J_OBJ ?
			       json_get(obj, f->key) : NULL;

	*out = NAN;
	if (!v || v->type == J_NULL)
		return 0;
	if (v->type != J_NUM)
		return -EINVAL;
	*out = v->num;
	return 0;
}

/* The result's repeat number, or 0 if it has none that makes sense. */
static int repeat_number(const struct jval *res)
{
	const struct jval *r = json_get_type(res, K_REPEAT, J_NUM);

	return r && r->num >= 1 && r->num <= 1e6 && r->num == floor(r->num) ?
	       (int)r->num : 0;
}

/* What the load got done: its rates in "load_work", NaN where absent. */
static void read_work(const struct jval *res, double *work)
{
	const struct jval *lw = json_get_type(res, K_LOAD_WORK, J_OBJ);
	int k;

	for (k = 0; k < WORK_KINDS; k++) {
		char key[64];
		const struct jval *v;

		snprintf(key, sizeof(key), "%s" K_PER_S_SUFFIX,
			 work_units[k].key);
		v = lw ? json_get_type(lw, key, J_NUM) : NULL;
		work[k] = v && v->num > 0 ? v->num : NAN;
	}
}

static bool is_count(double v)
{
	return v >= 0 && v < 18446744073709551616.0 && v == floor(v);
}

static int check_buckets(const struct jval *buckets, const char *where,
			 char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < buckets->n; i++) {
		const struct jval *b = &buckets->items[i];

		if (b->type != J_ARR || b->n != 3 ||
		    b->items[0].type != J_NUM || b->items[1].type != J_NUM ||
		    b->items[2].type != J_NUM ||
		    !is_count(b->items[0].num) || !is_count(b->items[1].num) ||
		    !is_count(b->items[2].num) ||
		    b->items[0].num > b->items[1].num) {
			snprintf(err, errlen, "%s.buckets[%zu] is not"
				 " [low_ns, high_ns, count]", where, i);
			return -EINVAL;
		}
	}
	return 0;
}

struct file_cell *rf_find_cell(const struct result_file *rf,
			      const char *bench, const char *load)
{
	size_t i;

	for (i = 0; i < rf->n_cells; i++)
		if (!strcmp(rf->cells[i].bench, bench) &&
		    !strcmp(rf->cells[i].load, load))
			return &rf->cells[i];
	return NULL;
}

static int add_result(struct result_file *rf, const struct jval *res,
		      size_t index, char *err, size_t errlen)
{
	const struct jval *bench, *load, *status, *hist, *buckets, *unit;
	char where[48], where_hist[64];
	struct ok_repeat rep = { 0 };
	struct file_cell *c;
	void *p;
	int m;

	snprintf(where, sizeof(where), "results[%zu]", index);
	snprintf(where_hist, sizeof(where_hist), "%s.histogram", where);
	if (res->type != J_OBJ) {
		snprintf(err, errlen, "%s is not an object", where);
		return -EINVAL;
	}
	if (need(res, K_BENCH, J_STR, where, &bench, err, errlen) ||
	    need(res, K_LOAD, J_STR, where, &load, err, errlen) ||
	    need(res, K_STATUS, J_STR, where, &status, err, errlen))
		return -EINVAL;

	c = rf_find_cell(rf, bench->str, load->str);
	if (!c && rf->n_cells >= RF_MAX_CELLS) {
		snprintf(err, errlen, "more than %d cells (task and load "
			 "pairs): not a file interbench writes", RF_MAX_CELLS);
		return -E2BIG;
	}
	if (!c) {
		p = grow_array(rf->cells, &rf->cap_cells, rf->n_cells,
			 sizeof(*rf->cells));
		if (!p)
			return -ENOMEM;
		rf->cells = p;
		c = &rf->cells[rf->n_cells++];
		memset(c, 0, sizeof(*c));
		c->bench = bench->str;
		c->load = load->str;
	}
	if (strcmp(status->str, STATUS_OK)) {
		/* what went wrong is all such a result need say */
		p = grow_array(c->bad, &c->cap_bad, c->n_bad, sizeof(*c->bad));
		if (!p)
			return -ENOMEM;
		c->bad = p;
		c->bad[c->n_bad++] = (struct bad_repeat){
			index, json_get_type(res, K_REPEAT, J_NUM),
			status->str };
		return 0;
	}

	for (m = 0; m < F_COUNT; m++) {
		const struct figure *f = &figures[m];

		/* what compare tests must be there, but for newer figures */
		if ((f->flags & FIG_COMPARE) && !(f->flags & FIG_OPTIONAL)) {
			if (need_figure(res, f, where, &rep.v[m], err, errlen))
				return -EINVAL;
		} else if (have_figure(res, f, &rep.v[m]) < 0) {
			snprintf(err, errlen, "%s: %s%s%s is not a number",
				 where, f->group ? f->group : "",
				 f->group ? "." : "", f->key);
			return -EINVAL;
		}
	}
	if (rf->figures_only)
		goto kept;	/* no histogram: rf_load_figures */
	if (need(res, K_HISTOGRAM, J_OBJ, where, &hist, err, errlen) ||
	    need(hist, K_BUCKETS, J_ARR, where_hist, &buckets, err, errlen))
		return -EINVAL;
	unit = json_get(hist, K_HIST_UNIT);
	if (unit && (unit->type != J_STR || strcmp(unit->str, "ns"))) {
		snprintf(err, errlen, "%s.unit is not \"ns\"", where_hist);
		return -EINVAL;
	}
	if (check_buckets(buckets, where_hist, err, errlen))
		return -EINVAL;
	rep.nhist = buckets->n;
	rep.hist = calloc(buckets->n + 1, sizeof(*rep.hist));
	if (!rep.hist)
		return -ENOMEM;
	for (m = 0; m < (int)buckets->n; m++) {
		rep.hist[m].low = buckets->items[m].items[0].num;
		rep.hist[m].high = buckets->items[m].items[1].num;
		rep.hist[m].count = buckets->items[m].items[2].num;
	}
kept:
	rep.res = res;
	rep.repeat = repeat_number(res);
	read_work(res, rep.work);
	p = grow_array(c->ok, &c->cap_ok, c->n_ok, sizeof(*c->ok));
	if (!p) {
		free(rep.hist);
		return -ENOMEM;
	}
	c->ok = p;
	c->ok[c->n_ok++] = rep;
	return 0;
}

void rf_free(struct result_file *rf)
{
	size_t i;

	for (i = 0; i < rf->n_cells; i++) {
		size_t k;

		for (k = 0; k < rf->cells[i].n_ok; k++)
			free(rf->cells[i].ok[k].hist);
		free(rf->cells[i].ok);
		free(rf->cells[i].bad);
	}
	free(rf->cells);
	json_free(rf->doc);
	free(rf->text);
	memset(rf, 0, sizeof(*rf));
}

static int parse_skip(struct result_file *rf, const char *path, char *text,
		      size_t len, const char *const *skip, char *err,
		      size_t errlen);

/* Read and parse path, skip's members not kept (NULL: all kept). */
static int load(struct result_file *rf, const char *path,
		const char *const *skip, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(rf, 0, sizeof(*rf));
	ret = read_file(path, &text, &len, err, errlen);
	if (ret)
		return ret;
	return parse_skip(rf, path, text, len, skip, err, errlen);
}

/* Read and check a result file; err gets "path: what is wrong". */
int rf_load(struct result_file *rf, const char *path, char *err,
	    size_t errlen)
{
	return load(rf, path, NULL, err, errlen);
}

int rf_load_figures(struct result_file *rf, const char *path, char *err,
		    size_t errlen)
{
	/* the bulk of a result, and no figure of compare's table */
	static const char *const skip[] = { K_HISTOGRAM, NULL };

	return load(rf, path, skip, err, errlen);
}

/*
 * A result file may be anyone's: its words reach terminals (compare) and
 * pages (report). Control characters (an escape sequence, a newline in a
 * name) become '?', in values and keys, before anything reads them.
 */
static void defang(struct jval *v)
{
	size_t i;
	char *s;

	if (v->type == J_STR)
		for (s = v->str; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				*s = '?';
	if (v->type != J_ARR && v->type != J_OBJ)
		return;
	for (i = 0; i < v->n; i++) {
		if (v->type == J_OBJ)
			for (s = v->keys[i]; *s; s++)
				if ((unsigned char)*s < 0x20 || *s == 0x7f)
					*s = '?';
		defang(&v->items[i]);
	}
}

/* What names a file on trend's axis: its tag, kernel and start. */
static void read_labels(struct result_file *rf)
{
	const struct jval *v;

	rf_read_blocks(rf);
	v = json_get_type(rf->doc, K_TAG, J_STR);
	rf->tag = v ? v->str : NULL;
	rf->kernel = rf->sys.release;
	rf->boot_id = rf->sys.boot_id && *rf->sys.boot_id ? rf->sys.boot_id :
							   NULL;
	rf->invocation = rf->sys.invocation && *rf->sys.invocation ?
			 rf->sys.invocation : NULL;
	v = json_get_type(rf->doc, K_STARTED, J_STR);
	rf->started = v ? v->str : NULL;
}

/*
 * A file that does not even start as a JSON object is no result file,
 * whatever its parse error says: say so, and when it is interbench's text
 * logfile (its "Benchmarking kernel" lines), which file to give instead.
 * True when it said so into what.
 */
static bool not_json(const char *text, size_t len, char *what, size_t n)
{
	static const char head[] = "Benchmarking kernel ";
	size_t i = 0, k;

	while (i < len && strchr(" \t\r\n", text[i]) && text[i])
		i++;
	if (i < len && text[i] == '{')
		return false;
	for (k = i; k + sizeof(head) - 1 <= len && k < 4096; k++)
		if ((!k || text[k - 1] == '\n') &&
		    !memcmp(text + k, head, sizeof(head) - 1)) {
			snprintf(what, n, "interbench's text logfile, not a "
				 "result file: give the file a run writes "
				 "with --json FILE");
			return true;
		}
	snprintf(what, n, "not a result file (%s; interbench --json FILE "
		 "writes those)", i < len ? "not JSON" : "empty");
	return true;
}

int rf_parse(struct result_file *rf, const char *path, char *text,
	     size_t len, char *err, size_t errlen)
{
	return parse_skip(rf, path, text, len, NULL, err, errlen);
}

/* A member of an object, writable: the reader's own document. */
static struct jval *member(struct jval *obj, const char *key)
{
	size_t i;

	for (i = 0; obj && obj->type == J_OBJ && i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}

/*
 * Each ok result's buckets are in its ok_repeat now: the document's copy,
 * most of a result file's nodes, goes (a side of many files is held in
 * memory whole).
 */
static void drop_buckets(struct jval *doc)
{
	struct jval *res = member(doc, K_RESULTS), *b;
	size_t i;

	for (i = 0; res && res->type == J_ARR && i < res->n; i++) {
		b = member(member(&res->items[i], K_HISTOGRAM), K_BUCKETS);
		if (b && b->type == J_ARR)
			json_clear(b);
	}
}

static int parse_skip(struct result_file *rf, const char *path, char *text,
		      size_t len, const char *const *skip, char *err,
		      size_t errlen)
{
	const struct jval *schema, *version, *results, *intr;
	char what[256];
	size_t i;
	int ret;

	memset(rf, 0, sizeof(*rf));
	rf->path = path;
	rf->text = text;
	rf->figures_only = skip != NULL;
	ret = json_parse_skip(rf->text, len, skip, &rf->doc, what,
			      sizeof(what));
	if (ret && not_json(text, len, what, sizeof(what)))
		ret = -EINVAL;
	/* the document's strings are its own: the text is no longer needed */
	free(rf->text);
	rf->text = NULL;
	if (ret)
		goto fail;
	defang(rf->doc);
	ret = -EINVAL;
	if (rf->doc->type != J_OBJ) {
		snprintf(what, sizeof(what), "not an interbench result file "
			 "(not a JSON object)");
		goto fail;
	}
	schema = json_get(rf->doc, K_SCHEMA);
	if (!schema || schema->type != J_STR) {
		snprintf(what, sizeof(what), "no \"schema\": not an "
			 "interbench result file");
		goto fail;
	}
	if (strcmp(schema->str, SCHEMA_NAME)) {
		snprintf(what, sizeof(what), "schema is \"%.64s\", not \"%s\"",
			 schema->str, SCHEMA_NAME);
		goto fail;
	}
	if (need(rf->doc, K_VERSION, J_STR, "", &version, what,
		 sizeof(what)) ||
	    need(rf->doc, K_RESULTS, J_ARR, "", &results, what, sizeof(what)))
		goto fail;
	rf->version = version->str;
	intr = json_get_type(rf->doc, K_INTERRUPTED, J_STR);
	rf->interrupted = intr ? intr->str : NULL;
	read_labels(rf);
	ret = rf_read_ab(rf, what, sizeof(what));
	if (ret)
		goto fail;
	for (i = 0; i < results->n; i++) {
		ret = add_result(rf, &results->items[i], i, what,
				 sizeof(what));
		if (ret == -ENOMEM)
			snprintf(what, sizeof(what), "out of memory");
		if (ret)
			goto fail;
	}
	drop_buckets(rf->doc);
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", path, what);
	rf_free(rf);
	return ret;
}

/* Rebuild the latency distribution of a cell from its ok repeats. */
void rf_cell_hist(const struct file_cell *c, struct lat_stats *s)
{
	size_t i, j;

	stats_init(s);
	for (i = 0; i < c->n_ok; i++) {
		const struct ok_repeat *r = &c->ok[i];

		for (j = 0; j < r->nhist; j++) {
			uint64_t low = (uint64_t)r->hist[j].low;
			uint64_t n = (uint64_t)r->hist[j].count;

			s->hist[stats_bucket(low)] += n;
			s->count += n;
		}
	}
}

/* ---- what differs between two files' settings ----------------------- */

#define RF_MAX_SETTINGS	256

struct flat {
	char key[RF_MAX_SETTINGS][96];
	char val[RF_MAX_SETTINGS][128];
	int n;
};

static void leaf_text(const struct jval *v, char *buf, size_t n)
{
	size_t i, used = 0;

	switch (v->type) {
	case J_STR:
		snprintf(buf, n, "%s", v->str);
		break;
	case J_NUM:
		snprintf(buf, n, "%g", v->num);
		break;
	case J_BOOL:
		snprintf(buf, n, "%s", v->b ? "true" : "false");
		break;
	case J_ARR:
		buf[0] = '\0';
		for (i = 0; i < v->n && used < n; i++) {
			char item[64];

			leaf_text(&v->items[i], item, sizeof(item));
			used += (size_t)snprintf(buf + used, n - used, "%s%s",
						 i ? "," : "", item);
		}
		break;
	default:
		snprintf(buf, n, "null");
	}
}

static void flatten(const struct jval *o, const char *prefix, struct flat *f)
{
	size_t i;

	for (i = 0; o && o->type == J_OBJ && i < o->n; i++) {
		char key[96];

		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "",
			 o->keys[i]);
		/* what differs by nature, not by setting */
		if (!strcmp(o->keys[i], RF_KEY(settings, concurrent_pid)) ||
		    !strcmp(key, K_SYSTEM "." K_BOOT_ID) ||
		    !strcmp(key, K_SYSTEM "." K_INVOCATION))
			continue;
		if (o->items[i].type == J_OBJ) {
			flatten(&o->items[i], key, f);
			continue;
		}
		if (f->n == RF_MAX_SETTINGS)
			return;
		snprintf(f->key[f->n], sizeof(f->key[0]), "%s", key);
		leaf_text(&o->items[i], f->val[f->n], sizeof(f->val[0]));
		f->n++;
	}
}

static const char *flat_get(const struct flat *f, const char *key)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (!strcmp(f->key[i], key))
			return f->val[i];
	return NULL;
}

int rf_settings_diff(const struct result_file *a, const struct result_file *b,
		     rf_diff_fn fn, void *ctx)
{
	static const char *const parts[] = { K_SYSTEM, K_SETTINGS };
	struct flat *fa = calloc(1, sizeof(*fa)), *fb = calloc(1, sizeof(*fb));
	int i, k, n = 0;

	if (!fa || !fb) {
		free(fa);
		free(fb);
		return 0;
	}
	for (k = 0; k < 2; k++) {
		flatten(json_get(a->doc, parts[k]), parts[k], fa);
		flatten(json_get(b->doc, parts[k]), parts[k], fb);
	}
	for (i = 0; i < fa->n; i++) {
		const char *vb = flat_get(fb, fa->key[i]);

		if (!vb || strcmp(vb, fa->val[i])) {
			fn(ctx, fa->key[i], fa->val[i], vb ? vb : "absent");
			n++;
		}
	}
	for (i = 0; i < fb->n; i++)
		if (!flat_get(fa, fb->key[i])) {
			fn(ctx, fb->key[i], "absent", fb->val[i]);
			n++;
		}
	free(fa);
	free(fb);
	return n;
}

static double pic_num(const struct jval *o, const char *k)
{
	const struct jval *v = json_get_type(o, k, J_NUM);

	return v && isfinite(v->num) ? v->num : NAN;
}

/* One [cpu, from_us, to_us, kind, name, pid] of a picture: 0 or -EINVAL. */
static int pic_slice(const struct jval *a, const struct rf_picture *p,
		     struct rf_slice *s)
{
	static const char *const kinds[SK_COUNT] = {
#define SK_NAME(e, name)	[e] = name,
		SLICE_KINDS(SK_NAME)
#undef SK_NAME
	};
	const struct jval *it = a->items;
	int k;

	if (a->type != J_ARR || a->n < 6 || it[0].type != J_NUM ||
	    it[1].type != J_NUM || it[2].type != J_NUM ||
	    it[3].type != J_STR || it[4].type != J_STR || it[5].type != J_NUM)
		return -EINVAL;
	if (!(it[0].num >= 0 && it[0].num < 65536) ||
	    !(it[1].num < it[2].num) || !isfinite(it[1].num) ||
	    !isfinite(it[2].num) || !(fabs(it[5].num) < 1e9))
		return -EINVAL;
	s->cpu = (int)it[0].num;
	s->from_us = fmax(it[1].num, p->from_us);
	s->to_us = fmin(it[2].num, p->to_us);
	if (s->from_us >= s->to_us)
		return -EINVAL;
	s->kind = SK_OTHER;
	for (k = 0; k < SK_COUNT; k++)
		if (!strcmp(it[3].str, kinds[k]))
			s->kind = k;
	s->name = it[4].str;
	s->pid = (int)it[5].num;
	return 0;
}

static int pic_cpu(double v)
{
	return v >= 0 && v < 65536 ? (int)v : -1;
}

int rf_picture(const struct jval *frame, struct rf_picture *p)
{
	const struct jval *pic = json_get_type(frame, K_PICTURE, J_OBJ);
	const struct jval *a = json_get_type(pic, K_PIC_SLICES, J_ARR);
	size_t i;

	memset(p, 0, sizeof(*p));
	if (!pic || !a)
		return -ENOENT;
	p->from_us = pic_num(pic, K_PIC_FROM);
	p->to_us = pic_num(pic, K_PIC_TO);
	p->deadline_us = pic_num(pic, K_PIC_DEADLINE);
	p->timer_us = pic_num(frame, RF_KEY(frame, timer_us));
	p->fired_us = pic_num(frame, RF_KEY(frame, timer_fired_late_us));
	p->latency_us = pic_num(frame, RF_KEY(frame, latency_us));
	p->cpu = pic_cpu(pic_num(frame, RF_KEY(frame, cpu)));
	p->timer_cpu = pic_cpu(pic_num(frame, RF_KEY(frame, timer_cpu)));
	if (!(p->from_us < p->to_us) || !(p->to_us - p->from_us < 1e7) ||
	    !(p->latency_us >= 0) || !(p->timer_us >= 0))
		return -ENOENT;
	for (i = 0; i < a->n && p->n < RF_PIC_SLICES; i++)
		if (!pic_slice(&a->items[i], p, &p->s[p->n]))
			p->n++;
	return 0;
}

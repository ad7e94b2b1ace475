// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * run/trace_line.c - one line of tracefs's text taken apart: see
 * trace_line.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/trace_line.h"
#include "lib/base.h"

uint64_t trace_line_ns(const char *s)
{
	const char *b = strstr(s, "] "), *colon, *ts;
	unsigned long long sec, usec;

	if (!b)
		return 0;
	colon = strstr(b, ": ");
	if (!colon)
		return 0;
	for (ts = colon; ts > b && ts[-1] != ' '; ts--)
		;
	if (sscanf(ts, "%llu.%llu", &sec, &usec) != 2)
		return 0;
	return sec * NSEC_PER_SEC + usec * NSEC_PER_USEC;
}

/* comm and pid: the last '-' before the CPU's "[" splits them. */
static void who(const char *s, const char *cpu, struct trace_line *l)
{
	const char *e = cpu - 1, *t = s + strspn(s, " "), *o, *dash = NULL;

	l->pid = -1;
	l->comm[0] = '\0';
	while (e > s && e[-1] == ' ')
		e--;
	for (o = t; o < e; o++)
		if (*o == '-')
			dash = o;
	if (!dash)
		return;
	l->pid = atoi(dash + 1);
	snprintf(l->comm, sizeof(l->comm), "%.*s", (int)(dash - t), t);
}

int trace_line_parse(char *s, struct trace_line *l)
{
	char *b = strstr(s, "] "), *o, *colon, *ts;
	unsigned long long sec, usec;

	if (!b || b - s < 4)
		return -EINVAL;
	for (o = b; o > s && o[-1] != '['; o--)
		;
	l->cpu = atoi(o);
	who(s, o, l);
	colon = strstr(b, ": ");
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	ts = strrchr(b, ' ');
	if (!ts || sscanf(ts + 1, "%llu.%llu", &sec, &usec) != 2)
		return -EINVAL;
	l->ts = sec * NSEC_PER_SEC + usec * NSEC_PER_USEC;
	l->event = colon + 2;
	colon = strstr(l->event, ": ");
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	l->args = colon + 2;
	return 0;
}

void trace_line_field(const char *args, const char *key, const char *stop,
		      char *buf, size_t n)
{
	const char *p = strstr(args, key), *e;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	e = stop ? strstr(p, stop) : NULL;
	if (!e)
		e = p + strcspn(p, " \n");
	snprintf(buf, n, "%.*s", (int)(e - p), p);
}

int trace_exec_comm(const char *args, char *comm, size_t n, int *pid,
		    int *old_pid)
{
	const char *f = strstr(args, "filename="), *p = NULL, *q, *base;
	size_t len;

	/* From the end: a file's name may hold " pid=" too. */
	for (q = args; (q = strstr(q, " pid=")); q++)
		p = q;
	if (!f || !p || p < f ||
	    sscanf(p, " pid=%d old_pid=%d", pid, old_pid) != 2)
		return -EINVAL;
	f += strlen("filename=");
	if (!strncmp(f, "/dev/fd/", strlen("/dev/fd/")))
		return -EINVAL;
	for (base = q = f; q < p; q++)
		if (*q == '/')
			base = q + 1;
	len = (size_t)(p - base);
	if (len > TRACE_COMM_MAX)
		len = TRACE_COMM_MAX;
	snprintf(comm, n, "%.*s", (int)len, base);
	return 0;
}

bool trace_comm_ours(const char *comm)
{
	return !strncmp(comm, COMM_SIM, strlen(COMM_SIM)) ||
	       !strncmp(comm, COMM_TIMER, strlen(COMM_TIMER));
}

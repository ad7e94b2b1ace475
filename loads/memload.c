// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/memload.c - the "Memload" load: memory pressure without swap.
 *
 * It fills most of the memory that is available with anonymous chunks,
 * then keeps copying between them and replacing the oldest chunk with a
 * fresh one, so the kernel keeps faulting and zeroing pages and keeps the
 * page cache squeezed. It never takes the last 512 MiB, backs off when
 * others need memory, and volunteers to be the OOM killer's first victim,
 * so whatever goes wrong only this process dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

#define MEM_CHUNK	(64 * MIB)
#define MEM_STEP	MIB		/* bytes worked on between counts */
#define MEM_FLOOR	(512 * MIB)	/* MemAvailable we always leave */
#define MEM_BACKOFF_NS	(100 * NSEC_PER_MSEC)
#define MEM_STUCK_NS	(5 * NSEC_PER_SEC)	/* no chunk added: fail */

struct memload {
	struct load_work *work;
	char **chunk;		/* ring of mappings, oldest at head */
	size_t max, head, count;
	size_t page;
};


/* Ask to be the one killed if memory runs out after all. */
static void oom_volunteer(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, "1000", 4) != 4) {
		/* Not fatal: we still back off before memory runs out. */
	}
	close(fd);
}

static char **mem_slot(struct memload *m, size_t k)
{
	return &m->chunk[(m->head + k) % m->max];
}

static void mem_drop_oldest(struct memload *m)
{
	munmap(*mem_slot(m, 0), MEM_CHUNK);
	m->head = (m->head + 1) % m->max;
	m->count--;
}

/* Map a new newest chunk and fault in every page: 0 or -errno. */
static int mem_add(struct memload *m, unsigned char fill)
{
	size_t off, i;
	char *p;

	p = mmap(NULL, MEM_CHUNK, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* Small pages whatever the THP setting: more faults, same on all. */
	madvise(p, MEM_CHUNK, MADV_NOHUGEPAGE);
	for (off = 0; off < MEM_CHUNK; off += MEM_STEP) {
		for (i = 0; i < MEM_STEP; i += m->page)
			p[off + i] = (char)fill;
		work_add(m->work, WORK_MEM_BYTES, MEM_STEP);
	}
	*mem_slot(m, m->count) = p;
	m->count++;
	return 0;
}

/* Copy one chunk over another, a step at a time. */
static void mem_shuffle(struct memload *m, size_t turn)
{
	char *dst = *mem_slot(m, turn % m->count);
	char *src = *mem_slot(m, (turn + m->count / 2) % m->count);
	size_t off;

	for (off = 0; off < MEM_CHUNK; off += MEM_STEP) {
		memcpy(dst + off, src + off, MEM_STEP);
		work_add(m->work, WORK_MEM_BYTES, MEM_STEP);
	}
}

static int memload_run(struct load_ctx *c)
{
	struct memload m = { .work = c->work };
	uint64_t target, last_ok;
	int64_t avail;
	size_t turn;
	int rc;

	oom_volunteer();
	m.page = (size_t)sysconf(_SC_PAGESIZE);
	avail = load_mem_available(c);
	if (avail < 0) {
		load_fail(c->work, (int)-avail, "cannot read /proc/meminfo: %s",
			  strerror((int)-avail));
		return (int)avail;
	}
	target = (uint64_t)avail / 10 * 9;
	target = target > MEM_FLOOR + 64 * MIB ? target - MEM_FLOOR : 64 * MIB;
	m.max = target / MEM_CHUNK ? target / MEM_CHUNK : 1;
	m.chunk = calloc(m.max, sizeof(*m.chunk));
	if (!m.chunk) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}

	last_ok = now_ns();
	for (turn = 0;; turn++) {
		/* Holding nothing for long is doing nothing: say so. */
		if (now_ns() - last_ok > MEM_STUCK_NS) {
			rc = -ENOMEM;
			load_fail(c->work, ENOMEM, "could not add memory for "
				  "%llu s (MemAvailable %lld MiB)",
				  (unsigned long long)(MEM_STUCK_NS /
						       NSEC_PER_SEC),
				  (long long)(load_mem_available(c) /
					      (int64_t)MIB));
			break;
		}
		avail = load_mem_available(c);
		if (avail < 0) {
			rc = (int)avail;
			load_fail(c->work, -rc, "cannot read /proc/meminfo: %s",
				  strerror(-rc));
			break;
		}
		if ((uint64_t)avail < MEM_FLOOR + MEM_CHUNK) {
			/* Someone else needs it: give it all back at once. */
			uint64_t need = MEM_FLOOR + MEM_CHUNK - (uint64_t)avail;

			while (m.count > 1 && need) {
				mem_drop_oldest(&m);
				need -= need < MEM_CHUNK ? need : MEM_CHUNK;
			}
			load_sleep_ns(MEM_BACKOFF_NS);
			continue;
		}
		/* At the target, old pages make way for new ones. */
		if (m.count == m.max)
			mem_drop_oldest(&m);
		rc = mem_add(&m, (unsigned char)(turn | 1));
		if (rc == -ENOMEM || rc == -EAGAIN) {
			load_sleep_ns(MEM_BACKOFF_NS);
			continue;
		}
		if (rc) {
			load_fail(c->work, -rc, "mmap: %s", strerror(-rc));
			break;
		}
		last_ok = now_ns();
		/* Grow as fast as faults allow; copying is for later. */
		if (m.count == m.max && m.count > 1)
			mem_shuffle(&m, turn);
	}
	while (m.count)
		mem_drop_oldest(&m);
	free(m.chunk);
	return rc;
}

const struct load_desc load_memload = {
	.name = "Memload",
	.summary = "filling and churning most of the free memory",
	.run = memload_run,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hackbench.c - a hackbench-style scheduler load: groups of senders and
 * receivers passing small messages over Unix stream sockets.
 *
 * Every receiver has its own socket pair; every sender of a group writes
 * to every receiver of its group in turn, a round at a time. All of them
 * are threads of the calling process, so killing the process ends it all.
 * Sockets time out after a second and the read or write is simply tried
 * again, so a stalled peer can slow the load down but never hang it.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "core/load.h"
#include "loads/hackbench.h"

#define HACK_FDS		10	/* senders and receivers per group */
#define HACK_MSG_BYTES		100
#define HACK_LOOPS		100	/* messages per sender per receiver
					 * per round, as classic hackbench */
#define HACK_BATCH		64	/* messages counted at once */
#define HACK_STACK		(256 * 1024)

struct hack_run {
	struct hack_cfg cfg;
	struct load_work *work;
	sem_t failed;			/* posted when a thread gives up */
	_Atomic int err;		/* -errno of the first failure */
	int *tx;			/* sender end of each receiver's pair */
	int *rx;			/* receiver end of each pair */
	char *out;			/* what senders send (any bytes do) */
	char *in;			/* msg_bytes per receiver */
};

struct hack_thread {
	struct hack_run *run;
	int id;				/* receiver or sender number */
};

static void hack_fail(struct hack_run *run, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record why this thread gives up and wake hackbench_run to return it. */
static void hack_fail(struct hack_run *run, int err, const char *fmt, ...)
{
	char why[sizeof(run->work->why)];
	int none = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	load_fail(run->work, err, "%s", why);
	if (atomic_compare_exchange_strong(&run->err, &none, -err))
		sem_post(&run->failed);
}

static void *hack_receiver(void *arg)
{
	struct hack_thread *t = arg;
	struct hack_run *run = t->run;
	size_t msg = run->cfg.msg_bytes;
	char *buf = run->in + (size_t)t->id * msg;
	int fd = run->rx[t->id];
	uint64_t bytes = 0, msgs = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, msg, 0);
		if (n > 0) {
			/* Messages may arrive split: count whole ones. */
			bytes += (uint64_t)n;
			msgs += bytes / msg;
			bytes %= msg;
			if (msgs >= HACK_BATCH) {
				work_add(run->work, WORK_HACK_MESSAGES, msgs);
				msgs = 0;
			}
			continue;
		}
		if (!n) {
			hack_fail(run, EPIPE, "hackbench: receiver %d: "
				  "socket closed", t->id);
			break;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			/* A second without a message: count what we have. */
			work_add(run->work, WORK_HACK_MESSAGES, msgs);
			msgs = 0;
			continue;
		}
		hack_fail(run, errno, "hackbench: receiver %d: recv: %s",
			  t->id, strerror(errno));
		break;
	}
	return NULL;
}

/* Send one message on fd, trying again after timeouts: 0 or -errno. */
static int hack_send(int fd, const char *msg, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, msg, len, MSG_NOSIGNAL);
		if (n > 0) {
			msg += n;
			len -= (size_t)n;
		} else if (n < 0 && errno != EINTR && errno != EAGAIN &&
			   errno != EWOULDBLOCK) {
			return -errno;
		}
	}
	return 0;
}

static void *hack_sender(void *arg)
{
	struct hack_thread *t = arg;
	struct hack_run *run = t->run;
	int first = t->id / run->cfg.fds * run->cfg.fds;
	int i, r, rc;

	for (;;) {
		for (i = 0; i < HACK_LOOPS; i++) {
			for (r = first; r < first + run->cfg.fds; r++) {
				rc = hack_send(run->tx[r], run->out,
					       run->cfg.msg_bytes);
				if (rc) {
					hack_fail(run, -rc, "hackbench: "
						  "sender %d: send: %s",
						  t->id, strerror(-rc));
					return NULL;
				}
			}
		}
	}
}

/* Make receiver r's socket pair, with timeouts on both ends: 0/-errno. */
static int hack_pair(struct hack_run *run, int r)
{
	struct timeval tv = { .tv_sec = 1 };
	int sv[2], i;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	run->rx[r] = sv[0];
	run->tx[r] = sv[1];
	for (i = 0; i < 2; i++) {
		if (setsockopt(sv[i], SOL_SOCKET, SO_RCVTIMEO, &tv,
			       sizeof(tv)) ||
		    setsockopt(sv[i], SOL_SOCKET, SO_SNDTIMEO, &tv,
			       sizeof(tv)))
			return -errno;
	}
	return 0;
}

void hackbench_size(struct hack_cfg *h, int cpus)
{
	h->groups = cpus > 1 ? cpus : 1;
	/*
	 * Classic hackbench puts 20 senders and 20 receivers in a group;
	 * half that keeps a 2-core machine loaded without swamping it.
	 */
	h->fds = HACK_FDS;
	h->msg_bytes = HACK_MSG_BYTES;
}

/* Before any thread starts, a failure can still free everything. */
static void hack_free(struct hack_run *run, struct hack_thread *t, int n)
{
	int i;

	free(t);
	if (!run)
		return;
	for (i = 0; run->rx && run->tx && i < n; i++) {
		if (run->rx[i] > 0)
			close(run->rx[i]);
		if (run->tx[i] > 0)
			close(run->tx[i]);
	}
	free(run->rx);
	free(run->tx);
	free(run->out);
	free(run->in);
	free(run);
}

/*
 * Threads run until the process is killed, so once they have started,
 * on every way out the state they share is left allocated (and the
 * sockets open) on purpose.
 */
int hackbench_run(const struct hack_cfg *h, struct load_work *w)
{
	struct hack_thread *t;
	struct hack_run *run;
	pthread_attr_t attr;
	pthread_t tid;
	int n, i, rc;

	if (h->groups < 1 || h->fds < 1 || !h->msg_bytes) {
		load_fail(w, EINVAL, "hackbench: bad size %d x %d x %u",
			  h->groups, h->fds, h->msg_bytes);
		return -EINVAL;
	}
	n = h->groups * h->fds;
	run = calloc(1, sizeof(*run));
	t = calloc(2 * (size_t)n, sizeof(*t));
	if (run) {
		run->rx = calloc((size_t)n, sizeof(*run->rx));
		run->tx = calloc((size_t)n, sizeof(*run->tx));
		run->out = malloc(h->msg_bytes);
		run->in = calloc((size_t)n, h->msg_bytes);
	}
	if (!run || !t || !run->rx || !run->tx || !run->out || !run->in) {
		load_fail(w, ENOMEM, "hackbench: out of memory");
		hack_free(run, t, 0);
		return -ENOMEM;
	}
	run->cfg = *h;
	run->work = w;
	memset(run->out, 'h', h->msg_bytes);
	if (sem_init(&run->failed, 0, 0)) {
		rc = errno;
		load_fail(w, rc, "hackbench: sem_init: %s", strerror(rc));
		hack_free(run, t, 0);
		return -rc;
	}
	for (i = 0; i < n; i++) {
		rc = hack_pair(run, i);
		if (rc) {
			load_fail(w, -rc, "hackbench: socketpair: %s",
				  strerror(-rc));
			hack_free(run, t, i + 1);
			return rc;
		}
	}

	rc = pthread_attr_init(&attr);
	if (!rc)
		rc = pthread_attr_setdetachstate(&attr,
						 PTHREAD_CREATE_DETACHED);
	if (!rc)
		rc = pthread_attr_setstacksize(&attr, HACK_STACK);
	/* Receivers first, so the first messages find someone reading. */
	for (i = 0; i < 2 * n && !rc; i++) {
		t[i].run = run;
		t[i].id = i % n;
		rc = pthread_create(&tid, &attr,
				    i < n ? hack_receiver : hack_sender, &t[i]);
	}
	if (rc) {
		load_fail(w, rc, "hackbench: cannot start a thread: %s",
			  strerror(rc));
		return -rc;
	}
	pthread_attr_destroy(&attr);

	/* Only a failure ends the threads' work: wait for one. */
	for (;;) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		if (!sem_timedwait(&run->failed, &ts))
			break;
		if (errno != ETIMEDOUT && errno != EINTR) {
			rc = errno;
			load_fail(w, rc, "hackbench: sem_timedwait: %s",
				  strerror(rc));
			return -rc;
		}
	}
	return atomic_load(&run->err);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loads/net.c - the "Net" load: a flood of loopback traffic, what the
 * ping flood used to test real-time kernels does to a machine (softirqs,
 * socket wakeups), kept on 127.0.0.1 so not one packet leaves it.
 *
 * UDP: one sender thread and one receiver thread on a connected pair of
 * sockets, datagrams of 64 and 1400 bytes in turn, paced in batches.
 * TCP: one connection, a sender thread streaming 64 KiB writes and a
 * receiver reading them, as fast as flow control lets it go.
 * Every socket times out after a second and the call is simply tried
 * again, so a stalled peer slows the load down but never hangs it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include "loads/loads.h"
#include "lib/base.h"
#include "core/load.h"

/*
 * At most 200,000 datagrams a second: a flood, but a bounded one, as a
 * ping flood is bounded by its replies. Sent NET_UDP_BATCH at a time.
 */
#define NET_UDP_RATE	200000
#define NET_UDP_BATCH	50
#define NET_UDP_SMALL	64
#define NET_UDP_LARGE	1400
#define NET_UDP_BUF	2048		/* > any datagram we send */
#define NET_TCP_CHUNK	(64 * 1024)
#define NET_COUNT_BATCH	64		/* datagrams counted at once */
#define NET_ACCEPT_TRIES 5		/* strangers on our port we skip */

struct net {
	struct load_work *work;
	_Atomic int err;		/* -errno once a thread has failed */
	int udp_tx, udp_rx, tcp_tx, tcp_rx;
	char out[NET_TCP_CHUNK];	/* what both senders send */
	char udp_in[NET_UDP_BUF];
	char tcp_in[NET_TCP_CHUNK];
};

/*
 * UDP datagrams and payload bytes (UDP and TCP) received, added to the
 * shared counts in batches. A TCP read is not a packet: how much one
 * returns depends on how full the buffer was.
 */
struct net_count {
	uint64_t packets, bytes;
};

static void net_flush(struct net *n, struct net_count *k)
{
	if (!k->packets && !k->bytes)
		return;
	work_add(n->work, WORK_NET_PACKETS, k->packets);
	work_add(n->work, WORK_NET_BYTES, k->bytes);
	k->packets = 0;
	k->bytes = 0;
}

/* Tell the other threads to give up (after load_fail): returns -err. */
static int net_stop(struct net *n, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&n->err, &none, -err);
	return -err;
}

/* The error another thread stopped us with, or 0. */
static int net_stopped(struct net *n)
{
	return atomic_load_explicit(&n->err, memory_order_relaxed);
}

/* Errors after which a send or a receive is simply tried again. */
static bool net_transient(int err)
{
	/*
	 * EAGAIN: the one-second timeout. ENOBUFS: loopback queue full.
	 * ECONNREFUSED: a stale ICMP error on a connected UDP socket.
	 */
	return err == EINTR || err == EAGAIN || err == EWOULDBLOCK ||
	       err == ENOBUFS || err == ECONNREFUSED;
}

static void *net_udp_sender(void *arg)
{
	struct net *n = arg;
	uint64_t period = NSEC_PER_SEC * NET_UDP_BATCH / NET_UDP_RATE;
	uint64_t slot = now_ns(), now;
	unsigned i = 0;
	struct timespec ts;
	int k, err;

	for (;;) {
		for (k = 0; k < NET_UDP_BATCH; k++, i++) {
			size_t len = i & 1 ? NET_UDP_LARGE : NET_UDP_SMALL;

			if (send(n->udp_tx, n->out, len, 0) >= 0 ||
			    net_transient(errno))
				continue;
			err = errno;
			load_fail(n->work, err, "udp send to 127.0.0.1: %s",
				  strerror(err));
			net_stop(n, err);
			return NULL;
		}
		if (net_stopped(n))
			return NULL;
		/*
		 * Batches start at least a period apart: when we fall
		 * behind we start again from now rather than catch up in
		 * a burst, so the cap holds over any stretch of time.
		 */
		slot += period;
		now = now_ns();
		if (slot < now)
			slot = now;
		ts = ns_to_ts(slot);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
	}
	return NULL;
}

static void *net_udp_receiver(void *arg)
{
	struct net *n = arg;
	struct net_count k = { 0 };
	ssize_t got;
	int err;

	for (;;) {
		got = recv(n->udp_rx, n->udp_in, sizeof(n->udp_in), 0);
		if (got >= 0) {
			k.packets++;
			k.bytes += (uint64_t)got;
			if (k.packets < NET_COUNT_BATCH)
				continue;
		} else if (!net_transient(errno)) {
			err = errno;
			load_fail(n->work, err, "udp receive on 127.0.0.1: %s",
				  strerror(err));
			net_stop(n, err);
			return NULL;
		}
		/* A full batch, or a quiet second: count, and look up. */
		net_flush(n, &k);
		if (net_stopped(n))
			return NULL;
	}
	return NULL;
}

static void *net_tcp_sender(void *arg)
{
	struct net *n = arg;
	int err;

	for (;;) {
		if (send(n->tcp_tx, n->out, sizeof(n->out), MSG_NOSIGNAL) < 0 &&
		    !net_transient(errno)) {
			err = errno;
			load_fail(n->work, err, "tcp send to 127.0.0.1: %s",
				  strerror(err));
			net_stop(n, err);
			return NULL;
		}
		if (net_stopped(n))
			return NULL;
	}
	return NULL;
}

/* Runs in the load's own thread: returns only on failure, -errno. */
static int net_tcp_receiver(struct net *n)
{
	struct net_count k = { 0 };
	ssize_t got;
	int err;

	for (;;) {
		got = recv(n->tcp_rx, n->tcp_in, sizeof(n->tcp_in), 0);
		if (got > 0) {
			/* Up to 64 KiB a read: worth counting at once. */
			k.bytes += (uint64_t)got;
		} else if (!got) {
			load_fail(n->work, EPIPE, "tcp receive on 127.0.0.1: "
				  "connection closed");
			return net_stop(n, EPIPE);
		} else if (!net_transient(errno)) {
			err = errno;
			load_fail(n->work, err, "tcp receive on 127.0.0.1: %s",
				  strerror(err));
			return net_stop(n, err);
		}
		net_flush(n, &k);
		err = net_stopped(n);
		if (err)
			return err;
	}
}

/*
 * Errors setting up a socket that mean there is no usable loopback (IPv4
 * off, lo down in a network namespace) say so; the others (out of file
 * descriptors, say) speak for themselves.
 */
static const char *net_why(int err)
{
	switch (err) {
	case EAFNOSUPPORT:
	case EPROTONOSUPPORT:
	case EADDRNOTAVAIL:
	case ENETDOWN:
	case ENETUNREACH:
	case EHOSTUNREACH:
		return "no loopback network: ";
	default:
		return "";
	}
}

static int net_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = 1 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/*
 * A socket of type bound to 127.0.0.1 on a port the kernel picks, with
 * one-second timeouts; *addr is where it is bound. fd or -errno.
 */
static int net_socket(struct load_ctx *c, int type, struct sockaddr_in *addr)
{
	socklen_t len = sizeof(*addr);
	bool bound = false;
	const char *what;
	int fd, err;

	fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		err = errno;
		load_fail(c->work, err, "%ssocket: %s", net_why(err),
			  strerror(err));
		return -err;
	}
	*addr = (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_port = 0,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	what = "bind 127.0.0.1";
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)))
		goto fail;
	bound = true;
	what = "getsockname";
	if (getsockname(fd, (struct sockaddr *)addr, &len))
		goto fail;
	what = "set socket timeouts";
	if (net_timeouts(fd))
		goto fail;
	return fd;
fail:
	err = errno;
	load_fail(c->work, err, "%s%s: %s", bound ? "" : net_why(err),
		  what, strerror(err));
	close(fd);
	return -err;
}

static bool net_same_addr(const struct sockaddr_in *a,
			  const struct sockaddr_in *b)
{
	return a->sin_port == b->sin_port &&
	       a->sin_addr.s_addr == b->sin_addr.s_addr;
}

/* Connect fd to 127.0.0.1 at to: 0 or -errno. */
static int net_connect(struct load_ctx *c, int fd,
		       const struct sockaddr_in *to)
{
	int err;

	if (!connect(fd, (const struct sockaddr *)to, sizeof(*to)))
		return 0;
	err = errno;
	load_fail(c->work, err, "%sconnect to 127.0.0.1:%u: %s",
		  net_why(err), ntohs(to->sin_port), strerror(err));
	return -err;
}

static int net_udp_setup(struct load_ctx *c, struct net *n)
{
	struct sockaddr_in rx, tx;
	int rc;

	rc = n->udp_rx = net_socket(c, SOCK_DGRAM, &rx);
	if (rc < 0)
		return rc;
	rc = n->udp_tx = net_socket(c, SOCK_DGRAM, &tx);
	if (rc < 0)
		return rc;
	/* Connected both ways: the receiver hears nobody but our sender. */
	rc = net_connect(c, n->udp_tx, &rx);
	if (!rc)
		rc = net_connect(c, n->udp_rx, &tx);
	return rc;
}

/*
 * Accept our own connection from lfd, skipping anyone else who reached
 * the port first: fd or -errno.
 */
static int net_accept(struct load_ctx *c, int lfd,
		      const struct sockaddr_in *want)
{
	struct sockaddr_in peer;
	socklen_t len;
	int fd, err, tries = 0;

	while (tries < NET_ACCEPT_TRIES) {
		len = sizeof(peer);
		fd = accept4(lfd, (struct sockaddr *)&peer, &len,
			     SOCK_CLOEXEC);
		if (fd < 0) {
			err = errno;
			if (err == EINTR || err == ECONNABORTED)
				continue;
			/* SO_RCVTIMEO: a second with nobody at the door. */
			if (err == EAGAIN || err == EWOULDBLOCK) {
				tries++;
				continue;
			}
			load_fail(c->work, err, "tcp accept on 127.0.0.1: %s",
				  strerror(err));
			return -err;
		}
		if (len == sizeof(peer) && net_same_addr(&peer, want))
			return fd;
		close(fd);
		tries++;
	}
	load_fail(c->work, ETIMEDOUT,
		  "tcp accept on 127.0.0.1: our own connection never came");
	return -ETIMEDOUT;
}

static int net_tcp_setup(struct load_ctx *c, struct net *n)
{
	struct sockaddr_in lst, cli;
	int lfd, rc;

	lfd = net_socket(c, SOCK_STREAM, &lst);
	if (lfd < 0)
		return lfd;
	if (listen(lfd, 1)) {
		rc = -errno;
		load_fail(c->work, -rc, "tcp listen on 127.0.0.1: %s",
			  strerror(-rc));
		goto out;
	}
	rc = n->tcp_tx = net_socket(c, SOCK_STREAM, &cli);
	if (rc < 0)
		goto out;
	rc = net_connect(c, n->tcp_tx, &lst);
	if (rc)
		goto out;
	rc = n->tcp_rx = net_accept(c, lfd, &cli);
	if (rc < 0)
		goto out;
	/* Accepted sockets inherit the timeouts; make sure of it. */
	rc = net_timeouts(n->tcp_rx);
	if (rc)
		load_fail(c->work, -rc, "set socket timeouts: %s",
			  strerror(-rc));
out:
	close(lfd);
	return rc < 0 ? rc : 0;
}

/* Undo a setup that failed half way: no thread has started yet. */
static void net_close(struct net *n)
{
	int fd[] = { n->udp_tx, n->udp_rx, n->tcp_tx, n->tcp_rx };
	size_t i;

	for (i = 0; i < sizeof(fd) / sizeof(fd[0]); i++)
		if (fd[i] >= 0)
			close(fd[i]);
	free(n);
}

static int net_run(struct load_ctx *c)
{
	void *(*const fn[])(void *) = {
		net_udp_receiver, net_udp_sender, net_tcp_sender,
	};
	struct net *n;
	pthread_t tid;
	size_t i;
	int err;

	/*
	 * On the heap, and never freed once a thread has started: if
	 * starting the next one fails we return while the others still
	 * use it.
	 */
	n = calloc(1, sizeof(*n));
	if (!n) {
		load_fail(c->work, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	n->work = c->work;
	n->udp_tx = n->udp_rx = n->tcp_tx = n->tcp_rx = -1;
	load_fill_nonzero(n->out, sizeof(n->out),
			  now_ns() ^ (uint64_t)getpid());

	err = net_udp_setup(c, n);
	if (!err)
		err = net_tcp_setup(c, n);
	if (err) {
		net_close(n);
		return err;
	}
	for (i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		err = pthread_create(&tid, NULL, fn[i], n);
		if (err) {
			load_fail(c->work, err, "cannot start a thread: %s",
				  strerror(err));
			return net_stop(n, err);
		}
		pthread_detach(tid);
	}
	return net_tcp_receiver(n);
}

const struct load_desc load_net = {
	.name = "Net",
	.summary = "UDP and TCP flood over loopback (127.0.0.1)",
	.run = net_run,
};

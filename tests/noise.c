// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tests/noise.c - noise the way a host makes it, for `make check-noisy`:
 * on every CPU we may use, a SCHED_FIFO process at the highest priority
 * spins SPIN ms every PERIOD ms (each period jittered by up to a quarter),
 * all CPUs at once, so that anything in the guest, real-time or not, loses
 * the CPU now and then and cannot move away from it (the scheduler would
 * push a woken real-time task to a CPU that is free), as when the host is
 * busy.
 *
 *   noise SPIN_MS PERIOD_MS MAX_SECONDS [PRIO]
 *
 * PRIO (default the highest) lets a test put the spinners below a task
 * that should not feel them; taskset picks the CPUs.
 *
 * It ends by itself after MAX_SECONDS, and its spinners end when it does
 * (PR_SET_PDEATHSIG), however it ends: nothing outlives the test suite.
 * Once every spinner runs SCHED_FIFO it prints "noise: ready"; without
 * the right to SCHED_FIFO it says so and exits 3.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define NS	1000000000ULL

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / NS),
			       .tv_nsec = (long)(t % NS) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

/*
 * One CPU's spinner: pinned, FIFO, until end or its parent is gone. It
 * writes a byte to ready once it runs so.
 */
static int spinner(int cpu, int prio, uint64_t spin, uint64_t period,
		   uint64_t start, uint64_t end, pid_t parent, int ready)
{
	struct sched_param sp = { .sched_priority = prio };
	uint64_t next = start, seed = 17;
	cpu_set_t set;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent died before the line above: nobody will stop us */
	if (getppid() != parent)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return 1;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr, "noise: SCHED_FIFO: %s\n", strerror(errno));
		return 3;
	}
	if (write(ready, "r", 1) != 1)
		return 1;
	close(ready);
	while (next < end) {
		uint64_t stop;

		sleep_until(next);
		stop = now() + spin;
		while (now() < stop)
			;
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		next += period - period / 8 + (seed >> 33) % (period / 4 + 1);
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t spin, period, start, end;
	pid_t me = getpid();
	cpu_set_t cpus;
	int i, n = 0, status, rc = 0, ready[2];
	int prio = sched_get_priority_max(SCHED_FIFO);
	char c;

	if (argc == 5)
		prio = atoi(argv[4]);
	if (argc < 4 || argc > 5 || atof(argv[1]) <= 0 ||
	    atof(argv[2]) <= atof(argv[1]) || atof(argv[3]) <= 0 ||
	    prio < 1 || prio > sched_get_priority_max(SCHED_FIFO)) {
		fprintf(stderr, "usage: noise SPIN_MS PERIOD_MS MAX_SECONDS "
			"[PRIO] (SPIN < PERIOD, PRIO 1-99)\n");
		return 2;
	}
	spin = (uint64_t)(atof(argv[1]) * 1e6);
	period = (uint64_t)(atof(argv[2]) * 1e6);
	/* The same schedule (start, seed) on every CPU: all at once. */
	start = now() + period;
	end = now() + (uint64_t)(atof(argv[3]) * 1e9);
	if (sched_getaffinity(0, sizeof(cpus), &cpus) || pipe(ready)) {
		perror("noise: sched_getaffinity or pipe");
		return 1;
	}
	/* Every CPU we may run on, online or not in a row. */
	for (i = 0; i < CPU_SETSIZE; i++) {
		pid_t p;

		if (!CPU_ISSET(i, &cpus))
			continue;
		p = fork();

		if (p < 0) {
			perror("noise: fork");
			return 1;
		}
		if (!p) {
			close(ready[0]);
			_exit(spinner(i, prio, spin, period, start, end, me,
				      ready[1]));
		}
		n++;
	}
	/* Every spinner ready (a byte each), or one gone (EOF) */
	close(ready[1]);
	while (n && read(ready[0], &c, 1) == 1)
		n--;
	if (!n) {
		printf("noise: ready\n");
		fflush(stdout);
	}
	while (wait(&status) > 0)
		if (WIFEXITED(status) && WEXITSTATUS(status) > rc)
			rc = WEXITSTATUS(status);
	return rc;
}

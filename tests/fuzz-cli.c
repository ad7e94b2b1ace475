// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-cli - throw random command lines at interbench (built with the
 * sanitizers) and check that none crashes, hangs or trips a sanitizer.
 *
 *	fuzz-cli BINARY COUNT [SEED [JOBS]]
 *
 * The vectors are drawn in one order from SEED and run JOBS at a time
 * (default: the CPUs online), each its own process with 15 s to end:
 * the same vectors whatever JOBS is.
 * Every vector starts with --dry-run, so a valid one is checked and
 * printed but never starts a run. Exit statuses allowed: 0 (valid)
 * and 2 (rejected); a sanitizer report exits 99 (see ASAN_OPTIONS below).
 * Prints TAP: one line for the whole fuzz, with the first bad vector.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const tokens[] = {
	"-l", "-L", "-t", "-B", "-N", "-b", "-c", "-r", "-C", "-I", "-m",
	"-w", "-x", "-W", "-X", "-u", "-D", "-v", "-n", "-h", "-Z", "-",
	"--", "--loops-per-ms", "--load-threads", "--time", "--bench-nice",
	"--load-nice", "--recalibrate", "--console-only", "--rt",
	"--keep-files", "--custom-cpu", "--custom-interval", "--comment",
	"--load",
	"--exclude-load", "--bench", "--exclude-bench", "--uniprocessor",
	"--dir", "--percentiles", "--repeat", "--json", "--csv", "--fail-if",
	"--time=1", "--load=burn", "--nosuch", "compare",
	"--bench-policy", "--bench-slice", "--load-policy", "other", "batch",
	"idle", "fifo", "rr", "deadline", "--bench-policy=deadline", "300",
	"--dma-latency", "--cyclic-threads", "all", "cyclic", "server",
	"--server-rps", "--server-no-lock", "--server-threads",
	"0", "1", "-1", "2", "5", "19", "20", "-20", "-21", "100", "101",
	"0.1", "0.05", "1e3", "1e400", "nan", "inf", "-inf", "0x10", "1x",
	" 1", "1 ", "", "99999999999999999999", "-9223372036854775808",
	"9223372036854775807", "4294967296", "1.5", ".", "..", "/",
	"/nonexistent", "/etc/passwd", "/dev/null", "out.json", "out.csv",
	"audio", "Video", "X", "gaming", "custom", "none", "BURN", "write",
	"read", "ring", "compile", "memload", "hack", "net", "fork", "hell",
	"nosuch", "p99>20ms", "deadlines<95", "cpu<=99.5%", "p99>", ">5ms",
	"max>=1s", "mean<0ns", "p99.9>1us", "sd>1", "cpu<5ms", "p99>-1ms",
	"%s%s%n", "\xff\xfe", "a\nb", "é",
};
#define NTOK (sizeof(tokens) / sizeof(tokens[0]))

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void describe(char *buf, size_t n, char **argv)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 1; argv[i] && used < n; i++)
		used += (size_t)snprintf(buf + used, n - used, " '%s'", argv[i]);
}

/* A vector running: its process, its number, when it began, what it is. */
struct kid {
	pid_t pid;
	long i;
	struct timespec start;
	char desc[2048];
};

#define MAX_JOBS 64

/* Was vector k's end bad? Then say so, if it is the first bad one yet. */
static int judge(const struct kid *k, int st, long *first)
{
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 2))
		return 0;
	if (*first >= 0 && *first < k->i)
		return 1;
	*first = k->i;
	if (WIFSIGNALED(st))
		printf("# vector %ld died of signal %d:%s\n", k->i,
		       WTERMSIG(st), k->desc);
	else
		printf("# vector %ld exited %d:%s\n", k->i, WEXITSTATUS(st),
		       k->desc);
	return 1;
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
	long count, i = 0, first = -1;
	char arena[64][64];
	struct kid kids[MAX_JOBS];
	int bad = 0, jobs, running = 0, j;

	if (argc < 3) {
		fprintf(stderr, "usage: fuzz-cli BINARY COUNT [SEED [JOBS]]\n");
		return 2;
	}
	count = atol(argv[2]);
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9e3779b97f4a7c15ULL;
	jobs = argc > 4 ? atoi(argv[4]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (jobs < 1)
		jobs = 1;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	for (j = 0; j < jobs; j++)
		kids[j].pid = 0;
	setenv("ASAN_OPTIONS", "exitcode=99:detect_leaks=1", 1);
	setenv("UBSAN_OPTIONS", "halt_on_error=1:exitcode=99:print_stacktrace=1", 1);
	while ((i < count && !bad) || running) {
		struct timespec ts = { 0, 1000000 };
		int st;
		pid_t pid;

		if (i < count && !bad && running < jobs) {
			char *v[40];
			int n = (int)(next() % 12), k, dry = (int)(next() % (n + 1));

			v[0] = argv[1];
			for (k = 0; k < n; k++) {
				const char *t = tokens[next() % NTOK];

				/* Sometimes glue two tokens into one argument. */
				if (next() % 8 == 0)
					snprintf(arena[k], sizeof(arena[k]),
						 "%s%s", t, tokens[next() % NTOK]);
				else
					snprintf(arena[k], sizeof(arena[k]),
						 "%s", t);
				v[1 + k] = arena[k];
			}
			/*
			 * --dry-run first, where no option can take it as its
			 * value, and once more at a random place.
			 */
			memmove(&v[2 + dry], &v[1 + dry],
				(size_t)(n - dry) * sizeof(v[0]));
			v[1 + dry] = "--dry-run";
			memmove(&v[2], &v[1], (size_t)(n + 1) * sizeof(v[0]));
			v[1] = "--dry-run";
			v[n + 3] = NULL;
			for (j = 0; kids[j].pid; j++)
				;
			describe(kids[j].desc, sizeof(kids[j].desc), v);
			kids[j].i = i++;
			clock_gettime(CLOCK_MONOTONIC, &kids[j].start);
			pid = fork();
			if (pid < 0)
				return 2;
			if (!pid) {
				int fd = open("/dev/null", 1);

				dup2(fd, 1);
				dup2(fd, 2);
				alarm(10);
				execv(v[0], v);
				_exit(98);
			}
			kids[j].pid = pid;
			running++;
			continue;
		}
		pid = waitpid(-1, &st, WNOHANG);
		for (j = 0; j < jobs; j++) {
			int kst = st;

			if (!kids[j].pid)
				continue;
			if (kids[j].pid != pid) {
				if (since(&kids[j].start) <= 15)
					continue;
				/* 15 s: it hangs */
				kill(kids[j].pid, SIGKILL);
				waitpid(kids[j].pid, &kst, 0);
			}
			bad |= judge(&kids[j], kst, &first);
			kids[j].pid = 0;
			running--;
		}
		if (pid <= 0)
			nanosleep(&ts, NULL);
	}
	printf("%s 1 - %ld random command lines: no crash, hang or sanitizer "
	       "report\n1..1\n", bad ? "not ok" : "ok", i);
	return bad;
}

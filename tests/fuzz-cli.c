// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-cli - throw random command lines at interbench (built with the
 * sanitizers) and check that none crashes, hangs or trips a sanitizer.
 *
 *	fuzz-cli BINARY COUNT [SEED]
 *
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

int main(int argc, char **argv)
{
	long count, i;
	char desc[2048], arena[64][64];
	int bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: fuzz-cli BINARY COUNT [SEED]\n");
		return 2;
	}
	count = atol(argv[2]);
	rng = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x9e3779b97f4a7c15ULL;
	setenv("ASAN_OPTIONS", "exitcode=99:detect_leaks=1", 1);
	setenv("UBSAN_OPTIONS", "halt_on_error=1:exitcode=99:print_stacktrace=1", 1);
	for (i = 0; i < count && !bad; i++) {
		char *v[40];
		int n = (int)(next() % 12), k, dry = (int)(next() % (n + 1));
		int st, waited;
		pid_t pid;

		v[0] = argv[1];
		for (k = 0; k < n; k++) {
			const char *t = tokens[next() % NTOK];

			/* Sometimes glue two tokens into one argument. */
			if (next() % 8 == 0)
				snprintf(arena[k], sizeof(arena[k]), "%s%s", t,
					 tokens[next() % NTOK]);
			else
				snprintf(arena[k], sizeof(arena[k]), "%s", t);
			v[1 + k] = arena[k];
		}
		/*
		 * --dry-run first, where no option can take it as its value,
		 * and once more at a random place.
		 */
		memmove(&v[2 + dry], &v[1 + dry],
			(size_t)(n - dry) * sizeof(v[0]));
		v[1 + dry] = "--dry-run";
		memmove(&v[2], &v[1], (size_t)(n + 1) * sizeof(v[0]));
		v[1] = "--dry-run";
		v[n + 3] = NULL;
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
		for (waited = 0; waitpid(pid, &st, WNOHANG) == 0; waited++) {
			struct timespec ts = { 0, 1000000 };

			if (waited > 15000) {	/* 15 s: it hangs */
				kill(pid, SIGKILL);
				waitpid(pid, &st, 0);
				break;
			}
			nanosleep(&ts, NULL);
		}
		if (WIFEXITED(st) && (WEXITSTATUS(st) == 0 ||
				      WEXITSTATUS(st) == 2))
			continue;
		bad = 1;
		describe(desc, sizeof(desc), v);
		if (WIFSIGNALED(st))
			printf("# vector %ld died of signal %d:%s\n", i,
			       WTERMSIG(st), desc);
		else
			printf("# vector %ld exited %d:%s\n", i,
			       WEXITSTATUS(st), desc);
	}
	printf("%s 1 - %ld random command lines: no crash, hang or sanitizer "
	       "report\n1..1\n", bad ? "not ok" : "ok", i);
	return bad;
}

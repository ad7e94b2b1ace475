// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit-safefile.c - the one way output files are made (lib/safefile.c):
 * the name gets the contents, no temporary is left behind whatever
 * happens (not even after SIGKILL), a failed write's errno is kept, a
 * link planted at the name is replaced and its target never
 * written, an aborted or failed file leaves the name as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/safefile.h"
#include "check.h"

static char dir[] = "/tmp/ibunit.XXXXXX";

static const char *at(const char *name)
{
	static char buf[4][PATH_MAX];
	static int k;
	char *p = buf[k++ % 4];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

/* The directory's entries, sorted and joined by spaces: "a b". */
static const char *listing(const char *d)
{
	static char out[1024];
	struct dirent **e;
	int i, n;

	out[0] = '\0';
	n = scandir(d, &e, NULL, alphasort);
	if (n < 0)
		return "(unreadable)";
	for (i = 0; i < n; i++) {
		const char *name = e[i]->d_name;
		size_t len = strlen(out);

		if (strcmp(name, ".") && strcmp(name, ".."))
			snprintf(out + len, sizeof(out) - len, "%s%s",
				 len ? " " : "", name);
		free(e[i]);
	}
	free(e);
	return out;
}

/* Is the file at path exactly want? */
static int has(const char *path, const char *want)
{
	char buf[256];
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n == strlen(want) && !memcmp(buf, want, n);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void commit_and_write(void)
{
	struct safe_file sf;
	struct stat st;
	int err;

	err = safe_file_begin(&sf, at("a.json"));
	check(!err && sf.f && sf.fd >= 0, "begin (%d)", err);
	if (err)
		return;
	check(strncmp(sf.tmp, at("a.json."), strlen(at("a.json."))) == 0,
	      "the temporary is next to the name (%s)", sf.tmp);
	check(access(at("a.json"), F_OK) && errno == ENOENT,
	      "nothing at the name before the commit");
	fprintf(sf.f, "{\"x\": %d}\n", 1);
	err = safe_file_commit(&sf);
	check(!err, "commit (%d)", err);
	check(has(at("a.json"), "{\"x\": 1}\n"), "the name has the contents");
	check(!strcmp(listing(dir), "a.json"), "no temporary left (%s)",
	      listing(dir));
	check(!sf.f && sf.fd == -1, "closed after the commit");
	if (stat(at("a.json"), &st))
		st.st_mode = 0;
	check((st.st_mode & 0777) == (0644 & ~022),
	      "mode 0644 under umask 022 (%o)", st.st_mode & 0777);

	/* Over an existing file, in one call, and an empty one. */
	err = safe_file_write(at("a.json"), "two\n", 4);
	check(!err && has(at("a.json"), "two\n"), "write replaces (%d)", err);
	err = safe_file_write(at("empty"), "", 0);
	check(!err && has(at("empty"), ""), "an empty file (%d)", err);
	check(!strcmp(listing(dir), "a.json empty"), "no temporary left (%s)",
	      listing(dir));
	unlink(at("a.json"));
	unlink(at("empty"));
}

static void planted_link(void)
{
	struct safe_file sf;
	struct stat st;
	int err;

	put(at("target"), "precious\n");
	if (symlink(at("target"), at("out"))) {
		check(0, "symlink: %s", strerror(errno));
		return;
	}
	err = safe_file_write(at("out"), "result\n", 7);
	check(!err, "write over a link (%d)", err);
	check(!lstat(at("out"), &st) && S_ISREG(st.st_mode),
	      "the link is replaced by a regular file");
	check(has(at("out"), "result\n"), "the name has the contents");
	check(has(at("target"), "precious\n"), "the link's target unchanged");

	/* A dangling link must not make its target either. */
	unlink(at("out"));
	if (symlink(at("nowhere"), at("out"))) {
		check(0, "symlink: %s", strerror(errno));
		return;
	}
	err = safe_file_begin(&sf, at("out"));
	if (!err) {
		fputs("result\n", sf.f);
		err = safe_file_commit(&sf);
	}
	check(!err, "commit over a dangling link (%d)", err);
	check(access(at("nowhere"), F_OK) && errno == ENOENT,
	      "the dangling link's target not made");
	check(!strcmp(listing(dir), "out target"), "no temporary left (%s)",
	      listing(dir));
	unlink(at("out"));
	unlink(at("target"));
}

static void aborted(void)
{
	struct safe_file sf;
	int err;

	put(at("old"), "old contents\n");
	err = safe_file_begin(&sf, at("old"));
	check(!err, "begin over an existing file (%d)", err);
	if (err)
		return;
	fputs("half a new file", sf.f);
	safe_file_abort(&sf);
	check(has(at("old"), "old contents\n"), "abort leaves the old file");
	check(!strcmp(listing(dir), "old"), "no temporary left (%s)",
	      listing(dir));
	safe_file_abort(&sf);
	check(!sf.f && sf.fd == -1, "a second abort does nothing");
	unlink(at("old"));
}

static void failures(void)
{
	struct safe_file sf;
	char *longname;
	int err;

	err = safe_file_begin(&sf, at("no/such/dir/x.json"));
	check(err == -ENOENT, "no such directory: -ENOENT (%d)", err);
	check(!sf.f && sf.fd == -1, "nothing open after a failed begin");
	safe_file_abort(&sf);
	err = safe_file_write(at("no/such/dir/x.json"), "x", 1);
	check(err == -ENOENT, "write: -ENOENT (%d)", err);
	check(!strcmp(listing(dir), ""), "nothing made (%s)", listing(dir));

	/* A directory at the name is refused, and stays as it was. */
	if (mkdir(at("d"), 0755) || mkdir(at("d/sub"), 0755)) {
		check(0, "mkdir: %s", strerror(errno));
		return;
	}
	err = safe_file_write(at("d"), "x", 1);
	check(err == -EISDIR, "a directory at the name refused (%d)", err);
	check(!strcmp(listing(at("d")), "sub"), "the directory untouched");
	check(!strcmp(listing(dir), "d"), "no temporary left (%s)",
	      listing(dir));
	rmdir(at("d/sub"));
	rmdir(at("d"));

	/* A FIFO, or a link to one, is never renamed over (a device's case) */
	if (mkfifo(at("fifo"), 0600) == 0) {
		struct stat st;

		err = safe_file_write(at("fifo"), "x", 1);
		check(err == -ENODEV, "a FIFO at the name refused (%d)", err);
		check(!lstat(at("fifo"), &st) && S_ISFIFO(st.st_mode),
		      "the FIFO is still one");
		check(!symlink(at("fifo"), at("tofifo")), "a link to the FIFO");
		err = safe_file_write(at("tofifo"), "x", 1);
		check(err == -ENODEV, "a link to a FIFO refused (%d)", err);
		check(!lstat(at("tofifo"), &st) && S_ISLNK(st.st_mode),
		      "the link is still a link");
		check(!symlink("/proc/self/fd/1", at("out1")) &&
		      safe_file_replaceable(at("out1")) == -ENODEV,
		      "a link into /proc (as /dev/stdout is) refused");
		unlink(at("out1"));
		check(safe_file_replaceable(at("nothing")) == 0,
		      "a name with nothing at it may be made");
		check(!strcmp(listing(dir), "fifo tofifo"), "no temporary "
		      "left (%s)", listing(dir));
		unlink(at("tofifo"));
		unlink(at("fifo"));
	}

	longname = malloc(PATH_MAX + 16);
	if (!longname)
		return;
	memset(longname, 'x', PATH_MAX + 15);
	longname[PATH_MAX + 15] = '\0';
	err = safe_file_write(longname, "x", 1);
	check(err == -ENAMETOOLONG, "too long a name (%d)", err);
	free(longname);

	err = safe_file_commit(&sf);
	check(err == -EBADF, "commit of nothing: -EBADF (%d)", err);
}

static void published(void)
{
	struct safe_file sf;
	int err;

	put(at("rows.csv"), "old\n");
	err = safe_file_begin(&sf, at("rows.csv"));
	if (!err)
		err = safe_file_publish(&sf);
	check(!err, "publish (%d)", err);
	if (err)
		return;
	check(has(at("rows.csv"), ""), "the new file is at the name at once");
	check(!strcmp(listing(dir), "rows.csv"), "no temporary left (%s)",
	      listing(dir));
	fputs("row 1\n", sf.f);
	fflush(sf.f);
	check(has(at("rows.csv"), "row 1\n"), "and grows where it is");
	fclose(sf.f);
	unlink(at("rows.csv"));

	err = safe_file_begin(&sf, at("d"));
	if (!err && !mkdir(at("d"), 0755) && !mkdir(at("d/sub"), 0755))
		err = safe_file_publish(&sf);
	check(err < 0 && !sf.f, "publish over a directory fails (%d)", err);
	check(!strcmp(listing(dir), "d"), "no temporary left (%s)",
	      listing(dir));
	rmdir(at("d/sub"));
	rmdir(at("d"));
}

/* SIGKILL between the writes and the rename leaves no temporary. */
static void killed(void)
{
	struct safe_file sf;
	int status = 0;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (safe_file_begin(&sf, at("k.json")))
			_exit(1);
		fputs("{\"half\": ", sf.f);
		fflush(sf.f);
		raise(SIGKILL);
		_exit(2);
	}
	check(pid > 0 && waitpid(pid, &status, 0) == pid &&
	      WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "a writer killed before its commit (status %#x)", status);
	check(!strcmp(listing(dir), ""), "leaves nothing behind (%s)",
	      listing(dir));

	/* Unnamed until then: nothing to see while the file is written */
	if (!safe_file_begin(&sf, at("k.json"))) {
		fputs("{}\n", sf.f);
		check(!strcmp(listing(dir), ""), "nothing named while it is "
		      "written (%s)", listing(dir));
		check(!safe_file_commit(&sf) &&
		      !strcmp(listing(dir), "k.json") && has(at("k.json"),
							     "{}\n"),
		      "then only the name, with the contents");
		unlink(at("k.json"));
	}
}

/* The errno of the failed write, not "Input/output error". */
static void write_errno(void)
{
	char big[65536];
	int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	FILE *f;

	if (fd < 0) {
		check(0, "/dev/full: %s", strerror(errno));
		return;
	}
	f = stream_keep_errno(fd, "w");
	check(f != NULL, "a stream on /dev/full");
	if (!f)
		return;
	memset(big, 'x', sizeof(big));
	/* fails inside fwrite, long before fclose: errno is gone by then */
	fwrite(big, 1, sizeof(big), f);
	errno = 0;
	check(fclose(f) == EOF && errno == ENOSPC,
	      "fclose says ENOSPC (%s)", strerror(errno));
}

int main(void)
{
	umask(022);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	commit_and_write();
	planted_link();
	aborted();
	failures();
	published();
	killed();
	write_errno();
	if (rmdir(dir))
		printf("# could not remove %s: %s\n", dir, strerror(errno));
	return check_done();
}

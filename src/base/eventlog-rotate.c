/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The audit log's rotation, marks and ordered reading
 * (base/eventlog-rotate.h).
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/envvar.h"
#include "base/eventlog-rotate.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/strvec.h"
#include "base/timefmt.h"
#include "base/xalloc.h"

#define STAMP_LEN 16 /* YYYYmmddTHHMMSSZ */
#define MARKS_MAX (4u << 20)
#define LIMITS_MAX 256

/* A small file of ours that only we may write, read whole; -1 otherwise. */
static int read_ours(const char *path, size_t max, struct strbuf *out)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	int ret = -1;

	if (fd < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !(st.st_mode & 022))
		ret = read_fd_bounded(fd, max, out);
	close(fd);
	return ret;
}

static void limits_render(unsigned long max_mib, unsigned long keep,
			  struct strbuf *out)
{
	strbuf_addf(out, "max_mib %lu\nkeep %lu\n",
		    max_mib ? max_mib : JOURNAL_MAX_MIB_DEFAULT,
		    keep ? keep : JOURNAL_KEEP_DEFAULT);
}

void journal_limits_read(const char *home, struct journal_limits *out)
{
	struct strbuf path = STRBUF_INIT, buf = STRBUF_INIT;
	char *line, *save = NULL;

	out->max_mib = JOURNAL_MAX_MIB_DEFAULT;
	out->keep = JOURNAL_KEEP_DEFAULT;
	strbuf_addf(&path, "%s/" JOURNAL_LIMITS_FILE, home);
	if (read_ours(path.buf, LIMITS_MAX, &buf) == 0)
		for (line = strtok_r(buf.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			unsigned long v;
			char *sp = strchr(line, ' ');

			if (!sp || parse_ulong(sp + 1, 1000000, &v) < 0 || !v)
				continue;
			*sp = '\0';
			if (!strcmp(line, "max_mib"))
				out->max_mib = v;
			else if (!strcmp(line, "keep"))
				out->keep = v;
		}
	strbuf_release(&path);
	strbuf_release(&buf);
}

int journal_limits_write(const char *home, unsigned long max_mib,
			 unsigned long keep)
{
	struct strbuf path = STRBUF_INIT, want = STRBUF_INIT;
	int ret = 0;

	strbuf_addf(&path, "%s/" JOURNAL_LIMITS_FILE, home);
	limits_render(max_mib, keep, &want);
	if (!file_has_content(path.buf, want.buf, want.len, 0600))
		ret = write_file_atomic(path.buf, want.buf, want.len, 0600);
	strbuf_release(&path);
	strbuf_release(&want);
	return ret;
}

bool journal_rotated_away(const char *home, int fd)
{
	struct strbuf path = STRBUF_INIT;
	struct stat a, b;
	bool away;

	strbuf_addf(&path, "%s/" JOURNAL_NAME, home);
	away = !fstat(fd, &a) && (stat(path.buf, &b) < 0 ||
				  a.st_ino != b.st_ino || a.st_dev != b.st_dev);
	strbuf_release(&path);
	return away;
}

static void add_mark(const char *log, off_t at, time_t bound)
{
	struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s.marks", log);
	fd = open(path.buf,
		  O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	strbuf_addf(&line, "%lld %lld\n", (long long)at, (long long)bound);
	if (fd >= 0) {
		if (write_all(fd, line.buf, line.len) < 0) {
			/* a mark lost only makes a reader start earlier */
		}
		close(fd);
	}
	strbuf_release(&path);
	strbuf_release(&line);
}

/* Whether `name` is a rotated log's: JOURNAL_NAME.<stamp>[-NN]; its bound
 * into *bound. */
static bool rotated_name(const char *name, time_t *bound)
{
	const char *p = name + strlen(JOURNAL_NAME) + 1;
	struct tm tm = { 0 };
	char tail = 0;

	if (strncmp(name, JOURNAL_NAME ".", strlen(JOURNAL_NAME) + 1) ||
	    strlen(p) < STAMP_LEN)
		return false;
	if (sscanf(p, "%4d%2d%2dT%2d%2d%2d%c", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec,
		   &tail) != 7 ||
	    tail != 'Z')
		return false;
	p += STAMP_LEN;
	if (*p == '-' && p[1] >= '0' && p[1] <= '9' && p[2] >= '0' &&
	    p[2] <= '9' && !p[3])
		p += 3;
	if (*p)
		return false;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*bound = timegm(&tm);
	return *bound > 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rotated logs' names, oldest first. */
static void list_rotated(const char *home, struct strvec *out)
{
	DIR *d = opendir(home);
	struct dirent *de;
	time_t t;

	while (d && (de = readdir(d)))
		if (rotated_name(de->d_name, &t))
			strvec_push(out, de->d_name);
	if (d)
		closedir(d);
	if (out->nr > 1)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_names);
}

static void prune_rotated(const char *home, unsigned long keep)
{
	struct strvec names = STRVEC_INIT;
	struct strbuf p = STRBUF_INIT;

	list_rotated(home, &names);
	for (size_t i = 0; i + keep < names.nr; i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", home, names.v[i]);
		unlink(p.buf);
		strbuf_addstr(&p, ".marks");
		unlink(p.buf);
	}
	strvec_clear(&names);
	strbuf_release(&p);
}

static void rotate(const char *log, time_t bound)
{
	struct strbuf to = STRBUF_INIT, from_m = STRBUF_INIT,
		      to_m = STRBUF_INIT;
	int rc = -1;

	for (int n = 0; n < 100 && rc < 0; n++) {
		strbuf_reset(&to);
		strbuf_addf(&to, "%s.", log);
		time_compact_utc(bound, &to);
		if (n)
			strbuf_addf(&to, "-%02d", n);
		/* never over another rotated log (two in one second) */
		rc = renameat2(AT_FDCWD, log, AT_FDCWD, to.buf,
			       RENAME_NOREPLACE);
		if (rc < 0 && errno != EEXIST)
			break;
	}
	if (!rc) {
		strbuf_addf(&from_m, "%s.marks", log);
		strbuf_addf(&to_m, "%s.marks", to.buf);
		if (rename(from_m.buf, to_m.buf) < 0)
			unlink(from_m.buf);
	}
	strbuf_release(&to);
	strbuf_release(&from_m);
	strbuf_release(&to_m);
}

void journal_after_append(const char *home, off_t old_size, off_t new_size)
{
	struct journal_limits lim;
	struct strbuf log = STRBUF_INIT;
	/* every line so far was written before the next second began */
	time_t bound = time(NULL) + 1;

	if (old_size / JOURNAL_MARK_EVERY == new_size / JOURNAL_MARK_EVERY)
		return;
	strbuf_addf(&log, "%s/" JOURNAL_NAME, home);
	journal_limits_read(home, &lim);
	if ((unsigned long long)new_size >= (unsigned long long)lim.max_mib
						    << 20) {
		rotate(log.buf, bound);
		prune_rotated(home, lim.keep);
	} else {
		add_mark(log.buf, new_size, bound);
	}
	strbuf_release(&log);
}

/* From the marks of `path`: the furthest offset before which every line
 * is older than `since`, checked to follow a newline; 0 otherwise. */
static off_t start_from_marks(const char *path, time_t since)
{
	struct strbuf mp = STRBUF_INIT, buf = STRBUF_INIT;
	off_t best = 0;
	char *line, *save = NULL, c;
	int fd;

	strbuf_addf(&mp, "%s.marks", path);
	if (read_ours(mp.buf, MARKS_MAX, &buf) == 0)
		for (line = strtok_r(buf.buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			long long off, b;

			if (sscanf(line, "%lld %lld", &off, &b) == 2 &&
			    off > best && b <= (long long)since)
				best = (off_t)off;
		}
	if (best) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || pread(fd, &c, 1, best - 1) != 1 || c != '\n')
			best = 0;
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&mp);
	strbuf_release(&buf);
	return best;
}

static void push_file(struct journal_files *f, char *path, time_t bound,
		      time_t since)
{
	ALLOC_GROW(f->v, f->nr + 1, f->alloc);
	f->v[f->nr].path = path;
	f->v[f->nr].bound = bound;
	f->v[f->nr].start = since ? start_from_marks(path, since) : 0;
	f->nr++;
}

void journal_files_list(const char *home, time_t since,
			struct journal_files *out)
{
	struct strvec names = STRVEC_INIT;

	list_rotated(home, &names);
	for (size_t i = 0; i < names.nr; i++) {
		time_t bound = 0;

		rotated_name(names.v[i], &bound);
		/* all of it older than --since: not even opened */
		if (since && bound <= since)
			continue;
		push_file(out, xstrfmt("%s/%s", home, names.v[i]), bound,
			  since);
	}
	push_file(out, xstrfmt("%s/" JOURNAL_NAME, home), 0, since);
	strvec_clear(&names);
}

void journal_files_release(struct journal_files *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->v[i].path);
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

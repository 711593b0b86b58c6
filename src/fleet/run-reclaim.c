/* SPDX-License-Identifier: Apache-2.0 */
/* What a killed dispatch left, reclaimed (invariants in run-reclaim.h). */
#include "base/common.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "fleet/run-reclaim.h"
#include "fleet/workspace.h"

#define RUN_LOCK ".running"
#define KEPT_NOTE "AGENTIC-GIT-NOTE.md"

int rundir_hold(const char *run_path)
{
	struct strbuf p = STRBUF_INIT;
	int fd;

	strbuf_addf(&p, "%s/" RUN_LOCK, run_path);
	fd = open(p.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
		error_errno("cannot lock '%s'", p.buf);
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&p);
	/* kept open on purpose: the lock lives as long as the process */
	return fd < 0 ? -1 : 0;
}

static bool is_plain_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

/* The workspaces of work/ not kept for a human (invariant 2). */
static unsigned reclaim_work(const char *run)
{
	struct strbuf dir = STRBUF_INIT, p = STRBUF_INIT;
	unsigned n = 0;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&dir, "%s/work", run);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, de->d_name);
		if (!is_plain_dir(p.buf))
			continue;
		strbuf_addstr(&p, "/" KEPT_NOTE);
		if (path_exists(p.buf))
			continue;
		strbuf_setlen(&p, p.len - strlen("/" KEPT_NOTE));
		if (workspace_remove(p.buf) == 0)
			n++;
	}
	if (d) {
		closedir(d);
		rmdir(dir.buf); /* when nothing was kept */
	}
	strbuf_release(&dir);
	strbuf_release(&p);
	return n;
}

/* runtime/dispatch-<id lowercased>-<n>: the run's agents' bindings. */
static void reclaim_bindings(const char *home, const char *id)
{
	struct strbuf prefix = STRBUF_INIT, dir = STRBUF_INIT, p = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	strbuf_addstr(&prefix, "dispatch-");
	for (const char *c = id; *c; c++)
		strbuf_addch(&prefix, (char)tolower((unsigned char)*c));
	strbuf_addch(&prefix, '-');
	strbuf_addf(&dir, "%s/runtime", home);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		const char *rest;

		if (!skip_prefix(de->d_name, prefix.buf, &rest) || !*rest ||
		    strspn(rest, "0123456789") != strlen(rest))
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", dir.buf, de->d_name);
		workspace_remove(p.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&prefix);
	strbuf_release(&dir);
	strbuf_release(&p);
}

static unsigned reclaim_run(const char *home, const char *runs, const char *id)
{
	struct strbuf run = STRBUF_INIT, p = STRBUF_INIT;
	unsigned n = 0;
	int fd;

	strbuf_addf(&run, "%s/%s", runs, id);
	strbuf_addf(&p, "%s/work", run.buf);
	if (!is_plain_dir(run.buf) ||
	    (!is_plain_dir(p.buf) &&
	     (strbuf_reset(&p), strbuf_addf(&p, "%s/scratch", run.buf),
	      !is_plain_dir(p.buf))))
		goto out;
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/" RUN_LOCK, run.buf);
	fd = open(p.buf, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		goto out; /* invariant 1: no lock file, no telling */
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		n = reclaim_work(run.buf);
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/scratch", run.buf);
		workspace_remove(p.buf);
		reclaim_bindings(home, id);
		if (n)
			fprintf(stderr,
				"agentic-git: dispatch: run %s stopped before its teardown (killed?): reclaimed %u workspace%s under %s/work/\n",
				id, n, n == 1 ? "" : "s", run.buf);
	}
	close(fd);
out:
	strbuf_release(&run);
	strbuf_release(&p);
	return n;
}

unsigned rundir_reclaim(const char *home, const char *own_id)
{
	struct strbuf runs = STRBUF_INIT;
	unsigned n = 0;
	struct dirent *de;
	DIR *d;

	strbuf_addf(&runs, "%s/runs", home);
	d = opendir(runs.buf);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "latest") ||
		    (own_id && !strcmp(de->d_name, own_id)))
			continue;
		n += reclaim_run(home, runs.buf, de->d_name);
	}
	if (d)
		closedir(d);
	strbuf_release(&runs);
	return n;
}

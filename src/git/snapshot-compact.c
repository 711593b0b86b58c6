/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bounded snapshot storage: packs and loose snapshot refs consolidated
 * after a snapshot, detached, under a lock (git/snapshot-compact.h).
 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/path.h"
#include "base/spawn.h"
#include "base/strbuf.h"
#include "git/gitcmd.h"
#include "git/snapshot-compact.h"

/* How long the detached process waits for the agent's git to exit before
 * it consolidates anyway (git's housekeeping runs beside any command). */
#define WAIT_FOR_OP_MS (120 * 1000)

size_t snapshot_count_packs(const char *commondir)
{
	struct strbuf dir = STRBUF_INIT;
	size_t n = 0;
	DIR *d;
	struct dirent *de;

	strbuf_addf(&dir, "%s/objects/pack", commondir);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len > 5 && !strcmp(de->d_name + len - 5, ".pack"))
			n++;
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	return n;
}

static size_t count_files(struct strbuf *dir, int depth)
{
	size_t n = 0, len = dir->len;
	DIR *d = opendir(dir->buf);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_REG) {
			n++;
			continue;
		}
		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (depth <= 0)
			continue;
		strbuf_addf(dir, "/%s", de->d_name);
		if (de->d_type == DT_DIR)
			n += count_files(dir, depth - 1);
		else {
			struct stat st;

			if (!lstat(dir->buf, &st)) {
				if (S_ISREG(st.st_mode))
					n++;
				else if (S_ISDIR(st.st_mode))
					n += count_files(dir, depth - 1);
			}
		}
		strbuf_setlen(dir, len);
	}
	if (d)
		closedir(d);
	return n;
}

size_t snapshot_count_loose_refs(const char *commondir)
{
	struct strbuf dir = STRBUF_INIT;
	size_t n;

	strbuf_addf(&dir, "%s/refs/agentic-git/snapshots", commondir);
	n = count_files(&dir, 8);
	strbuf_release(&dir);
	return n;
}

bool snapshot_compact_due(const char *commondir)
{
	return snapshot_count_packs(commondir) > SNAPSHOT_COMPACT_PACKS ||
	       snapshot_count_loose_refs(commondir) > SNAPSHOT_COMPACT_REFS;
}

/* The lock's fd (CLOEXEC), held; -1 when it is held elsewhere or cannot
 * be taken. */
static int take_lock(const char *commondir, bool wait)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	strbuf_addf(&path, "%s/agentic-git-compact.mutex", commondir);
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	strbuf_release(&path);
	if (fd < 0)
		return -1;
	while (flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		close(fd);
		return -1;
	}
	return fd;
}

static int run_git(const char *real_git, const char *gitdir, const char *top,
		   const char *const *args)
{
	struct child c = CHILD_INIT;
	int ret;

	gitcmd_init_repo(&c, real_git, gitdir, top);
	/* our own housekeeping: the session's hooks are not asked (the
	 * reference-transaction hook lets pack-refs through anyway), and
	 * no gc of git's own starts behind it */
	strvec_pushl(&c.args, "-c", "core.hooksPath=/dev/null", "-c",
		     "gc.auto=0", "-c", "maintenance.auto=false", NULL);
	strvec_pushv(&c.args, args);
	ret = gitcmd_run(&c, NULL, NULL);
	child_release(&c);
	return ret;
}

static int consolidate(const char *real_git, const char *gitdir,
		       const char *top, const char *commondir)
{
	static const char *const pack_refs[] = { "pack-refs", "--all",
						 "--prune", NULL };
	static const char *const repack[] = { "repack", "-d", "-q",
					      "--geometric=2", NULL };
	int ret = 0;

	if (snapshot_count_loose_refs(commondir) > 0 &&
	    run_git(real_git, gitdir, top, pack_refs) != 0)
		ret = -1;
	if (snapshot_count_packs(commondir) > 1 &&
	    run_git(real_git, gitdir, top, repack) != 0)
		ret = -1;
	return ret;
}

int snapshot_compact_run(const char *real_git, const char *gitdir,
			 const char *top, const char *commondir, bool wait)
{
	int fd = take_lock(commondir, wait), ret;

	if (fd < 0)
		return 1;
	ret = consolidate(real_git, gitdir, top, commondir);
	close(fd);
	return ret;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The detached side: no terminal, no inherited descriptor but the lock
 * (a test harness waits for its output descriptors to close). */
static AG_NORETURN void detached(const char *real_git, const char *gitdir,
				 const char *top, const char *commondir,
				 pid_t op, int lock)
{
	int null = open("/dev/null", O_RDWR);
	long waited = 0;

	setsid();
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	for (int fd = 3; fd < 1024; fd++)
		if (fd != lock)
			close(fd);
	signal(SIGHUP, SIG_IGN);
	/* the agent's git (this pid, exec'd) first */
	while (waited < WAIT_FOR_OP_MS &&
	       (kill(op, 0) == 0 || errno == EPERM)) {
		sleep_ms(20);
		waited += 20;
	}
	consolidate(real_git, gitdir, top, commondir);
	_exit(0);
}

void snapshot_compact_maybe(const char *real_git, const char *gitdir,
			    const char *top, const char *commondir)
{
	pid_t op = getpid(), mid;
	int lock, st;

	if (!snapshot_compact_due(commondir))
		return;
	lock = take_lock(commondir, false);
	if (lock < 0)
		return; /* one is running */
	fflush(stdout);
	fflush(stderr);
	mid = fork();
	if (mid == 0) {
		/* twice, so that the agent's git has no child of ours */
		pid_t pid = fork();

		if (pid == 0)
			detached(real_git, gitdir, top, commondir, op, lock);
		_exit(0);
	}
	close(lock); /* the grandchild holds it now */
	if (mid > 0)
		while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
			;
}

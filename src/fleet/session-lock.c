/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run lock of a session (fleet/session-lock.h): one flock on
 * <home>/runtime/<agent>/run.lock, taken by `run` and `end`, probed by
 * `sessions`.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/proctree.h"
#include "fleet/session-lock.h"

#define HOLDER_MAX 64 /* "pid=<n>\npgid=<n>\n" */
#define POLL_MS 20
#define PROBE_TRIES 10 /* how long a concurrent probe is waited out */

void session_lock_file(const char *home, const char *agent, struct strbuf *out)
{
	strbuf_addf(out, "%s/runtime/%s/run.lock", home, agent);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Every check on the fd: a regular file of ours, writable by us only. */
static int open_lock(const char *path, int flags)
{
	struct stat st;
	int fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
	int errsv;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		errsv = errno;
	} else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		   (st.st_mode & 022)) {
		errsv = EPERM;
	} else {
		return fd;
	}
	close(fd);
	errno = errsv;
	return -1;
}

/* Reads "<key><n>\n" at *p and moves past it. */
static bool take_field(char **p, const char *key, unsigned long *v)
{
	const char *rest;
	char *nl;

	if (!skip_prefix(*p, key, &rest) || !(nl = strchr(rest, '\n')))
		return false;
	*nl = '\0';
	if (parse_ulong(rest, INT_MAX, v) < 0)
		return false;
	*p = nl + 1;
	return true;
}

/* Exactly "pid=<n>\npgid=<n>\n"; anything else records nothing. */
static void read_holder(int fd, struct session_holder *h)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long pid, pgid;
	char *p;

	memset(h, 0, sizeof(*h));
	if (read_fd_bounded(fd, HOLDER_MAX, &sb) < 0) {
		strbuf_release(&sb);
		return;
	}
	p = sb.buf;
	/* a record outliving the agent's group (a holder not a run) is void */
	if (take_field(&p, "pid=", &pid) && take_field(&p, "pgid=", &pgid) &&
	    !*p && pid && pgid > 1 &&
	    (!kill(-(pid_t)pgid, 0) || errno == EPERM)) {
		h->pid = (long)pid;
		h->pgid = (long)pgid;
	}
	strbuf_release(&sb);
}

/*
 * `sessions` holds a shared lock for an instant while it probes: that is
 * waited out, so a probe never makes a `run` or an `end` refuse.
 */
static int flock_patient(int fd)
{
	for (int i = 0;; i++) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK || i >= PROBE_TRIES)
			return -1;
		sleep_ms(POLL_MS);
	}
}

/* Invariant 4: the path still names the file we locked. */
static bool still_there(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !lstat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

int session_lock_take(struct session_lock *l, const char *home,
		      const char *agent, struct session_holder *h)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = -1, errsv;

	memset(h, 0, sizeof(*h));
	session_lock_file(home, agent, &path);
	fd = open_lock(path.buf, O_RDWR | O_CREAT);
	if (fd < 0)
		goto out;
	if (flock_patient(fd) < 0) {
		if (errno == EWOULDBLOCK) {
			read_holder(fd, h);
			ret = 1;
		}
	} else if (!still_there(fd, path.buf)) {
		errno = ESTALE;
	} else if (!ftruncate(fd, 0)) { /* a stale record names nobody */
		l->fd = fd;
		fd = -1;
		ret = 0;
	}
out:
	errsv = errno;
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	errno = errsv;
	return ret;
}

bool session_lock_probe(const char *home, const char *agent,
			struct session_holder *h)
{
	struct strbuf path = STRBUF_INIT;
	bool held = false;
	int fd;

	memset(h, 0, sizeof(*h));
	session_lock_file(home, agent, &path);
	fd = open_lock(path.buf, O_RDONLY);
	strbuf_release(&path);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
		held = true;
		read_holder(fd, h);
	}
	close(fd); /* also drops the shared lock when we got it */
	return held;
}

int session_lock_record(const struct session_lock *l, pid_t pid)
{
	char buf[HOLDER_MAX];
	int n = snprintf(buf, sizeof(buf), "pid=%ld\npgid=%ld\n", (long)pid,
			 (long)pid);

	if (l->fd < 0 || n < 0 || (size_t)n >= sizeof(buf)) {
		errno = EINVAL;
		return -1;
	}
	return write_all(l->fd, buf, (size_t)n);
}

/*
 * kill(-pgid, 0) also counts zombies, and an init that does not reap
 * orphans (a container's) keeps the agent's children as zombies for good:
 * only a member that is not a zombie keeps the group alive.
 */
bool session_group_live(long pgid)
{
	struct proc_stat *all;
	size_t nr;
	bool live = false;

	if (kill(-(pid_t)pgid, 0) < 0)
		return false;
	nr = proc_list(&all);
	if (!nr)
		return true; /* cannot tell: kill() said the group exists */
	for (size_t i = 0; i < nr && !live; i++)
		live = all[i].pgrp == (pid_t)pgid && proc_live(&all[i]);
	free(all);
	return live;
}

/* Invariant 3: a recorded group leader, not our group, that still exists. */
static bool group_alive(const struct session_holder *h)
{
	return h->pgid > 1 && h->pid == h->pgid && h->pgid != (long)getpgrp() &&
	       session_group_live(h->pgid);
}

int session_lock_stop(struct session_lock *l, const char *home,
		      const char *agent, struct session_holder *h)
{
	struct session_holder cur = { 0 }, target = { 0 };
	long start = now_ms(), kill_at = 0;
	bool killed = false;

	for (;;) {
		if (l->fd < 0 && session_lock_take(l, home, agent, &cur) < 0)
			return -1;
		if (l->fd < 0 && !target.pgid && group_alive(&cur)) {
			target = cur;
			kill(-(pid_t)target.pgid, SIGTERM);
			/* a stopped agent (Ctrl-Z) would never see the TERM */
			kill(-(pid_t)target.pgid, SIGCONT);
			kill_at = now_ms() + SESSION_STOP_GRACE_MS;
		}
		if (l->fd >= 0 && !group_alive(&target))
			break;
		if (target.pgid && !killed && now_ms() >= kill_at) {
			kill(-(pid_t)target.pgid, SIGKILL);
			killed = true;
			continue; /* the lock may be free now: try at once */
		}
		if (now_ms() - start >= SESSION_STOP_WAIT_MS) {
			/* a lock taken but a group still alive: refuse */
			session_lock_release(l);
			break;
		}
		sleep_ms(POLL_MS);
	}
	*h = target.pgid ? target : cur;
	return l->fd >= 0 ? 0 : 1;
}

void session_lock_release(struct session_lock *l)
{
	if (l->fd < 0)
		return;
	/* Best effort: the lock, not the record, says who runs. */
	(void)!ftruncate(l->fd, 0);
	close(l->fd);
	l->fd = -1;
}

void session_lock_busy_msg(const char *agent, const struct session_holder *h,
			   struct strbuf *out)
{
	strbuf_addf(out, "agent '%s' is running in its session (", agent);
	if (h->pid)
		strbuf_addf(out, "pid %ld", h->pid);
	else
		strbuf_addstr(out, "pid not recorded");
	strbuf_addf(out, "), nothing was changed; wait for it to exit, or stop it and end the session: agentic-git end --agent %s --force",
		    agent);
}

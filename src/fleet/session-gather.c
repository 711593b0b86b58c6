/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading many sessions at once (session-state.h, session_gather()).
 *
 * Invariants:
 *  1. Each session is read by session_info_read(), exactly as one at a
 *     time: every git it starts is caged (docs/sandbox.md, "The boundary
 *     rule") and takes no optional lock (git/gitcmd.h invariant 4).
 *  2. At most `jobs` worker processes, each forked once and reading every
 *     jobs-th session; they send each row back through a pipe, and the
 *     rows land at their own index, so the order is the serial one.
 *  3. A worker that dies or sends a short record costs only its unsent
 *     rows, which come back as "invalid" with the agent's name; the others
 *     are shown.
 *  4. The parent registers the object store of every session's clone with
 *     the cage again (session_info_trust_store()), as a serial read does,
 *     for the git it runs after the listing (review, the page).
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/xalloc.h"
#include "fleet/session-state.h"

#define JOBS_ENV "AGENTIC_GIT_SESSIONS_JOBS"
#define NO_STR UINT32_MAX

size_t session_gather_jobs(size_t n)
{
	const char *v = getenv(JOBS_ENV);
	unsigned long j = 0;
	long cpus;

	if (v && parse_ulong(v, SESSION_GATHER_JOBS_MAX, &j) < 0)
		j = 0;
	if (v && !j)
		warning("ignoring %s='%s': not a number from 1 to %d", JOBS_ENV,
			v, SESSION_GATHER_JOBS_MAX);
	if (!j) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		j = cpus < 1 ? 1 : (unsigned long)cpus;
		if (j > SESSION_GATHER_JOBS_DEFAULT_MAX)
			j = SESSION_GATHER_JOBS_DEFAULT_MAX;
	}
	return j < n ? j : n ? n : 1;
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_i64(struct strbuf *sb, int64_t v)
{
	strbuf_add(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u32(sb, s && n < NO_STR ? (uint32_t)n : NO_STR);
	if (s && n < NO_STR)
		strbuf_add(sb, s, n);
}

/* The fields session_info_read() fills, in this order both ways. */
static void encode(struct strbuf *sb, size_t i, const struct session_info *si)
{
	put_u32(sb, (uint32_t)i);
	put_str(sb, si->branch);
	put_str(sb, si->worktree);
	put_str(sb, si->source_repo);
	put_str(sb, si->base);
	put_str(sb, si->base_oid);
	put_str(sb, si->issued_at);
	put_i64(sb, si->state);
	put_i64(sb, si->changed);
	put_i64(sb, si->untracked);
	put_i64(sb, si->unpushed);
	put_i64(sb, si->snapshots);
	put_i64(sb, si->running);
	put_i64(sb, si->pid);
}

struct reader {
	const char *p, *end;
	bool bad;
};

static void get(struct reader *r, void *v, size_t n)
{
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		memset(v, 0, n);
		return;
	}
	memcpy(v, r->p, n);
	r->p += n;
}

static char *get_str(struct reader *r)
{
	uint32_t n;
	char *s;

	get(r, &n, sizeof(n));
	if (r->bad || n == NO_STR)
		return NULL;
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		return NULL;
	}
	s = xstrndup(r->p, n);
	r->p += n;
	return s;
}

static int64_t get_i64(struct reader *r)
{
	int64_t v;

	get(r, &v, sizeof(v));
	return v;
}

/* One record into out[i]; -1 (nothing kept) when short or out of range. */
static int decode(struct reader *r, struct session_info *out, bool *got,
		  size_t n)
{
	struct session_info si = { 0 };
	uint32_t i;

	get(r, &i, sizeof(i));
	si.branch = get_str(r);
	si.worktree = get_str(r);
	si.source_repo = get_str(r);
	si.base = get_str(r);
	si.base_oid = get_str(r);
	si.issued_at = get_str(r);
	si.state = (enum session_state)get_i64(r);
	si.changed = (int)get_i64(r);
	si.untracked = (int)get_i64(r);
	si.unpushed = (int)get_i64(r);
	si.snapshots = (int)get_i64(r);
	si.running = get_i64(r) != 0;
	si.pid = (long)get_i64(r);
	if (r->bad || i >= n || got[i] || si.state < SESSION_CLEAN ||
	    si.state > SESSION_INVALID) {
		r->bad = true;
		session_info_release(&si);
		return -1;
	}
	si.agent = out[i].agent; /* the parent's own copy of the name */
	out[i] = si;
	got[i] = true;
	return 0;
}

/* Invariant 2: worker `w` of `jobs`; never returns. */
static AG_NORETURN void worker(const char *home, const char *git,
			       const char *const *agents, size_t n, size_t w,
			       size_t jobs, int fd)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	for (size_t i = w; i < n && !rc; i += jobs) {
		struct session_info si;

		session_info_read(home, git, agents[i], &si);
		strbuf_reset(&sb);
		encode(&sb, i, &si);
		session_info_release(&si);
		rc = write_all(fd, sb.buf, sb.len);
	}
	close(fd);
	strbuf_release(&sb);
	fflush(NULL);
	exit(rc ? 1 : 0);
}

/* Reads every worker's pipe to its end, all at once (none blocks). */
static void drain(struct pollfd *pf, struct strbuf *buf, size_t jobs)
{
	size_t open_nr = jobs;

	while (open_nr) {
		if (poll(pf, jobs, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (size_t w = 0; w < jobs; w++) {
			ssize_t got;

			if (pf[w].fd < 0 || !pf[w].revents)
				continue;
			strbuf_grow(&buf[w], 8192);
			got = read(pf[w].fd, buf[w].buf + buf[w].len, 8192);
			if (got < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (got <= 0) {
				close(pf[w].fd);
				pf[w].fd = -1;
				open_nr--;
				continue;
			}
			strbuf_setlen(&buf[w], buf[w].len + (size_t)got);
		}
	}
}

void session_gather(const char *home, const char *git,
		    const char *const *agents, size_t n, size_t jobs,
		    struct session_info *out)
{
	struct pollfd *pf;
	struct strbuf *buf;
	pid_t *pid;
	bool *got;

	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].agent = xstrdup(agents[i]);
	}
	if (jobs > n)
		jobs = n;
	if (jobs <= 1) {
		for (size_t i = 0; i < n; i++) {
			free(out[i].agent);
			session_info_read(home, git, agents[i], &out[i]);
		}
		return;
	}
	pf = xcalloc(jobs, sizeof(*pf));
	buf = xcalloc(jobs, sizeof(*buf));
	pid = xcalloc(jobs, sizeof(*pid));
	got = xcalloc(n, sizeof(*got));
	fflush(NULL); /* nothing buffered is written twice */
	for (size_t w = 0; w < jobs; w++) {
		int p[2];

		strbuf_init(&buf[w], 0);
		pf[w].fd = -1;
		pf[w].events = POLLIN;
		pid[w] = -1;
		if (pipe2(p, O_CLOEXEC) < 0) {
			error_errno("sessions: cannot make a pipe");
			continue;
		}
		pid[w] = fork();
		if (!pid[w]) {
			for (size_t k = 0; k < w; k++)
				if (pf[k].fd >= 0)
					close(pf[k].fd);
			close(p[0]);
			worker(home, git, agents, n, w, jobs, p[1]);
		}
		close(p[1]);
		if (pid[w] < 0) {
			error_errno("sessions: cannot start a reader");
			close(p[0]);
			continue;
		}
		pf[w].fd = p[0];
	}
	drain(pf, buf, jobs);
	for (size_t w = 0; w < jobs; w++) {
		struct reader r = { buf[w].buf, buf[w].buf + buf[w].len,
				    false };

		while (r.p < r.end && !decode(&r, out, got, n))
			;
		if (pid[w] > 0)
			while (waitpid(pid[w], NULL, 0) < 0 && errno == EINTR)
				;
		strbuf_release(&buf[w]);
	}
	for (size_t i = 0; i < n; i++) {
		if (!got[i]) { /* invariant 3 */
			out[i].state = SESSION_INVALID;
			out[i].unpushed = -1;
		}
		session_info_trust_store(&out[i]); /* invariant 4 */
	}
	free(got);
	free(pid);
	free(buf);
	free(pf);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Provisioning a session (reference §7 steps 9-13, with the holes of §9
 * items 29-33 closed): under a per-repository lock, the worktree and its
 * branch, the marker (kept out of `git add -A`), the signed binding, the
 * worktree-scoped hooks and the shim link.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/hooks.h"
#include "fleet/workspace.h"
#include "fleet/session.h"
#include "fleet/session-sync.h"
#include "fleet/session-write.h"
#include "git/repo.h"
#include "git/repo-probe.h"

static int lock_repo(const struct session *s, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd;

	session_lock_path(s->home, s->common_dir, &path);
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		strbuf_addf(err, "cannot lock '%s': %s", path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	strbuf_release(&path);
	return fd;
}

/* The session's record for the one session writer (fleet/session-write.h). */
static void session_record_of(const struct session *s, char *task_id,
			      const char *exclude_git_dir,
			      struct session_record *r)
{
	*r = (struct session_record){
		.home = s->home,
		.agent = s->agent,
		.task_id = task_id,
		.branch = s->branch,
		.worktree = s->worktree,
		.source_repo = s->source_repo,
		.issued_at = s->issued_at,
		.allow_bypass = s->allow_bypass,
		.base = s->base_branch,
		.base_oid = s->base_oid,
		.exclude_git_dir = exclude_git_dir,
	};
}

/*
 * run-session-<unix secs>-<8 hex>: the random part keeps two sessions
 * started in the same second apart in their Agentic-Task trailers (the
 * clock's nanoseconds and the pid when no random bytes are to be had).
 * Malloc'd.
 */
static char *task_id_new(void)
{
	struct timespec ts;
	uint32_t r;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		r = (uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 12);
	return xstrfmt("run-session-%lld-%08x", (long long)ts.tv_sec,
		       (unsigned)r);
}

static int write_binding(const struct session *s, struct strbuf *err)
{
	struct session_record r;
	char *task = task_id_new();
	int rc;

	session_record_of(s, task, NULL, &r);
	rc = session_write_binding(&r, err);
	free(task);
	return rc;
}

static int add_worktree(const struct session *s, struct strbuf *err)
{
	struct child c = CHILD_INIT;
	char *parent = path_dirname(s->worktree);
	int ret = 0;

	if (mkdir_p(parent, 0755) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", parent, strerror(errno));
		free(parent);
		return 1;
	}
	free(parent);
	gitcmd_init(&c, s->real_git, s->source_repo);
	if (s->adopt_oid) /* resume: the existing branch, at its tip */
		strvec_pushl(&c.args, "worktree", "add", "-q", s->worktree,
			     s->branch, NULL);
	else
		strvec_pushl(&c.args, "worktree", "add", "-q", "-b", s->branch,
			     s->worktree, s->base, NULL);
	c.capture_out = true;
	if (child_run(&c) < 0 || c.status) {
		strbuf_addf(err, "git worktree add failed (exit %d); nothing else was created",
			    c.pid < 0 && !c.status ? 127 : c.status);
		ret = c.status ? c.status : 1;
	}
	child_release(&c);
	return ret;
}

/*
 * The base as the workspace records it (refs/remotes/origin/<label>, what
 * `end` counts unpushed commits against): HEAD's branch for HEAD, else the
 * base itself when it is a branch here; NULL for a tag or an id. Malloc'd.
 */
static char *base_label(const struct session *s)
{
	struct repo_loc loc = { 0 };
	struct strbuf ref = STRBUF_INIT;
	char *label = NULL;
	const char *why, *name = s->base;

	if (repo_discover(s->source_repo, &loc) != REPO_FOUND)
		goto out;
	if (!strcmp(name, "HEAD"))
		name = loc.head_branch;
	if (!name || !ag_branch_name_valid(name, &why))
		goto out;
	strbuf_addf(&ref, "refs/heads/%s", name);
	if (repo_ref_exists(&loc, ref.buf) || repo_remote_branch_exists(&loc, name))
		label = xstrdup(name);
out:
	repo_loc_release(&loc);
	strbuf_release(&ref);
	return label;
}

/*
 * A sandboxed profile's session: a private repository borrowing the
 * source's objects (fleet/workspace.h), its hooks at the session hooks,
 * its head at the resolved base, a copy of its config kept (session-sync.h).
 */
static int add_private_workspace(const struct session *s, struct strbuf *err)
{
	struct workspace_request wr = { 0 };
	struct workspace ws = WORKSPACE_INIT;
	struct session_ws sw = { .home = s->home, .agent = s->agent,
				 .workspace = s->worktree };
	char *hooks = hooks_dir(s->home);
	char *parent = path_dirname(s->worktree), *label = base_label(s);
	int ret = 0;

	if (mkdir_p(parent, 0755) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", parent, strerror(errno));
		ret = 1;
		goto out;
	}
	wr.git = s->real_git;
	wr.from = s->source_repo;
	wr.dir = s->worktree;
	wr.head = s->branch;
	wr.base = label;
	wr.start = s->adopt_oid ? s->adopt_oid : s->base_oid;
	wr.hooks_path = hooks;
	wr.refs = WS_REFS_CLONE;
	wr.origin = true;
	wr.identity = true;
	if (workspace_create(&wr, &ws, NULL) < 0) {
		strbuf_addstr(err, "cannot provision the private workspace; nothing else was created");
		ret = 1;
	} else if (session_ws_keep_config(&sw) < 0) {
		workspace_remove(ws.dir);
		strbuf_addstr(err, "cannot keep the private workspace's config; nothing else was created");
		ret = 1;
	}
out:
	workspace_release(&ws);
	free(hooks);
	free(parent);
	free(label);
	return ret;
}

/* `git config` in the worktree, retried while another writer holds it. */
static int config_retry(const struct session *s, const char *a, const char *b,
			const char *c3, const char *d)
{
	for (int i = 0; i < 20; i++) {
		struct strbuf e = STRBUF_INIT;
		int rc = gitcmd_capture(s->real_git, s->worktree, NULL, &e,
					"config", a, b, c3, d, NULL);
		bool busy = rc > 0 && strstr(e.buf, "could not lock config file");

		strbuf_release(&e);
		if (!rc)
			return 0;
		if (!busy)
			return -1;
		usleep(50 * 1000);
	}
	return -1;
}

/*
 * core.hooksPath for this worktree only. A fresh worktree has no
 * config.worktree yet, so it is written directly (one git process fewer
 * at session start) where the format gate lets us write files in the git
 * dir (git/repo-probe.h: not a shared repository, whose files git gives
 * group modes); an existing one, or any other repository, is git's.
 */
static int set_hooks_path(const struct session *s, const char *hooks)
{
	struct repo_loc loc = { 0 };
	struct strbuf path = STRBUF_INIT, body = STRBUF_INIT;
	int ret = -1;

	if (repo_discover(s->worktree, &loc) != REPO_FOUND || !loc.gitdir)
		goto out;
	strbuf_addf(&path, "%s/config.worktree", loc.gitdir);
	strbuf_addstr(&body, "[core]\n\thooksPath = \"");
	for (const char *p = hooks; *p; p++) {
		if (*p == '\\' || *p == '"')
			strbuf_addch(&body, '\\');
		strbuf_addch(&body, *p);
	}
	strbuf_addstr(&body, "\"\n");
	/* re-entry: the file we wrote is still right (no write: a session
	 * starts on a full disk too) */
	if (file_has_content(path.buf, body.buf, body.len, 0644)) {
		ret = 0;
		goto out;
	}
	if (path_exists(path.buf) ||
	    !repo_probe_files_ours(repo_probe_get(loc.commondir, loc.gitdir))) {
		ret = config_retry(s, "--worktree", "core.hooksPath", hooks,
				   NULL);
		goto out;
	}
	ret = write_file_atomic(path.buf, body.buf, body.len, 0644);
out:
	repo_loc_release(&loc);
	strbuf_release(&path);
	strbuf_release(&body);
	return ret;
}

/*
 * True when the repository probe (git/repo-probe.h) read
 * extensions.worktreeConfig on from the common config. A miss, or a
 * config it could not read exactly, only costs one `git config` run.
 */
static bool worktree_config_on(const struct session *s)
{
	const struct repo_probe *p = repo_probe_get(s->common_dir, NULL);

	return (p->flags & PROBE_WORKTREE_CONFIG) && !(p->flags & PROBE_ODD);
}

static int wire_hooks(const struct session *s, struct strbuf *err)
{
	char *hooks = hooks_dir(s->home);
	int ret = 0;

	if (hooks_install(hooks, self_exe()) < 0) {
		strbuf_addf(err, "cannot write hooks in '%s': %s", hooks,
			    strerror(errno));
		ret = 1;
	} else if (!s->private_ws &&
		   ((!worktree_config_on(s) &&
		     config_retry(s, "extensions.worktreeConfig", "true", NULL,
				  NULL)) ||
		    set_hooks_path(s, hooks))) {
		strbuf_addf(err, "cannot set the worktree-scoped core.hooksPath in '%s'",
			    s->worktree);
		ret = 1;
	}
	free(hooks);
	return ret;
}

/* <home>/bin/git -> the shim executable; an existing correct link is kept. */
static int link_shim(const struct session *s, struct strbuf *err)
{
	struct strbuf link = STRBUF_INIT, tmp = STRBUF_INIT;
	const char *exe = shim_exe();
	char cur[4096];
	ssize_t n;
	int ret = 0;

	strbuf_addf(&link, "%s/bin/git", s->home);
	n = readlink(link.buf, cur, sizeof(cur) - 1);
	if (n > 0) {
		cur[n] = '\0';
		if (exe && !strcmp(cur, exe))
			goto out;
	}
	strbuf_addf(&tmp, "%s.tmp.%ld", link.buf, (long)getpid());
	unlink(tmp.buf);
	if (!exe || symlink(exe, tmp.buf) < 0 || rename(tmp.buf, link.buf) < 0) {
		strbuf_addf(err, "cannot link '%s' to agentic-git: %s", link.buf,
			    strerror(errno));
		unlink(tmp.buf);
		ret = 1;
	}
out:
	strbuf_release(&link);
	strbuf_release(&tmp);
	return ret;
}

static int make_home(const struct session *s, struct strbuf *err)
{
	static const char *const dirs[] = { "bin", "runtime", "worktrees",
					    "hooks", "locks" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *d = path_join(s->home, dirs[i]);
		int rc = mkdir_p(d, 0700);

		if (rc < 0)
			strbuf_addf(err, "cannot create '%s': %s", d, strerror(errno));
		free(d);
		if (rc < 0)
			return 1;
	}
	if (ag_key_ensure(s->home) < 0) {
		strbuf_addf(err, "cannot create the integrity key in '%s': %s",
			    s->home, strerror(errno));
		return 1;
	}
	return 0;
}

static int provision_locked(struct session *s, struct strbuf *err)
{
	struct strbuf git_dir = STRBUF_INIT;
	struct session_record r;
	char *task;
	int rc;

	/* Someone may have provisioned while we waited for the lock. */
	rc = session_check_existing(s, err);
	if (rc)
		return rc;
	if (s->reused) /* re-signed only when --allow-bypass changed */
		return s->bypass_stale && write_binding(s, err) ? 1 : 0;
	rc = s->private_ws ? add_private_workspace(s, err) : add_worktree(s, err);
	if (rc)
		return rc;
	/*
	 * The marker is kept out of `git add -A` by the common dir's
	 * info/exclude for a worktree (so every worktree of the repo), the
	 * workspace's own for a private workspace.
	 */
	strbuf_addf(&git_dir, "%s/.git", s->worktree);
	task = task_id_new();
	session_record_of(s, task, s->private_ws ? git_dir.buf : s->common_dir,
			  &r);
	rc = session_write(&r, err) ? 1 : 0;
	free(task);
	strbuf_release(&git_dir);
	return rc;
}

int session_provision(struct session *s, struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT;
	int fd, rc;

	time_now_rfc3339(&now);
	s->issued_at = strbuf_detach(&now, NULL);
	rc = make_home(s, err);
	if (rc)
		return rc;
	fd = lock_repo(s, err);
	if (fd < 0)
		return 1;
	rc = provision_locked(s, err);
	if (!rc)
		rc = wire_hooks(s, err);
	close(fd); /* releases the lock; the agent runs in parallel */
	if (!rc)
		rc = link_shim(s, err);
	return rc;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* Private workspaces that borrow the operator's objects (workspace.h). */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <sys/stat.h>
#include "agents/sandbox.h"
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/refname.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "fleet/workspace-git.h"
#include "fleet/workspace.h"
#include "git/gitcmd.h"
#include "git/gitdir-write.h"

#define MAX_ALT_DEPTH 5

int workspace_fail(struct strbuf *err, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (!err)
		error("workspace: %s", msg.buf);
	else if (!err->len)
		strbuf_addbuf(err, &msg);
	strbuf_release(&msg);
	return -1;
}

static void git_args(struct child *c, const char *git, const char *dir,
		     const char *first, va_list ap)
{
	gitcmd_prepare(c, GIT_OPERATOR, git, dir);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		strvec_push(&c->args, a);
	c->capture_out = true;
	c->capture_err = true;
}

int workspace_git_start(struct child *c, const char *git, const char *dir,
			const char *first, ...)
{
	va_list ap;

	va_start(ap, first);
	git_args(c, git, dir, first, ap);
	va_end(ap);
	return child_start(c) < 0 ? -1 : 0;
}

int workspace_git_finish(struct child *c, const char *what, struct strbuf *out,
			 struct strbuf *err, int ok_status)
{
	int rc;

	if (c->pid < 0 || child_finish(c) < 0) {
		rc = workspace_fail(err, "cannot run '%s': %s", c->args.v[0],
				    strerror(errno));
	} else {
		rc = c->status;
		strbuf_trim(&c->err);
		if (rc && rc != ok_status)
			workspace_fail(
				err, "git %s failed in '%s' (exit %d): %s",
				what, c->dir, rc,
				c->err.len ? c->err.buf : "(no message)");
	}
	if (out)
		strbuf_addbuf(out, &c->out);
	child_release(c);
	return rc;
}

int workspace_git(const char *git, const char *dir, struct strbuf *out,
		  struct strbuf *err, int ok_status, const char *first, ...)
{
	struct child c = CHILD_INIT;
	va_list ap;

	va_start(ap, first);
	git_args(&c, git, dir, first, ap);
	va_end(ap);
	if (child_start(&c) < 0)
		c.pid = -1;
	return workspace_git_finish(&c, first, out, err, ok_status);
}

int workspace_borrowed_stores(const char *objects_dir, struct strvec *out)
{
	struct strvec todo = STRVEC_INIT;
	int rc = 0;

	strvec_push(&todo, objects_dir);
	for (int depth = 0; todo.nr && depth <= MAX_ALT_DEPTH; depth++) {
		struct strvec next = STRVEC_INIT;
		for (size_t i = 0; i < todo.nr; i++) {
			struct strbuf alt = STRBUF_INIT, path = STRBUF_INIT;
			char *real = real_path(todo.v[i]);
			if (!real) {
				rc = error_errno("workspace: object store '%s'",
						 todo.v[i]);
				continue;
			}
			strvec_push(out, real);
			strbuf_addf(&path, "%s/info/alternates", real);
			if (!read_file_bounded(path.buf, 1 << 16, RF_REGULAR,
					       &alt)) {
				for (char *l = alt.buf, *e; *l; l = e) {
					e = strchrnul(l, '\n');
					if (*e)
						*e++ = '\0';
					if (*l && *l != '#')
						{
						char *j = path_join(real, l);
						strvec_push(&next, j);
						free(j);
					}
				}
			}
			free(real);
			strbuf_release(&alt);
			strbuf_release(&path);
		}
		strvec_clear(&todo);
		todo = next;
	}
	strvec_clear(&todo);
	return rc;
}

const char *workspace_pathf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(sb);
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return sb->buf;
}

/*
 * Branch names go into ref patterns and config: git's rules
 * (base/refname.h) and, on top, keep them boring: no '-' start (an
 * option), no '"' (config quoting), at most 200 bytes.
 */
static bool branch_ok(const char *b)
{
	return b && refname_valid(b, REFNAME_BRANCH) && *b != '-' &&
	       !strchr(b, '"') && strlen(b) <= 200;
}

/* The canonical path the workspace will have; checks invariant 1. */
static char *check_dir(const struct workspace_request *rq,
		       const struct workspace_source *src, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *rel;
	char *parent, *real_parent;
	struct stat st;

	if (!rq->dir || rq->dir[0] != '/') {
		workspace_fail(err, "'%s' must be an absolute path",
			       rq->dir ? rq->dir : "");
		return NULL;
	}
	strbuf_addstr(&sb, rq->dir);
	path_normalize(&sb);
	if (!lstat(sb.buf, &st) || errno != ENOENT) {
		workspace_fail(err,
			       "'%s' already exists; choose a new directory",
			       sb.buf);
		strbuf_release(&sb);
		return NULL;
	}
	/* Canonicalise through the deepest existing ancestor. */
	parent = path_dirname(sb.buf);
	real_parent = real_path(parent);
	if (real_parent) {
		char *full = path_join(real_parent, path_basename(sb.buf));
		strbuf_reset(&sb);
		strbuf_addstr(&sb, full);
		free(full);
	}
	free(parent);
	free(real_parent);
	if (path_inside(sb.buf, src->top, &rel) ||
	    path_inside(sb.buf, src->common, &rel) ||
	    path_inside(src->top, sb.buf, &rel)) {
		workspace_fail(
			err,
			"refusing to create '%s' inside or around the operator clone '%s'",
			sb.buf, src->top);
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* What the workspace's config takes from the clone's (origin, identity). */
static void source_config(const struct workspace_request *rq,
			  const struct workspace_source *src,
			  struct strbuf *cfg)
{
	if (rq->origin && src->url) {
		strbuf_addstr(cfg, "[remote \"origin\"]\n");
		gitdir_config_value(cfg, "url", src->url);
		strbuf_addstr(cfg, "\tfetch = +refs/heads/*:refs/remotes/origin/*\n");
		strbuf_addf(cfg, "[branch \"%s\"]\n\tremote = origin\n\tmerge = refs/heads/%s\n",
			    rq->head, rq->head);
	}
	if (rq->identity && (src->name || src->email))
		strbuf_addstr(cfg, "[user]\n");
	if (rq->identity && src->name)
		gitdir_config_value(cfg, "name", src->name);
	if (rq->identity && src->email)
		gitdir_config_value(cfg, "email", src->email);
}

/*
 * The clone's part of the config when it is read while the checkout
 * runs: appended once that is done (no git reads the file while it
 * grows), to the file we created (O_NOFOLLOW).
 */
static int append_source_config(const struct workspace_request *rq,
				const struct workspace_source *src,
				const struct workspace *ws, struct strbuf *err)
{
	struct strbuf cfg = STRBUF_INIT;
	char *path = xstrfmt("%s/.git/config", ws->dir);
	int fd, rc = 0;

	source_config(rq, src, &cfg);
	if (cfg.len) {
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || write_all(fd, cfg.buf, cfg.len) < 0)
			rc = workspace_fail(err, "cannot write '%s': %s", path,
					    strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	free(path);
	strbuf_release(&cfg);
	return rc;
}

/*
 * The repository, written directly in git's stable on-disk format
 * (git/gitdir-write.h): the same files `git init` and `git update-ref`
 * would write, without their two processes. Config (invariant 3:
 * hooksPath) exists before anything could write a ref.
 */
static int write_repo(const struct workspace_request *rq,
		      const struct workspace_source *src, bool with_source,
		      struct workspace *ws, struct strbuf *err)
{
	struct strbuf cfg = STRBUF_INIT;
	char *git_dir = xstrfmt("%s/.git", ws->dir);
	char *alt = xstrfmt("%s/objects", src->common);
	struct gitdir_spec spec = {
		.git_dir = git_dir,
		.objfmt = src->objfmt,
		.head = rq->head,
		.hooks_path = rq->hooks_path ? rq->hooks_path : "/dev/null",
		.alternates = alt,
	};
	int rc;

	if (with_source)
		source_config(rq, src, &cfg);
	/* invariant 5 */
	strbuf_addstr(&cfg,
		      "[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n");
	spec.extra_config = cfg.buf;
	rc = gitdir_write(&spec); /* objfmt: checked by workspace_probe() */
	if (rc)
		rc = workspace_fail(err, "cannot create the workspace '%s'",
				    ws->dir);
	strbuf_release(&cfg);
	free(alt);
	free(git_dir);
	return rc;
}

static int check_request(const struct workspace_request *rq, struct strbuf *err)
{
	if (!rq->git || rq->git[0] != '/')
		return workspace_fail(err,
				      "the real git must be an absolute path");
	if (!branch_ok(rq->head) || (rq->base && !branch_ok(rq->base)))
		return workspace_fail(err, "invalid branch name '%s'",
				      branch_ok(rq->head) ? rq->base
				      : rq->head	  ? rq->head
							  : "");
	if (rq->start && !((strlen(rq->start) == 40 || strlen(rq->start) == 64) &&
			   is_lower_hex(rq->start, strlen(rq->start))))
		return workspace_fail(err, "'%s' is not a commit id",
				      rq->start);
	if (rq->refs == WS_REFS_FETCH && (!rq->base || rq->start))
		BUG("workspace: a fetched workspace needs a base and no start");
	return 0;
}

/*
 * The clone is ours to probe: where it is and its object format first
 * (files only), then its config is read by a git running while we build
 * and check out (a process less on the critical path); FETCH needs the
 * URL first.
 */
static int own_probe(const struct workspace_request *rq,
		     struct workspace_source *own, struct child *cfg,
		     struct strbuf *err)
{
	if (rq->refs == WS_REFS_FETCH)
		return workspace_probe(rq->git, rq->from, true, own, err);
	if (workspace_source_locate(rq->git, rq->from, own, err) < 0)
		return -1;
	if (workspace_source_config_start(rq->git, own, cfg) < 0)
		cfg->pid = -1; /* finish reports it */
	return 1;
}

/* The config own_probe() started: parsed, then its part appended. */
static int finish_own_probe(const struct workspace_request *rq,
			    struct workspace_source *own, struct child *cfg,
			    int *pending, const struct workspace *ws,
			    struct strbuf *err)
{
	*pending = 0;
	if (workspace_source_config_finish(cfg, false, own, err) < 0)
		return -1;
	return append_source_config(rq, own, ws, err);
}

int workspace_create(const struct workspace_request *rq, struct workspace *ws,
		     struct strbuf *err)
{
	struct workspace_source own = WORKSPACE_SOURCE_INIT;
	const struct workspace_source *src = rq->src;
	struct child cfg = CHILD_INIT;
	char *parent = NULL, *objects = NULL, *origin_head = NULL;
	int pending = 0, rc = -1;

	if (check_request(rq, err) < 0)
		return -1;
	if (!src && (pending = own_probe(rq, &own, &cfg, err)) < 0)
		return -1;
	if (!src)
		src = &own;
	if (rq->refs == WS_REFS_FETCH && !src->url) {
		workspace_fail(err, "the clone has no 'origin' remote");
		goto out;
	}
	if ((rq->refs == WS_REFS_CLONE &&
	     workspace_clone_refs(rq, src, ws, &origin_head, err) < 0) ||
	    !(ws->dir = check_dir(rq, src, err)))
		goto out;
	objects = xstrfmt("%s/objects", src->common);
	if (workspace_borrowed_stores(objects, &ws->ro_dirs) < 0)
		goto out;
	parent = path_dirname(ws->dir);
	if (mkdir_p(parent, 0755) < 0 || mkdir(ws->dir, 0755) < 0) {
		workspace_fail(err, "cannot create '%s': %s", ws->dir,
			       strerror(errno));
		goto out;
	}
	if (write_repo(rq, src, !pending, ws, err) < 0 ||
	    (rq->refs == WS_REFS_FETCH &&
	     workspace_fetch_refs(rq, src, ws, err) < 0) ||
	    workspace_checkout(rq, src, ws, origin_head, err) < 0 ||
	    (pending &&
	     finish_own_probe(rq, &own, &cfg, &pending, ws, err) < 0)) {
		workspace_remove(ws->dir); /* invariant 4 */
		goto out;
	}
	ws->objects = xstrfmt("%s/.git/objects", ws->dir);
	ws->origin_url = src->url ? xstrdup(src->url) : NULL;
	rc = 0;
out:
	if (pending) /* reaped whatever happened */
		workspace_source_config_finish(&cfg, false, &own, NULL);
	free(parent);
	free(objects);
	free(origin_head);
	workspace_source_release(&own);
	return rc;
}

/* lstat: a directory, not a symlink to one. */
static bool real_dir(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

bool workspace_is_private_of(const char *dir, const char *common_dir)
{
	struct strbuf path = STRBUF_INIT, alt = STRBUF_INIT;
	char *want = NULL, *have = NULL;
	bool ok = false;
	struct stat st;

	if (!real_dir(workspace_pathf(&path, "%s/.git", dir)) ||
	    !real_dir(workspace_pathf(&path, "%s/.git/objects", dir)) ||
	    !real_dir(workspace_pathf(&path, "%s/.git/objects/info", dir)) ||
	    !lstat(workspace_pathf(&path, "%s/.git/commondir", dir), &st) ||
	    errno != ENOENT ||
	    read_file_bounded(workspace_pathf(&path,
					      "%s/.git/objects/info/alternates",
					      dir),
			      4096, RF_REGULAR, &alt) < 0)
		goto out;
	if (alt.len && alt.buf[alt.len - 1] == '\n')
		strbuf_setlen(&alt, alt.len - 1);
	if (alt.buf[0] != '/' || strchr(alt.buf, '\n'))
		goto out;
	have = real_path(alt.buf);
	want = real_path(workspace_pathf(&path, "%s/objects", common_dir));
	ok = have && want && !strcmp(have, want);
out:
	free(want);
	free(have);
	strbuf_release(&path);
	strbuf_release(&alt);
	return ok;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

int workspace_remove(const char *dir)
{
	struct stat st;

	if (!dir || dir[0] != '/' || !strcmp(dir, "/"))
		return error("workspace: refusing to remove '%s'", dir ? dir : "");
	if (lstat(dir, &st) < 0 && errno == ENOENT)
		return 0;
	if (nftw(dir, rm_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
		return error_errno("workspace: cannot remove '%s'", dir);
	return 0;
}

void workspace_release(struct workspace *ws)
{
	free(ws->dir);
	free(ws->objects);
	free(ws->origin_url);
	free(ws->head_oid);
	free(ws->base_oid);
	strvec_clear(&ws->ro_dirs);
	memset(ws, 0, sizeof(*ws));
	strvec_init(&ws->ro_dirs);
}

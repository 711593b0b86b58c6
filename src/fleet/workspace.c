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
#include "fleet/workspace.h"
#include "git/gitcmd.h"
#include "git/gitdir-write.h"
#include "git/refs-files.h"

#define MAX_ALT_DEPTH 5

/*
 * Runs git in `dir` (the operator's clone, or the workspace before any
 * agent had it: GIT_OPERATOR) with stdout captured into out (if non-NULL).
 * Returns git's exit status, or -1 when git could not run. A non-zero
 * status other than `ok_status` is reported with git's stderr.
 */
static int git_run(const char *git, const char *dir, struct strbuf *out,
		   const char *in, int ok_status, const char *first, ...)
{
	struct child c = CHILD_INIT;
	va_list ap;
	int rc;

	gitcmd_prepare(&c, GIT_OPERATOR, git, dir);
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *))
		strvec_push(&c.args, a);
	va_end(ap);
	c.capture_out = true;
	c.capture_err = true;
	if (in) {
		c.in = in;
		c.in_len = strlen(in);
	}
	if (child_run(&c) < 0) {
		rc = error_errno("workspace: cannot run '%s'", git);
	} else {
		rc = c.status;
		strbuf_trim(&c.err);
		if (rc && rc != ok_status)
			error("workspace: git %s failed in '%s' (exit %d): %s",
			      first, dir, rc,
			      c.err.len ? c.err.buf : "(no message)");
	}
	if (out)
		strbuf_addbuf(out, &c.out);
	child_release(&c);
	return rc;
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

/* Formats into sb (reset first) and returns its buffer. */
AG_PRINTF(2, 3) static const char *pathf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(sb);
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	return sb->buf;
}

static char *first_line(const struct strbuf *sb)
{
	const char *nl = strchrnul(sb->buf, '\n');
	return xstrndup(sb->buf, (size_t)(nl - sb->buf));
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

struct operator_info {
	char *common;	 /* canonical git common dir */
	char *top;	 /* the clone's top (common's parent for ".git") */
	char *url, *name, *email;
	char *objfmt;	 /* extensions.objectformat, NULL for sha1 */
	char *refstorage; /* extensions.refstorage, NULL for files */
	char *origin_head; /* origin/<head> oid, if it exists */
};

static void operator_info_release(struct operator_info *op)
{
	free(op->common);
	free(op->top);
	free(op->url);
	free(op->name);
	free(op->email);
	free(op->objfmt);
	free(op->refstorage);
	free(op->origin_head);
}

/*
 * The common dir of `from` read from the .git files (no subprocess):
 * <from>/.git as a directory, a "gitdir:" file (a linked worktree, whose
 * gitdir names its common dir in "commondir"), or a bare/.git dir given
 * directly. NULL when the layout is something else.
 */
static char *discover_common(const char *from)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	char *gitdir = NULL, *common = NULL;
	const char *rest;

	strbuf_addf(&path, "%s/.git", from);
	if (is_dir(path.buf)) {
		gitdir = strbuf_detach(&path, NULL);
	} else if (!read_file_bounded(path.buf, 4096, RF_REGULAR, &sb) &&
		   skip_prefix(sb.buf, "gitdir: ", &rest)) {
		struct strbuf g = STRBUF_INIT;
		strbuf_addstr(&g, rest);
		strbuf_rtrim(&g);
		gitdir = path_join(from, g.buf);
		strbuf_release(&g);
	} else if (path_exists(pathf(&path, "%s/HEAD", from)) &&
		   is_dir(pathf(&path, "%s/objects", from))) {
		gitdir = xstrdup(from);
	}
	if (gitdir) {
		strbuf_reset(&sb);
		if (!read_file_bounded(pathf(&path, "%s/commondir", gitdir),
				       4096, RF_REGULAR, &sb)) {
			char *j;
			strbuf_rtrim(&sb);
			j = path_join(gitdir, sb.buf);
			common = real_path(j);
			free(j);
		} else if (is_dir(pathf(&path, "%s/objects", gitdir))) {
			common = real_path(gitdir);
		}
	}
	free(gitdir);
	strbuf_release(&sb);
	strbuf_release(&path);
	return common;
}

static int operator_dirs(const struct workspace_request *rq,
			 struct operator_info *op)
{
	struct strbuf out = STRBUF_INIT;
	char *line;

	op->common = discover_common(rq->from);
	if (!op->common) {
		if (git_run(rq->git, rq->from, &out, NULL, 0, "rev-parse",
			    "--path-format=absolute", "--git-common-dir", NULL)) {
			strbuf_release(&out);
			return error("workspace: '%s' is not a git repository", rq->from);
		}
		line = first_line(&out);
		op->common = real_path(line);
		free(line);
		strbuf_release(&out);
		if (!op->common)
			return error_errno("workspace: git dir of '%s'", rq->from);
	}
	op->top = !strcmp(path_basename(op->common), ".git")
			  ? path_dirname(op->common)
			  : xstrdup(op->common);
	return 0;
}

/* Looks up the exact ref among for-each-ref's "oid refname" lines. */
static char *find_ref(const char *lines, const char *prefix, const char *name)
{
	struct strbuf want = STRBUF_INIT;
	char *found = NULL;

	strbuf_addf(&want, "%s%s", prefix, name);
	for (const char *l = lines; *l && !found;) {
		const char *e = strchrnul(l, '\n'), *sp = strchr(l, ' ');
		if (sp && sp < e && (size_t)(e - sp - 1) == want.len &&
		    !strncmp(sp + 1, want.buf, want.len))
			found = xstrndup(l, (size_t)(sp - l));
		l = *e ? e + 1 : e;
	}
	strbuf_release(&want);
	return found;
}

static int operator_refs(const struct workspace_request *rq,
			 struct operator_info *op, struct workspace *ws)
{
	struct strbuf out = STRBUF_INIT;
	char *pats[4];
	char *local_head;
	int rc = 0;

	pats[0] = xstrfmt("refs/remotes/origin/%s", rq->head);
	pats[1] = xstrfmt("refs/heads/%s", rq->head);
	pats[2] = xstrfmt("refs/remotes/origin/%s", rq->base ? rq->base : rq->head);
	pats[3] = xstrfmt("refs/heads/%s", rq->base ? rq->base : rq->head);
	/* files backend only: one git process less on every provisioning */
	if (op->refstorage ||
	    refs_files_lookup(op->common, op->objfmt && !strcmp(op->objfmt, "sha256") ? 64 : 40,
			      (const char *const *)pats, ARRAY_SIZE(pats), &out) < 0) {
		strbuf_reset(&out);
		if (git_run(rq->git, op->top, &out, NULL, 0, "for-each-ref",
			    "--format=%(objectname) %(refname)", pats[0],
			    pats[1], pats[2], pats[3], NULL))
			rc = -1;
	}
	for (int i = 0; i < 4; i++)
		free(pats[i]);
	if (rc < 0)
		goto out;
	op->origin_head = find_ref(out.buf, "refs/remotes/origin/", rq->head);
	local_head = find_ref(out.buf, "refs/heads/", rq->head);
	if (rq->base) {
		ws->base_oid = find_ref(out.buf, "refs/remotes/origin/", rq->base);
		if (!ws->base_oid)
			ws->base_oid = find_ref(out.buf, "refs/heads/", rq->base);
		if (!ws->base_oid && !rq->start)
			rc = error("workspace: base branch '%s' not found in '%s' (neither origin/%s nor %s); fetch it first",
				   rq->base, op->top, rq->base, rq->base);
	}
	ws->head_oid = rq->start       ? xstrdup(rq->start)
		       : op->origin_head ? xstrdup(op->origin_head)
		       : local_head    ? xstrdup(local_head)
		       : ws->base_oid  ? xstrdup(ws->base_oid)
				       : NULL;
	free(local_head);
	if (!rc && !ws->head_oid)
		rc = error("workspace: branch '%s' not found in '%s' and no base to start it from",
			   rq->head, op->top);
out:
	strbuf_release(&out);
	return rc;
}

static int operator_config(const struct workspace_request *rq,
			   struct operator_info *op)
{
	struct strbuf out = STRBUF_INIT;
	int rc = git_run(rq->git, op->top, &out, NULL, 1, "config", "--get-regexp",
			 "^(remote\\.origin\\.url|user\\.name|user\\.email|extensions\\.(objectformat|refstorage))$",
			 NULL);

	if (rc && rc != 1) {
		strbuf_release(&out);
		return -1;
	}
	for (char *l = out.buf, *e; *l; l = e) {
		char *sp;
		e = strchrnul(l, '\n');
		if (*e)
			*e++ = '\0';
		if (!(sp = strchr(l, ' ')))
			continue;
		*sp++ = '\0';
		if (!strcmp(l, "remote.origin.url") && !op->url)
			op->url = xstrdup(sp);
		else if (!strcmp(l, "user.name"))
			free(op->name), op->name = xstrdup(sp);
		else if (!strcmp(l, "user.email"))
			free(op->email), op->email = xstrdup(sp);
		else if (!strcmp(l, "extensions.objectformat"))
			free(op->objfmt), op->objfmt = xstrdup(sp);
		else if (!strcmp(l, "extensions.refstorage"))
			free(op->refstorage), op->refstorage = xstrdup(sp);
	}
	strbuf_release(&out);
	return 0;
}

/* The canonical path the workspace will have; checks invariant 1. */
static char *check_dir(const struct workspace_request *rq,
		       const struct operator_info *op)
{
	struct strbuf sb = STRBUF_INIT;
	const char *rel;
	char *parent, *real_parent;
	struct stat st;

	if (!rq->dir || rq->dir[0] != '/') {
		error("workspace: '%s' must be an absolute path", rq->dir ? rq->dir : "");
		return NULL;
	}
	strbuf_addstr(&sb, rq->dir);
	path_normalize(&sb);
	if (!lstat(sb.buf, &st) || errno != ENOENT) {
		error("workspace: '%s' already exists; choose a new directory", sb.buf);
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
	if (path_inside(sb.buf, op->top, &rel) ||
	    path_inside(sb.buf, op->common, &rel) ||
	    path_inside(op->top, sb.buf, &rel)) {
		error("workspace: refusing to create '%s' inside or around the operator clone '%s'",
		      sb.buf, op->top);
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* What the workspace's config holds beyond [core] (gitdir-write.h). */
static void repo_config(const struct workspace_request *rq,
			const struct operator_info *op, struct strbuf *cfg)
{
	if (op->url) {
		strbuf_addstr(cfg, "[remote \"origin\"]\n");
		gitdir_config_value(cfg, "url", op->url);
		strbuf_addstr(cfg, "\tfetch = +refs/heads/*:refs/remotes/origin/*\n");
		strbuf_addf(cfg, "[branch \"%s\"]\n\tremote = origin\n\tmerge = refs/heads/%s\n",
			    rq->head, rq->head);
	}
	if (op->name || op->email)
		strbuf_addstr(cfg, "[user]\n");
	if (op->name)
		gitdir_config_value(cfg, "name", op->name);
	if (op->email)
		gitdir_config_value(cfg, "email", op->email);
}

static int put_ref(const char *git_dir, const char *prefix, const char *name,
		   const char *oid)
{
	char *ref = xstrfmt("refs/%s/%s", prefix, name);
	int rc = gitdir_put_ref(git_dir, ref, oid);
	free(ref);
	return rc;
}

/*
 * The repository, written directly in git's stable on-disk format
 * (git/gitdir-write.h): the same files `git init` and `git update-ref`
 * would write, without their two processes. Config (invariant 3:
 * hooksPath) exists before anything could run a hook.
 */
static int write_repo(const struct workspace_request *rq,
		      const struct operator_info *op, struct workspace *ws)
{
	struct strbuf cfg = STRBUF_INIT;
	char *git_dir = xstrfmt("%s/.git", ws->dir);
	char *alt = xstrfmt("%s/objects", op->common);
	struct gitdir_spec spec = {
		.git_dir = git_dir, .objfmt = op->objfmt, .head = rq->head,
		.hooks_path = rq->hooks_path ? rq->hooks_path : "/dev/null",
		.alternates = alt,
	};
	int rc;

	repo_config(rq, op, &cfg);
	spec.extra_config = cfg.buf;
	rc = gitdir_write(&spec);
	if (rc == GITDIR_UNSUPPORTED)
		rc = error("workspace: object format '%s' of '%s' is not supported",
			   op->objfmt, op->top);
	if (!rc)
		rc = put_ref(git_dir, "heads", rq->head, ws->head_oid);
	if (!rc && op->origin_head)
		rc = put_ref(git_dir, "remotes/origin", rq->head, op->origin_head);
	if (!rc && ws->base_oid && strcmp(rq->base, rq->head))
		rc = put_ref(git_dir, "remotes/origin", rq->base, ws->base_oid);
	strbuf_release(&cfg);
	free(alt);
	free(git_dir);
	return rc;
}

int workspace_create(const struct workspace_request *rq, struct workspace *ws)
{
	struct operator_info op = { 0 };
	char *parent = NULL, *objects = NULL;
	int rc = -1;

	if (!rq->git || rq->git[0] != '/')
		return error("workspace: the real git must be an absolute path");
	if (!branch_ok(rq->head) || (rq->base && !branch_ok(rq->base)))
		return error("workspace: invalid branch name '%s'",
			     branch_ok(rq->head) ? rq->base : rq->head ? rq->head : "");
	if (rq->start && !((strlen(rq->start) == 40 || strlen(rq->start) == 64) &&
			   is_lower_hex(rq->start, strlen(rq->start))))
		return error("workspace: '%s' is not a commit id", rq->start);
	if (operator_dirs(rq, &op) < 0 || operator_config(rq, &op) < 0 ||
	    operator_refs(rq, &op, ws) < 0 || !(ws->dir = check_dir(rq, &op)))
		goto out;
	objects = xstrfmt("%s/objects", op.common);
	if (workspace_borrowed_stores(objects, &ws->ro_dirs) < 0)
		goto out;
	parent = path_dirname(ws->dir);
	if (mkdir_p(parent, 0755) < 0 || mkdir(ws->dir, 0755) < 0) {
		error_errno("workspace: cannot create '%s'", ws->dir);
		goto out;
	}
	if (write_repo(rq, &op, ws) < 0 ||
	    git_run(rq->git, ws->dir, NULL, NULL, 0, "reset", "-q", "--hard", NULL)) {
		workspace_remove(ws->dir);
		goto out;
	}
	ws->origin_url = op.url ? xstrdup(op.url) : NULL;
	rc = 0;
out:
	free(parent);
	free(objects);
	operator_info_release(&op);
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

	if (!real_dir(pathf(&path, "%s/.git", dir)) ||
	    !real_dir(pathf(&path, "%s/.git/objects", dir)) ||
	    !real_dir(pathf(&path, "%s/.git/objects/info", dir)) ||
	    !lstat(pathf(&path, "%s/.git/commondir", dir), &st) ||
	    errno != ENOENT ||
	    read_file_bounded(pathf(&path, "%s/.git/objects/info/alternates", dir),
			      4096, RF_REGULAR, &alt) < 0)
		goto out;
	if (alt.len && alt.buf[alt.len - 1] == '\n')
		strbuf_setlen(&alt, alt.len - 1);
	if (alt.buf[0] != '/' || strchr(alt.buf, '\n'))
		goto out;
	have = real_path(alt.buf);
	want = real_path(pathf(&path, "%s/objects", common_dir));
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
	if (!dir || dir[0] != '/' || !strcmp(dir, "/"))
		return error("workspace: refusing to remove '%s'", dir ? dir : "");
	if (nftw(dir, rm_one, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
		return error_errno("workspace: cannot remove '%s'", dir);
	return 0;
}

void workspace_release(struct workspace *ws)
{
	free(ws->dir);
	free(ws->origin_url);
	free(ws->head_oid);
	free(ws->base_oid);
	strvec_clear(&ws->ro_dirs);
	memset(ws, 0, sizeof(*ws));
	strvec_init(&ws->ro_dirs);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/dispatch-workspace.h"
#include "git/gitcmd.h"
#include "fleet/verify.h"
#include "git/gitdir-write.h"
#include "git/refs-files.h"
#include "git/repo.h"

static int git_line(const char *dir, struct strbuf *out, struct strbuf *err,
		    const char *what, ...)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf e = STRBUF_INIT;
	const char *s;
	va_list ap;
	int rc;

	va_start(ap, what);
	while ((s = va_arg(ap, const char *)))
		strvec_push(&args, s);
	va_end(ap);
	rc = gitcmd(GIT_OPERATOR, dir, out, &e, args.v);
	strvec_clear(&args);
	strbuf_trim(&e);
	if (rc)
		strbuf_addf(err, "%s: %s", what, e.len ? e.buf : "git failed");
	strbuf_release(&e);
	if (out)
		strbuf_trim(out);
	return rc ? -1 : 0;
}

/*
 * A relative local path as a URL means "relative to the clone"; the
 * workspace lives elsewhere, so make it absolute. URLs (scheme://) and
 * scp-like host:path forms are left alone.
 */
static int absolute_local_url(const char *repo, struct strbuf *url,
			      struct strbuf *err)
{
	const char *colon = strchr(url->buf, ':'),
		   *slash = strchr(url->buf, '/');
	char *joined, *abs;

	if (url->buf[0] == '/' || strstr(url->buf, "://") ||
	    (colon && (!slash || colon < slash)))
		return 0;
	joined = path_join(repo, url->buf);
	abs = real_path(joined);
	free(joined);
	if (!abs) {
		strbuf_addf(err, "origin's path '%s' does not exist", url->buf);
		return -1;
	}
	strbuf_reset(url);
	strbuf_addstr(url, abs);
	free(abs);
	return 0;
}

/*
 * The operator's user.name/user.email as seen from the clone (global too),
 * and the clone's object format, in one config call: "user.name VALUE"
 * lines go to ident, extensions.objectformat's value to objfmt.
 */
static void probe_config(const char *repo, struct strbuf *ident,
			 struct strbuf *objfmt)
{
	const char *args[] = {
		"config", "--get-regexp",
		"^(user\\.(name|email)|extensions\\.objectformat)$", NULL
	};
	struct strbuf out = STRBUF_INIT;

	if (gitcmd(GIT_OPERATOR, repo, &out, NULL, args) != 0)
		strbuf_reset(&out); /* 1: none set */
	for (const char *l = out.buf, *v; *l;) {
		const char *e = strchrnul(l, '\n');
		if (skip_prefix(l, "extensions.objectformat ", &v)) {
			strbuf_reset(objfmt);
			strbuf_add(objfmt, v, (size_t)(e - v));
		} else {
			strbuf_add(ident, l, (size_t)(e - l));
			strbuf_addch(ident, '\n');
		}
		l = *e ? e + 1 : e;
	}
	strbuf_release(&out);
}

int dispatch_ws_probe_repo(const char *repo, struct strbuf *url,
			   struct strbuf *objects, struct strbuf *ident,
			   struct strbuf *objfmt, struct strbuf *err)
{
	struct repo_loc loc;

	if (!is_dir(repo)) {
		strbuf_addf(
			err,
			"'%s' is not a directory (repo must be a local clone)",
			repo);
		return -1;
	}
	if (repo_discover(repo, &loc) == REPO_FOUND && loc.commondir) {
		strbuf_addstr(objects,
			      loc.commondir); /* read from .git files */
	} else if (git_line(repo, objects, err, "not a git clone", "rev-parse",
			    "--path-format=absolute", "--git-common-dir",
			    NULL) < 0) {
		repo_loc_release(&loc);
		return -1;
	}
	repo_loc_release(&loc);
	strbuf_addstr(objects, "/objects");
	if (git_line(repo, url, err, "the clone has no 'origin' remote",
		     "remote", "get-url", "origin", NULL) < 0)
		return -1;
	probe_config(repo, ident, objfmt);
	return absolute_local_url(repo, url, err);
}

/*
 * The operator's identity as config text for the workspace: a sandboxed
 * agent has an empty $HOME, so without it `git commit` has no author.
 * Lines are "user.name VALUE" as `git config --get-regexp` prints them.
 */
static void ident_config(const char *ident, struct strbuf *cfg)
{
	for (const char *l = ident; l && *l;) {
		const char *e = strchrnul(l, '\n'),
			   *sp = memchr(l, ' ', (size_t)(e - l));
		if (sp) {
			char *v = xstrndup(sp + 1, (size_t)(e - sp - 1));
			if (!cfg->len)
				strbuf_addstr(cfg, "[user]\n");
			gitdir_config_value(
				cfg,
				starts_with(l, "user.name ") ? "name" : "email",
				v);
			free(v);
		}
		l = *e ? e + 1 : e;
	}
}

/*
 * Fallback for an object format gitdir_write() does not write: `git init`
 * decides (and refuses what it does not know), then the identity is
 * appended to its config and the alternates file added.
 */
static int init_with_git(const struct dispatch_ws_source *src, const char *path,
			 const char *head, const char *cfg, struct strbuf *err)
{
	struct strbuf b = STRBUF_INIT, f = STRBUF_INIT, gd = STRBUF_INIT;
	int rc, fd;

	strbuf_addf(&b, "--initial-branch=%s", head);
	strbuf_addf(&f, "--object-format=%s", src->objfmt);
	rc = git_line(NULL, NULL, err, "cannot create the workspace", "init",
		      "-q", "--template=", b.buf, f.buf, "--", path, NULL);
	strbuf_addf(&gd, "%s/.git", path);
	strbuf_reset(&b);
	strbuf_addf(&b, "%s\n", src->objects);
	if (!rc && gitdir_put(gd.buf, "objects/info/alternates", b.buf) < 0)
		rc = -1;
	strbuf_addstr(&gd, "/config");
	if (!rc && *cfg) {
		fd = open(gd.buf, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || write_all(fd, cfg, strlen(cfg)) < 0) {
			strbuf_addf(err, "cannot write %s: %s", gd.buf,
				    strerror(errno));
			rc = -1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (rc && !err->len)
		strbuf_addstr(err, "cannot create the workspace");
	strbuf_release(&b);
	strbuf_release(&f);
	strbuf_release(&gd);
	return rc ? -1 : 0;
}

/*
 * The workspace's git dir, written directly (git/gitdir-write.h): what
 * `git init -q --template= --initial-branch=<head>` writes, in the clone's
 * object format, plus the alternates file and the identity.
 */
static int init_workspace(const struct dispatch_ws_source *src,
			  const char *path, const char *head,
			  struct strbuf *err)
{
	struct strbuf cfg = STRBUF_INIT;
	char *gd = path_join(path, ".git");
	struct gitdir_spec spec = {
		.git_dir = gd,
		.objfmt = src->objfmt,
		.head = head,
		.alternates = src->objects,
	};
	int rc;

	ident_config(src->ident, &cfg);
	/*
	 * A workspace lives for one target: git's automatic maintenance in
	 * it (a process after every agent commit, and a detached gc that
	 * could outlive the agent) buys nothing.
	 */
	strbuf_addstr(&cfg,
		      "[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n");
	spec.hooks_path = src->hooks_path;
	if (!gitdir_objfmt_ok(src->objfmt) && src->hooks_path) {
		strbuf_addstr(&cfg, "[core]\n"); /* `git init` wrote none */
		gitdir_config_value(&cfg, "hooksPath", src->hooks_path);
	}
	spec.extra_config = cfg.buf;
	if (!gitdir_objfmt_ok(src->objfmt))
		rc = init_with_git(src, path, head, cfg.buf, err);
	else if ((rc = mkdir(path, 0755)) < 0)
		strbuf_addf(err, "cannot create '%s': %s", path,
			    strerror(errno));
	else
		rc = gitdir_write(&spec);
	if (rc && !err->len)
		strbuf_addstr(err, "cannot create the workspace");
	strbuf_release(&cfg);
	free(gd);
	return rc ? -1 : 0;
}

static size_t hexlen_of(const struct dispatch_ws *w)
{
	return w->objfmt && !strcmp(w->objfmt, "sha256") ? 64 : 40;
}

/* Copies a "oid refname" line's oid into dst (hexlen + 1 bytes). */
static void take_oid(char *dst, const char *line, size_t hexlen)
{
	memcpy(dst, line, hexlen);
	dst[hexlen] = '\0';
}

/*
 * The fetched origin/<base> and origin/<head>, read from the workspace's
 * loose ref files (the fetch into our fresh repository wrote them there;
 * git/refs-files.h), in that order. 0, or -1 to ask git.
 */
static int fetched_from_files(struct dispatch_ws *w, const char *base,
			      const char *head)
{
	char *gd = path_join(w->path, ".git");
	char *r[2] = { xstrfmt("refs/remotes/origin/%s", base),
		       xstrfmt("refs/remotes/origin/%s", head) };
	struct strbuf out = STRBUF_INIT;
	size_t hl = hexlen_of(w), n = strcmp(base, head) ? 2 : 1;
	int rc = refs_files_lookup(gd, hl, (const char *const *)r, n, &out);
	const char *nl = strchr(out.buf, '\n');

	if (!rc && nl && (n == 1 || strchr(nl + 1, '\n'))) {
		take_oid(w->base_sha, out.buf, hl);
		take_oid(w->head_sha, n == 1 ? out.buf : nl + 1, hl);
	} else {
		rc = -1;
	}
	free(r[0]);
	free(r[1]);
	free(gd);
	strbuf_release(&out);
	return rc;
}

/* The same with `git rev-parse`, peeled to commits. */
static int fetched_from_git(struct dispatch_ws *w, const char *base,
			    const char *head, struct strbuf *err)
{
	struct strbuf rb = STRBUF_INIT, rh = STRBUF_INIT, sha = STRBUF_INIT;
	const char *nl;
	size_t bl;
	int rc = -1;

	strbuf_addf(&rb, "refs/remotes/origin/%s^{commit}", base);
	strbuf_addf(&rh, "refs/remotes/origin/%s^{commit}", head);
	if (git_line(w->path, &sha, err,
		     "cannot resolve the fetched base and head", "rev-parse",
		     rb.buf, rh.buf, NULL) < 0)
		goto out;
	nl = strchr(sha.buf, '\n');
	bl = nl ? (size_t)(nl - sha.buf) : 0;
	if (!nl || bl > 64 || strlen(nl + 1) > 64 || strlen(nl + 1) != bl) {
		strbuf_addstr(err, "cannot resolve the fetched base and head");
		goto out;
	}
	take_oid(w->base_sha, sha.buf, bl);
	take_oid(w->head_sha, nl + 1, bl);
	rc = 0;
out:
	strbuf_release(&rb);
	strbuf_release(&rh);
	strbuf_release(&sha);
	return rc;
}

/*
 * True when the branch the checkout wrote holds head_sha: then head_sha
 * is a commit (checkout -B peels anything else), so the file read gave
 * what rev-parse's ^{commit} would have.
 */
static bool checkout_confirms(const struct dispatch_ws *w, const char *head)
{
	char *gd = path_join(w->path, ".git"),
	     *ref = xstrfmt("refs/heads/%s", head);
	struct strbuf out = STRBUF_INIT;
	size_t hl = hexlen_of(w);
	bool ok = !refs_files_lookup(gd, hl, (const char *const *)&ref, 1,
				     &out) &&
		  out.len > hl && !memcmp(out.buf, w->head_sha, hl);

	free(gd);
	free(ref);
	strbuf_release(&out);
	return ok;
}

static int fetch_and_checkout(struct dispatch_ws *w, const char *base,
			      const char *head, struct strbuf *err)
{
	struct strbuf rb = STRBUF_INIT, rh = STRBUF_INIT;
	bool from_files;
	int rc = -1;

	strbuf_addf(&rb, "+refs/heads/%s:refs/remotes/origin/%s", base, base);
	strbuf_addf(&rh, "+refs/heads/%s:refs/remotes/origin/%s", head, head);
	if (git_line(w->path, NULL, err, "fetch of base and head failed",
		     "fetch", "-q", "--no-tags", "--no-write-fetch-head", "--",
		     w->url, rb.buf, rh.buf, NULL) < 0)
		goto out;
	from_files = !fetched_from_files(w, base, head);
	if (!from_files && fetched_from_git(w, base, head, err) < 0)
		goto out;
	if (git_line(w->path, NULL, err, "checkout failed", "checkout", "-q",
		     "--no-track", "-B", head, w->head_sha, NULL) < 0)
		goto out;
	if (from_files && !checkout_confirms(w, head) &&
	    fetched_from_git(w, base, head, err) < 0)
		goto out;
	rc = 0;
out:
	strbuf_release(&rb);
	strbuf_release(&rh);
	return rc;
}

/*
 * The refs before the agent runs. Right after our fetch and checkout the
 * workspace's refs are loose files naming objects the fetch's
 * connectivity check and the checkout have just seen, so reading the
 * refs directory gives what for-each-ref prints (refs-files.h, invariant
 * 3); anything else asks git.
 */
static int refs_before(struct dispatch_ws *w)
{
	struct strbuf raw = STRBUF_INIT;
	char *gd = path_join(w->path, ".git");
	int rc = refs_files_list(gd, hexlen_of(w), &raw);

	if (!rc)
		verify_refs_filter(raw.buf, &w->refs_before);
	else
		rc = verify_refs_snapshot(w->path, &w->refs_before);
	free(gd);
	strbuf_release(&raw);
	return rc;
}

int dispatch_ws_create(const struct dispatch_ws_source *src, const char *path,
		       const char *base, const char *head,
		       struct dispatch_ws *w, struct strbuf *err)
{
	w->path = xstrdup(path);
	w->url = xstrdup(src->url);
	w->objfmt = src->objfmt ? xstrdup(src->objfmt) : NULL;
	w->objects = path_join(path, ".git/objects");
	if (init_workspace(src, path, head, err) < 0 ||
	    fetch_and_checkout(w, base, head, err) < 0)
		return -1;
	if (refs_before(w) < 0) {
		strbuf_addstr(err, "cannot list the workspace's refs");
		return -1;
	}
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	if (flag == FTW_DP)
		return rmdir(p) < 0 ? -1 : 0;
	return unlink(p) < 0 ? -1 : 0;
}

int dispatch_ws_remove(const char *path)
{
	if (!path_exists(path))
		return 0;
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

void dispatch_ws_release(struct dispatch_ws *w)
{
	free(w->path);
	free(w->objects);
	free(w->url);
	free(w->objfmt);
	w->path = w->objects = w->url = w->objfmt = NULL;
	strbuf_release(&w->refs_before);
}

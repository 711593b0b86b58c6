/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the workspace builder reads from the operator's clone
 * (workspace.h workspace_probe()): its common dir from the .git files, and
 * origin's URL and the operator's identity from one `git config` run. The
 * object format is the repository probe's (git/repo-probe.h), which reads
 * extensions.objectformat where git does: the repository's own config.
 */
#include "base/common.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "fleet/workspace-git.h"
#include "fleet/workspace.h"
#include "git/repo-probe.h"

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
	} else if (path_exists(workspace_pathf(&path, "%s/HEAD", from)) &&
		   is_dir(workspace_pathf(&path, "%s/objects", from))) {
		gitdir = xstrdup(from);
	}
	if (gitdir) {
		strbuf_reset(&sb);
		if (!read_file_bounded(
			    workspace_pathf(&path, "%s/commondir", gitdir),
			    4096, RF_REGULAR, &sb)) {
			char *j;
			strbuf_rtrim(&sb);
			j = path_join(gitdir, sb.buf);
			common = real_path(j);
			free(j);
		} else if (is_dir(workspace_pathf(&path, "%s/objects",
						  gitdir))) {
			common = real_path(gitdir);
		}
	}
	free(gitdir);
	strbuf_release(&sb);
	strbuf_release(&path);
	return common;
}

static int source_dirs(const char *git, const char *from,
		       struct workspace_source *src, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, ignored = STRBUF_INIT;

	if (!is_dir(from))
		return workspace_fail(
			err,
			"'%s' is not a directory (repo must be a local clone)",
			from);
	src->common = discover_common(from);
	if (!src->common) {
		/* git's own message would only repeat ours */
		int rc = workspace_git(git, from, &out, &ignored, 0,
				       "rev-parse", "--path-format=absolute",
				       "--git-common-dir", NULL);
		strbuf_setlen(&out,
			      (size_t)(strchrnul(out.buf, '\n') - out.buf));
		if (!rc)
			src->common = real_path(out.buf);
		strbuf_release(&out);
		strbuf_release(&ignored);
		if (!src->common)
			return workspace_fail(
				err,
				"not a git clone: '%s' is not a git repository",
				from);
	}
	src->top = !strcmp(path_basename(src->common), ".git")
			   ? path_dirname(src->common)
			   : xstrdup(src->common);
	return 0;
}

/*
 * The clone's object format as git reads it (git/repo-probe.h); git's own
 * answer when the probe could not read the config exactly. Only what
 * gitdir_write() writes is accepted (invariant 1).
 */
static int source_objfmt(const char *git, struct workspace_source *src,
			 struct strbuf *err)
{
	const struct repo_probe *p = repo_probe_get(src->common, NULL);
	enum repo_probe_objfmt f = p->objfmt;

	if (p->flags & PROBE_ODD) {
		struct strbuf out = STRBUF_INIT;
		int rc = workspace_git(git, src->top, &out, err, 0, "rev-parse",
				       "--show-object-format", NULL);
		strbuf_trim(&out);
		f = rc ? PROBE_OBJFMT_OTHER : repo_probe_objfmt_of(out.buf);
		strbuf_release(&out);
	}
	if (f == PROBE_OBJFMT_OTHER)
		return workspace_fail(
			err,
			"the object format of '%s' is not one agentic-git writes (sha1, sha256)",
			src->top);
	src->objfmt = f == PROBE_SHA256 ? xstrdup("sha256") : NULL;
	return 0;
}

/*
 * url.<base>.insteadOf as git applies it to a fetch URL: the longest
 * matching prefix wins. `rules` holds key, value pairs as config printed
 * them ("url.<base>.insteadof", prefix).
 */
static void apply_instead_of(const struct strvec *rules, struct strbuf *url)
{
	const char *base = NULL;
	size_t best = 0, blen = 0;

	for (size_t i = 0; i + 1 < rules->nr; i += 2) {
		const char *key = rules->v[i], *prefix = rules->v[i + 1];
		size_t plen = strlen(prefix);
		if (plen > best && starts_with(url->buf, prefix)) {
			best = plen;
			base = key + strlen("url.");
			blen = strlen(base) - strlen(".insteadof");
		}
	}
	if (base) {
		struct strbuf to = STRBUF_INIT;
		strbuf_add(&to, base, blen);
		strbuf_addstr(&to, url->buf + best);
		strbuf_release(url);
		*url = to;
	}
}

/*
 * A relative local path as a URL means "relative to the clone"; the
 * workspace lives elsewhere, so make it absolute. URLs (scheme://) and
 * scp-like host:path forms are left alone.
 */
static int absolute_local_url(const struct workspace_source *src,
			      bool need_origin, struct strbuf *url,
			      struct strbuf *err)
{
	const char *colon = strchr(url->buf, ':'),
		   *slash = strchr(url->buf, '/');
	char *joined, *abs;

	if (url->buf[0] == '/' || strstr(url->buf, "://") ||
	    (colon && (!slash || colon < slash)))
		return 0;
	joined = path_join(src->top, url->buf);
	abs = real_path(joined);
	if (!abs && need_origin) {
		free(joined);
		return workspace_fail(err, "origin's path '%s' does not exist",
				      url->buf);
	}
	strbuf_reset(url);
	strbuf_addstr(url, abs ? abs : joined);
	free(joined);
	free(abs);
	return 0;
}

/* `git config -z --get-regexp` output: "key\nvalue\0" entries. */
int workspace_source_config_start(const char *git,
				  const struct workspace_source *src,
				  struct child *c)
{
	return workspace_git_start(
		c, git, src->top, "config", "-z", "--get-regexp",
		"^(remote\\.origin\\.url|user\\.(name|email)|url\\..+\\.insteadof)$",
		NULL);
}

int workspace_source_config_finish(struct child *c, bool need_origin,
				   struct workspace_source *src,
				   struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT, url = STRBUF_INIT;
	struct strvec rules = STRVEC_INIT;
	bool have_url = false;
	int rc = workspace_git_finish(c, "config", &out, err, 1);

	if (rc && rc != 1)
		goto out;
	for (char *k = out.buf, *end = out.buf + out.len, *next; k < end;
	     k = next) {
		char *v = strchr(k, '\n');
		next = k + strlen(k) + 1; /* the entry's NUL */
		if (!v || v > next)
			continue;
		*v++ = '\0';
		if (!strcmp(k, "remote.origin.url") && !have_url) {
			strbuf_addstr(&url, v);
			have_url = true;
		} else if (!strcmp(k, "user.name")) {
			free(src->name);
			src->name = xstrdup(v);
		} else if (!strcmp(k, "user.email")) {
			free(src->email);
			src->email = xstrdup(v);
		} else if (starts_with(k, "url.")) {
			strvec_push(&rules, k);
			strvec_push(&rules, v);
		}
	}
	rc = 0;
	apply_instead_of(&rules, &url);
	if (!have_url && need_origin)
		rc = workspace_fail(err, "the clone has no 'origin' remote");
	else if (have_url && url.len)
		rc = absolute_local_url(src, need_origin, &url, err);
	if (!rc && have_url && url.len)
		src->url = strbuf_detach(&url, NULL);
out:
	strbuf_release(&out);
	strbuf_release(&url);
	strvec_clear(&rules);
	return rc ? -1 : 0;
}

int workspace_source_locate(const char *git, const char *from,
			    struct workspace_source *src, struct strbuf *err)
{
	if (!git || git[0] != '/')
		return workspace_fail(err,
				      "the real git must be an absolute path");
	if (source_dirs(git, from, src, err) < 0 ||
	    source_objfmt(git, src, err) < 0) {
		workspace_source_release(src);
		return -1;
	}
	return 0;
}

int workspace_probe(const char *git, const char *from, bool need_origin,
		    struct workspace_source *src, struct strbuf *err)
{
	struct child c = CHILD_INIT;

	if (workspace_source_locate(git, from, src, err) < 0)
		return -1;
	if (workspace_source_config_start(git, src, &c) < 0)
		c.pid = -1;
	if (workspace_source_config_finish(&c, need_origin, src, err) < 0) {
		workspace_source_release(src);
		return -1;
	}
	return 0;
}

void workspace_source_release(struct workspace_source *src)
{
	free(src->common);
	free(src->top);
	free(src->url);
	free(src->name);
	free(src->email);
	free(src->objfmt);
	memset(src, 0, sizeof(*src));
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void workspace_source_copy(struct workspace_source *dst,
			   const struct workspace_source *src)
{
	dst->common = dup_or_null(src->common);
	dst->top = dup_or_null(src->top);
	dst->url = dup_or_null(src->url);
	dst->name = dup_or_null(src->name);
	dst->email = dup_or_null(src->email);
	dst->objfmt = dup_or_null(src->objfmt);
}

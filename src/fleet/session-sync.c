/* SPDX-License-Identifier: Apache-2.0 */
/* A private workspace's work brought back into the operator's clone. */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "fleet/session.h"
#include "fleet/session-sync.h"
#include "fleet/snapshot-bind.h"
#include "fleet/workspace.h"
#include "git/gitcmd.h"
#include "git/refs-files.h"
#include "git/repo-probe.h"

#define CONFIG_MAX (1u << 20)

/* <home>/runtime/<agent>/workspace.config: out of the sandbox's reach. */
static char *config_copy(const struct session_ws *w)
{
	return xstrfmt("%s/runtime/%s/workspace.config", w->home, w->agent);
}

/* src's bytes into dst (replaced atomically); -1 after error(). */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	struct strbuf data = STRBUF_INIT;
	int rc = 0;

	if (read_file_bounded(src, CONFIG_MAX, RF_REGULAR, &data) < 0)
		rc = error_errno("cannot read '%s'", src);
	else if (write_file_atomic(dst, data.buf, data.len, mode) < 0)
		rc = error_errno("cannot write '%s'", dst);
	strbuf_release(&data);
	return rc;
}

int session_ws_keep_config(const struct session_ws *w)
{
	char *dir = xstrfmt("%s/runtime/%s", w->home, w->agent);
	char *from = xstrfmt("%s/.git/config", w->workspace);
	char *to = config_copy(w);
	int rc = mkdir_p(dir, 0700) < 0 ? error_errno("cannot create '%s'", dir)
					: copy_file(from, to, 0600);

	free(dir);
	free(from);
	free(to);
	return rc;
}

/* Invariant 5: the clone's common dir, when `ws` is one of its workspaces. */
static char *private_of(const struct session_ws *w, const char *who)
{
	char *common = session_common_dir_of(w->repo);

	if (common && workspace_is_private_of(w->workspace, common))
		return common;
	error("%s: '%s' is not a private workspace of '%s' (its .git, commondir or objects/info/alternates changed); nothing was done there",
	      who, w->workspace, w->repo);
	free(common);
	return NULL;
}

int session_ws_disarm(const struct session_ws *w, const char *who)
{
	char *common = private_of(w, who);
	char *from = config_copy(w);
	char *to = xstrfmt("%s/.git/config", w->workspace);
	int rc = common ? copy_file(from, to, 0644) : -1;

	if (common && rc)
		error("%s: cannot restore the config of the private workspace '%s'",
		      who, w->workspace);

	free(common);
	free(from);
	free(to);
	return rc;
}

int session_ws_disarm_bound(const char *home, const char *git,
			    const char *agent, const char *who)
{
	struct ag_binding b;
	int rc = 0;

	if (ag_binding_load(home, agent, &b) != AG_BINDING_BOUND)
		return 0;
	if (b.worktree && b.source_repo) {
		char *dotgit = xstrfmt("%s/.git", b.worktree);
		struct session_ws w = { .home = home, .git = git, .agent = agent,
					.branch = b.branch, .workspace = b.worktree,
					.repo = b.source_repo };

		if (is_dir(dotgit))
			rc = session_ws_disarm(&w, who);
		free(dotgit);
	}
	ag_binding_release(&b);
	return rc;
}

struct sync {
	const struct session_ws *w;
	const char *who;
	char *common;	   /* the clone's canonical common dir */
	char *branch_ref;  /* refs/heads/<branch> */
	char *kept_ref;	   /* refs/agentic-git/sessions/<agent>/<branch> */
	char *snap_prefix; /* refs/agentic-git/snapshots/<agent>/ */
	size_t hexlen;
	char tip[65], old[65]; /* old: "" when the clone lacks the branch */
	struct strbuf ws_snaps, have, tx;
	struct strbuf snaps; /* "oid ref" of the snapshots to bind */
	struct strvec want; /* what the clone may lack */
	char *keep;	    /* the .keep of the pack brought in */
	const char *kept_why; /* set when the tip goes to kept_ref */
};

/* git in the clone; with_ws: the workspace's objects as an alternate. */
static void clone_git(const struct sync *y, struct child *c, bool with_ws)
{
	if (with_ws) {
		/* our caged git in the clone reads exactly the workspace's
		 * store, not the chain its alternates file names */
		char *objects = xstrfmt("%s/.git/objects", y->w->workspace);
		gitcmd_cage_trust_store(objects, false);
		free(objects);
	}
	gitcmd_init(c, y->w->git, y->w->repo);
	if (!with_ws)
		return;
	strvec_pushf(&c->env_set, "GIT_ALTERNATE_OBJECT_DIRECTORIES=%s/.git/objects",
		     y->w->workspace);
	strvec_pushl(&c->args, "-c", "core.commitGraph=false", "-c",
		     "core.multiPackIndex=false", NULL);
}

/* The git subcommand of c, past any "-c key=value". */
static const char *subcommand_of(const struct child *c)
{
	size_t i = 1;

	while (i + 1 < c->args.nr && !strcmp(c->args.v[i], "-c"))
		i += 2;
	return i < c->args.nr ? c->args.v[i] : "?";
}

/* Runs and releases c; stdout into out (discarded when NULL and no fd). */
static int run_git(const struct sync *y, struct child *c, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT, scratch = STRBUF_INIT;
	int rc = gitcmd_run(c, out ? out : c->out_fd >= 0 ? NULL : &scratch, &err);

	if (rc < 0)
		error_errno("%s: cannot run git %s", y->who, subcommand_of(c));
	else if (rc)
		error("%s: git %s failed in '%s' (exit %d): %s", y->who,
		      subcommand_of(c), y->w->repo, rc,
		      err.len ? err.buf : "no message");
	strbuf_release(&err);
	strbuf_release(&scratch);
	child_release(c);
	return rc ? -1 : 0;
}

/* The oid of `ref` among "oid refname" lines into out ("" when absent). */
static bool find_oid(const char *lines, const char *ref, char out[65])
{
	size_t n = strlen(ref);

	for (const char *l = lines; *l;) {
		const char *e = strchrnul(l, '\n'), *sp = strchr(l, ' ');
		if (sp && sp < e && sp - l <= 64 && (size_t)(e - sp - 1) == n &&
		    !strncmp(sp + 1, ref, n)) {
			if (out) {
				memcpy(out, l, (size_t)(sp - l));
				out[sp - l] = '\0';
			}
			return true;
		}
		l = *e ? e + 1 : e;
	}
	if (out)
		out[0] = '\0';
	return false;
}

static int sync_init(struct sync *y, const struct session_ws *w,
		     const char *who)
{
	const char *why;

	y->w = w;
	y->who = who;
	if (!w->branch || !ag_branch_name_valid(w->branch, &why) ||
	    !ag_agent_name_valid(w->agent, &why))
		return error("%s: invalid session branch or agent", who);
	/* the variable is a ':'-separated list (the home has no ':') */
	if (strchr(w->workspace, ':'))
		return error("%s: workspace path '%s' contains ':'", who,
			     w->workspace);
	y->branch_ref = xstrfmt("refs/heads/%s", w->branch);
	y->kept_ref = xstrfmt("refs/agentic-git/sessions/%s/%s", w->agent,
			      w->branch);
	y->snap_prefix = xstrfmt("refs/agentic-git/snapshots/%s/", w->agent);
	y->common = private_of(w, who);
	return y->common ? 0 : -1;
}

/* Invariant 1: the workspace's branch and snapshots, from its files. */
static int read_ws_refs(struct sync *y)
{
	static const size_t lens[] = { 40, 64 };
	char *gd = xstrfmt("%s/.git", y->w->workspace);
	struct strbuf out = STRBUF_INIT;
	int rc = -1;

	/* the clone's object format: refs-files fails on the other length */
	for (size_t i = 0; rc && i < ARRAY_SIZE(lens); i++) {
		strbuf_reset(&out);
		if (refs_files_lookup(gd, lens[i], (const char *const *)&y->branch_ref,
				      1, &out) || out.len <= lens[i])
			continue;
		y->hexlen = lens[i];
		memcpy(y->tip, out.buf, lens[i]);
		y->tip[lens[i]] = '\0';
		rc = 0;
	}
	if (rc)
		error("%s: cannot read branch '%s' from the ref files of '%s'",
		      y->who, y->w->branch, y->w->workspace);
	else if (refs_files_list_prefix(gd, y->hexlen, y->snap_prefix,
					&y->ws_snaps) < 0)
		rc = error("%s: cannot read the snapshot refs of '%s' from its ref files",
			   y->who, y->w->workspace);
	free(gd);
	strbuf_release(&out);
	return rc;
}

/* What the clone has already, and what it lacks (invariant 4). */
static int plan(struct sync *y)
{
	struct child c = CHILD_INIT;
	struct strbuf name = STRBUF_INIT;

	clone_git(y, &c, false);
	strvec_pushl(&c.args, "for-each-ref", "--format=%(objectname) %(refname)",
		     y->branch_ref, y->snap_prefix, NULL);
	if (run_git(y, &c, &y->have) < 0)
		return -1;
	find_oid(y->have.buf, y->branch_ref, y->old);
	if (strcmp(y->tip, y->old))
		strvec_push(&y->want, y->tip);
	for (const char *l = y->ws_snaps.buf; *l;) {
		const char *e = strchrnul(l, '\n');
		strbuf_reset(&name);
		strbuf_add(&name, l + y->hexlen + 1, (size_t)(e - l) - y->hexlen - 1);
		if (!find_oid(y->have.buf, name.buf, NULL)) {
			strbuf_addf(&y->snaps, "%.*s %s\n", (int)y->hexlen, l,
				    name.buf);
			strvec_pushf(&y->want, "%.*s", (int)y->hexlen, l);
		}
		l = *e ? e + 1 : e;
	}
	strbuf_release(&name);
	return 0;
}

/* pack-objects of `list` into an unlinked file in the clone; its fd. */
static int pack_to_file(struct sync *y, const struct strbuf *list)
{
	struct child c = CHILD_INIT;
	char *tmpl = xstrfmt("%s/objects/agentic-git-sync-XXXXXX", y->common);
	int fd = mkostemp(tmpl, O_CLOEXEC);

	if (fd < 0) {
		error_errno("%s: cannot create a file in '%s/objects'", y->who,
			    y->common);
		free(tmpl);
		return -1;
	}
	unlink(tmpl);
	free(tmpl);
	clone_git(y, &c, true);
	strvec_pushl(&c.args, "pack-objects", "--stdout", "-q", NULL);
	c.in = list->buf;
	c.in_len = list->len;
	c.out_fd = fd;
	if (run_git(y, &c, NULL) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Invariant 2: index-pack names every object by its content. */
static int index_pack(struct sync *y, int fd)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	const char *hash;
	struct stat st;
	void *map;
	int rc;

	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		return error_errno("%s: pack-objects wrote nothing", y->who);
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return error_errno("%s: cannot map the pack", y->who);
	clone_git(y, &c, false);
	strvec_pushl(&c.args, "index-pack", "--stdin",
		     "--keep=agentic-git: a session's work coming in", NULL);
	c.in = map;
	c.in_len = (size_t)st.st_size;
	rc = run_git(y, &c, &out);
	munmap(map, (size_t)st.st_size);
	strbuf_trim(&out);
	if (!rc && skip_prefix(out.buf, "keep\t", &hash) &&
	    is_lower_hex(hash, strlen(hash)))
		y->keep = xstrfmt("%s/objects/pack/pack-%s.keep", y->common, hash);
	else if (!rc && !starts_with(out.buf, "pack\t"))
		rc = error("%s: unexpected index-pack output '%s'", y->who, out.buf);
	strbuf_release(&out);
	return rc;
}

/* Brings what `want` reaches and the clone lacks; checks it is all there. */
static int bring_objects(struct sync *y)
{
	struct strbuf list = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int rc, fd;

	if (!y->want.nr)
		return 0;
	clone_git(y, &c, true);
	strvec_pushl(&c.args, "rev-list", "--objects", NULL);
	strvec_pushv(&c.args, y->want.v);
	strvec_pushl(&c.args, "--not", "--all", NULL);
	rc = run_git(y, &c, &list);
	if (!rc && list.len) {
		fd = pack_to_file(y, &list);
		rc = fd < 0 ? -1 : index_pack(y, fd);
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&list);
	if (rc)
		return rc;
	clone_git(y, &c, false); /* the clone alone, now */
	strvec_pushl(&c.args, "rev-list", "--objects", "--quiet", NULL);
	strvec_pushv(&c.args, y->want.v);
	strvec_pushl(&c.args, "--not", "--all", NULL);
	return run_git(y, &c, NULL);
}

/* Invariant 4: the snapshots filed are agentic-git's, bound to the
 * session (fleet/snapshot-bind.h). */
static int bind_snapshots(struct sync *y)
{
	const struct snapshot_bind b = {
		.git = y->w->git,
		.repo = y->w->repo,
		.agent = y->w->agent,
		.worktree = y->w->workspace,
		.hexlen = y->hexlen,
		.who = y->who,
		.now = time(NULL),
	};

	return snapshot_bind_import(&b, y->snaps.buf, &y->tx);
}

/* Counts the commits only old has and only the tip has (old...tip). */
static int compare(const struct sync *y, unsigned long *only_old,
		   unsigned long *only_tip)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT, range = STRBUF_INIT;
	char *tab;
	int rc;

	strbuf_addf(&range, "%s...%s", y->old, y->tip);
	clone_git(y, &c, false);
	strvec_pushl(&c.args, "rev-list", "--left-right", "--count", range.buf,
		     NULL);
	rc = run_git(y, &c, &out);
	strbuf_trim(&out);
	tab = strchr(out.buf, '\t');
	if (tab)
		*tab++ = '\0';
	if (!rc && (!tab || parse_ulong(out.buf, ~0ul, only_old) < 0 ||
		    parse_ulong(tab, ~0ul, only_tip) < 0))
		rc = error("%s: cannot compare '%s' with the workspace's tip",
			   y->who, y->branch_ref);
	strbuf_release(&out);
	strbuf_release(&range);
	return rc;
}

/* Does the file `path` say "ref: <ref>"? */
static bool head_names(const char *path, const char *ref)
{
	struct strbuf sb = STRBUF_INIT;
	const char *rest;
	bool yes = false;

	if (!read_file_bounded(path, 4096, RF_REGULAR, &sb)) {
		strbuf_rtrim(&sb);
		yes = skip_prefix(sb.buf, "ref: ", &rest) && !strcmp(rest, ref);
	}
	strbuf_release(&sb);
	return yes;
}

/* checked_out() where HEAD files are not refs (git/repo-probe.h): git's
 * list of worktrees; a git that cannot tell counts as "checked out", so
 * the tip is kept aside rather than moved under a worktree. */
static bool checked_out_by_git(const struct sync *y)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT, lines = STRBUF_INIT,
		      want = STRBUF_INIT;
	bool found = true;

	clone_git(y, &c, false);
	strvec_pushl(&c.args, "worktree", "list", "--porcelain", NULL);
	if (!run_git(y, &c, &out)) {
		/* every line between newlines: "branch <ref>" is one whole */
		strbuf_addf(&lines, "\n%s\n", out.buf);
		strbuf_addf(&want, "\nbranch %s\n", y->branch_ref);
		found = strstr(lines.buf, want.buf) != NULL;
	}
	strbuf_release(&out);
	strbuf_release(&lines);
	strbuf_release(&want);
	return found;
}

/*
 * Is the branch checked out in a worktree of the clone? Moving it there
 * would leave that worktree's files behind (as `git fetch` refuses to).
 */
static bool checked_out(const struct sync *y)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	bool found;

	if (!repo_probe_refs_ours(repo_probe_get(y->common, NULL)))
		return checked_out_by_git(y);
	strbuf_addf(&path, "%s/HEAD", y->common);
	found = head_names(path.buf, y->branch_ref);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/worktrees", y->common);
	d = found ? NULL : opendir(path.buf);
	while (d && !found && (de = readdir(d))) {
		char *head = xstrfmt("%s/%s/HEAD", path.buf, de->d_name);
		found = de->d_name[0] != '.' && head_names(head, y->branch_ref);
		free(head);
	}
	if (d)
		closedir(d);
	strbuf_release(&path);
	return found;
}

/* Invariant 3: create, fast-forward, or keep the tip aside and say why. */
static int plan_branch(struct sync *y)
{
	unsigned long only_old = 0, only_tip = 1;

	if (!strcmp(y->tip, y->old))
		return 0;
	if (*y->old && compare(y, &only_old, &only_tip) < 0)
		return -1;
	if (!only_tip)
		return 0; /* the workspace is behind the branch: nothing to bring */
	if (only_old)
		y->kept_why = "has commits the private workspace lacks";
	else if (checked_out(y))
		y->kept_why = "is checked out in a worktree of that clone";
	if (y->kept_why)
		strbuf_addf(&y->tx, "update %s %s\n", y->kept_ref, y->tip);
	else if (*y->old)
		strbuf_addf(&y->tx, "update %s %s %s\n", y->branch_ref, y->tip,
			    y->old);
	else
		strbuf_addf(&y->tx, "create %s %s\n", y->branch_ref, y->tip);
	return 0;
}

/* One transaction; hooks off, as for every internal ref update. */
static int commit_refs(struct sync *y)
{
	struct child c = CHILD_INIT;

	if (!y->tx.len)
		return 0;
	clone_git(y, &c, false);
	strvec_pushl(&c.args, "-c", "core.hooksPath=/dev/null", "update-ref",
		     "--stdin", NULL);
	c.in = y->tx.buf;
	c.in_len = y->tx.len;
	return run_git(y, &c, NULL);
}

static void sync_release(struct sync *y)
{
	free(y->common);
	free(y->branch_ref);
	free(y->kept_ref);
	free(y->snap_prefix);
	free(y->keep);
	strbuf_release(&y->ws_snaps);
	strbuf_release(&y->have);
	strbuf_release(&y->tx);
	strbuf_release(&y->snaps);
	strvec_clear(&y->want);
}

int session_ws_sync(const struct session_ws *w, const char *who)
{
	struct sync y = { .ws_snaps = STRBUF_INIT,
			  .have = STRBUF_INIT,
			  .tx = STRBUF_INIT,
			  .snaps = STRBUF_INIT,
			  .want = STRVEC_INIT };
	int rc = sync_init(&y, w, who);

	if (!rc)
		rc = read_ws_refs(&y);
	if (!rc)
		rc = plan(&y);
	if (!rc)
		rc = bring_objects(&y);
	if (!rc)
		rc = bind_snapshots(&y);
	if (!rc)
		rc = plan_branch(&y);
	if (!rc)
		rc = commit_refs(&y);
	if (y.keep)
		unlink(y.keep); /* the refs hold the objects now (or gc may) */
	if (!rc && y.kept_why)
		warning("%s: branch '%s' in '%s' %s; the workspace's tip %s is kept as %s (merge it from there)",
			who, w->branch, w->repo, y.kept_why, y.tip, y.kept_ref);
	sync_release(&y);
	return rc;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "git/clean-args.h"
#include "git/gitcmd.h"
#include "git/quarantine.h"

#define WALK_MAX_DEPTH 256

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

enum walk_ret { WALK_CONTINUE = 0, WALK_SKIP = 1, WALK_ABORT = -1 };

/* Called for every entry below the root, directories before their
 * contents; `rel` is relative to the root. */
typedef int (*walk_fn)(const char *rel, const struct stat *st, void *ctx);

static int walk_rec(struct strbuf *abs, size_t root_len, int depth,
		    walk_fn fn, void *ctx)
{
	DIR *d;
	struct dirent *de;
	size_t len = abs->len;
	int ret = 0;

	if (depth > WALK_MAX_DEPTH) {
		errno = ELOOP;
		return -1;
	}
	d = opendir(abs->buf);
	if (!d)
		return -1;
	while (!ret && (de = readdir(d))) {
		struct stat st;
		int r;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_setlen(abs, len);
		strbuf_addf(abs, "/%s", de->d_name);
		if (lstat(abs->buf, &st) < 0)
			continue;
		r = fn(abs->buf + root_len + 1, &st, ctx);
		if (r == WALK_ABORT)
			ret = -1;
		else if (r == WALK_CONTINUE && S_ISDIR(st.st_mode))
			ret = walk_rec(abs, root_len, depth + 1, fn, ctx);
	}
	closedir(d);
	strbuf_setlen(abs, len);
	return ret;
}

static int walk(const char *root, walk_fn fn, void *ctx)
{
	struct strbuf abs = STRBUF_INIT;
	int ret;

	strbuf_addstr(&abs, root);
	ret = walk_rec(&abs, abs.len, 0, fn, ctx);
	strbuf_release(&abs);
	return ret;
}

int remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char *sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = path_join(path, de->d_name);
		if (remove_tree(sub) < 0)
			ret = -1;
		free(sub);
	}
	closedir(d);
	return rmdir(path) < 0 ? -1 : ret;
}

/* A hard link where it can (the file system and the link's owner allow):
 * git replaces a file it writes or deletes, it does not write into it, so
 * the link keeps the bytes it had; else a copy. */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	cleanup_fd int in = -1;
	cleanup_fd int out = -1;
	char buf[65536];
	ssize_t n;

	if (!link(src, dst))
		return 0;
	in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		   mode & 07777);
	if (out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (write_all(out, buf, (size_t)n) < 0)
			return -1;
	}
	return 0;
}

static int copy_tree(const char *src, const char *dst)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int ret = 0;

	if (lstat(src, &st) < 0)
		return -1;
	if (S_ISREG(st.st_mode))
		return copy_file(src, dst, st.st_mode);
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(src, target, sizeof(target) - 1);
		if (n < 0)
			return -1;
		target[n] = '\0';
		return symlink(target, dst);
	}
	if (!S_ISDIR(st.st_mode))
		return 0; /* fifos and sockets are not data */
	if (mkdir(dst, st.st_mode & 07777) < 0 && errno != EEXIST)
		return -1;
	if (!(d = opendir(src)))
		return -1;
	while (!ret && (de = readdir(d))) {
		char *s, *t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		s = path_join(src, de->d_name);
		t = path_join(dst, de->d_name);
		ret = copy_tree(s, t);
		free(s);
		free(t);
	}
	closedir(d);
	return ret;
}

static int make_parent(const char *dst)
{
	char *parent = path_dirname(dst);
	int ret = mkdir_p(parent, 0700);

	free(parent);
	return ret;
}

/* Invariant 2: an ignore file is copied, clean deletes it. */
static int copy_path(const char *src, const char *dst)
{
	return make_parent(dst) < 0 ? -1 : copy_tree(src, dst);
}

/* Invariant 2: rename, or copy + remove across filesystems. */
static int move_path(const char *src, const char *dst)
{
	if (make_parent(dst) < 0)
		return -1;
	if (!rename(src, dst))
		return 0;
	if (errno != EXDEV)
		return -1;
	if (copy_tree(src, dst) < 0) {
		int errsv = errno;
		remove_tree(dst);
		errno = errsv;
		return -1;
	}
	return remove_tree(src);
}

/* The ignored untracked paths, sorted; directories end in '/' and hold
 * nothing but ignored files (git ls-files --directory). */
static int ignored_set(const char *real_git, const char *gitdir,
		       const char *top, struct strvec *set, struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	struct child c = CHILD_INIT;
	int st;

	gitcmd_init_repo(&c, real_git, gitdir, top);
	strvec_pushl(&c.args, "ls-files", "-z", "-o", "-i", "--exclude-standard",
		     "--directory", NULL);
	st = gitcmd_run(&c, &out, err);
	child_release(&c);
	if (st != 0) {
		if (!err->len)
			strbuf_addstr(err, "git ls-files failed");
		strbuf_release(&out);
		return -1;
	}
	for (size_t off = 0; off < out.len;) {
		size_t n = strlen(out.buf + off);
		if (n)
			strvec_push(set, out.buf + off);
		off += n + 1;
	}
	strbuf_release(&out);
	qsort(set->v, set->nr, sizeof(*set->v), cmp_str);
	return 0;
}

static bool in_set(const struct strvec *set, const char *s)
{
	return set->nr && bsearch(&s, set->v, set->nr, sizeof(*set->v),
				  cmp_str);
}

/* `path` (top-relative, no trailing '/') or one of its parents is ignored. */
static bool is_ignored(const struct strvec *set, const char *path,
		       bool is_dir)
{
	struct strbuf sb = STRBUF_INIT;
	bool hit = false;

	if (!is_dir && in_set(set, path))
		return true;
	for (const char *p = path; !hit && (p = strchr(p, '/')); p++) {
		strbuf_reset(&sb);
		strbuf_add(&sb, path, (size_t)(p - path) + 1);
		hit = in_set(set, sb.buf);
	}
	if (!hit && is_dir) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/", path);
		hit = in_set(set, sb.buf);
	}
	strbuf_release(&sb);
	return hit;
}

/* A directory with a `.git` (a directory, or a file naming one
 * elsewhere): what clean -ff deletes as a repository. */
static bool nested_repo(const char *top, const char *path)
{
	char *git = xstrfmt("%s/%s/.git", top, path);
	struct stat st;
	bool ret = !lstat(git, &st);

	free(git);
	return ret;
}

struct dir_walk {
	const char *top;
	const char *prefix; /* top-relative dir being walked */
	const struct strvec *ignored; /* NULL: none is moved for it */
	bool all;		      /* every file is moved */
	struct quarantine_plan *qp;
};

/* A file of ignore rules: what clean deletes depends on it (invariant 2). */
static bool ignore_file(const char *path)
{
	return !strcmp(path_basename(path), ".gitignore");
}

/* One path clean deletes (top-relative, no trailing '/'): moved (an ignore
 * file copied), or, a directory, recorded and walked (WALK_CONTINUE). */
static int plan_path(struct dir_walk *w, const char *path, bool dir)
{
	if ((w->ignored && is_ignored(w->ignored, path, dir)) ||
	    (dir ? nested_repo(w->top, path) : w->all)) {
		strvec_push(!dir && ignore_file(path) ? &w->qp->copies
						      : &w->qp->moves,
			    path);
		return WALK_SKIP;
	}
	if (dir)
		strvec_push(&w->qp->dirs, path);
	return WALK_CONTINUE;
}

static int collect_entry(const char *rel, const struct stat *st, void *ctx)
{
	struct dir_walk *w = ctx;
	char *path = xstrfmt("%s/%s", w->prefix, rel);
	int ret = plan_path(w, path, S_ISDIR(st->st_mode));

	free(path);
	return ret;
}

/* Parses `clean -n` output into top-relative entries ("x/" for dirs). */
static int parse_dry_run(const char *out, const char *dir, const char *top,
			 struct strvec *entries)
{
	const char *p = out;

	while (*p) {
		const char *eol = strchrnul(p, '\n'), *name;
		struct strbuf path = STRBUF_INIT, abs = STRBUF_INIT;
		const char *rel;
		bool is_dir;

		if (skip_prefix(p, "Would remove ", &name) && name < eol &&
		    !unquote_c_path(name, (size_t)(eol - name), &path) &&
		    path.len) {
			is_dir = path.buf[path.len - 1] == '/';
			strbuf_addf(&abs, "%s/%s", dir, path.buf);
			path_normalize(&abs);
			if (path_inside(abs.buf, top, &rel) && *rel)
				strvec_pushf(entries, "%s%s", rel,
					     is_dir ? "/" : "");
		}
		strbuf_release(&path);
		strbuf_release(&abs);
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

static int dry_run(const char *real_git, const char *gitdir, const char *top,
		   const char *dir, const char *const *clean_args,
		   const char *const *configs, struct strbuf *out,
		   struct strbuf *err)
{
	struct child c = CHILD_INIT;
	unsigned flags;
	int st;

	gitcmd_init_repo(&c, real_git, gitdir, top);
	c.dir = dir; /* clean's pathspecs and its output are relative to it */
	/* the clean's own -c (core.excludesFile…): it lists what git will */
	for (; configs && *configs; configs++)
		strvec_pushl(&c.args, "-c", *configs, NULL);
	strvec_pushl(&c.args, "-c", "core.quotePath=false", "clean", "-n",
		     NULL);
	if (clean_dry_run_args(clean_args, &c.args, &flags) < 0) {
		child_release(&c);
		strbuf_addstr(err, "cannot parse the clean arguments");
		return -1;
	}
	st = gitcmd_run(&c, out, err);
	child_release(&c);
	if (st != 0 && !err->len)
		strbuf_addstr(err, "git clean -n failed");
	return st == 0 ? 0 : -1;
}

/* What `git clean -n` with that selection lists (top-relative, "x/" for
 * directories), sorted. */
static int clean_lists(const char *real_git, const char *gitdir,
		       const char *dir, const char *top,
		       const char *const *clean_args,
		       const char *const *configs, struct strvec *entries,
		       struct strbuf *err)
{
	struct strbuf out = STRBUF_INIT;
	int ret = -1;

	if (!dry_run(real_git, gitdir, top, dir, clean_args, configs, &out,
		     err) &&
	    !parse_dry_run(out.buf, dir, top, entries)) {
		qsort(entries->v, entries->nr, sizeof(*entries->v), cmp_str);
		ret = 0;
	}
	strbuf_release(&out);
	return ret;
}

int quarantine_plan_clean(const char *real_git, const char *gitdir,
			  const char *dir, const char *top,
			  const char *const *clean_args,
			  const char *const *configs, bool all,
			  struct quarantine_plan *qp, struct strbuf *err)
{
	struct strvec set = STRVEC_INIT;
	const struct strvec *entries = &qp->listed;
	int ret = -1;

	if (clean_lists(real_git, gitdir, dir, top, clean_args, configs,
			&qp->listed, err) < 0)
		goto out;
	/* ignored as the snapshot's `add -A` saw it: not only under -x/-X
	 * (an agent's `-e '!*.log'` or config un-ignores files) */
	if (entries->nr && ignored_set(real_git, gitdir, top, &set, err) < 0)
		goto out;
	for (size_t i = 0; i < entries->nr; i++) {
		size_t n = strlen(entries->v[i]);
		bool is_dir = entries->v[i][n - 1] == '/';
		char *name = xstrndup(entries->v[i], is_dir ? n - 1 : n);
		struct dir_walk w = { top, name, &set, all, qp };

		if (plan_path(&w, name, is_dir) == WALK_CONTINUE && is_dir) {
			char *abs = path_join(top, name);
			walk(abs, collect_entry, &w);
			free(abs);
		}
		free(name);
	}
	ret = 0;
out:
	strvec_clear(&set);
	return ret;
}

int quarantine_verify(const char *real_git, const char *gitdir, const char *dir,
		      const char *top, const char *const *clean_args,
		      const char *const *configs,
		      const struct quarantine_plan *qp, struct strbuf *err)
{
	struct strvec now = STRVEC_INIT;
	int ret = clean_lists(real_git, gitdir, dir, top, clean_args, configs,
			      &now, err);

	for (size_t i = 0; !ret && i < now.nr; i++) {
		if (in_set(&qp->listed, now.v[i]))
			continue;
		strbuf_addf(
			err,
			"with the quarantined files moved, git clean would also delete '%s'",
			now.v[i]);
		ret = -1;
	}
	strvec_clear(&now);
	return ret;
}

bool quarantine_plan_empty(const struct quarantine_plan *qp)
{
	return !qp->moves.nr && !qp->copies.nr && !qp->dirs.nr;
}

void quarantine_plan_release(struct quarantine_plan *qp)
{
	strvec_clear(&qp->moves);
	strvec_clear(&qp->copies);
	strvec_clear(&qp->dirs);
	strvec_clear(&qp->listed);
}

int quarantine_root(const char *home, struct strbuf *out, struct strbuf *err)
{
	const char *env = getenv(QUARANTINE_ENV);

	if (env && *env) {
		if (*env != '/' || !ends_with(env, "/quarantine") ||
		    strstr(env, "/../") || strstr(env, "/./")) {
			strbuf_addf(
				err,
				"%s='%s' is not an absolute path ending in /quarantine",
				QUARANTINE_ENV, env);
			return -1;
		}
		strbuf_addstr(out, env);
		return 0;
	}
	if (!home || !*home) {
		strbuf_addstr(err,
			      "no quarantine: AGENTIC_GIT_HOME is not set");
		return -1;
	}
	strbuf_addf(out, "%s/quarantine", home);
	return 0;
}

int quarantine_claim(const char *root, const char *who, const char *id,
		     struct strbuf *qdir, struct strbuf *err)
{
	struct strbuf parent = STRBUF_INIT;
	int ret = -1;

	strbuf_addf(&parent, "%s/%s", root, who);
	if (mkdir_p(parent.buf, 0700) < 0) {
		strbuf_addf(err, "cannot create '%s': %s", parent.buf,
			    strerror(errno));
		goto out;
	}
	for (int i = 0; i < 100 && ret < 0; i++) {
		strbuf_reset(qdir);
		strbuf_addf(qdir, "%s/%s", parent.buf, id);
		if (i)
			strbuf_addf(qdir, ".%d", i);
		if (!mkdir(qdir->buf, 0700))
			ret = 0;
		else if (errno != EEXIST)
			break;
	}
	if (ret < 0)
		strbuf_addf(err, "cannot create a quarantine under '%s': %s",
			    parent.buf, strerror(errno));
out:
	strbuf_release(&parent);
	return ret;
}

int quarantine_execute(const char *top, const char *qdir,
		       const struct quarantine_plan *qp, struct strbuf *err)
{
	int ret = 0;

	for (size_t i = 0; i < qp->dirs.nr; i++) {
		char *d = path_join(qdir, qp->dirs.v[i]);
		if (mkdir_p(d, 0700) < 0 && !ret) {
			strbuf_addf(err, "cannot record '%s': %s",
				    qp->dirs.v[i], strerror(errno));
			ret = -1;
		}
		free(d);
	}
	for (size_t i = 0; i < qp->moves.nr + qp->copies.nr; i++) {
		bool copy = i >= qp->moves.nr;
		const char *rel =
			copy ? qp->copies.v[i - qp->moves.nr] : qp->moves.v[i];
		char *src = path_join(top, rel);
		char *dst = path_join(qdir, rel);
		if ((copy ? copy_path(src, dst) : move_path(src, dst)) < 0 &&
		    !ret) {
			strbuf_addf(err, "cannot %s '%s' into '%s': %s",
				    copy ? "copy" : "move", rel, qdir,
				    strerror(errno));
			ret = -1;
		}
		free(src);
		free(dst);
	}
	return ret;
}

struct restore_walk {
	const char *qdir, *top;
	size_t restored, kept;
	struct strbuf *err;
};

static int restore_entry(const char *rel, const struct stat *st, void *ctx)
{
	struct restore_walk *r = ctx;
	char *src = path_join(r->qdir, rel), *dst = path_join(r->top, rel);
	struct stat now;
	int ret = WALK_CONTINUE;

	if (lstat(dst, &now) < 0 && errno == ENOENT) {
		/* invariant 3: only where nothing exists now */
		if (move_path(src, dst) < 0) {
			if (!r->err->len)
				strbuf_addf(r->err, "cannot move '%s' back: %s",
					    rel, strerror(errno));
		} else {
			r->restored++;
		}
		ret = WALK_SKIP;
	} else if (!S_ISDIR(st->st_mode) || !S_ISDIR(now.st_mode)) {
		r->kept++;
		ret = WALK_SKIP;
	}
	free(src);
	free(dst);
	return ret;
}

int quarantine_restore(const char *qdir, const char *top, size_t *restored,
		       size_t *kept, struct strbuf *err)
{
	struct restore_walk r = { qdir, top, 0, 0, err };
	int ret;

	if (!is_dir(qdir)) {
		*restored = *kept = 0;
		return 0;
	}
	ret = walk(qdir, restore_entry, &r);
	*restored = r.restored;
	*kept = r.kept;
	if (ret < 0 && !err->len)
		strbuf_addf(err, "cannot read '%s': %s", qdir, strerror(errno));
	return ret < 0 || err->len ? -1 : 0;
}

static int list_entry(const char *rel, const struct stat *st, void *ctx)
{
	struct strvec *out = ctx;

	strvec_pushf(out, "%s%s", rel, S_ISDIR(st->st_mode) ? "/" : "");
	return WALK_CONTINUE;
}

int quarantine_list(const char *qdir, struct strvec *out)
{
	if (!is_dir(qdir))
		return 0;
	return walk(qdir, list_entry, out);
}

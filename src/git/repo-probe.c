/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The repository probe (git/repo-probe.h): its queries, and the per-process
 * cache that reads a repository's config once.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/repo-probe.h"

#define PROBE_CACHE 4
#define PROBE_FILES 32	       /* config files a repository's probe reads */
#define PROBE_INCLUDE_DEPTH 10 /* git's own limit */

static bool sure(const struct repo_probe *p)
{
	return !(p->flags &
		 (PROBE_ODD | PROBE_FORMAT_NEWER | PROBE_UNKNOWN_EXT));
}

bool repo_probe_refs_ours(const struct repo_probe *p)
{
	return sure(p) && !(p->flags & PROBE_REFS_OTHER) &&
	       p->objfmt != PROBE_OBJFMT_OTHER;
}

bool repo_probe_files_ours(const struct repo_probe *p)
{
	return sure(p) && !(p->flags & PROBE_SHARED);
}

bool repo_probe_ref_writes_ours(const struct repo_probe *p)
{
	return repo_probe_refs_ours(p) && repo_probe_files_ours(p) &&
	       !(p->flags & PROBE_REFLOG_ALWAYS);
}

bool repo_probe_objects_ours(const struct repo_probe *p)
{
	/* how refs are stored does not change the objects */
	return repo_probe_files_ours(p) && p->objfmt == PROBE_SHA1;
}

bool repo_probe_index_ours(const struct repo_probe *p)
{
	return sure(p) && p->objfmt != PROBE_OBJFMT_OTHER &&
	       !(p->flags & (PROBE_SPLIT_INDEX | PROBE_SPARSE_INDEX));
}

size_t repo_probe_hexlen(const struct repo_probe *p)
{
	return p->objfmt == PROBE_SHA1	   ? 40
	       : p->objfmt == PROBE_SHA256 ? 64
					   : 0;
}

/* What a config file was when read: the cache is good while it is so. */
struct stamp {
	bool present;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};

struct entry {
	char *commondir, *gitdir; /* owned; gitdir may be NULL */
	struct strvec files;	  /* every config file read or looked for */
	struct stamp *stamps;	  /* owned: one a file */
	bool reftable;		  /* <commondir>/reftable was there */
	struct repo_probe probe;
};

/* owned: the per-process cache (repo-probe.h inv. 3) */
static struct entry cache[PROBE_CACHE];
static size_t cache_next;

static void stamp_of(const struct stat *st, struct stamp *s)
{
	s->present = true;
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	s->size = st->st_size;
	s->mtime = st->st_mtim;
	s->ctime = st->st_ctim;
}

static bool stamp_holds(const char *path, const struct stamp *s)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return !s->present && (errno == ENOENT || errno == ENOTDIR);
	return s->present && S_ISREG(st.st_mode) && st.st_dev == s->dev &&
	       st.st_ino == s->ino && st.st_size == s->size &&
	       st.st_mtim.tv_sec == s->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == s->mtime.tv_nsec &&
	       st.st_ctim.tv_sec == s->ctime.tv_sec &&
	       st.st_ctim.tv_nsec == s->ctime.tv_nsec;
}

/* An include's path as git resolves it: `~/` from $HOME, a relative one
 * from the including file's directory. NULL when it cannot tell. */
static char *include_path(const char *from, const char *inc)
{
	const char *home = getenv("HOME"), *rest;
	char *dir, *joined;

	if (inc[0] == '/')
		return xstrdup(inc);
	if (skip_prefix(inc, "~/", &rest))
		return home && home[0] == '/' ? path_join(home, rest) : NULL;
	if (inc[0] == '~')
		return NULL; /* ~user/: not followed, so not ours */
	dir = path_dirname(from);
	joined = path_join(dir, inc);
	free(dir);
	return joined;
}

/*
 * One config file into e->probe, and the files it includes; a missing one
 * is empty (git's default). The repository's own config is not followed
 * through a symlink (PROBE_ODD); the operator's files may be links.
 */
static void read_config(struct entry *e, const char *path,
			enum repo_probe_level level, unsigned depth)
{
	struct strbuf buf = STRBUF_INIT;
	struct strvec inc = STRVEC_INIT;
	struct stamp s = { 0 };
	struct stat st;
	int fd;

	if (depth > PROBE_INCLUDE_DEPTH || e->files.nr >= PROBE_FILES) {
		e->probe.flags |= PROBE_ODD;
		return;
	}
	/* O_NONBLOCK: a FIFO planted as a config must not hang us */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
				(level == PROBE_LEVEL_REPO ? O_NOFOLLOW : 0));
	if (fd < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			e->probe.flags |= PROBE_ODD;
	} else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		   read_fd_bounded(fd, REPO_PROBE_CONFIG_MAX, &buf) < 0) {
		e->probe.flags |= PROBE_ODD;
	} else {
		stamp_of(&st, &s);
		repo_probe_config(&e->probe, buf.buf, buf.len, level, &inc);
	}
	if (fd >= 0)
		close(fd);
	strvec_push(&e->files, path);
	e->stamps =
		xrealloc(e->stamps, st_mult(e->files.nr, sizeof(*e->stamps)));
	e->stamps[e->files.nr - 1] = s;
	for (size_t i = 0; i < inc.nr; i++) {
		char *p = include_path(path, inc.v[i]);
		if (p)
			read_config(e, p, PROBE_LEVEL_OTHER, depth + 1);
		else
			e->probe.flags |= PROBE_ODD;
		free(p);
	}
	strvec_clear(&inc);
	strbuf_release(&buf);
}

/* git_env_bool's true, for GIT_CONFIG_NOSYSTEM */
static bool env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcasecmp(v, "false") &&
	       strcasecmp(v, "no") && strcasecmp(v, "off");
}

/* The system and global config files git reads, in its order. */
static void operator_files(struct strvec *out)
{
	const char *sys = getenv("GIT_CONFIG_SYSTEM"),
		   *glob = getenv("GIT_CONFIG_GLOBAL"),
		   *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (!env_true("GIT_CONFIG_NOSYSTEM"))
		strvec_push(out, sys ? sys : "/etc/gitconfig");
	if (glob) {
		strvec_push(out, glob);
		return;
	}
	if (xdg && *xdg)
		strvec_pushf(out, "%s/git/config", xdg);
	else if (home && *home)
		strvec_pushf(out, "%s/.config/git/config", home);
	if (home && *home)
		strvec_pushf(out, "%s/.gitconfig", home);
}

static void probe_fill(struct entry *e)
{
	struct strvec op = STRVEC_INIT;
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	memset(&e->probe, 0, sizeof(e->probe));
	strvec_clear(&e->files);
	free(e->stamps);
	e->stamps = NULL;
	/* the operator's files set only core.* and index.* keys of ours */
	operator_files(&op);
	for (size_t i = 0; i < op.nr; i++)
		if (op.v[i][0] && strcmp(op.v[i], "/dev/null"))
			read_config(e, op.v[i], PROBE_LEVEL_OTHER, 0);
	strvec_clear(&op);
	strbuf_addf(&path, "%s/config", e->commondir);
	read_config(e, path.buf, PROBE_LEVEL_REPO, 0);
	if (e->probe.flags & PROBE_WORKTREE_CONFIG) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config.worktree",
			    e->gitdir ? e->gitdir : e->commondir);
		read_config(e, path.buf, PROBE_LEVEL_OTHER, 0);
	}
	/* reftable's own directory, whatever the config says */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/reftable", e->commondir);
	e->reftable = !lstat(path.buf, &st) || errno != ENOENT;
	if (e->reftable)
		e->probe.flags |= PROBE_REFS_OTHER;
	/* `git init --shared` makes its directories setgid */
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/objects", e->commondir);
	if (!stat(path.buf, &st) && (st.st_mode & S_ISGID))
		e->probe.flags |= PROBE_SHARED;
	strbuf_release(&path);
}

/* The config files and reftable/ are as they were (a stat each). */
static bool entry_holds(const struct entry *e)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&path, "%s/reftable", e->commondir);
	ok = (!lstat(path.buf, &st) || errno != ENOENT) == e->reftable;
	for (size_t i = 0; ok && i < e->files.nr; i++)
		ok = stamp_holds(e->files.v[i], &e->stamps[i]);
	strbuf_release(&path);
	return ok;
}

const struct repo_probe *repo_probe_get(const char *commondir,
					const char *gitdir)
{
	static const struct repo_probe unknown = { 0, PROBE_OBJFMT_OTHER,
						   PROBE_ODD };
	struct entry *e;

	if (!commondir || commondir[0] != '/')
		return &unknown;
	for (size_t i = 0; i < PROBE_CACHE; i++) {
		if (cache[i].commondir &&
		    !strcmp(cache[i].commondir, commondir) &&
		    !cache[i].gitdir == !gitdir &&
		    (!gitdir || !strcmp(cache[i].gitdir, gitdir))) {
			e = &cache[i];
			if (!entry_holds(e))
				probe_fill(e); /* the config changed: again */
			return &e->probe;
		}
	}
	e = &cache[cache_next];
	cache_next = (cache_next + 1) % PROBE_CACHE;
	free(e->commondir);
	free(e->gitdir);
	e->commondir = xstrdup(commondir);
	e->gitdir = gitdir ? xstrdup(gitdir) : NULL;
	probe_fill(e);
	return &e->probe;
}

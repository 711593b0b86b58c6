/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The repository probe (git/repo-probe.h): its queries, and the per-process
 * cache that reads a repository's config once.
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/repo-probe.h"

#define PROBE_CACHE 4

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
	return repo_probe_refs_ours(p) && repo_probe_files_ours(p) &&
	       p->objfmt == PROBE_SHA1;
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
	struct stamp cfg, wt;
	bool reftable; /* <commondir>/reftable was there */
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

	if (lstat(path, &st) < 0)
		return !s->present && errno == ENOENT;
	return s->present && S_ISREG(st.st_mode) && st.st_dev == s->dev &&
	       st.st_ino == s->ino && st.st_size == s->size &&
	       st.st_mtim.tv_sec == s->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == s->mtime.tv_nsec &&
	       st.st_ctim.tv_sec == s->ctime.tv_sec &&
	       st.st_ctim.tv_nsec == s->ctime.tv_nsec;
}

/* One config file into p; a missing one is empty (git's default). */
static void read_config(const char *path, struct repo_probe *p, struct stamp *s)
{
	struct strbuf buf = STRBUF_INIT;
	cleanup_fd int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (fd < 0) {
		if (errno != ENOENT)
			p->flags |= PROBE_ODD;
		return;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read_fd_bounded(fd, REPO_PROBE_CONFIG_MAX, &buf) < 0) {
		p->flags |= PROBE_ODD;
	} else {
		stamp_of(&st, s);
		repo_probe_config(p, buf.buf, buf.len);
	}
	strbuf_release(&buf);
}

static void probe_fill(struct entry *e)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;

	memset(&e->probe, 0, sizeof(e->probe));
	strbuf_addf(&path, "%s/config", e->commondir);
	read_config(path.buf, &e->probe, &e->cfg);
	memset(&e->wt, 0, sizeof(e->wt));
	if (e->probe.flags & PROBE_WORKTREE_CONFIG) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config.worktree",
			    e->gitdir ? e->gitdir : e->commondir);
		read_config(path.buf, &e->probe, &e->wt);
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

/* The config files and reftable/ are as they were (one lstat each). */
static bool entry_holds(const struct entry *e)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	bool ok;

	strbuf_addf(&path, "%s/reftable", e->commondir);
	ok = (!lstat(path.buf, &st) || errno != ENOENT) == e->reftable;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/config", e->commondir);
	ok = ok && stamp_holds(path.buf, &e->cfg);
	if (ok && (e->probe.flags & PROBE_WORKTREE_CONFIG)) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config.worktree",
			    e->gitdir ? e->gitdir : e->commondir);
		ok = stamp_holds(path.buf, &e->wt);
	}
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

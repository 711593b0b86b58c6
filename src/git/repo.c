/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Repository facts from the filesystem (reference §3.5 common-dir rules).
 *
 * Invariants:
 *  1. Reads are bounded and O_NOFOLLOW where the file is ours to trust
 *     (HEAD, gitdir, commondir, packed-refs, markers).
 *  2. Anything of an unexpected shape is REPO_ODD, which the policy treats
 *     fail-closed; nothing here guesses.
 *  3. Refs are read as files only where the repository probe says the
 *     files backend holds them (git/repo-probe.h); elsewhere git answers,
 *     and when git cannot, the answer is "unknown". A reftable
 *     repository's HEAD file names the placeholder branch `.invalid`
 *     (git's files-backend guard): its branch is not known from files.
 */
#include "base/common.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/fileio.h"
#include "base/path.h"
#include "base/refname.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/packed-refs.h"
#include "git/repo.h"
#include "git/repo-probe.h"

#define SMALL_FILE 4096
/* packed-refs larger than this: git answers */
#define PACKED_REFS_MAX (256u << 20)

void repo_loc_release(struct repo_loc *r)
{
	free(r->top);
	free(r->gitdir);
	free(r->commondir);
	free(r->head_branch);
	free(r->rel);
	memset(r, 0, sizeof(*r));
}

static int read_small(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (read_small_file(path, SMALL_FILE, sb) < 0)
		return -1;
	strbuf_trim(sb);
	return 0;
}

/*
 * The common dir named by a linked worktree's `commondir` file. git writes
 * "../.." there: the parent of a canonical directory is canonical, so that
 * form is resolved by dropping components (no system call, not a realpath
 * of every component on the hot path); anything else goes through
 * realpath.
 */
static char *resolve_commondir(const char *gitdir, const char *rel)
{
	const char *p = rel;
	char *dir = xstrdup(gitdir);

	while (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2])) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
		p += p[2] ? 3 : 2;
	}
	/* a prefix of an existing canonical directory is one too */
	if (!*p && dir[0] == '/' && dir[1])
		return dir;
	free(dir);
	{
		char *joined = path_join(gitdir, rel);
		char *c = real_path(joined);
		free(joined);
		return c;
	}
}

char *repo_head_ref(const char *gitdir)
{
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	const char *ref;
	char *out = NULL;

	strbuf_addpath(&p, gitdir, "HEAD");
	if (!read_small(p.buf, &sb) && skip_prefix(sb.buf, "ref: ", &ref) &&
	    starts_with(ref, "refs/heads/") &&
	    strcmp(ref, "refs/heads/.invalid"))
		out = xstrdup(ref);
	strbuf_release(&sb);
	strbuf_release(&p);
	return out;
}

/* gitdir is canonical; fills commondir and head_branch. */
static enum repo_found fill_from_gitdir(struct repo_loc *r)
{
	struct strbuf sb = STRBUF_INIT, p = STRBUF_INIT;
	const char *ref;

	strbuf_addpath(&p, r->gitdir, "commondir");
	if (!read_small(p.buf, &sb) && sb.len) {
		r->commondir = resolve_commondir(r->gitdir, sb.buf);
		if (!r->commondir)
			goto odd;
	} else {
		r->commondir = xstrdup(r->gitdir);
	}
	if (r->head_unread)
		goto out;
	strbuf_reset(&p);
	strbuf_addpath(&p, r->gitdir, "HEAD");
	if (read_small(p.buf, &sb))
		goto odd;
	if (skip_prefix(sb.buf, "ref: refs/heads/", &ref) &&
	    strcmp(ref, ".invalid"))
		r->head_branch = xstrdup(ref);
out:
	strbuf_release(&sb);
	strbuf_release(&p);
	return REPO_FOUND;
odd:
	strbuf_release(&sb);
	strbuf_release(&p);
	return REPO_ODD;
}

/* st: lstat of dotgit (its type); bytes: a file's content, read already
 * (NULL: read it here) */
static enum repo_found at_dotgit(const char *dir, const char *dotgit,
				 const struct stat *st,
				 const struct strbuf *bytes, struct repo_loc *r)
{
	struct strbuf sb = STRBUF_INIT;
	const char *g;

	r->top = xstrdup(dir);
	if (S_ISDIR(st->st_mode)) {
		r->gitdir = real_dir_path(dotgit);
		r->is_main = true;
	} else if (S_ISREG(st->st_mode)) {
		if (!bytes && read_small(dotgit, &sb) < 0) {
			strbuf_release(&sb);
			return REPO_ODD;
		}
		if (!skip_prefix(bytes ? bytes->buf : sb.buf, "gitdir: ", &g)) {
			strbuf_release(&sb);
			return REPO_ODD;
		}
		{
			char *joined = path_join(dir, g);
			r->gitdir = real_dir_path(joined);
			free(joined);
		}
	} else if (S_ISLNK(st->st_mode)) {
		/* git follows a symlinked .git: so do we, once */
		char *real = real_path(dotgit);
		struct stat t;
		enum repo_found res = REPO_ODD;

		if (real && !lstat(real, &t) && !S_ISLNK(t.st_mode)) {
			free(r->top);
			r->top = NULL;
			res = at_dotgit(dir, real, &t, NULL, r);
		}
		free(real);
		return res;
	} else {
		return REPO_ODD; /* a fifo, a device */
	}
	strbuf_release(&sb);
	if (!r->gitdir)
		return REPO_ODD;
	return fill_from_gitdir(r);
}

/*
 * git's validate_headref(): a symlink into refs/, a file that starts with
 * `ref:` and blanks then refs/, or one that starts with an object id
 * (40 hex digits of either case: discovery reads it before it knows the
 * repository's object format). Review of d5ccd4a: `ref:refs/heads/main`
 * and a HEAD symlink made a git dir the shim did not see.
 */
static bool head_valid(const char *head)
{
	char buf[256];
	struct stat st;
	const char *ref;
	ssize_t n;
	int fd;

	if (lstat(head, &st) < 0)
		return false;
	if (S_ISLNK(st.st_mode)) {
		n = readlink(head, buf, sizeof(buf) - 1);
		return n >= 5 && !memcmp(buf, "refs/", 5);
	}
	if (!S_ISREG(st.st_mode)) /* a FIFO would hang the read */
		return false;
	fd = open(head, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	if (skip_prefix(buf, "ref:", &ref)) {
		while (isspace((unsigned char)*ref))
			ref++;
		if (starts_with(ref, "refs/"))
			return true;
	}
	for (n = 0; n < 40 && isxdigit((unsigned char)buf[n]); n++)
		;
	return n == 40;
}

bool repo_is_git_dir(const char *dir)
{
	const char *objects = getenv("GIT_OBJECT_DIRECTORY");
	char *head = path_join(dir, "HEAD"), *p;
	struct stat st;
	bool ret = head_valid(head);

	free(head);
	if (!ret)
		return false;
	/* git's is_git_directory(): a commondir of any kind, else objects
	 * (or GIT_OBJECT_DIRECTORY) and refs it may enter */
	p = path_join(dir, "commondir");
	ret = !stat(p, &st);
	free(p);
	if (ret)
		return true;
	p = objects ? xstrdup(objects) : path_join(dir, "objects");
	ret = !access(p, X_OK);
	free(p);
	if (!ret)
		return false;
	p = path_join(dir, "refs");
	ret = !access(p, X_OK);
	free(p);
	return ret;
}

static enum repo_found discover(char *cur, struct repo_loc *out);

enum repo_found repo_discover(const char *start, struct repo_loc *out)
{
	char *cur = real_path(start);

	memset(out, 0, sizeof(*out));
	if (!cur)
		return REPO_ODD;
	return discover(cur, out);
}

enum repo_found repo_discover_canonical(const char *start, struct repo_loc *out)
{
	memset(out, 0, sizeof(*out));
	return discover(xstrdup(start), out);
}

enum repo_found repo_discover_no_head(const char *start, struct repo_loc *out)
{
	memset(out, 0, sizeof(*out));
	out->head_unread = true;
	return discover(xstrdup(start), out);
}

/*
 * Whether `dotgit` is there, its type in st->st_mode: 1 with a file's
 * bytes in `bytes`, -1 for another type, 0 for nothing. One open and one
 * read tell the shapes discovery meets apart with no lstat (the hot path
 * reads a linked worktree's .git file): bytes (a file; a FIFO or a device
 * gives what fails the caller's parse), EISDIR (a directory), ELOOP under
 * O_NOFOLLOW (a symlink), ENOENT (nothing); any other error is lstat'ed.
 */
static int dotgit_probe(const char *dotgit, struct stat *st,
			struct strbuf *bytes)
{
	memset(st, 0, sizeof(*st));
	if (!read_small_file(dotgit, SMALL_FILE, bytes)) {
		strbuf_trim(bytes);
		st->st_mode = S_IFREG;
		return 1;
	}
	if (errno == ENOENT)
		return 0;
	if (errno == EISDIR || errno == ELOOP) {
		st->st_mode = errno == EISDIR ? S_IFDIR : S_IFLNK;
		return -1;
	}
	return lstat(dotgit, st) < 0 ? 0 : -1;
}

/* Takes ownership of cur, a canonical path. */
static enum repo_found discover(char *cur, struct repo_loc *out)
{
	char *start = xstrdup(cur);
	enum repo_found res = REPO_NONE;

	for (;;) {
		char *dotgit = path_join(cur, ".git");
		struct strbuf bytes = STRBUF_INIT;
		struct stat st;
		int here = dotgit_probe(dotgit, &st, &bytes);
		if (here) {
			res = at_dotgit(cur, dotgit, &st,
					here > 0 ? &bytes : NULL, out);
			strbuf_release(&bytes);
			free(dotgit);
			break;
		}
		free(dotgit);
		if (repo_is_git_dir(cur)) {
			/* git's GIT_DIR, with no work tree */
			out->gitdir = xstrdup(cur);
			res = fill_from_gitdir(out);
			break;
		}
		if (!strcmp(cur, "/"))
			break;
		{
			char *up = path_dirname(cur);
			free(cur);
			cur = up;
		}
	}
	if (res == REPO_FOUND) {
		const char *rel = "";
		out->rel = xstrdup(
			out->top && path_inside(start, out->top, &rel) ? rel
								       : "");
	} else {
		repo_loc_release(out);
	}
	free(cur);
	free(start);
	return res;
}

enum repo_found repo_from_gitdir(const char *gitdir, const char *work_tree,
				 struct repo_loc *out)
{
	struct stat st;
	char *g;

	memset(out, 0, sizeof(*out));
	g = real_dir_path(gitdir);
	if (!g)
		return REPO_ODD;
	if (stat(g, &st) < 0) {
		free(g);
		return REPO_NONE;
	}
	if (!S_ISDIR(st.st_mode)) {
		/* --git-dir may name a .git file (canonical: stat is lstat) */
		char *dir = path_dirname(g);
		enum repo_found r = at_dotgit(dir, g, &st, NULL, out);
		free(dir);
		free(g);
		if (r == REPO_FOUND && !out->rel)
			out->rel = xstrdup("");
		return r;
	}
	out->gitdir = g;
	if (work_tree)
		out->top = real_path(work_tree);
	out->rel = xstrdup("");
	if (fill_from_gitdir(out) != REPO_FOUND) {
		repo_loc_release(out);
		return REPO_ODD;
	}
	return REPO_FOUND;
}

/*
 * Whether packed-refs has refname, or with remote_tail a
 * refs/remotes/<any>/<refname>: PRESENT, ABSENT, or UNKNOWN for "ask git"
 * (git/packed-refs.h: too large, odd, unreadable).
 */
static enum repo_ref packed_has(const struct repo_loc *r, size_t hexlen,
				const char *refname, bool remote_tail)
{
	struct packed_refs pr = PACKED_REFS_INIT;
	enum repo_ref res = REPO_REF_ABSENT;

	if (packed_refs_read(&pr, r->commondir, hexlen, PACKED_REFS_MAX) < 0)
		res = REPO_REF_UNKNOWN;
	for (size_t i = 0; i < pr.nr && res == REPO_REF_ABSENT; i++) {
		const char *rest, *slash;
		if (!remote_tail) {
			if (!strcmp(pr.v[i].name, refname))
				res = REPO_REF_PRESENT;
		} else if (skip_prefix(pr.v[i].name, "refs/remotes/", &rest) &&
			   (slash = strchr(rest, '/')) &&
			   !strcmp(slash + 1, refname)) {
			res = REPO_REF_PRESENT;
		}
	}
	packed_refs_release(&pr);
	return res;
}

/* The object format's hex length where refs are files, else 0. */
static size_t refs_files_hexlen(const struct repo_loc *r)
{
	const struct repo_probe *p = repo_probe_get(r->commondir, r->gitdir);

	return repo_probe_refs_ours(p) ? repo_probe_hexlen(p) : 0;
}

/* git's answer: `args` exits 0 when the ref exists (and, for_each, prints
 * a line), 1 or prints nothing when it does not; anything else is unknown
 * (a git that refuses the repository). */
static enum repo_ref ask_git(const struct repo_loc *r, bool for_each,
			     const char *const *args)
{
	const char *git = gitcmd_real_git();
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT;
	enum repo_ref res = REPO_REF_UNKNOWN;
	int st;

	if (!git)
		return res;
	gitcmd_init(&c, git, r->top ? r->top : r->gitdir);
	strvec_pushf(&c.args, "--git-dir=%s", r->gitdir);
	strvec_pushv(&c.args, args);
	st = gitcmd_run(&c, &out, NULL);
	if (st == 0 && (!for_each || out.len))
		res = REPO_REF_PRESENT;
	else if (st == 0 || st == 1)
		res = REPO_REF_ABSENT;
	child_release(&c);
	strbuf_release(&out);
	return res;
}

enum repo_ref repo_ref_state(const struct repo_loc *r, const char *refname)
{
	struct strbuf p = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	struct stat st;
	size_t hexlen;
	enum repo_ref res = REPO_REF_UNKNOWN;

	/* a name git's rules refuse is no ref git could have */
	if (!refname_valid(refname, REFNAME_ONELEVEL))
		return REPO_REF_ABSENT;
	hexlen = refs_files_hexlen(r);
	if (hexlen) {
		strbuf_addf(&p, "%s/%s", r->commondir, refname);
		if (!lstat(p.buf, &st) && S_ISREG(st.st_mode))
			res = REPO_REF_PRESENT;
		else
			res = packed_has(r, hexlen, refname, false);
		strbuf_release(&p);
	}
	if (res != REPO_REF_UNKNOWN)
		return res;
	strvec_pushl(&args, "show-ref", "--verify", "--quiet",
		     "--end-of-options", refname, NULL);
	res = ask_git(r, false, args.v);
	strvec_clear(&args);
	return res;
}

bool repo_ref_exists(const struct repo_loc *r, const char *refname)
{
	return repo_ref_state(r, refname) == REPO_REF_PRESENT;
}

static enum repo_ref remote_branch_in_files(const struct repo_loc *r,
					    size_t hexlen, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	bool found = false;

	strbuf_addf(&p, "%s/refs/remotes", r->commondir);
	d = opendir(p.buf);
	while (d && !found && (de = readdir(d))) {
		struct strbuf f = STRBUF_INIT;
		struct stat st;
		if (de->d_name[0] == '.')
			continue;
		strbuf_addf(&f, "%s/%s/%s", p.buf, de->d_name, name);
		found = !lstat(f.buf, &st) && S_ISREG(st.st_mode);
		strbuf_release(&f);
	}
	if (d)
		closedir(d);
	strbuf_release(&p);
	return found ? REPO_REF_PRESENT : packed_has(r, hexlen, name, true);
}

bool repo_remote_branch_exists(const struct repo_loc *r, const char *name)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf pat = STRBUF_INIT;
	size_t hexlen;
	enum repo_ref res = REPO_REF_UNKNOWN;

	/* what follows refs/remotes/<remote>/ */
	if (!refname_valid(name, REFNAME_BRANCH))
		return false;
	hexlen = refs_files_hexlen(r);
	if (hexlen)
		res = remote_branch_in_files(r, hexlen, name);
	if (res != REPO_REF_UNKNOWN)
		return res == REPO_REF_PRESENT;
	strbuf_addf(&pat, "refs/remotes/*/%s", name);
	strvec_pushl(&args, "for-each-ref", "--count=1", "--format=x",
		     "--end-of-options", pat.buf, NULL);
	res = ask_git(r, true, args.v);
	strvec_clear(&args);
	strbuf_release(&pat);
	return res == REPO_REF_PRESENT;
}

bool repo_has_origin(const struct repo_loc *r)
{
	struct strbuf p = STRBUF_INIT, data = STRBUF_INIT;
	bool ok = false;

	strbuf_addf(&p, "%s/config", r->commondir);
	if (!read_file_bounded(p.buf, 1 << 20, RF_REGULAR, &data))
		ok = strstr(data.buf, "[remote \"origin\"]") != NULL;
	strbuf_release(&p);
	strbuf_release(&data);
	return ok;
}

static char *marker_walk(char *cur, char **dir);

char *repo_worktree_of_admin(const char *gitdir)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = path_join(gitdir, "gitdir"), *top = NULL;

	if (!read_small(p, &sb) && sb.len && sb.buf[0] == '/')
		top = path_dirname(sb.buf);
	free(p);
	strbuf_release(&sb);
	return top;
}

char *marker_agent_above(const char *start, char **dir)
{
	return marker_walk(real_path(start), dir);
}

char *marker_agent_above_canonical(const char *start, char **dir)
{
	return marker_walk(xstrdup(start), dir);
}

static char *marker_walk(char *cur, char **dir)
{
	struct strbuf sb = STRBUF_INIT;
	char *agent = NULL;

	*dir = NULL;
	while (cur) {
		char *m = path_join(cur, SESSION_MARKER_NAME);
		strbuf_reset(&sb);
		if (!read_file_bounded(m, SMALL_FILE, RF_REGULAR, &sb)) {
			char *line, *save = NULL;
			for (line = strtok_r(sb.buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				struct strbuf v = STRBUF_INIT;
				const char *val;
				if (!skip_prefix(line, "agent=", &val))
					continue;
				strbuf_addstr(&v, val);
				strbuf_trim(&v);
				if (v.len) {
					agent = strbuf_detach(&v, NULL);
					break;
				}
				strbuf_release(&v);
			}
		}
		free(m);
		if (agent) {
			*dir = cur;
			cur = NULL;
			break;
		}
		if (!strcmp(cur, "/"))
			break;
		{
			char *up = path_dirname(cur);
			free(cur);
			cur = up;
		}
	}
	free(cur);
	strbuf_release(&sb);
	return agent;
}

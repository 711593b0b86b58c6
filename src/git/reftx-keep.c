/* SPDX-License-Identifier: Apache-2.0 */
/* Deletions and force-moves: old ids and dropped tips; see reftx-keep.h. */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/strbuf.h"
#include "base/timefmt.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/loose-ref.h"
#include "git/reftx-keep.h"
#include "git/reftx.h"
#include "git/repo-probe.h"
#include "git/repo.h"
#include "git/snapshot-name.h"
#include "git/snapshot.h"

#define STATE_PREFIX "agentic-git-reftx-"
#define STATE_MAX (1u << 20)
#define KEEP_IDENT "agentic-git"
#define KEEP_EMAIL "agentic-git@localhost"

static unsigned long pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino
						   : 0;
}

/* When the git that runs us started (/proc/<pid>/stat's 22nd field), so
 * that a later git given the same pid never reads our state; 0 unknown. */
static unsigned long long parent_start(void)
{
	struct strbuf path = STRBUF_INIT, st = STRBUF_INIT;
	unsigned long long t = 0;
	const char *p;

	strbuf_addf(&path, "/proc/%ld/stat", (long)getppid());
	if (read_small_file(path.buf, 4096, &st) == 0 &&
	    (p = strrchr(st.buf, ')'))) {
		/* after "pid (comm)": state is field 3; starttime field 22 */
		for (int field = 2; *p && field < 22; p++)
			if (*p == ' ')
				field++;
		t = strtoull(p, NULL, 10);
	}
	strbuf_release(&path);
	strbuf_release(&st);
	return t;
}

/* <gitdir>/agentic-git-reftx-<pidns>-<git's pid>-<its start> */
static char *state_path(const char *gitdir)
{
	return xstrfmt("%s/" STATE_PREFIX "%lu-%ld-%llu", gitdir, pid_ns(),
		       (long)getppid(), parent_start());
}

/* Invariant 3: the state files of gits that are gone. */
static void sweep(const char *gitdir)
{
	struct strbuf pre = STRBUF_INIT;
	DIR *d = opendir(gitdir);
	struct dirent *e;

	strbuf_addf(&pre, STATE_PREFIX "%lu-", pid_ns());
	while (d && (e = readdir(d))) {
		const char *p;
		char *end;
		long pid;

		if (!skip_prefix(e->d_name, pre.buf, &p) || *p < '1' ||
		    *p > '9')
			continue;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || *end != '-' || pid <= 0 ||
		    pid == (long)getppid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	strbuf_release(&pre);
}

static bool zero(const char *oid)
{
	return *oid && strspn(oid, "0") == strlen(oid);
}

/* "<old> <new> <ref>" split in place into its three fields. */
static bool split_line(char *line, char **old, char **new, char **ref)
{
	char *sp1 = strchr(line, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;

	if (!sp2 || sp1 - line > 64 || sp2 - sp1 - 1 > 64)
		return false;
	*sp1 = *sp2 = '\0';
	*old = line;
	*new = sp1 + 1;
	*ref = sp2 + 1;
	return **ref != '\0';
}

static void git_child(const struct reftx_keep *k, struct child *c)
{
	gitcmd_init_repo(c, k->real_git, k->loc->gitdir, k->loc->top);
}

/* One git in the worktree; its stdout (trimmed) in `out`. */
static int run(const struct reftx_keep *k, struct strbuf *out, const char *in,
	       const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	git_child(k, &c);
	strvec_pushv(&c.args, args);
	if (in) {
		c.in = in;
		c.in_len = strlen(in);
	}
	strvec_pushl(&c.env_set, "GIT_AUTHOR_NAME=" KEEP_IDENT,
		     "GIT_AUTHOR_EMAIL=" KEEP_EMAIL,
		     "GIT_COMMITTER_NAME=" KEEP_IDENT,
		     "GIT_COMMITTER_EMAIL=" KEEP_EMAIL, NULL);
	st = gitcmd_run(&c, out, NULL);
	child_release(&c);
	if (out)
		strbuf_trim(out);
	return st;
}

/* The ref's value now (prepared: still the old one), into `out`. */
static bool read_value(const struct reftx_keep *k, const char *ref,
		       struct strbuf *out)
{
	const struct repo_probe *p =
		repo_probe_get(k->loc->commondir, k->loc->gitdir);
	struct reftx_values v;

	if (repo_probe_refs_ours(p) &&
	    reftx_read_values(k->loc->commondir, repo_probe_hexlen(p), ref,
			      &v) == 0) {
		strbuf_addstr(out, v.now);
		return *v.now;
	}
	return run(k, out, NULL,
		   (const char *const[]){ "rev-parse", "--verify", "-q",
					  "--end-of-options", ref, NULL }) ==
		       0 &&
	       out->len;
}

/* Invariant 2: whether `old` is on no ref once `ref` holds `new`. */
static bool dropped(const struct reftx_keep *k, const struct strvec *refs,
		    const char *old, const char *new)
{
	struct strvec a = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	bool head = false, gone;

	strvec_pushl(&a, "rev-list", "-n1", old, "--not", NULL);
	if (!zero(new))
		strvec_push(&a, new);
	for (size_t i = 0; i < refs->nr; i++) {
		const char *b;
		strvec_pushf(&a, "--exclude=%s", refs->v[i]);
		head |= !strcmp(refs->v[i], "HEAD") ||
			(k->loc->head_branch &&
			 skip_prefix(refs->v[i], "refs/heads/", &b) &&
			 !strcmp(b, k->loc->head_branch));
	}
	if (head)
		strvec_push(&a, "--exclude=HEAD");
	strvec_pushl(&a, "--all", "--", NULL);
	gone = run(k, &out, NULL, a.v) == 0 && out.len;
	strvec_clear(&a);
	strbuf_release(&out);
	return gone;
}

/* The tip-only snapshot's name and commit; 0 with its ref in `ref`. */
static int keep_tip(const struct reftx_keep *k, const char *ref,
		    const char *tip, bool deleted, struct strbuf *name)
{
	struct snapshot_meta m = SNAPSHOT_META_INIT;
	struct strvec refs = STRVEC_INIT;
	struct strbuf tree = STRBUF_INIT, msg = STRBUF_INIT,
		      commit = STRBUF_INIT, stamp = STRBUF_INIT,
		      err = STRBUF_INIT;
	const char *slug = deleted ? "branch-delete" : "branch-move";
	time_t now = time(NULL);
	unsigned long seq;
	int rc = -1;

	m.op = xstrdup(slug);
	m.agent = xstrdup(k->agent);
	m.worktree = xstrdup(k->loc->top);
	m.head = xstrdup(tip);
	m.kept = xstrdup(ref);
	snapshot_meta_render(&m, &msg);
	if (run(k, &tree, "", (const char *const[]){ "mktree", NULL }) ||
	    !tree.len ||
	    run(k, &commit, msg.buf,
		(const char *const[]){ "commit-tree", "--no-gpg-sign", tree.buf,
				       "-p", tip, "-F", "-", NULL }) ||
	    !commit.len ||
	    snapshot_list_refs(k->real_git, k->loc->top, k->agent, &refs,
			       &err) < 0)
		goto out;
	time_compact_utc(now, &stamp);
	seq = snapshot_next_seq(refs.v, refs.nr, k->agent, stamp.buf);
	for (int i = 0; i < 5 && rc < 0; i++, seq++) {
		enum loose_ref_result lr;

		strbuf_reset(name);
		if (snapshot_ref_build(name, k->agent, now, seq, slug) < 0)
			break;
		lr = loose_ref_create(k->loc->commondir, name->buf, commit.buf);
		if (lr == LOOSE_REF_CREATED ||
		    (lr == LOOSE_REF_UNSUPPORTED &&
		     run(k, NULL, NULL,
			 (const char *const[]){
				 "-c", "core.hooksPath=/dev/null", "update-ref",
				 name->buf, commit.buf, "", NULL }) == 0))
			rc = 0;
	}
out:
	if (rc < 0)
		strbuf_reset(name);
	snapshot_meta_release(&m);
	strvec_clear(&refs);
	strbuf_release(&tree);
	strbuf_release(&msg);
	strbuf_release(&commit);
	strbuf_release(&stamp);
	strbuf_release(&err);
	return rc;
}

static void say_kept(const struct reftx_keep *k, const char *ref,
		     const char *tip, bool deleted, const char *name)
{
	struct event ev = EVENT_INIT("snapshot_taken", k->agent, "hook");
	struct strbuf top = STRBUF_INIT, q = STRBUF_INIT;
	const char *b = ref;

	skip_prefix(ref, "refs/heads/", &b);
	strbuf_add_shell_quoted(&top, k->loc->top);
	strbuf_add_shell_quoted(&q, deleted ? b : ref);
	event_add_str(&ev, "ref", name);
	event_add_str(&ev, "worktree", k->loc->top);
	event_add_str(&ev, "kept", ref);
	event_add_str(&ev, "head", tip);
	event_write(k->home, &ev);
	event_release(&ev);
	fprintf(stderr,
		"agentic-git: branch '%s' was at %s, which no other ref holds%s: kept as %s; to put it back: git -C %s %s %s %s\n",
		b, tip, deleted ? "" : " now", name, top.buf,
		deleted ? "branch" : "update-ref", q.buf, tip);
	strbuf_release(&top);
	strbuf_release(&q);
}

static void write_state(const char *path, const struct strbuf *state)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		      0600);

	if (fd < 0 || write_all(fd, state->buf, state->len) < 0)
		warning("cannot record the ref values of this update in '%s': %s",
			path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* A branch whose tip this update may drop (a deletion or a move). */
static bool may_drop(const struct reftx_keep *k, const char *old,
		     const char *new, const char *ref)
{
	return starts_with(ref, "refs/heads/") && *old && strcmp(old, new) &&
	       !(k->grows_only && !zero(new));
}

bool reftx_keep_wanted(const struct reftx_keep *k, const struct strvec *lines)
{
	bool want = false;

	for (size_t i = 0; i < lines->nr && !want; i++) {
		char *l = xstrdup(lines->v[i]), *old, *new, *ref;

		if (split_line(l, &old, &new, &ref))
			want = (zero(old) && starts_with(ref, "refs/")) ||
			       may_drop(k, old, new, ref);
		free(l);
	}
	return want;
}

void reftx_keep_prepared(const struct reftx_keep *k, const struct strvec *lines)
{
	struct strvec refs = STRVEC_INIT, olds = STRVEC_INIT,
		      news = STRVEC_INIT;
	struct strbuf state = STRBUF_INIT, val = STRBUF_INIT,
		      name = STRBUF_INIT;
	struct reftx_known had;
	char *path = state_path(k->loc->gitdir);

	sweep(k->loc->gitdir);
	/* git's earlier transactions in this process (a deletion's first,
	 * of packed-refs): what they recorded stays */
	reftx_known_load(&had, k->loc->gitdir);
	for (size_t i = 0; i < had.lines.nr; i++)
		if (*had.lines.v[i])
			strbuf_addf(&state, "%s\n", had.lines.v[i]);
	for (size_t i = 0; i < lines->nr; i++) {
		char *l = xstrdup(lines->v[i]), *old, *new, *ref;

		if (split_line(l, &old, &new, &ref)) {
			strbuf_reset(&val);
			if (zero(old) && starts_with(ref, "refs/") &&
			    read_value(k, ref, &val)) {
				strbuf_addf(&state, "O %s %s\n", ref, val.buf);
				old = val.buf;
			}
			strvec_push(&refs, ref);
			strvec_push(&olds, zero(old) ? "" : old);
			strvec_push(&news, new);
		}
		free(l);
	}
	for (size_t i = 0; i < refs.nr; i++) {
		bool del = zero(news.v[i]);

		if (!may_drop(k, olds.v[i], news.v[i], refs.v[i]) ||
		    !dropped(k, &refs, olds.v[i], news.v[i]))
			continue;
		if (keep_tip(k, refs.v[i], olds.v[i], del, &name) < 0) {
			warning("the tip %s of '%s' is on no other ref and could not be kept",
				olds.v[i], refs.v[i]);
			continue;
		}
		strbuf_addf(&state, "K %s %s\n", refs.v[i], name.buf);
		say_kept(k, refs.v[i], olds.v[i], del, name.buf);
	}
	if (state.len)
		write_state(path, &state);
	reftx_known_release(&had);
	free(path);
	strvec_clear(&refs);
	strvec_clear(&olds);
	strvec_clear(&news);
	strbuf_release(&state);
	strbuf_release(&val);
	strbuf_release(&name);
}

void reftx_known_load(struct reftx_known *k, const char *gitdir)
{
	struct strbuf data = STRBUF_INIT;

	strvec_init(&k->lines);
	k->path = gitdir ? state_path(gitdir) : NULL;
	if (k->path &&
	    read_file_bounded(k->path, STATE_MAX, RF_REGULAR, &data) == 0) {
		for (char *l = data.buf; *l;) {
			char *nl = strchrnul(l, '\n');
			bool last = !*nl;
			*nl = '\0';
			strvec_push(&k->lines, l);
			l = last ? nl : nl + 1;
		}
	}
	strbuf_release(&data);
}

/* The value after "<tag> <ref> " on a line of the state, or NULL. */
static const char *find(const struct reftx_known *k, char tag, const char *ref)
{
	size_t n = strlen(ref);

	for (size_t i = 0; i < k->lines.nr; i++) {
		const char *l = k->lines.v[i];
		if (l[0] == tag && l[1] == ' ' && !strncmp(l + 2, ref, n) &&
		    (l[2 + n] == ' ' || !l[2 + n]))
			return l + 2 + n + (l[2 + n] == ' ');
	}
	return NULL;
}

bool reftx_known_old(struct reftx_known *k, const char *line_old,
		     const char *line_new, const char *ref, const char **old,
		     const char **kept, bool *skip)
{
	const char *o = zero(line_old) ? find(k, 'O', ref) : NULL;

	*skip = zero(line_old) && zero(line_new) && find(k, 'J', ref);
	*old = o ? o : line_old;
	*kept = find(k, 'K', ref);
	if (!*kept)
		*kept = "";
	if (o && zero(line_new) && !*skip) {
		/* git's second transaction of this deletion: said already */
		int fd = open(k->path,
			      O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			struct strbuf j = STRBUF_INIT;
			strbuf_addf(&j, "J %s\n", ref);
			write_all(fd, j.buf, j.len);
			strbuf_release(&j);
			close(fd);
		}
	}
	return o || **kept;
}

void reftx_known_release(struct reftx_known *k)
{
	strvec_clear(&k->lines);
	free(k->path);
	k->path = NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The shim's per-session stash; see shim-stash.h and git/stash-map.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include "base/die.h"
#include "base/eventlog.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "cmd/cmd.h"
#include "cmd/shim-stash.h"
#include "git/gitcmd.h"
#include "git/stash-map.h"

/* held with flock(2) and left in place: not git's `.lock` convention, which
 * names a lock that is stale once its writer is gone */
#define LOCK_NAME "agentic-git-stash.mutex"
#define LOCK_WAIT_MS 60000

struct stash_run {
	const struct verdict *v;
	const struct shim_facts *f;
	const char *dir; /* the routed directory */
	struct stash_plan p;
	struct strvec entries; /* the session's entries, newest first */
};

bool shim_stash_wanted(const struct verdict *v, const struct shim_facts *f)
{
	return v->kind == V_ROUTE && v->sub && !strcmp(v->sub, "stash") &&
	       f->have_wt && f->bind.state == BS_BOUND;
}

/* git as the agent runs it: its globals and environment, `words` after. */
static int agent_git(const struct stash_run *r, const struct strvec *words,
		     struct strbuf *out)
{
	struct child c = CHILD_INIT;
	int st;

	strvec_push(&c.args, r->f->real_git);
	for (size_t i = 0; i + 1 < r->v->sub_args_at; i++)
		strvec_push(&c.args, r->v->args.v[i]);
	strvec_pushv(&c.args, words->v);
	c.inherit_stdin = true;
	c.capture_out = out != NULL;
	if (child_run(&c) < 0) {
		fprintf(stderr, "agentic-git: exec failed: %s: %s\n",
			r->f->real_git, strerror(errno));
		child_release(&c);
		return AG_EXIT_EXEC;
	}
	st = c.status;
	if (out)
		strbuf_addbuf(out, &c.out);
	child_release(&c);
	return st;
}

/* `stash …`: the words the policy gives git (its verdict), as they are. */
static void verdict_words(const struct stash_run *r, struct strvec *w)
{
	const struct verdict *v = r->v;

	if (v->sub_args_at && v->sub_args_at <= v->args.nr)
		strvec_pushn(
			w, (const char *const *)v->args.v + v->sub_args_at - 1,
			v->args.nr - v->sub_args_at + 1);
}

/* agentic-git's own git in the routed directory; stdout into `out`. */
static int own_git(const struct stash_run *r, struct strbuf *out,
		   struct strbuf *err, const char *const *args)
{
	struct child c = CHILD_INIT;
	int st;

	gitcmd_prepare(&c, GIT_INTERNAL, r->f->real_git, r->dir);
	strvec_pushv(&c.args, args);
	st = gitcmd_run(&c, out, err);
	child_release(&c);
	if (out)
		strbuf_trim(out);
	return st;
}

/* The value of `ref`, "" when it does not exist. */
static void ref_value(const struct stash_run *r, const char *ref,
		      struct strbuf *out)
{
	strbuf_reset(out);
	if (own_git(r, out, NULL,
		    (const char *const[]){ "rev-parse", "-q", "--verify",
					   "--end-of-options", ref, NULL }))
		strbuf_reset(out);
}

static void load_entries(struct stash_run *r)
{
	struct strbuf out = STRBUF_INIT;

	strvec_clear(&r->entries);
	if (own_git(r, &out, NULL,
		    (const char *const[]){ "log", "-g", "--format=%H",
					   STASH_SESSION_REF, "--", NULL }) ==
	    0) {
		for (char *l = out.buf; *l;) {
			char *nl = strchrnul(l, '\n');
			bool last = !*nl;
			*nl = '\0';
			if (*l)
				strvec_push(&r->entries, l);
			l = last ? nl : nl + 1;
		}
	}
	strbuf_release(&out);
}

/* Invariant 3: a change git makes without a ref transaction. */
static void journal(const struct stash_run *r, const char *what,
		    const char *entry, const char *old)
{
	struct event ev = EVENT_INIT("ref_update", r->f->env.agent, "stash");
	struct strbuf now = STRBUF_INIT;

	ref_value(r, STASH_SESSION_REF, &now);
	event_add_str(&ev, "ref", STASH_SESSION_REF);
	event_add_str(&ev, "old", old);
	event_add_str(&ev, "new", now.len ? now.buf : "");
	event_add_str(&ev, "stash", what);
	event_add_str(&ev, "entry", entry);
	event_add_str(&ev, "worktree", r->f->wt.top);
	event_write(r->f->env.home, &ev);
	event_release(&ev);
	strbuf_release(&now);
}

static int no_entry(const struct stash_run *r)
{
	fprintf(stderr,
		"agentic-git: stash@{%lu}: no such entry in this session's stash (%zu entr%s: git stash list)\n",
		r->p.entry, r->entries.nr, r->entries.nr == 1 ? "y" : "ies");
	return 1;
}

/* STASH_SESSION_REF@{N}: the entry, or "" when there is none. */
static const char *entry(const struct stash_run *r)
{
	return r->p.entry < r->entries.nr ? r->entries.v[r->p.entry] : "";
}

/* Invariant 4: drops entry N (git stash drop's own steps, on our ref). */
static int drop(struct stash_run *r, bool quiet)
{
	struct strbuf sel = STRBUF_INIT, probe = STRBUF_INIT;
	char *oid = xstrdup(entry(r));
	char *old = xstrdup(r->entries.nr ? r->entries.v[0] : "");
	int rc = 0;

	strbuf_addf(&sel, STASH_SESSION_REF "@{%lu}", r->p.entry);
	if (own_git(r, NULL, NULL,
		    (const char *const[]){ "reflog", "delete", "--updateref",
					   "--rewrite", sel.buf, NULL })) {
		fprintf(stderr, "agentic-git: cannot drop stash@{%lu}\n",
			r->p.entry);
		rc = 1;
	} else {
		/* the last entry gone: the ref goes too (rev-parse would
		 * still answer @{0} from the ref itself) */
		if (own_git(r, &probe, NULL,
			    (const char *const[]){
				    "log", "-g", "-1", "--format=%H",
				    STASH_SESSION_REF, "--", NULL }) ||
		    !probe.len)
			own_git(r, NULL, NULL,
				(const char *const[]){ "update-ref", "-d",
						       STASH_SESSION_REF,
						       NULL });
		journal(r, "drop", oid, old);
		if (!quiet)
			printf("Dropped stash@{%lu} (%s)\n", r->p.entry, oid);
	}
	free(oid);
	free(old);
	strbuf_release(&sel);
	strbuf_release(&probe);
	return rc;
}

/* apply, pop, show: git stash's own, on the entry (or a given commit). */
static int on_entry(struct stash_run *r, const char *verb)
{
	struct strvec w = STRVEC_INIT;
	struct strbuf sel = STRBUF_INIT;
	int st;

	if (!r->p.rev && !*entry(r))
		return no_entry(r);
	strbuf_addf(&sel, STASH_SESSION_REF "@{%lu}", r->p.entry);
	strvec_pushl(&w, "stash", verb, NULL);
	strvec_pushv(&w, r->p.opts.v);
	strvec_push(&w, r->p.rev ? r->p.rev : sel.buf);
	st = agent_git(r, &w, NULL);
	strvec_clear(&w);
	strbuf_release(&sel);
	return st;
}

/* list: git log over the session's ref, its entries named stash@{N}. */
static int list(struct stash_run *r)
{
	static const char *const names[] = {
		"refs/worktree/agentic-git/stash@{",
		"worktree/agentic-git/stash@{"
	};
	struct strvec w = STRVEC_INIT;
	struct strbuf out = STRBUF_INIT;
	int st;

	if (!r->entries.nr)
		return 0;
	strvec_pushl(&w, "log", "--format=%gd: %gs", "-g", "--first-parent",
		     "-m", NULL);
	strvec_pushv(&w, r->p.opts.v);
	strvec_pushl(&w, STASH_SESSION_REF, "--", NULL);
	st = agent_git(r, &w, &out);
	for (const char *p = out.buf; *p;) {
		size_t n = 0;
		for (size_t i = 0; i < ARRAY_SIZE(names) && !n; i++)
			if (starts_with(p, names[i]))
				n = strlen(names[i]);
		if (n) {
			fputs("stash@{", stdout);
			p += n;
		} else {
			putchar(*p++);
		}
	}
	strvec_clear(&w);
	strbuf_release(&out);
	return st;
}

/* The repository's stash lock (invariant 2); -1 after a message. */
static int lock_pushes(const struct stash_run *r)
{
	char *path = xstrfmt("%s/" LOCK_NAME, r->f->wt.commondir);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	struct timespec nap = { 0, 50 * 1000 * 1000 };

	for (int ms = 0; fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0;
	     ms += 50) {
		if (errno != EWOULDBLOCK || ms >= LOCK_WAIT_MS) {
			close(fd);
			fd = -1;
			errno = errno == EWOULDBLOCK ? ETIMEDOUT : errno;
			break;
		}
		nanosleep(&nap, NULL);
	}
	if (fd < 0)
		fprintf(stderr,
			"agentic-git: git stash refused: cannot take the repository's stash lock '%s' (%s): another session's stash push holds it; retry\n",
			path, strerror(errno));
	free(path);
	return fd;
}

/* Invariant 2: git's push, then its entry moves to the session's ref. */
static int push(struct stash_run *r)
{
	struct strvec w = STRVEC_INIT;
	struct strbuf old = STRBUF_INIT, now = STRBUF_INIT, top = STRBUF_INIT,
		      msg = STRBUF_INIT, mine = STRBUF_INIT;
	int fd = lock_pushes(r), st;

	if (fd < 0)
		return 1;
	ref_value(r, "refs/stash", &old);
	verdict_words(r, &w);
	st = agent_git(r, &w, NULL);
	ref_value(r, "refs/stash", &now);
	ref_value(r, "refs/stash@{0}", &top);
	if (!now.len || !strcmp(now.buf, old.buf) || strcmp(now.buf, top.buf))
		goto out;
	ref_value(r, STASH_SESSION_REF, &mine);
	if (own_git(r, &msg, NULL,
		    (const char *const[]){ "log", "-g", "-1", "--format=%gs",
					   "refs/stash", "--", NULL }) ||
	    own_git(r, NULL, NULL,
		    (const char *const[]){ "update-ref", "--create-reflog",
					   "-m", msg.buf, STASH_SESSION_REF,
					   now.buf, NULL })) {
		fprintf(stderr,
			"agentic-git: warning: the stash entry %s stays in refs/stash: it could not be moved to this session's stash\n",
			now.buf);
		goto out;
	}
	/* refs/stash as it was: git stash drop's own step, or the ref gone */
	if (old.len)
		own_git(r, NULL, NULL,
			(const char *const[]){ "reflog", "delete",
					       "--updateref", "--rewrite",
					       "refs/stash@{0}", NULL });
	else
		own_git(r, NULL, NULL,
			(const char *const[]){ "update-ref", "-d", "refs/stash",
					       now.buf, NULL });
	journal(r, "push", now.buf, mine.buf);
out:
	close(fd);
	strvec_clear(&w);
	strbuf_release(&old);
	strbuf_release(&now);
	strbuf_release(&top);
	strbuf_release(&msg);
	strbuf_release(&mine);
	return st;
}

static int store(struct stash_run *r)
{
	struct strbuf c = STRBUF_INIT, spec = STRBUF_INIT, old = STRBUF_INIT;
	const char *msg = r->p.message ? r->p.message
				       : "Created via \"git stash store\".";
	int rc = 0;

	strbuf_addf(&spec, "%s^{commit}", r->p.commit);
	ref_value(r, spec.buf, &c);
	ref_value(r, STASH_SESSION_REF, &old);
	if (!c.len) {
		fprintf(stderr,
			"agentic-git: git stash store: '%s' is not a commit\n",
			r->p.commit);
		rc = 1;
	} else if (own_git(r, NULL, NULL,
			   (const char *const[]){
				   "update-ref", "--create-reflog", "-m", msg,
				   STASH_SESSION_REF, c.buf, NULL })) {
		fprintf(stderr,
			"agentic-git: git stash store: cannot store %s\n",
			c.buf);
		rc = 1;
	} else {
		journal(r, "store", c.buf, old.buf);
	}
	strbuf_release(&c);
	strbuf_release(&spec);
	strbuf_release(&old);
	return rc;
}

static int clear(struct stash_run *r)
{
	char *old = xstrdup(r->entries.nr ? r->entries.v[0] : "");

	if (r->entries.nr)
		own_git(r, NULL, NULL,
			(const char *const[]){ "update-ref", "-d",
					       STASH_SESSION_REF, NULL });
	journal(r, "clear", old, old);
	free(old);
	return 0;
}

static int passthrough(struct stash_run *r)
{
	struct strvec w = STRVEC_INIT;
	int st;

	verdict_words(r, &w);
	st = agent_git(r, &w, NULL);
	strvec_clear(&w);
	return st;
}

int shim_stash_run(const struct verdict *v, const struct git_argv *ga,
		   const struct shim_facts *f)
{
	struct stash_run r = { .v = v,
			       .f = f,
			       .dir = v->route_dir.buf,
			       .p = STASH_PLAN_INIT,
			       .entries = STRVEC_INIT };
	int st;

	stash_map_parse(ga, &r.p);
	if (r.p.bad) {
		fprintf(stderr, "agentic-git: git stash: %s\n", r.p.bad);
		stash_plan_release(&r.p);
		return 1;
	}
	load_entries(&r);
	switch (r.p.verb) {
	case STASH_PUSH:
		st = push(&r);
		break;
	case STASH_LIST:
		st = list(&r);
		break;
	case STASH_SHOW:
		st = on_entry(&r, "show");
		break;
	case STASH_APPLY:
		st = on_entry(&r, "apply");
		break;
	case STASH_POP:
		st = on_entry(&r, "apply");
		if (!st)
			st = drop(&r, r.p.quiet);
		break;
	case STASH_DROP:
		st = *entry(&r) ? drop(&r, r.p.quiet) : no_entry(&r);
		break;
	case STASH_CLEAR:
		st = clear(&r);
		break;
	case STASH_STORE:
		st = store(&r);
		break;
	default:
		st = passthrough(&r);
		break;
	}
	strvec_clear(&r.entries);
	stash_plan_release(&r.p);
	return st;
}

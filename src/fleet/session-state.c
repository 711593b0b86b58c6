/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "agentic-git/core.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/fileio.h"
#include "base/strvec.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "fleet/session.h"
#include "fleet/session-lock.h"
#include "fleet/session-state.h"

#define EVENTS_TAIL (4u << 20)

const char *session_state_str(enum session_state s)
{
	switch (s) {
	case SESSION_CLEAN: return "clean";
	case SESSION_DIRTY: return "dirty";
	case SESSION_MISSING: return "missing";
	case SESSION_FORGED: return "forged";
	case SESSION_INVALID: return "invalid";
	}
	return "invalid";
}

/*
 * Verify-then-decode without the orphan check, so a session whose worktree
 * vanished still shows its (authentic) branch and repository.
 */
static int load_verified(const char *home, const char *agent,
			 struct ag_binding *b)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT, sig = STRBUF_INIT;
	uint8_t key[AG_KEY_LEN];
	int ret = -1;

	strbuf_addf(&path, "%s/runtime/%s/binding.json", home, agent);
	if (read_file_bounded(path.buf, AG_BINDING_MAX, RF_REGULAR, &data) < 0)
		goto out;
	strbuf_addstr(&path, ".sig");
	if (read_file_bounded(path.buf, AG_SIG_MAX, RF_REGULAR, &sig) < 0 ||
	    ag_key_load(home, key) < 0)
		goto out;
	if (ag_hmac_verify(key, AG_KEY_LEN, data.buf, data.len, sig.buf,
			   sig.len, NULL, 0) == AG_VERIFY_OK &&
	    ag_binding_decode(data.buf, data.len, b) == AG_BINDING_BOUND)
		ret = 0;
	ag_key_wipe(key);
out:
	strbuf_release(&path);
	strbuf_release(&data);
	strbuf_release(&sig);
	return ret;
}

static void count_status(const char *git, struct session_info *si)
{
	struct strbuf out = STRBUF_INIT;
	const char *p, *end;

	if (gitcmd_capture(git, si->worktree, &out, NULL, "status",
			   "--porcelain=v1", "-z", "--untracked-files=all",
			   NULL)) {
		si->state = SESSION_INVALID;
		strbuf_release(&out);
		return;
	}
	strbuf_addch(&out, '\0'); /* the -z list may lack its last NUL */
	for (p = out.buf, end = out.buf + out.len - 1; p < end;) {
		size_t n = strlen(p);
		if (n > 3 && !strncmp(p, "??", 2)) {
			if (strcmp(p + 3, SESSION_MARKER))
				si->untracked++;
		} else if (n > 3) {
			si->changed++;
			if (p[0] == 'R' || p[0] == 'C')
				p += n + 1; /* skip the rename source */
		}
		p += n + 1;
	}
	si->state = si->changed || si->untracked ? SESSION_DIRTY : SESSION_CLEAN;
	strbuf_release(&out);
}

/*
 * One session's refs from one for-each-ref: its branches, its
 * remote-tracking refs and its snapshots (one refname a line).
 */
static int read_refs(const char *git, const char *dir, const char *agent,
		     struct strbuf *out)
{
	char *snaps = xstrfmt("refs/agentic-git/snapshots/%s/", agent);
	int rc = gitcmd_capture(git, dir, out, NULL, "for-each-ref",
				"--format=%(refname)", "refs/heads/",
				"refs/remotes/", snaps, NULL);

	free(snaps);
	return rc;
}

/* The lines of `refs` (one refname a line) that start with `pfx`. */
static int count_lines(const char *refs, const char *pfx)
{
	int n = 0;

	for (const char *p = refs, *nl; (nl = strchr(p, '\n')); p = nl + 1)
		if (starts_with(p, pfx))
			n++;
	return n;
}

/*
 * The branches whose commits count as saved besides the remote-tracking
 * ones (PRODUCT.md §6): the session's base and every protected branch
 * (policy.toml, else main and master), as --not arguments, from `refs`.
 */
static void saved_branches(const char *home, const char *refs, const char *base,
			   struct strvec *out)
{
	struct ag_protected prot;
	char err[256];
	char *base_ref = base ? xstrfmt("refs/heads/%s", base) : NULL;

	ag_protected_init(&prot);
	ag_policy_load(home, &prot, err, sizeof(err)); /* else the floor */
	for (const char *p = refs, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
		char *r = xstrndup(p, (size_t)(nl - p));

		/* listed: a base deleted since is no argument */
		if (starts_with(r, "refs/heads/") &&
		    (ag_protected_match(&prot, r) ||
		     (base_ref && !strcmp(r, base_ref))))
			strvec_push(out, r);
		free(r);
	}
	free(base_ref);
	ag_protected_release(&prot);
}

static int run_git(const char *git, const char *dir, const struct strvec *args,
		   struct strbuf *out)
{
	struct child c = CHILD_INIT;
	int rc;

	gitcmd_init(&c, git, dir);
	strvec_pushv(&c.args, args->v);
	rc = gitcmd_run(&c, out, NULL);
	child_release(&c);
	return rc;
}

/*
 * Commits reachable from the worktree's HEAD that are saved nowhere: on
 * no remote-tracking ref, nor in the base or a protected branch (without
 * any remote: nor on another local branch). `refs` is read_refs()'s.
 */
static int unpushed_count(const char *home, const char *git, const char *dir,
			  const char *branch, const char *base,
			  const char *refs)
{
	struct strbuf out = STRBUF_INIT;
	struct strvec args = STRVEC_INIT;
	unsigned long n = 0;
	int rc;

	if (count_lines(refs, "refs/remotes/")) {
		strvec_pushl(&args, "rev-list", "--count", "HEAD", "--not",
			     "--remotes", NULL);
		saved_branches(home, refs, base, &args);
		strvec_push(&args, "--");
	} else {
		/* No remote at all: count commits on no other local branch. */
		strvec_pushl(&args, "rev-list", "--count", "HEAD", "--not",
			     NULL);
		strvec_pushf(&args, "--exclude=refs/heads/%s", branch);
		strvec_push(&args, "--branches");
	}
	rc = run_git(git, dir, &args, &out);
	gitcmd_chomp(&out);
	if (rc || parse_ulong(out.buf, 1000000000ul, &n) < 0)
		n = (unsigned long)-1;
	strvec_clear(&args);
	strbuf_release(&out);
	return n == (unsigned long)-1 ? -1 : (int)n;
}

static int snapshot_count(const char *git, const char *dir, const char *agent)
{
	struct strbuf out = STRBUF_INIT, pfx = STRBUF_INIT;
	int n = 0;

	strbuf_addf(&pfx, "refs/agentic-git/snapshots/%s/", agent);
	if (!gitcmd_capture(git, dir, &out, NULL, "for-each-ref",
			    "--format=%(refname)", pfx.buf, NULL))
		n = count_lines(out.buf, pfx.buf);
	strbuf_release(&out);
	strbuf_release(&pfx);
	return n;
}

/* A string of the binding's verified extra keys, or NULL. */
static char *extra_str(const char *extra_json, const char *key)
{
	json_t *o = extra_json ? json_loads(extra_json, 0, NULL) : NULL;
	const char *v = json_string_value(json_object_get(o, key));
	char *s = v ? xstrdup(v) : NULL;

	json_decref(o);
	return s;
}

static void take_fields(struct session_info *si, struct ag_binding *b)
{
	si->branch = steal_pointer(&b->branch);
	si->worktree = steal_pointer(&b->worktree);
	si->source_repo = steal_pointer(&b->source_repo);
	si->issued_at = steal_pointer(&b->issued_at);
	si->base = extra_str(b->extra_json, "base");
	si->base_oid = extra_str(b->extra_json, "base_oid");
	ag_binding_release(b);
	session_info_trust_store(si);
}

void session_info_trust_store(const struct session_info *si)
{
	char *common, *objects;

	if (!si->source_repo)
		return;
	/* the cage of our git reads the clone's objects, which the signed
	 * binding names, never what the workspace's own alternates file
	 * (the agent's) says (docs/sandbox.md) */
	common = session_common_dir_of(si->source_repo);
	if (common) {
		objects = path_join(common, "objects");
		gitcmd_cage_trust_store(objects, true);
		free(objects);
	}
	free(common);
}

/* A clean or dirty session's numbers: its refs read once, in its worktree. */
static void read_numbers(const char *home, const char *git,
			 struct session_info *si)
{
	struct strbuf refs = STRBUF_INIT;
	char *pfx;

	if (read_refs(git, si->worktree, si->agent, &refs)) {
		strbuf_release(&refs);
		return; /* unpushed unknown, no snapshot counted */
	}
	pfx = xstrfmt("refs/agentic-git/snapshots/%s/", si->agent);
	si->snapshots = count_lines(refs.buf, pfx);
	si->unpushed = unpushed_count(home, git, si->worktree,
				      si->branch ? si->branch : "", si->base,
				      refs.buf);
	free(pfx);
	strbuf_release(&refs);
}

void session_info_read(const char *home, const char *git, const char *agent,
		       struct session_info *si)
{
	struct session_holder h;
	struct ag_binding b;
	enum ag_binding_state st;
	const char *repo;

	memset(si, 0, sizeof(*si));
	si->agent = xstrdup(agent);
	si->unpushed = -1;
	si->running = session_lock_probe(home, agent, &h);
	si->pid = h.pid;
	st = ag_binding_load(home, agent, &b);
	switch (st) {
	case AG_BINDING_BOUND:
		take_fields(si, &b);
		if (!si->worktree) {
			si->state = SESSION_INVALID;
			break;
		}
		count_status(git, si);
		if (si->state != SESSION_INVALID)
			read_numbers(home, git, si);
		break;
	case AG_BINDING_ORPHAN:
		si->state = SESSION_MISSING;
		if (!load_verified(home, agent, &b))
			take_fields(si, &b);
		break;
	case AG_BINDING_FORGED:
	case AG_BINDING_NO_KEY:
	case AG_BINDING_SCHEME:
		si->state = SESSION_FORGED;
		break;
	default:
		ag_binding_release(&b);
		si->state = SESSION_INVALID;
		break;
	}
	if (si->state == SESSION_CLEAN || si->state == SESSION_DIRTY)
		return; /* read_numbers() counted them */
	repo = si->source_repo;
	if (repo && is_dir(repo))
		si->snapshots = snapshot_count(git, repo, agent);
}

void session_info_release(struct session_info *si)
{
	free(si->agent);
	free(si->branch);
	free(si->worktree);
	free(si->source_repo);
	free(si->base);
	free(si->base_oid);
	free(si->issued_at);
	free(si->last_event);
	free(si->last_time);
	memset(si, 0, sizeof(*si));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int session_list_read(const char *home, const char *git,
		      struct session_list *l)
{
	char *dir = xstrfmt("%s/runtime", home);
	DIR *d = opendir(dir);
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	const char *why;

	free(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d)))
		if (ag_agent_name_valid(de->d_name, &why) &&
		    !session_agent_reserved(de->d_name))
			strvec_push(&names, de->d_name);
	closedir(d);
	qsort(names.v, names.nr, sizeof(*names.v), cmp_name);
	ALLOC_GROW(l->v, l->nr + names.nr, l->alloc);
	session_gather(home, git, (const char *const *)names.v, names.nr,
		       session_gather_jobs(names.nr), l->v + l->nr);
	l->nr += names.nr;
	strvec_clear(&names);
	return 0;
}

void session_list_release(struct session_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		session_info_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void match_event(const char *line, struct session_info *v, size_t nr)
{
	json_t *root = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
	const char *agent, *ev, *ts;

	if (!root)
		return;
	agent = json_string_value(json_object_get(root, "agent"));
	ev = json_string_value(json_object_get(root, "event"));
	ts = json_string_value(json_object_get(root, "timestamp"));
	for (size_t i = 0; agent && ev && ts && i < nr; i++) {
		if (strcmp(v[i].agent, agent))
			continue;
		free(v[i].last_event);
		free(v[i].last_time);
		v[i].last_event = xstrdup(ev);
		v[i].last_time = xstrdup(ts);
	}
	json_decref(root);
}

void session_list_last_events(const char *home, struct session_info *v,
			      size_t nr)
{
	char *path = xstrfmt("%s/fleet_events.jsonl", home);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	struct strbuf data = STRBUF_INIT;
	struct stat st;
	char *p;

	free(path);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (st.st_size > (off_t)EVENTS_TAIL &&
	     lseek(fd, st.st_size - (off_t)EVENTS_TAIL, SEEK_SET) < 0) ||
	    read_fd_bounded(fd, EVENTS_TAIL, &data) < 0) {
		close(fd);
		strbuf_release(&data);
		return;
	}
	close(fd);
	p = data.buf;
	if (st.st_size > (off_t)EVENTS_TAIL) /* skip the partial first line */
		p = strchrnul(p, '\n');
	while (*p) {
		char *nl;

		if (*p == '\n')
			p++;
		nl = strchrnul(p, '\n');
		if (nl > p) {
			char save = *nl;
			*nl = '\0';
			match_event(p, v, nr);
			*nl = save;
		}
		p = nl;
	}
	strbuf_release(&data);
}

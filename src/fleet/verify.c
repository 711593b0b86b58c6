/* SPDX-License-Identifier: Apache-2.0 */
#include "base/common.h"
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "git/gitcmd.h"
#include "git/owned-import.h"
#include "git/pushscan.h"
#include "fleet/verify.h"

const char *verify_check_name(enum verify_check c)
{
	static const char *const names[VC__COUNT] = {
		"exit", "unmerged_paths", "conflict_markers", "operation_in_progress",
		"head_moved", "base_is_ancestor", "other_refs_unchanged",
		"no_trust_root_files", "verify_command",
	};
	return (size_t)c < VC__COUNT ? names[c] : "unknown";
}

void verify_report_init(struct verify_report *r)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < VC__COUNT; i++) {
		strbuf_init(&r->detail[i], 0);
		r->state[i] = VS_SKIP;
	}
}

void verify_report_release(struct verify_report *r)
{
	for (int i = 0; i < VC__COUNT; i++)
		strbuf_release(&r->detail[i]);
}

static AG_PRINTF(4, 5) void set(struct verify_report *r, enum verify_check c,
				enum verify_state s, const char *fmt, ...)
{
	va_list ap;

	r->state[c] = s;
	strbuf_reset(&r->detail[c]);
	va_start(ap, fmt);
	strbuf_vaddf(&r->detail[c], fmt, ap);
	va_end(ap);
	strbuf_trim(&r->detail[c]);
}

bool verify_diff_adds_markers(const char *diff, size_t len, struct strbuf *where)
{
	const char *p = diff, *end = diff + len, *file = NULL;
	size_t flen = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (n > 6 && !strncmp(p, "+++ b/", 6)) {
			file = p + 6;
			flen = n - 6;
		} else if (n >= 8 && p[0] == '+' &&
			   (!strncmp(p + 1, "<<<<<<<", 7) ||
			    !strncmp(p + 1, ">>>>>>>", 7)) &&
			   (n == 8 || p[8] == ' ')) {
			if (where && file)
				strbuf_add(where, file, flen);
			return true;
		}
		p += n + 1;
	}
	return false;
}

/* Lines of a snapshot are "sha refname"; compares by refname. */
static const char *find_ref(const char *snap, const char *ref, size_t *sha_len)
{
	size_t rl = strlen(ref);

	for (const char *p = snap; p && *p;) {
		const char *nl = strchrnul(p, '\n'), *sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp && (size_t)(nl - sp - 1) == rl && !strncmp(sp + 1, ref, rl)) {
			*sha_len = (size_t)(sp - p);
			return p;
		}
		p = *nl ? nl + 1 : nl;
	}
	return NULL;
}

static void diff_one_way(const char *a, const char *b, const char *keep,
			 struct strvec *changed, bool report_same)
{
	for (const char *p = a; p && *p;) {
		const char *nl = strchrnul(p, '\n'), *sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp) {
			char *ref = xstrndup(sp + 1, (size_t)(nl - sp - 1));
			size_t ol = 0;
			const char *o = find_ref(b, ref, &ol);
			bool differs = !o || ol != (size_t)(sp - p) ||
				       strncmp(o, p, ol);
			if (strcmp(ref, keep) && ((!o) || (report_same && differs)))
				strvec_push(changed, ref);
			free(ref);
		}
		p = *nl ? nl + 1 : nl;
	}
}

void verify_refs_diff(const char *before, const char *after,
		      const char *keep_ref, struct strvec *changed)
{
	diff_one_way(before, after, keep_ref, changed, true); /* moved, deleted */
	diff_one_way(after, before, keep_ref, changed, false); /* created */
}

void verify_refs_filter(const char *raw, struct strbuf *out)
{
	for (const char *p = raw; *p;) {
		const char *nl = strchrnul(p, '\n'), *sp = strchr(p, ' ');
		if (sp && sp < nl && !starts_with(sp + 1, "refs/agentic-git/")) {
			strbuf_add(out, p, (size_t)(nl - p));
			strbuf_addch(out, '\n');
		}
		p = *nl ? nl + 1 : nl;
	}
}

int verify_refs_snapshot(const char *workspace, struct strbuf *out)
{
	struct strbuf raw = STRBUF_INIT;
	int rc = gitcmdl(GIT_AGENT_REPO, workspace, &raw, NULL, "for-each-ref",
			 "--format=%(objectname) %(refname)", NULL);

	if (rc == 0)
		verify_refs_filter(raw.buf, out);
	strbuf_release(&raw);
	return rc == 0 ? 0 : -1;
}

static const char *const unmerged_args[] = { "ls-files", "--unmerged", NULL };

static void unmerged_result(int status, const struct strbuf *out,
			    struct verify_report *r)
{
	if (status)
		set(r, VC_UNMERGED, VS_FAIL, "cannot list the index (treated as in conflict)");
	else if (out->len)
		set(r, VC_UNMERGED, VS_FAIL, "unmerged paths in the index");
	else
		set(r, VC_UNMERGED, VS_PASS, "none");
}

static void check_unmerged(const char *ws, struct verify_report *r)
{
	struct strbuf out = STRBUF_INIT;

	unmerged_result(gitcmd(GIT_AGENT_REPO, ws, &out, NULL, unmerged_args),
			&out, r);
	strbuf_release(&out);
}

/*
 * One git call for the git dir, HEAD's commit and what HEAD names
 * ("refs/heads/x", or "HEAD" when detached); the git dir alone when HEAD
 * cannot be read. Returns 0 when the git dir is known.
 */
static const char *const head_args[] = { "rev-parse", "--absolute-git-dir",
	"HEAD^{commit}", "--symbolic-full-name", "HEAD", NULL };

/* head_args' answer (status, out); the fallback call when it failed. */
static int head_result(const char *ws, int status, const struct strbuf *out,
		       struct strbuf *gd, struct strbuf *sha, struct strbuf *sym)
{
	int rc = -1;

	if (!status) {
		struct strvec lines = STRVEC_INIT;
		for (const char *p = out->buf; *p;) {
			const char *nl = strchrnul(p, '\n');
			char *l = xstrndup(p, (size_t)(nl - p));
			strvec_push(&lines, l);
			free(l);
			p = *nl ? nl + 1 : nl;
		}
		if (lines.nr == 3) {
			strbuf_addstr(gd, lines.v[0]);
			strbuf_addstr(sha, lines.v[1]);
			strbuf_addstr(sym, lines.v[2]);
			rc = 0;
		}
		strvec_clear(&lines);
	}
	if (rc && !gitcmdl(GIT_AGENT_REPO, ws, gd, NULL, "rev-parse",
			   "--absolute-git-dir", NULL)) {
		strbuf_trim(gd);
		rc = 0;
	}
	return rc;
}

static int probe_head(const char *ws, struct strbuf *gd, struct strbuf *sha,
		      struct strbuf *sym)
{
	struct strbuf out = STRBUF_INIT;
	int st = gitcmd(GIT_AGENT_REPO, ws, &out, NULL, head_args);
	int rc = head_result(ws, st, &out, gd, sha, sym);

	strbuf_release(&out);
	return rc;
}

static void check_in_progress(const char *gitdir, struct verify_report *r)
{
	static const struct {
		const char *path, *op;
	} ops[] = { { "rebase-merge", "rebase" }, { "rebase-apply", "rebase" },
		    { "MERGE_HEAD", "merge" }, { "CHERRY_PICK_HEAD", "cherry-pick" },
		    { "REVERT_HEAD", "revert" } };
	if (!gitdir) {
		set(r, VC_IN_PROGRESS, VS_FAIL, "cannot find the git directory (treated as in progress)");
		return;
	}
	set(r, VC_IN_PROGRESS, VS_PASS, "none");
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		char *p = path_join(gitdir, ops[i].path);
		bool there = path_exists(p);
		free(p);
		if (there) {
			set(r, VC_IN_PROGRESS, VS_FAIL, "%s still in progress", ops[i].op);
			break;
		}
	}
}

/* Sets in_conflict from VC_UNMERGED (already set) and the git dir. */
static void conflicts_with(const char *gitdir, struct verify_report *r)
{
	check_in_progress(gitdir, r);
	r->in_conflict = r->state[VC_UNMERGED] == VS_FAIL ||
			 r->state[VC_IN_PROGRESS] == VS_FAIL;
}

void verify_conflicts(const char *workspace, struct verify_report *r)
{
	struct strbuf gd = STRBUF_INIT, sha = STRBUF_INIT, sym = STRBUF_INIT;

	check_unmerged(workspace, r);
	conflicts_with(probe_head(workspace, &gd, &sha, &sym) ? NULL : gd.buf, r);
	strbuf_release(&gd);
	strbuf_release(&sha);
	strbuf_release(&sym);
}

static void check_head(const struct verify_input *in, const struct strbuf *sha,
		       const struct strbuf *sym, struct verify_report *r)
{
	struct strbuf want = STRBUF_INIT;

	strbuf_addf(&want, "refs/heads/%s", in->head);
	if (!sha->len || sha->len >= sizeof(r->new_head))
		set(r, VC_HEAD, VS_FAIL, "cannot read HEAD");
	else
		memcpy(r->new_head, sha->buf, sha->len + 1);
	if (!*r->new_head)
		; /* reported above */
	else if (strcmp(sym->buf, want.buf))
		set(r, VC_HEAD, VS_FAIL, "HEAD is not on %s (it is %s)", want.buf,
		    strcmp(sym->buf, "HEAD") ? sym->buf : "detached");
	else if (!strcmp(sha->buf, in->head_sha))
		set(r, VC_HEAD, VS_FAIL, "HEAD unchanged at %.7s; nothing to push",
		    in->head_sha);
	else
		set(r, VC_HEAD, VS_PASS, "HEAD advanced from %.7s to %.7s",
		    in->head_sha, sha->buf);
	strbuf_release(&want);
}

static void ancestry_result(const struct verify_input *in, int status,
			    struct verify_report *r)
{
	if (status == 0)
		set(r, VC_ANCESTRY, VS_PASS, "base %.7s is an ancestor of HEAD", in->base_sha);
	else
		set(r, VC_ANCESTRY, VS_FAIL, "HEAD does not descend from base %.7s", in->base_sha);
}

static void refs_result(const struct verify_input *in, int status,
			const struct strbuf *raw, struct verify_report *r)
{
	struct strbuf after = STRBUF_INIT, keep = STRBUF_INIT, list = STRBUF_INIT;
	struct strvec changed = STRVEC_INIT;

	strbuf_addf(&keep, "refs/heads/%s", in->head);
	if (status) {
		set(r, VC_REFS, VS_FAIL, "cannot list refs");
	} else {
		verify_refs_filter(raw->buf, &after);
		verify_refs_diff(in->refs_before, after.buf, keep.buf, &changed);
		for (size_t i = 0; i < changed.nr; i++)
			strbuf_addf(&list, "%s%s", i ? ", " : "", changed.v[i]);
		if (changed.nr)
			set(r, VC_REFS, VS_FAIL, "other refs changed: %s", list.buf);
		else
			set(r, VC_REFS, VS_PASS, "only %s changed", keep.buf);
	}
	strbuf_release(&after);
	strbuf_release(&keep);
	strbuf_release(&list);
	strvec_clear(&changed);
}

/*
 * The trust-root scan of the pushed range (git/pushscan.h, the shim's push
 * guard's own code): every commit from HEAD not reachable from the head
 * and base observed before the agent ran, merges included.
 */
static void check_trust_root(const struct verify_input *in,
			     struct verify_report *r)
{
	const char *tips[] = { r->new_head, NULL };
	const char *haves[] = { in->head_sha, in->base_sha, NULL };
	struct push_scan s = { .trust = GIT_OPERATOR,
			       .dir = in->owned,
			       .tips = tips,
			       .haves = haves };
	struct strbuf d = STRBUF_INIT;

	switch (push_scan_run(&s, &d)) {
	case PS_OK:
		set(r, VC_TRUST_ROOT, VS_PASS, "none");
		break;
	case PS_TRUST_ROOT:
		set(r, VC_TRUST_ROOT, VS_FAIL,
		    "trust-root file '%s' in the pushed range", d.buf);
		break;
	default:
		set(r, VC_TRUST_ROOT, VS_FAIL,
		    "cannot list the pushed range: %s", d.buf);
		break;
	}
	strbuf_release(&d);
}

static void markers_result(int status, const struct strbuf *diff,
			   struct verify_report *r)
{
	struct strbuf where = STRBUF_INIT;

	if (status)
		set(r, VC_MARKERS, VS_FAIL, "cannot diff the branch");
	else if (verify_diff_adds_markers(diff->buf, diff->len, &where))
		set(r, VC_MARKERS, VS_FAIL, "conflict markers in %s", where.buf);
	else
		set(r, VC_MARKERS, VS_PASS, "none");
	strbuf_release(&where);
}

/*
 * The checks that need HEAD's new commit, their git calls run at once:
 * the net diff of the branch (markers), every file the pushed range
 * touches (trust roots), and for a rebase task the ancestry of base.
 */
/* The range checks cannot run: each fails with `why`. */
static void range_fails(const struct verify_input *in, struct verify_report *r,
			const char *why)
{
	set(r, VC_MARKERS, VS_FAIL, "%s", why);
	set(r, VC_TRUST_ROOT, VS_FAIL, "%s", why);
	if (in->rebase_task)
		set(r, VC_ANCESTRY, VS_FAIL, "%s", why);
}

/* invariant 2: HEAD's commits into the owned repository; 0 when there */
static int import_range(const struct verify_input *in, struct verify_report *r)
{
	struct strvec haves = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	int rc;

	if (!in->owned) {
		strbuf_addf(
			&err,
			"no repository of agentic-git's to read the commits in: %s",
			in->owned_refused ? in->owned_refused : "none given");
		range_fails(in, r, err.buf);
		strbuf_release(&err);
		return -1;
	}
	strvec_pushl(&haves, in->head_sha, in->base_sha, NULL);
	if (in->haves)
		strvec_pushv(&haves, in->haves);
	rc = owned_import(in->workspace, in->owned, r->new_head,
			  (const char *const *)haves.v, &err);
	if (rc)
		range_fails(in, r, err.buf);
	strvec_clear(&haves);
	strbuf_release(&err);
	return rc;
}

/* "-c K=V" of owned_read_config, then `args` (NULL-terminated) */
static void owned_args(struct strvec *v, const char *const *args)
{
	for (const char *const *kv = owned_read_config; *kv; kv++)
		strvec_pushl(v, "-c", *kv, NULL);
	strvec_pushv(v, args);
}

static void check_range(const struct verify_input *in, struct verify_report *r)
{
	struct strbuf range = STRBUF_INIT;
	/* --text: no attribute or size makes a file binary to this diff */
	const char *markers[] = { "diff",
				  "--no-ext-diff",
				  "--no-textconv",
				  "--text",
				  "--no-color",
				  "-U0",
				  NULL,
				  "--",
				  NULL };
	const char *ancestry[] = { "merge-base", "--is-ancestor", in->base_sha,
				   r->new_head, NULL };
	struct strvec ma = STRVEC_INIT, aa = STRVEC_INIT;
	struct gitcmd_job j[2] = { { NULL, STRBUF_INIT, -1 },
				   { NULL, STRBUF_INIT, -1 } };

	if (!*r->new_head) {
		range_fails(in, r, "no HEAD to check");
		return;
	}
	if (import_range(in, r) < 0)
		return;
	strbuf_addf(&range, "%s...%s", in->base_sha, r->new_head);
	markers[6] = range.buf;
	owned_args(&ma, markers);
	owned_args(&aa, ancestry);
	j[0].args = (const char *const *)ma.v;
	j[1].args = (const char *const *)aa.v;
	gitcmd_parallel(GIT_OPERATOR, in->owned, j, in->rebase_task ? 2 : 1);
	markers_result(j[0].status, &j[0].out, r);
	if (in->rebase_task)
		ancestry_result(in, j[1].status, r);
	check_trust_root(in, r);
	for (size_t i = 0; i < ARRAY_SIZE(j); i++)
		strbuf_release(&j[i].out);
	strvec_clear(&ma);
	strvec_clear(&aa);
	strbuf_release(&range);
}

/* Runs the command in its own group; kills the group at the deadline. */
static int run_with_timeout(const struct verify_input *in, int *code)
{
	struct child c = CHILD_INIT;
	time_t deadline = time(NULL) + (in->command_timeout ? in->command_timeout : 600);
	int st = 0, signals = 0;

	strvec_pushv(&c.args, in->command);
	if (in->command_env && in->command_env->nr)
		strvec_pushv(&c.env, in->command_env->v);
	else
		gitcmd_scrubbed_env(&c.env);
	c.dir = in->workspace;
	c.new_pgroup = true;
	if (child_start(&c) < 0) {
		child_release(&c);
		return -1;
	}
	for (;;) {
		pid_t w = waitpid(c.pid, &st, WNOHANG);
		if (w == c.pid || (w < 0 && errno != EINTR))
			break;
		if (time(NULL) >= deadline) {
			kill(-c.pid, signals++ < 20 ? SIGTERM : SIGKILL);
			deadline = time(NULL) + 1;
			if (signals > 40)
				break;
		}
		nanosleep(&(struct timespec){ 0, 20000000L }, NULL);
	}
	kill(-c.pid, SIGKILL); /* nothing of it outlives the check */
	*code = signals ? 124 : wait_status_to_code(st);
	child_release(&c);
	return 0;
}

static void check_command(const struct verify_input *in, struct verify_report *r)
{
	const char *name;
	int code = 0;

	if (!in->command || !in->command[0])
		return;
	name = in->command_name ? in->command_name : in->command[0];
	if (in->command_refused)
		set(r, VC_COMMAND, VS_FAIL, "'%s' was not run: %s", name, in->command_refused);
	else if (in->command[0][0] != '/')
		set(r, VC_COMMAND, VS_FAIL, "verify_command[0] '%s' is not an absolute path", in->command[0]);
	else if (run_with_timeout(in, &code) < 0)
		set(r, VC_COMMAND, VS_FAIL, "cannot run '%s': %s", name, strerror(errno));
	else if (code)
		set(r, VC_COMMAND, VS_FAIL, "'%s' exited %d%s", name, code,
		    code == 124 ? " (timed out)" : "");
	else
		set(r, VC_COMMAND, VS_PASS, "'%s' passed", name);
}

/*
 * The git reads of a verification in two rounds of parallel processes
 * (gitcmd_parallel): what needs nothing (HEAD, the index's unmerged
 * entries, the refs), then what needs HEAD's new commit (check_range).
 * The agent is gone by now: nothing changes the workspace in between.
 */
void verify_run(const struct verify_input *in, struct verify_report *r)
{
	static const char *const refs_args[] = { "for-each-ref",
		"--format=%(objectname) %(refname)", NULL };
	struct gitcmd_job j[3] = { { head_args, STRBUF_INIT, -1 },
				   { unmerged_args, STRBUF_INIT, -1 },
				   { refs_args, STRBUF_INIT, -1 } };
	struct strbuf gd = STRBUF_INIT, sha = STRBUF_INIT, sym = STRBUF_INIT;
	bool gd_ok;

	if (in->exit_ok)
		set(r, VC_EXIT, VS_PASS, "exited 0 within the timeout");
	else
		set(r, VC_EXIT, VS_FAIL, "did not exit 0 within the timeout");
	gitcmd_parallel(GIT_AGENT_REPO, in->workspace, j, ARRAY_SIZE(j));
	gd_ok = head_result(in->workspace, j[0].status, &j[0].out, &gd, &sha,
			    &sym) == 0;
	unmerged_result(j[1].status, &j[1].out, r);
	conflicts_with(gd_ok ? gd.buf : NULL, r);
	check_head(in, &sha, &sym, r);
	refs_result(in, j[2].status, &j[2].out, r);
	check_range(in, r);
	check_command(in, r);
	r->ok = true;
	for (int i = 0; i < VC__COUNT; i++)
		if (r->state[i] == VS_FAIL)
			r->ok = false;
	for (size_t i = 0; i < ARRAY_SIZE(j); i++)
		strbuf_release(&j[i].out);
	strbuf_release(&gd);
	strbuf_release(&sha);
	strbuf_release(&sym);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Invariants (tests: tests/e2e/t0150-push.bats, t0151-push-real.bats):
 *  1. What is judged is what git itself would update: the dry run gets the
 *     agent's exact arguments, environment and configuration, with ours
 *     after all of the agent's options (before its `--`), so that no
 *     option of the agent (`--no-dry-run`, `-q`, `--no-porcelain`) wins
 *     over them.
 *  2. The range is measured against the tips the push target advertised
 *     in that same connection, never against remote-tracking refs.
 *  3. The trace goes to a memfd no other process can name; a dry run that
 *     fails, an unreadable plan or trace, or a scan that fails denies.
 */
#include "base/common.h"
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/spawn.h"
#include "base/strvec.h"
#include "agentic-git/core.h"
#include "git/gitcmd.h"
#include "git/policy.h"
#include "git/pushguard.h"
#include "git/pushplan.h"
#include "git/pushscan.h"

/* Our options last: the agent's own cannot undo them (invariant 1). */
static const char *const dry_opts[] = { "--dry-run", "--porcelain",
					"--no-quiet", "--no-verify",
					"--no-recurse-submodules",
					"--no-signed",
					/* push options change no ref, and
					 * sent in a dry run they race the
					 * remote's hang-up (SIGPIPE) */
					"--no-push-option", NULL };

static int trace_fd_open(struct strbuf *env)
{
	int fd = memfd_create("agentic-git-push-trace", 0);

	if (fd >= 0 && fd > 9) { /* git takes one digit as an fd */
		int low = fcntl(fd, F_DUPFD, 3);
		if (low >= 0 && low <= 9) {
			close(fd);
			fd = low;
		} else if (low >= 0) {
			close(low);
		}
	}
	if (fd < 0)
		return -1;
	if (fd <= 9)
		strbuf_addf(env, "GIT_TRACE_PACKET=%d", fd);
	else
		strbuf_addf(env, "GIT_TRACE_PACKET=/proc/self/fd/%d", fd);
	return fd;
}

static int read_all(int fd, struct strbuf *sb)
{
	char buf[8192];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		strbuf_add(sb, buf, (size_t)n);
	}
	return 0;
}

/* The dry run: porcelain into `out`, trace into `trace`, stderr `err`. */
static int dry_run(const struct push_guard_in *in, struct strbuf *out,
		   struct strbuf *trace, struct strbuf *err)
{
	struct child c = CHILD_INIT;
	struct strbuf tenv = STRBUF_INIT;
	size_t nargs = 0, at;
	int fd, rc;

	while (in->args[nargs])
		nargs++;
	at = in->opts_end_at;
	if (at > nargs)
		at = nargs;
	fd = trace_fd_open(&tenv);
	if (fd < 0) {
		strbuf_addf(err, "cannot create the trace: %s",
			    strerror(errno));
		return -1;
	}
	gitcmd_prepare(&c, GIT_AS_AGENT, in->real_git, NULL);
	strvec_pushn(&c.args, in->args, at);
	strvec_pushv(&c.args, dry_opts);
	strvec_pushn(&c.args, in->args + at, nargs - at);
	strvec_push(&c.env_set, tenv.buf);
	strvec_pushf(&c.env_set, "AGENTIC_GIT_SHIM_DEPTH=%u", in->depth + 1);
	strvec_push(&c.env_set, "GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS=1");
	rc = gitcmd_run(&c, out, err);
	if (rc >= 0 && read_all(fd, trace) < 0) {
		strbuf_addf(err, "cannot read the trace: %s", strerror(errno));
		rc = -1;
	}
	close(fd);
	child_release(&c);
	strbuf_release(&tenv);
	return rc;
}

/* git's first error line is the one that says what went wrong */
static void first_line(struct strbuf *sb)
{
	char *nl;

	strbuf_trim(sb);
	nl = strchr(sb->buf, '\n');
	if (nl)
		strbuf_setlen(sb, (size_t)(nl - sb->buf));
	if (!sb->len)
		strbuf_addstr(sb, "(no message)");
}

/* The deny for each scan result: the event, and the text around detail. */
static const struct {
	const char *event, *before, *after;
} scan_deny[] = {
	[PS_TRUST_ROOT] = { "deny_trust_root",
			    "push range contains a trust-root file: `",
			    "` — remove it from the branch history before pushing (git rm "
			    "--cached <path>, then rewrite the commits that added it)" },
	[PS_SNAPSHOT] = { "deny_snapshot_ref_push",
			  "SNAPSHOT_REF_PUSH: commit ",
			  " pushed is an agentic-git snapshot, which never leaves this machine" },
	[PS_NOT_COMMIT] = { "deny_trust_root", "",
			    " — its files cannot be checked for trust-root files; "
			    "push commits and tags of commits" },
	[PS_ERROR] = { "deny_trust_root",
		       "could not verify the push range (fail-closed): ", "" },
};

/*
 * The object ids the pushed refs have now, into `tips`: the scan reads
 * these, and the real push may send only these (git/pushpin.h), however
 * the refs move meanwhile. -1 (reason in why) when git cannot say.
 */
static int resolve_tips(const struct push_guard_in *in,
			const struct push_plan *plan, struct strvec *tips,
			struct strbuf *why)
{
	struct child c = CHILD_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	size_t want = 0;
	int ret = -1;

	gitcmd_prepare(&c, GIT_INTERNAL, in->real_git, in->dir);
	strvec_push(&c.args, "rev-parse");
	for (size_t i = 0; i < plan->nr; i++)
		if (*plan->u[i].src) {
			/* git names a ref here, never an option */
			if (plan->u[i].src[0] == '-')
				goto out;
			strvec_push(&c.args, plan->u[i].src);
			want++;
		}
	if (!want) {
		ret = 0;
		goto out;
	}
	/* revisions, even where a file has the name; rev-parse echoes it */
	strvec_push(&c.args, "--");
	if (gitcmd_run(&c, &out, &err) == 0) {
		for (char *p = out.buf, *nl; *p; p = nl + 1) {
			if (!(nl = strchr(p, '\n')))
				break;
			*nl = '\0';
			if (!strcmp(p, "--"))
				continue;
			strvec_push(tips, p);
			if (in->pins)
				strbuf_addf(in->pins, "%s%s",
					    in->pins->len ? " " : "", p);
		}
		ret = tips->nr == want ? 0 : -1;
	}
out:
	if (ret < 0) {
		first_line(&err);
		strbuf_addf(why, "%sthe pushed refs cannot be resolved: %s",
			    scan_deny[PS_ERROR].before, err.buf);
	}
	child_release(&c);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}

static const char *scan(const struct push_guard_in *in,
			const struct push_plan *plan,
			const struct strvec *haves, struct strbuf *why)
{
	struct strvec tips = STRVEC_INIT;
	struct strbuf d = STRBUF_INIT;
	struct push_scan s = { .trust = GIT_INTERNAL,
			       .real_git = in->real_git,
			       .dir = in->dir,
			       .depth = in->depth,
			       .haves = haves->v,
			       .peel = true,
			       .snapshots = true };
	enum push_scan_result r;
	const char *ev = NULL;

	if (resolve_tips(in, plan, &tips, why) < 0)
		return scan_deny[PS_ERROR].event;
	if (!tips.nr)
		return NULL;
	s.tips = tips.v;
	r = push_scan_run(&s, &d);
	if (r != PS_OK) {
		strbuf_addstr(why, scan_deny[r].before);
		strbuf_addbuf(why, &d);
		strbuf_addstr(why, scan_deny[r].after);
		ev = scan_deny[r].event;
	}
	strvec_clear(&tips);
	strbuf_release(&d);
	return ev;
}

const char *push_guards_run(const struct push_guard_in *in, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT, trace = STRBUF_INIT, err = STRBUF_INIT;
	struct push_plan plan = { 0 };
	struct strvec haves = STRVEC_INIT;
	const char *ev = "deny_trust_root";
	size_t blocks = 0;
	int rc = dry_run(in, &out, &trace, &err);

	/* a dry run writes into a connection the remote may already have
	 * closed (nothing is sent): git then dies of SIGPIPE, silent, now
	 * and then; its answer is the same the next time */
	for (int again = 0; rc == 128 + SIGPIPE && again < 2; again++) {
		strbuf_reset(&out);
		strbuf_reset(&trace);
		strbuf_reset(&err);
		rc = dry_run(in, &out, &trace, &err);
	}

	if (rc > 0 && !err.len)
		strbuf_addf(&err, "(no message, exit status %d)", rc);
	first_line(&err);
	if (rc < 0 || push_plan_parse(&plan, out.buf, out.len) < 0 ||
	    (rc && !plan.nr)) {
		strbuf_addf(
			why,
			"cannot tell what this push would update (fail-closed): "
			"git push --dry-run, run first to find out, %s%s",
			rc ? "failed: " : "printed what the guard cannot read",
			rc ? err.buf : "");
	} else if (!plan.nr) {
		ev = NULL; /* nothing would be pushed */
	} else if (push_adv_parse(trace.buf, trace.len, &haves, &blocks) < 0 ||
		   blocks < plan.urls) {
		strbuf_addstr(
			why,
			"cannot tell what the remote already has (fail-closed): "
			"its ref advertisement could not be read");
	} else if (!(ev = push_plan_check(&plan, in->assigned, in->is_protected,
					  in->ctx, why))) {
		ev = scan(in, &plan, &haves, why);
	}
	push_plan_release(&plan);
	strvec_clear(&haves);
	strbuf_release(&out);
	strbuf_release(&trace);
	strbuf_release(&err);
	return ev;
}

static bool protected_ref(const char *branch, void *ctx)
{
	return policy_protected(ctx, branch);
}

void push_guards_verdict(const char *real_git, const struct policy_input *in,
			 struct verdict *v)
{
	struct push_spec ps;
	struct strbuf why = STRBUF_INIT;
	struct push_guard_in g = { .real_git = real_git,
				   .dir = v->route_dir.buf,
				   .args = v->args.v,
				   .sub_args_at = v->sub_args_at,
				   .opts_end_at = v->opts_end_at,
				   .ps = &ps,
				   .assigned = in->bind->branch,
				   .is_protected = protected_ref,
				   .ctx = (void *)in,
				   .depth = in->env->depth,
				   .pins = &v->push_pins };
	const char *ev;

	push_spec_parse(in->ga, &ps);
	ev = push_guards_run(&g, &why);
	if (ev) {
		v->kind = V_DENY;
		v->event = ev;
		v->style = DS_BLOCK;
		strbuf_reset(&v->reason);
		strbuf_addbuf(&v->reason, &why);
	}
	strbuf_release(&why);
	push_spec_release(&ps);
}

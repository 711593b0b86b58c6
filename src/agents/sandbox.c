/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox planner: validates the request, picks the backend from the
 * preference and the host's capabilities, and hands over to the bwrap or
 * Landlock argv builder. Pure: no I/O (see sandbox.h for the invariants).
 */
#include "base/common.h"
#include <string.h>
#include "agents/allowhosts.h"
#include "agents/sandbox-bwrap.h"
#include "agents/sandbox-landlock.h"
#include "agents/sandbox.h"
#include "base/eventlog.h"
#include "base/path.h"
#include "base/xalloc.h"

static const char *const policy_names[] = {
	[SANDBOX_NONE] = "none",
	[SANDBOX_FS_ONLY] = "fs-only",
	[SANDBOX_FS_NO_NET] = "fs+no-net",
	[SANDBOX_FS_API] = "fs+api",
};

static const char *const backend_names[] = {
	[SANDBOX_BACKEND_AUTO] = "auto",
	[SANDBOX_BACKEND_BWRAP] = "bwrap",
	[SANDBOX_BACKEND_LANDLOCK] = "landlock",
	[SANDBOX_BACKEND_NONE] = "none",
};

static const char *const fallback_names[] = {
	[SANDBOX_FALLBACK_REFUSE] = "refuse",
	[SANDBOX_FALLBACK_WARN_RUN] = "warn-run",
};

static int parse_name(const char *s, const char *const *names, size_t nr,
		      size_t limit, int *out)
{
	for (size_t i = 0; s && i < nr && i < limit; i++) {
		if (names[i] && !strcmp(s, names[i])) {
			*out = (int)i;
			return 0;
		}
	}
	return -1;
}

int sandbox_policy_parse(const char *s, enum sandbox_policy *out)
{
	int v;
	if (parse_name(s, policy_names, ARRAY_SIZE(policy_names), 4, &v) < 0)
		return -1;
	*out = (enum sandbox_policy)v;
	return 0;
}

const char *sandbox_policy_name(enum sandbox_policy p)
{
	return (size_t)p < ARRAY_SIZE(policy_names) ? policy_names[p] : "?";
}

int sandbox_backend_parse(const char *s, enum sandbox_backend *out)
{
	int v;
	/* "none" is a plan's state, not a preference. */
	if (parse_name(s, backend_names, ARRAY_SIZE(backend_names), 3, &v) < 0)
		return -1;
	*out = (enum sandbox_backend)v;
	return 0;
}

const char *sandbox_backend_name(enum sandbox_backend b)
{
	return (size_t)b < ARRAY_SIZE(backend_names) ? backend_names[b] : "?";
}

int sandbox_fallback_parse(const char *s, enum sandbox_fallback *out)
{
	int v;
	if (parse_name(s, fallback_names, ARRAY_SIZE(fallback_names), 2,
		       &v) < 0)
		return -1;
	*out = (enum sandbox_fallback)v;
	return 0;
}

const char *sandbox_fallback_name(enum sandbox_fallback f)
{
	return (size_t)f < ARRAY_SIZE(fallback_names) ? fallback_names[f] : "?";
}

/* Invariant 3: absolute and already normalised. */
bool sandbox_path_ok(const char *p)
{
	size_t n;

	if (!p || p[0] != '/')
		return false;
	n = strlen(p);
	if (n > 4000 || (n > 1 && p[n - 1] == '/'))
		return false;
	for (const char *c = p; *c; c++) {
		if (*c == '\n')
			return false;
		if (*c != '/')
			continue;
		if (c[1] == '/')
			return false;
		if (c[1] == '.' && (c[2] == '/' || !c[2]))
			return false;
		if (c[1] == '.' && c[2] == '.' && (c[3] == '/' || !c[3]))
			return false;
	}
	return true;
}

static size_t depth_of(const char *p)
{
	size_t d = 0;
	for (; *p; p++)
		d += *p == '/';
	return d;
}

static int bind_cmp(const void *a, const void *b)
{
	const struct sandbox_bind *x = a, *y = b;
	size_t dx = depth_of(x->path), dy = depth_of(y->path);
	if (dx != dy)
		return dx < dy ? -1 : 1;
	return strcmp(x->path, y->path);
}

static void add_bind(struct sandbox_bind *v, size_t *nr, const char *path,
		     enum sandbox_bind_kind kind)
{
	for (size_t i = 0; i < *nr; i++) {
		if (!strcmp(v[i].path, path)) {
			if (kind == BIND_RW)
				v[i].kind = BIND_RW;
			return;
		}
	}
	v[*nr].path = path;
	v[*nr].kind = kind;
	(*nr)++;
}

size_t sandbox_collect_binds(const struct sandbox_request *rq, bool with_tmp,
			     struct sandbox_bind **out)
{
	size_t max = rq->extra_ro_nr + rq->ro_binds_nr + 5, nr = 0;
	struct sandbox_bind *v = xcalloc(max, sizeof(*v));

	for (size_t i = 0; i < rq->extra_ro_nr; i++)
		add_bind(v, &nr, rq->extra_ro[i], BIND_RO);
	for (size_t i = 0; i < rq->ro_binds_nr; i++)
		add_bind(v, &nr, rq->ro_binds[i], BIND_RO);
	if (rq->policy == SANDBOX_FS_API) /* the relay inside */
		add_bind(v, &nr, rq->self_exe, BIND_RO);
	if (rq->cache_dir)
		add_bind(v, &nr, rq->cache_dir, BIND_RW);
	if (rq->quarantine_dir)
		add_bind(v, &nr, rq->quarantine_dir, BIND_RW);
	if (with_tmp && rq->tmp_dir)
		add_bind(v, &nr, rq->tmp_dir, BIND_RW);
	if (with_tmp && rq->private_home)
		add_bind(v, &nr, rq->private_home, BIND_RW);
	add_bind(v, &nr, rq->workspace, BIND_RW);
	qsort(v, nr, sizeof(*v), bind_cmp);
	*out = v;
	return nr;
}

void sandbox_child_env(const struct sandbox_request *rq, const char *tmp,
		       const char *home, struct strvec *out)
{
	for (size_t i = 0; i < rq->env_nr; i++)
		if (!starts_with(rq->env[i], "TMPDIR=") &&
		    !(home && starts_with(rq->env[i], "HOME=")))
			strvec_push(out, rq->env[i]);
	if (home)
		strvec_pushf(out, "HOME=%s", home);
	if (tmp)
		strvec_pushf(out, "TMPDIR=%s", tmp);
}

static enum sandbox_verdict refuse(struct sandbox_plan *plan, bool bad_input,
				   const char *fmt, ...) AG_PRINTF(3, 4);
static enum sandbox_verdict refuse(struct sandbox_plan *plan, bool bad_input,
				   const char *fmt, ...)
{
	va_list ap;
	strvec_clear(&plan->argv);
	strvec_clear(&plan->env);
	plan->prefix_nr = 0;
	strbuf_reset(&plan->reason);
	va_start(ap, fmt);
	strbuf_vaddf(&plan->reason, fmt, ap);
	va_end(ap);
	plan->bad_input = bad_input;
	plan->backend = SANDBOX_BACKEND_NONE;
	return plan->verdict = SANDBOX_REFUSED;
}

static int check_list(const char *const *v, size_t nr, const char *what,
		      struct sandbox_plan *plan)
{
	for (size_t i = 0; i < nr; i++) {
		if (!sandbox_path_ok(v[i])) {
			refuse(plan, true,
			       "%s '%s' must be an absolute, normalised path",
			       what, v[i] ? v[i] : "(null)");
			return -1;
		}
	}
	return 0;
}

/* Invariant 8: what the proxy wrapper needs. */
static int check_api(const struct sandbox_request *rq,
		     struct sandbox_plan *plan)
{
	struct strbuf err = STRBUF_INIT;

	if (!sandbox_path_ok(rq->proxy_sock) || !rq->self_exe ||
	    rq->self_exe[0] != '/')
		return refuse(plan, true,
			      "sandbox 'fs+api' needs the proxy socket path and the absolute path of agentic-git"),
		       -1;
	if (!rq->proxy_exe || rq->proxy_exe[0] != '/')
		return refuse(plan, true,
			      "sandbox 'fs+api' needs the proxy program 'agentic-git-proxy' beside agentic-git (install it with agentic-git)"),
		       -1;
	if (rq->secrets && !sandbox_path_ok(rq->ca_bundle))
		return refuse(plan, true,
			      "sandbox 'fs+api' with secrets needs the CA bundle's path"),
		       -1;
	for (size_t i = 0; i < rq->allow_hosts_nr; i++) {
		if (allowhost_check(rq->allow_hosts[i], &err) < 0) {
			refuse(plan, true, "allow_hosts entry '%s': %s",
			       rq->allow_hosts[i], err.buf);
			strbuf_release(&err);
			return -1;
		}
	}
	return 0;
}

/* Validation common to every policy; returns -1 after refusing. */
static int check_request(const struct sandbox_request *rq,
			 struct sandbox_plan *plan)
{
	const char *rel;

	if (!rq->argc || !rq->argv || !rq->argv[0] || rq->argv[0][0] != '/')
		return refuse(plan, true, "the command must be given with an absolute path"), -1;
	if (!sandbox_path_ok(rq->workspace))
		return refuse(plan, true, "workspace '%s' must be an absolute, normalised path",
			      rq->workspace ? rq->workspace : "(null)"), -1;
	if (rq->policy == SANDBOX_NONE)
		return 0;
	if (!sandbox_path_ok(rq->home))
		return refuse(plan, true, "home '%s' must be an absolute, normalised path",
			      rq->home ? rq->home : "(null)"), -1;
	if (!strcmp(rq->workspace, "/") ||
	    path_inside(rq->home, rq->workspace, &rel))
		return refuse(plan, true, "workspace '%s' would expose the home directory '%s'",
			      rq->workspace, rq->home), -1;
	if (rq->cache_dir && !sandbox_path_ok(rq->cache_dir))
		return refuse(plan, true, "cache dir '%s' must be an absolute, normalised path",
			      rq->cache_dir), -1;
	if (rq->cache_dir && (!strcmp(rq->cache_dir, "/") ||
			      path_inside(rq->home, rq->cache_dir, &rel)))
		return refuse(plan, true, "cache dir '%s' would expose the home directory",
			      rq->cache_dir), -1;
	if (rq->quarantine_dir &&
	    (!sandbox_path_ok(rq->quarantine_dir) ||
	     !strcmp(rq->quarantine_dir, "/") ||
	     path_inside(rq->home, rq->quarantine_dir, &rel)))
		return refuse(plan, true,
			      "quarantine dir '%s' must be an absolute, normalised path that does not contain $HOME",
			      rq->quarantine_dir),
		       -1;
	if (rq->tmp_dir && !sandbox_path_ok(rq->tmp_dir))
		return refuse(plan, true, "tmp dir '%s' must be an absolute, normalised path",
			      rq->tmp_dir), -1;
	if (rq->private_home && (!sandbox_path_ok(rq->private_home) ||
				 path_inside(rq->home, rq->private_home, &rel)))
		return refuse(plan, true, "private home '%s' must be an absolute, normalised path that does not contain $HOME",
			      rq->private_home), -1;
	if (check_list(rq->ro_binds, rq->ro_binds_nr, "ro bind", plan) < 0 ||
	    check_list(rq->extra_ro, rq->extra_ro_nr, "read-only path", plan) <
		    0 ||
	    check_list(rq->masks, rq->masks_nr, "masked path", plan) < 0)
		return -1;
	for (size_t i = 0; i < rq->env_nr; i++)
		if (!rq->env[i] || !strchr(rq->env[i], '=') || rq->env[i][0] == '=')
			return refuse(plan, true, "environment entry '%s' is not NAME=VALUE",
				      rq->env[i] ? rq->env[i] : "(null)"), -1;
	return rq->policy == SANDBOX_FS_API ? check_api(rq, plan) : 0;
}

static bool landlock_usable(const struct sandbox_caps *caps)
{
	return caps->landlock_abi >= 1 && caps->seccomp;
}

static void landlock_why(const struct sandbox_caps *caps, struct strbuf *sb)
{
	if (caps->landlock_abi < 1)
		strbuf_addf(sb, "landlock is unavailable (%s)",
			    caps->landlock_why[0] ? caps->landlock_why : "not supported");
	else
		strbuf_addstr(sb, "seccomp filters are unavailable");
}

static enum sandbox_verdict plan_plain(const struct sandbox_request *rq,
				       struct sandbox_plan *plan)
{
	strvec_clear(&plan->argv);
	strvec_clear(&plan->env);
	strvec_pushn(&plan->argv, rq->argv, rq->argc);
	strvec_pushn(&plan->env, rq->env, rq->env_nr);
	plan->prefix_nr = 0;
	free(plan->dir);
	plan->dir = xstrdup(rq->workspace);
	plan->backend = SANDBOX_BACKEND_NONE;
	return plan->verdict = SANDBOX_RUN_PLAIN;
}

enum sandbox_verdict sandbox_plan(const struct sandbox_request *rq,
				  const struct sandbox_caps *caps,
				  struct sandbox_plan *plan)
{
	struct strbuf why = STRBUF_INIT;
	enum sandbox_backend b = rq->backend;
	const char *policy = sandbox_policy_name(rq->policy);

	plan->downgraded = plan->attention = plan->bad_input = false;
	if (check_request(rq, plan) < 0)
		return plan->verdict;
	if (rq->policy == SANDBOX_NONE)
		return plan_plain(rq, plan);
	if (rq->policy == SANDBOX_FS_API && !caps->bwrap_works) {
		refuse(plan, false,
		       "sandbox 'fs+api' cannot be provided on this host (backend %s): bubblewrap is unavailable (%s), and landlock restricts ports, not addresses, so it cannot confine the network to the proxy",
		       sandbox_backend_name(rq->backend),
		       caps->bwrap_why[0] ? caps->bwrap_why : "not installed");
		return plan->verdict;
	}
	if (rq->policy == SANDBOX_FS_API && b == SANDBOX_BACKEND_LANDLOCK)
		return refuse(
			plan, false,
			"sandbox 'fs+api' cannot be provided by the landlock backend: it restricts ports, not addresses, so it cannot confine the network to the proxy (use sandbox_backend: bwrap or auto)");
	if (b == SANDBOX_BACKEND_AUTO)
		b = caps->bwrap_works ? SANDBOX_BACKEND_BWRAP
		    : landlock_usable(caps) ? SANDBOX_BACKEND_LANDLOCK
					    : SANDBOX_BACKEND_NONE;
	if (b == SANDBOX_BACKEND_BWRAP && caps->bwrap_works) {
		bwrap_build(rq, caps, plan);
	} else if (b == SANDBOX_BACKEND_LANDLOCK && landlock_usable(caps)) {
		if (!rq->self_exe || rq->self_exe[0] != '/')
			return refuse(plan, true, "the landlock backend needs the absolute path of agentic-git");
		/* invariant 11: Landlock grants whole trees */
		if (rq->masks_nr)
			return refuse(
				plan, true,
				"agentic-git's home would be readable inside the landlock cage at '%s' (the fleet key with it): a directory the cage reads contains it, and landlock cannot hide part of a tree it grants; move AGENTIC_GIT_HOME out of every directory the cage reads (system dirs, ro_binds), or use bubblewrap (sandbox_backend: bwrap), which hides it",
				rq->masks[0]);
		landlock_build(rq, caps, plan);
	} else {
		if (rq->backend != SANDBOX_BACKEND_LANDLOCK)
			strbuf_addf(&why, "bubblewrap is unavailable (%s)",
				    caps->bwrap_why[0] ? caps->bwrap_why : "not installed");
		if (rq->backend == SANDBOX_BACKEND_AUTO)
			strbuf_addstr(&why, " and ");
		if (rq->backend != SANDBOX_BACKEND_BWRAP)
			landlock_why(caps, &why);
		refuse(plan, false, "sandbox '%s' cannot be provided on this host (backend %s): %s",
		       policy, sandbox_backend_name(rq->backend), why.buf);
		strbuf_release(&why);
		return plan->verdict;
	}
	free(plan->dir);
	plan->dir = xstrdup(rq->workspace);
	plan->backend = b;
	strbuf_reset(&plan->reason);
	return plan->verdict = SANDBOX_WRAPPED;
}

enum sandbox_verdict sandbox_fallback(const struct sandbox_request *rq,
				      enum sandbox_fallback fb,
				      const char *agent,
				      struct sandbox_plan *plan)
{
	if (plan->verdict != SANDBOX_REFUSED || plan->bad_input ||
	    fb != SANDBOX_FALLBACK_WARN_RUN)
		return plan->verdict;
	strbuf_reset(&plan->warning);
	strbuf_addf(&plan->warning,
		    "agent '%s' ran UNSANDBOXED: %s (sandbox_fallback=warn-run)",
		    agent && *agent ? agent : "(none)", plan->reason.buf);
	plan_plain(rq, plan);
	plan->downgraded = plan->attention = true;
	return plan->verdict;
}

void sandbox_downgrade_event(const struct sandbox_request *rq,
			     const struct sandbox_plan *plan,
			     struct event *ev)
{
	event_add_str(ev, "requested_policy", sandbox_policy_name(rq->policy));
	event_add_str(ev, "requested_backend",
		      sandbox_backend_name(rq->backend));
	event_add_str(ev, "reason", plan->reason.buf);
	event_add_str(ev, "fallback", "warn-run");
	event_add_str(ev, "warning", plan->warning.buf);
	event_add_str(ev, "workspace", rq->workspace);
}

void sandbox_plan_release(struct sandbox_plan *plan)
{
	strvec_clear(&plan->argv);
	strvec_clear(&plan->env);
	free(plan->dir);
	plan->dir = NULL;
	strbuf_release(&plan->reason);
	strbuf_release(&plan->warning);
}

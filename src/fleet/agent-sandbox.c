/* SPDX-License-Identifier: Apache-2.0 */
/* One way to put an agent in its sandbox; see agent-sandbox.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <jansson.h>
#include "agentic-git/core.h"
#include "agents/sandbox-probe.h"
#include "base/die.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/agent-sandbox.h"
#include "fleet/spool.h"
#include "fleet/workspace.h"
#include "git/hooks.h"

extern char **environ;

/* Invariant 2: what the guarded session reads inside the cage. */
static void session_binds(const struct agent_sandbox_spec *sp,
			  struct strvec *ro)
{
	strvec_push(ro, sp->argv[0]);
	if (sp->bare)
		return;
	if (self_exe())
		strvec_push(ro, self_exe());
	if (shim_exe() && self_exe() && strcmp(shim_exe(), self_exe()))
		strvec_push(ro, shim_exe());
	if (sp->real_git)
		strvec_push(ro, sp->real_git);
	strvec_pushf(ro, "%s/bin", sp->home);
	if (sp->with_hooks) { /* provisioning creates them after planning */
		char *hooks = hooks_dir(sp->home);
		strvec_push(ro, hooks);
		free(hooks);
	}
	strvec_pushf(ro, "%s/runtime/%s", sp->home, sp->agent);
	if (sp->objects)
		workspace_borrowed_stores(sp->objects, ro);
}

static bool in_system_dir(const char *p)
{
	static const char *const sys[] = SANDBOX_SYS_DIRS;
	const char *rel;

	for (size_t i = 0; i < ARRAY_SIZE(sys); i++)
		if (path_inside(p, sys[i], &rel))
			return true;
	return false;
}

static void push_dir(struct strvec *out, const char *p, size_t len)
{
	char *d = xstrndup(p, len);

	if (!in_system_dir(d) && sandbox_path_ok(d))
		strvec_push(out, d);
	free(d);
}

void agent_toolchain_dirs(const char *real_bin, const char *real_interp,
			  struct strvec *out)
{
	/* the first whole "node_modules" component */
	const char *nm = real_bin ? strstr(real_bin, "/node_modules/") : NULL;

	if (nm)
		push_dir(out, real_bin, (size_t)(nm - real_bin) + 13);
	else if (real_bin)
		push_dir(out, real_bin, strlen(real_bin));
	if (real_interp) {
		const char *slash = strrchr(real_interp, '/');
		size_t dir = slash ? (size_t)(slash - real_interp) : 0;

		if (dir >= 4 && !strncmp(real_interp + dir - 4, "/bin", 4))
			dir -= 4;
		if (dir)
			push_dir(out, real_interp, dir);
	}
}

/* `name` in the PATH of `env`, resolved; NULL when not found. */
static char *find_in_path(const char *const *env, size_t nr, const char *name)
{
	const char *path = NULL;

	for (size_t i = 0; i < nr; i++)
		if (starts_with(env[i], "PATH="))
			path = env[i] + 5;
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char *cand = xstrfmt("%.*s/%s", (int)n, path, name);
		char *real = path[0] == '/' && !access(cand, X_OK)
				 ? real_path(cand)
				 : NULL;

		free(cand);
		if (real)
			return real;
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* The resolved interpreter of a `#!` script (through env), or NULL. */
static char *script_interpreter(const char *real,
				const struct agent_sandbox_spec *sp)
{
	char buf[256], *tok, *save = NULL;
	int fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	tok = strtok_r(buf + 2, " \t", &save);
	if (tok && !strcmp(path_basename(tok), "env")) {
		tok = strtok_r(NULL, " \t", &save);
		if (tok && !strcmp(tok, "-S"))
			tok = strtok_r(NULL, " \t", &save);
		return tok && !strchr(tok, '/')
			   ? find_in_path(sp->env, sp->env_nr, tok)
			   : NULL;
	}
	return tok && tok[0] == '/' ? real_path(tok) : NULL;
}

/* Invariant 7, the I/O half. */
static void toolchain_binds(const struct agent_sandbox_spec *sp,
			    struct strvec *ro)
{
	char *real = real_path(sp->argv[0]);
	char *interp = real ? script_interpreter(real, sp) : NULL;

	if (real)
		agent_toolchain_dirs(real, interp, ro);
	free(real);
	free(interp);
}

static void fill_request(struct agent_sandbox *as, const char *home,
			 enum sandbox_policy policy,
			 enum sandbox_backend backend)
{
	struct sandbox_request *rq = &as->rq;

	memset(rq, 0, sizeof(*rq));
	rq->policy = policy;
	rq->backend = backend;
	rq->workspace = as->workspace;
	rq->home = home && *home ? home : "/root";
	rq->cache_dir = as->cache;
	rq->tmp_dir = as->tmp;
	rq->private_home = as->private_home;
	rq->self_exe = self_exe();
	rq->ro_binds = as->ro_binds.v;
	rq->ro_binds_nr = as->ro_binds.nr;
	rq->extra_ro = as->extra_ro.v;
	rq->extra_ro_nr = as->extra_ro.nr;
	rq->env = as->env.v;
	rq->env_nr = as->env.nr;
	rq->argv = as->argv.v;
	rq->argc = as->argv.nr;
	rq->proxy_sock = as->proxy_sock;
	rq->events_home = as->home;
	rq->agent = as->agent;
	rq->allow_hint = as->allow_hint;
	rq->net_stats = as->net_stats;
	rq->allow_hosts = as->allow_hosts.v;
	rq->allow_hosts_nr = as->allow_hosts.nr;
	if (as->real_git && as->git_paths.nr && shim_exe()) {
		rq->git_shim = shim_exe();
		rq->git_real = as->real_git;
		rq->git_paths = as->git_paths.v;
		rq->git_paths_nr = as->git_paths.nr;
	}
}

/*
 * Where real git lives on this host, among the standard places an agent's
 * shell finds it (a symlinked /bin is covered by /usr/bin): bwrap binds
 * the shim over each (PRODUCT.md §8).
 */
static void standard_git_paths(struct strvec *out)
{
	static const char *const std[] = { "/usr/bin/git", "/bin/git",
					   "/usr/local/bin/git" };
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(std); i++)
		if (!lstat(std[i], &st) && S_ISREG(st.st_mode))
			strvec_push(out, std[i]);
}

static enum sandbox_verdict plan_with_caps(const struct sandbox_request *rq,
					   enum sandbox_fallback fb,
					   const char *agent,
					   struct sandbox_plan *out)
{
	const struct sandbox_caps none = {0};
	const struct sandbox_caps *caps;

	caps =
	    rq->policy == SANDBOX_NONE ? &none : sandbox_probe_for(rq->backend);
	if (sandbox_plan(rq, caps, out) != SANDBOX_REFUSED)
		return out->verdict;
	return sandbox_fallback(rq, fb, agent, out);
}

int agent_sandbox_plan(const struct agent_sandbox_spec *sp,
		       struct agent_sandbox *as, struct strbuf *err)
{
	const struct agent_profile *p = sp->profile;

	as->home = xstrdup(sp->home);
	as->agent = xstrdup(sp->agent);
	as->workspace = xstrdup(sp->workspace);
	as->fallback = sp->fallback;
	as->session = !sp->bare;
	if (as->session && sp->real_git) {
		as->real_git = xstrdup(sp->real_git);
		standard_git_paths(&as->git_paths);
	}
	as->cache = p->cache_dir
			? xstrdup(p->cache_dir)
			: xstrfmt("%s/cache/%s", sp->home,
				  sp->cache_name ? sp->cache_name : sp->agent);
	as->tmp = xstrfmt("%s/tmp", sp->scratch ? sp->scratch : as->cache);
	as->private_home =
	    xstrfmt("%s/home", sp->scratch ? sp->scratch : as->cache);
	strvec_pushn(&as->argv, sp->argv, sp->argc);
	strvec_pushn(&as->env, sp->env, sp->env_nr);
	/* invariant 6: a shared cache gets one spool per agent */
	as->spool = sp->scratch ? xstrfmt("%s/%s." SPOOL_NAME, as->cache, sp->agent)
				: xstrfmt("%s/" SPOOL_NAME, as->cache);
	if (p->sandbox != SANDBOX_NONE)
		strvec_pushf(&as->env, EVENTS_SPOOL_ENV "=%s", as->spool);
	if (p->sandbox != SANDBOX_NONE && p->preset && p->preset->config_env) {
		/* invariant 8 */
		as->config_dir =
		    xstrfmt("%s/%s", as->cache, p->preset->config_dir);
		strvec_setenv(&as->env, p->preset->config_env, as->config_dir);
	}
	strvec_pushv(&as->ro_binds, p->ro_binds.v);
	if (p->sandbox != SANDBOX_NONE)
		toolchain_binds(sp, &as->ro_binds);
	if (p->sandbox == SANDBOX_FS_API) { /* invariant 9 */
		as->net_dir = xstrfmt("%s/runtime/net", sp->home);
		as->proxy_sock = xstrfmt("%s/%s-%ld.sock", as->net_dir,
					 sp->agent, (long)getpid());
		as->net_stats = xstrfmt("%s/%s-%ld.json", as->net_dir,
					sp->agent, (long)getpid());
		as->allow_hint = xstrfmt("agents.%s.allow_hosts in config.yaml",
					 p->name);
		strvec_pushv(&as->allow_hosts, p->allow_hosts.v);
	}
	session_binds(sp, &as->extra_ro);
	fill_request(as, getenv("HOME"), p->sandbox, sp->backend);
	if (plan_with_caps(&as->rq, sp->fallback, sp->agent, &as->plan) !=
	    SANDBOX_REFUSED) {
		as->sandboxed = as->plan.verdict == SANDBOX_WRAPPED;
		return 0;
	}
	strbuf_addf(
	    err,
	    "profile '%s' requires sandbox '%s': %s; nothing was created "
	    "(install bubblewrap with user namespaces, or run a kernel with "
	    "Landlock and seccomp, or set 'sandbox_fallback: warn-run')",
	    p->name, sandbox_policy_name(p->sandbox), as->plan.reason.buf);
	return -1;
}

int agent_sandbox_mkdirs(const struct agent_sandbox *as, struct strbuf *err)
{
	const char *dirs[] = {as->cache, as->tmp, as->private_home,
			      as->config_dir};

	if (!as->sandboxed)
		return 0;
	if (as->net_dir && mkdir_p(as->net_dir, 0700) < 0) {
		strbuf_addf(err, "cannot create the proxy directory '%s': %s",
			    as->net_dir, strerror(errno));
		return -1;
	}
	if (as->net_stats)
		unlink(as->net_stats);
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && dirs[i]; i++) {
		if (mkdir_p(dirs[i], 0700) < 0) {
			strbuf_addf(err, "cannot create the sandbox directory '%s': %s",
				    dirs[i], strerror(errno));
			return -1;
		}
	}
	if (spool_create(as->spool) < 0) {
		strbuf_addf(err, "cannot create the event spool '%s': %s",
			    as->spool, strerror(errno));
		return -1;
	}
	/* invariant 2: the shim inside verifies with a key of this session */
	if (as->session && ag_sandbox_key_issue(as->home, as->agent) < 0) {
		strbuf_addf(err, "cannot issue the sandbox key in '%s/runtime/%s': %s",
			    as->home, as->agent, strerror(errno));
		return -1;
	}
	return 0;
}

void agent_sandbox_import_spool(const struct agent_sandbox *as)
{
	size_t rejected = 0;

	if (!as->sandboxed && !as->own_roots)
		return;
	if (spool_import(as->home, as->spool, as->agent, &rejected) < 0)
		warning("cannot import the sandbox's event spool '%s': %s",
			as->spool, strerror(errno));
	if (rejected)
		warning("%zu malformed record(s) in the sandbox's event spool were dropped",
			rejected);
	/* invariant 9: a proxy killed with its agent leaves its socket */
	if (as->proxy_sock)
		unlink(as->proxy_sock);
}

int agent_sandbox_rewrap(const struct agent_sandbox *as,
			 const char *const *argv, const char *const *env,
			 size_t env_nr, struct sandbox_plan *out,
			 struct strbuf *err)
{
	struct sandbox_request rq = as->rq;
	struct strvec ro = STRVEC_INIT;
	enum sandbox_verdict v;
	int rc = 0;

	if (!argv || !argv[0] || argv[0][0] != '/') {
		strbuf_addstr(err, "the command must be an absolute path");
		return -1;
	}
	strvec_pushv(&ro, as->extra_ro.v);
	strvec_push(&ro, argv[0]);
	rq.extra_ro = ro.v;
	rq.extra_ro_nr = ro.nr;
	rq.argv = argv;
	for (rq.argc = 0; argv[rq.argc]; rq.argc++)
		;
	rq.env = env;
	rq.env_nr = env_nr;
	if (as->sandboxed) {
		/* the same backend the agent had, never another one */
		rq.backend = as->plan.backend;
		v = plan_with_caps(&rq, SANDBOX_FALLBACK_REFUSE, as->agent,
				   out);
	} else {
		/* plain (policy none) or downgraded like the agent */
		rq.policy = SANDBOX_NONE;
		v = plan_with_caps(&rq, SANDBOX_FALLBACK_REFUSE, as->agent,
				   out);
	}
	if (v == SANDBOX_REFUSED || (as->sandboxed && v != SANDBOX_WRAPPED)) {
		strbuf_addf(err, "cannot run it in the agent's sandbox: %s",
			    out->reason.len ? out->reason.buf : "refused");
		rc = -1;
	}
	strvec_clear(&ro);
	return rc;
}

void agent_sandbox_downgrade_record(const struct agent_sandbox *as,
				    const char *subcommand)
{
	struct event ev =
	    EVENT_INIT("sandbox_downgraded", as->agent, subcommand);

	if (!as->plan.downgraded)
		return;
	warning("%s", as->plan.warning.buf);
	sandbox_downgrade_event(&as->rq, &as->plan, &ev);
	event_write(as->home, &ev);
	event_release(&ev);
}

int agent_sandbox_net_stats(const struct agent_sandbox *as,
			    unsigned long *allowed, unsigned long *denied,
			    struct strvec *denied_hosts)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j, *hosts;
	int rc = -1;

	*allowed = *denied = 0;
	if (!as->sandboxed || !as->net_stats ||
	    read_small_file(as->net_stats, 64 * 1024, &sb) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	j = json_loadb(sb.buf, sb.len, 0, NULL);
	if (json_is_object(j)) {
		*allowed = (unsigned long)json_integer_value(
			json_object_get(j, "net_allow"));
		*denied = (unsigned long)json_integer_value(
			json_object_get(j, "net_deny"));
		hosts = json_object_get(j, "denied_hosts");
		for (size_t i = 0;
		     json_is_array(hosts) && i < json_array_size(hosts); i++)
			if (json_is_string(json_array_get(hosts, i)))
				strvec_push(denied_hosts,
					    json_string_value(
						    json_array_get(hosts, i)));
		rc = 0;
	}
	json_decref(j);
	strbuf_release(&sb);
	return rc;
}

void agent_sandbox_describe(const struct agent_sandbox *as, struct strbuf *out)
{
	if (as->sandboxed)
		strbuf_addf(out, "%s (%s)", sandbox_policy_name(as->rq.policy),
			    sandbox_backend_name(as->plan.backend));
	else if (as->plan.downgraded)
		strbuf_addstr(out, "none (warn-run)");
	else
		strbuf_addstr(out, "none");
}

void agent_sandbox_redacted_argv(const struct agent_sandbox *as,
				 struct strvec *out)
{
	const struct strvec *a = &as->plan.argv;

	for (size_t i = 0; i < a->nr; i++) {
		bool value = as->plan.backend == SANDBOX_BACKEND_BWRAP &&
			     i >= 2 && i < as->plan.prefix_nr &&
			     !strcmp(a->v[i - 2], "--setenv");
		strvec_push(out, value ? "<redacted>" : a->v[i]);
	}
}

void agent_sandbox_release(struct agent_sandbox *as)
{
	sandbox_plan_release(&as->plan);
	strvec_clear(&as->argv);
	strvec_clear(&as->env);
	strvec_clear(&as->extra_ro);
	strvec_clear(&as->ro_binds);
	free(as->workspace);
	free(as->cache);
	free(as->tmp);
	free(as->private_home);
	free(as->home);
	free(as->agent);
	free(as->spool);
	free(as->config_dir);
	free(as->net_dir);
	free(as->proxy_sock);
	free(as->net_stats);
	free(as->allow_hint);
	as->net_dir = as->proxy_sock = as->net_stats = as->allow_hint = NULL;
	strvec_clear(&as->allow_hosts);
	free(as->real_git);
	as->real_git = NULL;
	strvec_clear(&as->git_paths);
	as->spool = as->config_dir = NULL;
	as->workspace = as->cache = as->tmp = as->private_home = NULL;
	as->home = as->agent = NULL;
	as->sandboxed = false;
}

bool agent_env_dropped(const char *e)
{
	static const char *const drop[] = {
		"PATH", "SSH_AUTH_SOCK", "SSH_ASKPASS", "GIT_ASKPASS", "GIT_SSH",
		"GIT_SSH_COMMAND", "GH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN",
		"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "AGENTIC_GIT_BYPASS",
		"AGENTIC_GIT_BYPASS_AGENT", "AGENTIC_GIT_BYPASS_UNTIL",
		"AGEND_GIT_BYPASS", "AGEND_GIT_BYPASS_AGENT",
		"AGEND_GIT_BYPASS_UNTIL", "AGENTIC_GIT_AGENT", "AGEND_INSTANCE_NAME",
		"AGENTIC_GIT_HOME", "AGEND_HOME", "AGENTIC_GIT_SNAPSHOTS",
		"AGENTIC_GIT_POOL_JOB",
	};
	for (size_t i = 0; i < ARRAY_SIZE(drop); i++) {
		size_t n = strlen(drop[i]);
		if (!strncmp(e, drop[i], n) && e[n] == '=')
			return true;
	}
	return starts_with(e, "AGENTIC_GIT_TARGET_") ||
	       starts_with(e, "GIT_CONFIG_KEY_") || starts_with(e, "GIT_CONFIG_VALUE_");
}

void agent_env_filtered(bool inherit, const struct strvec *extra,
			struct strvec *out)
{
	for (char **e = environ; inherit && e && *e; e++)
		if (!agent_env_dropped(*e))
			strvec_push(out, *e);
	/* A profile's allowlist never brings credentials or our own names. */
	for (size_t i = 0; i < extra->nr; i++)
		if (!agent_env_dropped(extra->v[i]))
			strvec_push(out, extra->v[i]);
}

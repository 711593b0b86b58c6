/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bubblewrap argv (PRODUCT.md §8). The order matters because bwrap mounts
 * in argument order: system dirs, fresh /proc and /dev, empty tmpfs over
 * /tmp and $HOME, then the binds parents-first so that a workspace or
 * toolchain under $HOME or /tmp is mounted on top of the tmpfs.
 */
#include "base/common.h"
#include <string.h>
#include "agents/sandbox-bwrap.h"
#include "base/path.h"
#include "base/strvec.h"
#include "base/xalloc.h"

static const char *const sys_dirs[] = SANDBOX_SYS_DIRS;

static void push_env(struct strvec *argv, const struct strvec *env)
{
	strvec_push(argv, "--clearenv");
	for (size_t i = 0; i < env->nr; i++) {
		const char *eq = strchr(env->v[i], '=');
		strvec_push(argv, "--setenv");
		strvec_pushf(argv, "%.*s", (int)(eq - env->v[i]), env->v[i]);
		strvec_push(argv, eq + 1);
	}
}

static void push_system(struct strvec *argv, const struct sandbox_caps *caps)
{
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++) {
		if (caps->sys_kind[i] == SYSDIR_DIR)
			strvec_pushl(argv, "--ro-bind", sys_dirs[i],
				     sys_dirs[i], NULL);
		else if (caps->sys_kind[i] == SYSDIR_SYMLINK)
			strvec_pushl(argv, "--symlink", caps->sys_link[i],
				     sys_dirs[i], NULL);
	}
}

/* tmpfs over /tmp and $HOME, the outer one first. */
static void push_tmpfs(struct strvec *argv, const char *home)
{
	const char *rel;
	if (path_inside("/tmp", home, &rel)) {
		strvec_pushl(argv, "--tmpfs", home, NULL);
		if (strcmp(home, "/tmp"))
			strvec_pushl(argv, "--tmpfs", "/tmp", NULL);
		return;
	}
	strvec_pushl(argv, "--tmpfs", "/tmp", "--tmpfs", home, NULL);
}

static size_t depth_of(const char *p)
{
	size_t d = 0;
	for (; *p; p++)
		d += *p == '/';
	return d;
}

static bool git_override(const struct sandbox_request *rq)
{
	return rq->git_shim && rq->git_real && rq->git_paths_nr;
}

/*
 * The shim over every standard git path, real git at a private one: after
 * the binds, so it lands on top of the system dirs and of real git bound
 * at its own path.
 */
static void push_git_binds(struct strvec *argv, const struct sandbox_request *rq)
{
	if (!git_override(rq))
		return;
	strvec_pushl(argv, "--ro-bind", rq->git_real, SANDBOX_REAL_GIT, NULL);
	for (size_t i = 0; i < rq->git_paths_nr; i++)
		strvec_pushl(argv, "--ro-bind", rq->git_shim, rq->git_paths[i],
			     NULL);
}

/*
 * fs+api (sandbox.h invariant 8): the proxy wraps bwrap outside the cage;
 * it forks bwrap, serves the socket and stops when bwrap exits.
 */
static void push_proxy(struct strvec *argv, const struct sandbox_request *rq)
{
	strvec_pushl(argv, rq->proxy_exe, "--socket", rq->proxy_sock, NULL);
	if (rq->events_home && *rq->events_home)
		strvec_pushl(argv, "--home", rq->events_home, NULL);
	if (rq->agent && *rq->agent)
		strvec_pushl(argv, "--agent", rq->agent, NULL);
	if (rq->allow_hint && *rq->allow_hint)
		strvec_pushl(argv, "--hint", rq->allow_hint, NULL);
	if (rq->net_stats && *rq->net_stats)
		strvec_pushl(argv, "--stats", rq->net_stats, NULL);
	for (size_t i = 0; i < rq->allow_hosts_nr; i++)
		strvec_pushl(argv, "--allow", rq->allow_hosts[i], NULL);
	if (rq->secrets) { /* invariant 10 */
		strvec_pushl(argv, "--secrets-fd", "3", "--ca-bundle",
			     rq->ca_bundle, NULL);
		if (rq->tls_ca_file && *rq->tls_ca_file)
			strvec_pushl(argv, "--tls-ca-file", rq->tls_ca_file,
				     NULL);
	}
	strvec_push(argv, "--");
}

/* Invariant 10: where the cage's runtimes find the session CA. */
static void ca_env(struct strvec *env, const struct sandbox_request *rq)
{
	static const char *const names[] = {
		"SSL_CERT_FILE",
		"CURL_CA_BUNDLE",
		"NODE_EXTRA_CA_CERTS",
		"REQUESTS_CA_BUNDLE",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		strvec_setenv(env, names[i], SANDBOX_CA_BUNDLE);
	for (size_t i = 0; rq->ca_env && rq->ca_env[i]; i++)
		strvec_setenv(env, rq->ca_env[i], SANDBOX_CA_BUNDLE);
}

static void proxy_env(struct strvec *env)
{
	static const char *const names[] = {
		"HTTPS_PROXY", "https_proxy", "HTTP_PROXY",
		"http_proxy",  "ALL_PROXY",   "all_proxy",
	};
	char url[64];

	snprintf(url, sizeof(url), "http://127.0.0.1:%d", SANDBOX_PROXY_PORT);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		strvec_setenv(env, names[i], url);
	strvec_setenv(env, "NO_PROXY", "");
	strvec_setenv(env, "no_proxy", "");
}

void bwrap_build(const struct sandbox_request *rq,
		 const struct sandbox_caps *caps, struct sandbox_plan *plan)
{
	struct strvec *argv = &plan->argv;
	struct sandbox_bind *binds;
	bool api = rq->policy == SANDBOX_FS_API, *done;
	size_t nr;

	strvec_clear(argv);
	strvec_clear(&plan->env);
	sandbox_child_env(rq, NULL, NULL, &plan->env);
	if (git_override(rq)) /* the shim inside finds git where it is bound */
		strvec_setenv(&plan->env, "AGENTIC_GIT_REAL_GIT", SANDBOX_REAL_GIT);
	if (api) {
		proxy_env(&plan->env);
		if (rq->secrets)
			ca_env(&plan->env, rq);
		push_proxy(argv, rq);
	}
	strvec_pushl(argv, caps->bwrap_path, "--die-with-parent",
		     "--new-session", "--unshare-all", NULL);
	if (rq->policy == SANDBOX_FS_ONLY)
		strvec_push(argv, "--share-net");
	strvec_pushl(argv, "--cap-drop", "ALL", NULL);
	push_env(argv, &plan->env);
	push_system(argv, caps);
	strvec_pushl(argv, "--proc", "/proc", "--dev", "/dev", NULL);
	push_tmpfs(argv, rq->home);
	nr = sandbox_collect_binds(rq, false, &binds);
	done = rq->masks_nr ? xcalloc(rq->masks_nr, sizeof(*done)) : NULL;
	for (size_t i = 0; i <= nr; i++) {
		/* invariant 11: a mask after every bind that shows it (those
		 * are shallower, or the same path), before those below it */
		for (size_t m = 0; m < rq->masks_nr; m++) {
			if (done[m] ||
			    (i < nr &&
			     depth_of(rq->masks[m]) >= depth_of(binds[i].path)))
				continue;
			strvec_pushl(argv, "--tmpfs", rq->masks[m], NULL);
			done[m] = true;
		}
		if (i < nr)
			strvec_pushl(argv,
				     binds[i].kind == BIND_RW ? "--bind"
							      : "--ro-bind",
				     binds[i].path, binds[i].path, NULL);
	}
	free(binds);
	free(done);
	push_git_binds(argv, rq);
	if (api)
		strvec_pushl(argv, "--ro-bind", rq->proxy_sock,
			     SANDBOX_PROXY_SOCK, NULL);
	if (api && rq->secrets)
		strvec_pushl(argv, "--ro-bind", rq->ca_bundle,
			     SANDBOX_CA_BUNDLE, NULL);
	strvec_pushl(argv, "--chdir", rq->workspace, "--", NULL);
	if (api) {
		strvec_pushl(argv, rq->self_exe, "sandbox", "relay", "--port",
			     NULL);
		strvec_pushf(argv, "%d", SANDBOX_PROXY_PORT);
		strvec_pushl(argv, "--socket", SANDBOX_PROXY_SOCK, "--", NULL);
	}
	plan->prefix_nr = argv->nr;
	strvec_pushn(argv, rq->argv, rq->argc);
	plan->landlock_abi = 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The one sandbox-request builder; see sandbox-build.h. */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "agents/sandbox-probe.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "fleet/sandbox-build.h"
#include "fleet/workspace.h"
#include "agentic-git/core.h"
#include "base/timefmt.h"
#include "git/hooks.h"
#include "git/quarantine.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Invariant 2: what of agentic-git the cage reads. */
static void guard_binds(const struct sandbox_build_spec *s, struct strvec *ro)
{
	if (s->guard != SANDBOX_GUARD_TOOLS)
		strvec_push(ro, s->argv[0]);
	if (s->guard == SANDBOX_GUARD_BARE)
		return;
	if (self_exe())
		strvec_push(ro, self_exe());
	if (shim_exe() && self_exe() && strcmp(shim_exe(), self_exe()))
		strvec_push(ro, shim_exe());
	if (s->real_git)
		strvec_push(ro, s->real_git);
	if (s->guard != SANDBOX_GUARD_SESSION)
		return;
	strvec_pushf(ro, "%s/bin", s->state);
	if (s->with_hooks) { /* provisioning creates them after planning */
		char *hooks = hooks_dir(s->state);
		strvec_push(ro, hooks);
		free(hooks);
	}
	strvec_pushf(ro, "%s/runtime/%s", s->state, s->agent);
	if (s->objects)
		workspace_borrowed_stores(s->objects, ro);
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
				const struct sandbox_build_spec *s)
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
			       ? find_in_path(s->env, s->env_nr, tok)
			       : NULL;
	}
	return tok && tok[0] == '/' ? real_path(tok) : NULL;
}

/* Invariant 7, the I/O half. */
static void toolchain_binds(const struct sandbox_build_spec *s,
			    struct strvec *ro)
{
	char *real = real_path(s->argv[0]);
	char *interp = real ? script_interpreter(real, s) : NULL;

	if (real)
		agent_toolchain_dirs(real, interp, ro);
	free(real);
	free(interp);
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

/* Invariant 1: the canonical $HOME, or NULL when it is not set. */
static char *user_home(void)
{
	const char *home = getenv("HOME");
	char *real;

	if (!home || !*home)
		return NULL;
	real = real_path(home);
	return real ? real : path_absolute(home);
}

void sandbox_build_request(struct agent_sandbox *as)
{
	struct sandbox_request *rq = &as->rq;

	rq->workspace = as->workspace;
	rq->home = as->user_home;
	rq->cache_dir = as->cache;
	rq->quarantine_dir = as->quarantine;
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
	rq->proxy_exe = proxy_exe();
	rq->secrets = as->inject;
	rq->ca_bundle = as->ca_bundle;
	rq->tls_ca_file = as->tls_ca_file;
	rq->ca_env = as->ca_env;
	rq->allow_hosts = as->allow_hosts.v;
	rq->allow_hosts_nr = as->allow_hosts.nr;
	rq->masks = as->masks.v;
	rq->masks_nr = as->masks.nr;
	if (as->real_git && as->git_paths.nr && shim_exe()) {
		rq->git_shim = shim_exe();
		rq->git_real = as->real_git;
		rq->git_paths = as->git_paths.v;
		rq->git_paths_nr = as->git_paths.nr;
	}
}

/* Invariant 3: the proxy's socket and counts, named per agent and process. */
static int net_paths(const struct sandbox_build_spec *s,
		     struct agent_sandbox *as, struct strbuf *err)
{
	const char *name = s->sock_name ? s->sock_name : "run";

	if (!s->state || !*s->state) {
		strbuf_addstr(
			err,
			"no state directory for the fs+api proxy (set AGENTIC_GIT_HOME or HOME)");
		return -1;
	}
	as->net_dir = xstrfmt("%s/runtime/net", s->state);
	as->proxy_sock =
		xstrfmt("%s/%s-%ld.sock", as->net_dir, name, (long)getpid());
	if (s->net_stats)
		as->net_stats = xstrfmt("%s/%s-%ld.json", as->net_dir, name,
					(long)getpid());
	as->allow_hint = dup_or_null(s->allow_hint);
	strvec_pushn(&as->allow_hosts, s->allow_hosts, s->allow_hosts_nr);
	return 0;
}

/*
 * Invariant 5: the session's own quarantine, a fresh directory of the
 * home per launch, named in the cage's environment.
 */
static void cage_quarantine(const struct sandbox_build_spec *s,
			    struct agent_sandbox *as)
{
	struct strbuf stamp = STRBUF_INIT;
	const char *why;

	if (s->guard != SANDBOX_GUARD_SESSION || s->policy == SANDBOX_NONE ||
	    !s->state || !*s->state || !s->agent ||
	    !ag_agent_name_valid(s->agent, &why))
		return;
	time_compact_utc(time(NULL), &stamp);
	as->quarantine = xstrfmt("%s/quarantine/%s/%s" QUARANTINE_CAGE_MARK
				 "%ld/quarantine",
				 s->state, s->agent, stamp.buf, (long)getpid());
	strvec_setenv(&as->env, QUARANTINE_ENV, as->quarantine);
	strbuf_release(&stamp);
}

int sandbox_build(const struct sandbox_build_spec *s, struct agent_sandbox *as,
		  struct strbuf *err)
{
	const char *scratch = s->scratch ? s->scratch : s->cache;

	as->user_home = user_home();
	if (!as->user_home && s->policy != SANDBOX_NONE) {
		strbuf_addstr(
			err,
			"HOME is not set; the sandbox hides it, so it must be known");
		return -1;
	}
	as->home = dup_or_null(s->state);
	as->agent = dup_or_null(s->agent);
	as->workspace = xstrdup(s->workspace);
	as->cache = dup_or_null(s->cache);
	if (scratch) {
		as->tmp = xstrfmt("%s/tmp", scratch);
		as->private_home = xstrfmt("%s/home", scratch);
	}
	strvec_pushn(&as->argv, s->argv, s->argc);
	strvec_pushn(&as->env, s->env, s->env_nr);
	cage_quarantine(s, as);
	strvec_pushn(&as->ro_binds, s->ro_binds, s->ro_binds_nr);
	if (s->toolchain && s->policy != SANDBOX_NONE)
		toolchain_binds(s, &as->ro_binds);
	if (s->policy == SANDBOX_FS_API && net_paths(s, as, err) < 0)
		return -1;
	guard_binds(s, &as->extra_ro);
	if (s->guard == SANDBOX_GUARD_SESSION && s->real_git) {
		as->real_git = xstrdup(s->real_git);
		standard_git_paths(&as->git_paths);
	}
	memset(&as->rq, 0, sizeof(as->rq));
	as->rq.policy = s->policy;
	as->rq.backend = s->backend;
	sandbox_build_request(as);
	return 0;
}

enum sandbox_verdict sandbox_build_plan(const struct sandbox_request *rq,
					enum sandbox_fallback fb,
					const char *agent,
					struct sandbox_plan *out)
{
	const struct sandbox_caps none = { 0 };
	const struct sandbox_caps *caps =
		rq->policy == SANDBOX_NONE ? &none
					   : sandbox_probe_for(rq->backend);

	if (sandbox_plan(rq, caps, out) != SANDBOX_REFUSED)
		return out->verdict;
	return sandbox_fallback(rq, fb, agent, out);
}

/*
 * Invariant 6: `path`, below `base` (which exists, and whose parent the
 * cage cannot write), made and opened one component at a time from
 * base's descriptor, never through a symbolic link: the cage may have
 * replaced any of them since the last launch. 0, or -1 with the reason.
 */
static int mkdir_beneath(const char *base, const char *path, struct strbuf *err)
{
	const char *rel;
	char *walk, *comp, *save = NULL;
	int fd, next, rc = 0;
	struct stat st;

	if (!path_inside(path, base, &rel) || !*rel)
		return 0;
	/* the base itself is the operator's (a configured cache_dir may be
	 * a link); what lies in it is the cage's */
	fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "cannot open the sandbox directory '%s': %s",
			    base, strerror(errno));
		return -1;
	}
	walk = xstrdup(rel);
	for (comp = strtok_r(walk, "/", &save); comp && !rc;
	     comp = strtok_r(NULL, "/", &save)) {
		if (mkdirat(fd, comp, 0700) < 0 && errno != EEXIST)
			next = -1;
		else
			next = openat(fd, comp,
				      O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
		if (next < 0 && (errno == ELOOP || errno == ENOTDIR)) {
			bool link =
				!fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) &&
				S_ISLNK(st.st_mode);
			int len = (int)(comp - walk + strlen(comp));

			strbuf_addf(
				err,
				"the sandbox directory '%s/%.*s' is %s, not agentic-git's (a cage can plant one there; its rules are never built through it); look at it, remove '%s/%.*s' and run again",
				base, len, rel,
				link ? "a symbolic link" : "not a directory",
				base, len, rel);
			rc = -1;
		} else if (next < 0) {
			strbuf_addf(
				err,
				"cannot create the sandbox directory '%s/%s': %s",
				base, rel, strerror(errno));
			rc = -1;
		} else if (fstat(next, &st) < 0 || st.st_uid != geteuid()) {
			strbuf_addf(
				err,
				"the sandbox directory '%s/%.*s' is not owned by you; remove it and run again",
				base, (int)(comp - walk + strlen(comp)), rel);
			rc = -1;
		}
		close(fd);
		fd = next;
	}
	if (fd >= 0)
		close(fd);
	free(walk);
	return rc;
}

int sandbox_build_mkdirs(const struct agent_sandbox *as, struct strbuf *err)
{
	const char *dirs[] = { as->cache, as->quarantine };
	/* inside the cage's writable cache (or a scratch dir): invariant 6 */
	const char *inner[] = { as->tmp, as->private_home, as->config_dir };

	if (as->net_dir && mkdir_p(as->net_dir, 0700) < 0) {
		strbuf_addf(err, "cannot create the proxy directory '%s': %s",
			    as->net_dir, strerror(errno));
		return -1;
	}
	if (as->net_stats)
		unlink(as->net_stats);
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (dirs[i] && mkdir_p(dirs[i], 0700) < 0) {
			strbuf_addf(
				err,
				"cannot create the sandbox directory '%s': %s",
				dirs[i], strerror(errno));
			return -1;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(inner); i++) {
		/* tmp/ and home/ lie in the scratch dir (the cache unless
		 * dispatch or summarize set one), the config dir in the cache */
		char *base = !inner[i] ? NULL
			     : i < 2   ? path_dirname(inner[i])
				       : xstrdup(as->cache);
		int rc;

		if (!base)
			continue;
		if (mkdir_p(base, 0700) < 0) {
			strbuf_addf(
				err,
				"cannot create the sandbox directory '%s': %s",
				base, strerror(errno));
			free(base);
			return -1;
		}
		rc = mkdir_beneath(base, inner[i], err);
		free(base);
		if (rc < 0)
			return -1;
	}
	return 0;
}

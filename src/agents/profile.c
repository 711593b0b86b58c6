/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Agent profile lifecycle and binary pinning (config.h invariant 3).
 */
#include "base/common.h"
#include <errno.h>
#include <sys/stat.h>
#include "agents/config.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"

void agent_profile_init_preset(struct agent_profile *p,
			       const struct agent_preset *pr)
{
	memset(p, 0, sizeof(*p));
	strvec_init(&p->command);
	strvec_init(&p->model_args);
	strvec_init(&p->env);
	strvec_init(&p->ro_binds);
	strvec_init(&p->allow_hosts);
	p->name = xstrdup(pr->name);
	strvec_pushv(&p->command, pr->command);
	strvec_pushv(&p->model_args, pr->model_args);
	strvec_pushv(&p->env, pr->env);
	if (pr->allow_hosts)
		strvec_pushv(&p->allow_hosts, pr->allow_hosts);
	p->model = pr->model ? xstrdup(pr->model) : NULL;
	p->prompt_via = pr->prompt_via;
	p->sandbox = pr->sandbox;
	p->preset = pr;
}

void agent_profile_release(struct agent_profile *p)
{
	free(p->name);
	strvec_clear(&p->command);
	strvec_clear(&p->model_args);
	free(p->model);
	strvec_clear(&p->env);
	strvec_clear(&p->ro_binds);
	strvec_clear(&p->allow_hosts);
	free(p->cache_dir);
	free(p->where);
	memset(p, 0, sizeof(*p));
}

static bool is_executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

/* First PATH entry holding an executable `name`; relative entries are
 * skipped (a relative PATH entry would make the pin depend on the cwd). */
static char *which(const char *name, const char *path_env)
{
	const char *p = path_env;

	while (p && *p) {
		const char *colon = strchrnul(p, ':');
		size_t n = (size_t)(colon - p);

		if (n && p[0] == '/') {
			char *cand = xstrfmt("%.*s/%s", (int)n, p, name);
			if (is_executable_file(cand))
				return cand;
			free(cand);
		}
		p = *colon ? colon + 1 : colon;
	}
	return NULL;
}

static void set_cmd0(struct agent_profile *p, char *abs)
{
	free((char *)p->command.v[0]);
	p->command.v[0] = abs;
	p->pinned = true;
}

int agent_profile_pin(struct agent_profile *p, const char *base_dir,
		      const char *path_env, struct strbuf *err)
{
	const char *cmd0;
	struct strbuf sb = STRBUF_INIT;

	p->pinned = false;
	if (!p->command.nr || !*p->command.v[0]) {
		strbuf_addstr(err, "the binary (first element) is empty");
		return -1;
	}
	cmd0 = p->command.v[0];
	if (!strchr(cmd0, '/')) {
		char *abs = which(cmd0, path_env ? path_env : getenv("PATH"));
		if (!abs) {
			strbuf_addf(err, "'%s' not found in PATH", cmd0);
			return -1;
		}
		set_cmd0(p, abs);
		return 0;
	}
	if (cmd0[0] == '/') {
		strbuf_addstr(&sb, cmd0);
	} else {
		strbuf_addf(&sb, "%s/%s", base_dir ? base_dir : ".", cmd0);
	}
	path_normalize(&sb);
	if (access(sb.buf, F_OK)) {
		if (cmd0[0] == '/')
			strbuf_addf(err, "'%s' does not exist", cmd0);
		else
			strbuf_addf(err, "'%s' does not exist (resolved to %s)",
				    cmd0, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	set_cmd0(p, strbuf_detach(&sb, NULL));
	return 0;
}

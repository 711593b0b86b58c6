/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git agents check [NAME] and agents exec NAME: the two verbs that
 * run a program. Both build the child from the planner (plan.h) and
 * base/spawn.h; nothing here ever involves a shell.
 */
#include "base/common.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include "agents/plan.h"
#include "base/die.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "cmd/agents.h"

#define CHECK_TIMEOUT 60.0 /* seconds for `<bin> --help` */
#define PROMPT_FILE_MAX (1024 * 1024)

/*
 * The child being supervised, for the signal handlers. File-static because
 * a signal handler has no other way to reach it; only these two handlers
 * and agents_run_child() touch them.
 */
static volatile sig_atomic_t sup_pgid;
static volatile sig_atomic_t sup_expired;

static void on_alarm(int sig)
{
	if (sup_pgid <= 0)
		return;
	if (!sup_expired) {
		sup_expired = 1;
		kill(-(pid_t)sup_pgid, SIGTERM);
		alarm(5);
	} else {
		kill(-(pid_t)sup_pgid, SIGKILL);
	}
}

static void on_forward(int sig)
{
	if (sup_pgid > 0)
		kill(-(pid_t)sup_pgid, sig);
}

int agents_run_child(struct child *c, double timeout, bool *timed_out)
{
	struct sigaction sa = { 0 }, old_alrm, old_int, old_term;
	unsigned secs = timeout >= 1 ? (unsigned)ceil(timeout) : 1;
	int ret;

	*timed_out = false;
	c->new_pgroup = true;
	if (child_start(c) < 0)
		return -1;
	sup_pgid = c->pid;
	sup_expired = 0;
	sa.sa_handler = on_alarm; /* no SA_RESTART: poll sees EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_alrm);
	sa.sa_handler = on_forward;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	alarm(secs);
	ret = child_finish(c);
	alarm(0);
	sigaction(SIGALRM, &old_alrm, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	*timed_out = sup_expired;
	sup_pgid = 0;
	return ret;
}

/* `flag` appears in `text` as a whole word (not inside a longer flag). */
static bool help_mentions(const char *text, const char *flag)
{
	size_t n = strlen(flag);

	for (const char *p = strstr(text, flag); p; p = strstr(p + 1, flag)) {
		char before = p == text ? ' ' : p[-1], after = p[n];
		if ((isalnum((unsigned char)before) || before == '-') ||
		    isalnum((unsigned char)after) || after == '-' || after == '_')
			continue;
		return true;
	}
	return false;
}

/* Flags to verify: the preset's list, plus every option token of the
 * profile's own command and model_args (cut at '='). */
static void flags_of(const struct agent_profile *p, struct strvec *out)
{
	const struct strvec *lists[] = { &p->command, &p->model_args };

	if (p->preset)
		strvec_pushv(out, p->preset->check_flags);
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		for (size_t i = l ? 0 : 1; i < lists[l]->nr; i++) {
			const char *t = lists[l]->v[i];
			size_t n = strcspn(t, "={");
			if (t[0] != '-' || !strcmp(t, "--") || n < 2)
				continue;
			char *f = xstrndup(t, n);
			bool dup = false;
			for (size_t k = 0; k < out->nr && !dup; k++)
				dup = !strcmp(out->v[k], f);
			if (!dup)
				strvec_push(out, f);
			free(f);
		}
	}
}

/*
 * Which credentials the environment gives the agent (PRODUCT.md §7): a
 * secret's variable, kept outside the cage under fs+api; or only the
 * CLI's login file, which a sandboxed agent cannot use (the way out). A
 * note, never a failure: unsandboxed the login works.
 */
static void check_credentials(const struct agent_profile *p)
{
	const struct agent_preset *pr = p->preset;
	const char *dir = pr && pr->config_env ? getenv(pr->config_env) : NULL;
	const char *home = getenv("HOME");
	struct strbuf login = STRBUF_INIT;
	bool any = false;

	for (size_t i = 0; i < p->nr_secrets; i++) {
		const char *v = getenv(p->secrets[i].name);
		if (p->secrets[i].from != SECRET_FROM_ENV || !v || !*v)
			continue;
		printf("%s: ok: credentials: %s from the environment (%s)\n",
		       p->name, p->secrets[i].name,
		       p->sandbox == SANDBOX_FS_API
			       ? "a placeholder in the cage, sandbox fs+api"
			       : "EXPOSED to the agent: sandbox fs+api keeps it outside");
		any = true;
	}
	if (any || !pr || !pr->login_file)
		return;
	if (dir && *dir)
		strbuf_addf(&login, "%s/%s", dir, pr->login_file);
	else if (home && *home)
		strbuf_addf(&login, "%s/%s/%s", home, pr->config_dir,
			    pr->login_file);
	if (login.len && !access(login.buf, F_OK))
		printf("%s: warning: logged in through '%s', which a sandboxed %s cannot use; %s\n",
		       p->name, login.buf, pr->name, pr->login_hint);
	strbuf_release(&login);
}

static int check_one(const struct agent_profile *p, bool required)
{
	struct child c = CHILD_INIT;
	struct strvec flags = STRVEC_INIT, none = STRVEC_INIT;
	struct strbuf help = STRBUF_INIT;
	const char *const *hargs = p->preset ? p->preset->help_args : NULL;
	bool timed_out;
	int ret = 0;

	if (!p->pinned) {
		printf("%s: %s: binary '%s' not found in PATH\n", p->name,
		       required ? "FAIL" : "not installed", p->command.v[0]);
		return required ? -1 : 0;
	}
	if (access(p->command.v[0], X_OK)) {
		printf("%s: FAIL: '%s' is not executable\n", p->name,
		       p->command.v[0]);
		return -1;
	}
	strvec_push(&c.args, p->command.v[0]);
	if (hargs)
		strvec_pushv(&c.args, hargs);
	else
		strvec_push(&c.args, "--help");
	agent_env_scope(NULL, &none, &c.env); /* no secrets for --help */
	if (!c.env.nr)
		strvec_push(&c.env, "PATH=/usr/bin:/bin");
	c.capture_out = true;
	c.stderr_to_stdout = true;
	if (agents_run_child(&c, CHECK_TIMEOUT, &timed_out) < 0) {
		printf("%s: FAIL: cannot run '%s': %s\n", p->name,
		       p->command.v[0], strerror(errno));
		ret = -1;
		goto out;
	}
	if (timed_out) {
		printf("%s: FAIL: '%s' did not finish within %.0fs\n", p->name,
		       p->command.v[0], CHECK_TIMEOUT);
		ret = -1;
		goto out;
	}
	flags_of(p, &flags);
	strbuf_addstr(&help, path_basename(c.args.v[0]));
	for (size_t i = 1; i < c.args.nr; i++)
		strbuf_addf(&help, " %s", c.args.v[i]);
	for (size_t i = 0; i < flags.nr; i++) {
		if (help_mentions(c.out.buf, flags.v[i]))
			continue;
		printf("%s: FAIL: flag '%s' is not in the output of '%s'\n",
		       p->name, flags.v[i], help.buf);
		ret = -1;
	}
	if (!ret)
		printf("%s: ok: %s accepts %zu flag%s (%s)\n", p->name,
		       p->command.v[0], flags.nr, flags.nr == 1 ? "" : "s",
		       p->preset ? p->preset->verified : "custom profile");
	if (agents_check_shell(p) < 0)
		ret = -1;
	check_credentials(p);
out:
	strvec_clear(&flags);
	strbuf_release(&help);
	child_release(&c);
	return ret;
}

int agents_check(const struct agents_opts *o)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf err = STRBUF_INIT;
	const struct agent_profile *p;
	int bad = 0;

	if (agents_load_config(o, &cfg) < 0) {
		agent_config_release(&cfg);
		return 1;
	}
	if (o->name) {
		if (agent_config_resolve(&cfg, o->name, NULL, NULL, &p, &err) < 0) {
			error("%s", err.buf);
			bad = 1;
		} else {
			bad = check_one(p, true) < 0;
		}
	} else {
		const char *dflt = cfg.default_agent ? cfg.default_agent : "claude";
		for (size_t i = 0; i < cfg.nr_profiles; i++) {
			p = &cfg.profiles[i];
			/* An absent preset is only a failure when it is used. */
			bool required = p->configured || !strcmp(p->name, dflt);
			bad |= check_one(p, required) < 0;
		}
	}
	fflush(stdout);
	strbuf_release(&err);
	agent_config_release(&cfg);
	return bad ? 1 : 0;
}

static int read_text(const char *what, const char *path, struct strbuf *out)
{
	if (read_file_bounded(path, PROMPT_FILE_MAX, RF_REGULAR, out) < 0)
		return error_errno("agents exec: cannot read %s '%s'", what, path);
	if (memchr(out->buf, '\0', out->len))
		return error("agents exec: %s '%s' contains a NUL byte", what, path);
	return 0;
}

static int exec_inputs(const struct agents_opts *o, struct strbuf *prompt,
		       struct strbuf *input, double *timeout)
{
	char *end;

	if (!!o->prompt == !!o->prompt_file)
		return error("agents exec: give exactly one of --prompt and --prompt-file");
	if (o->prompt)
		strbuf_addstr(prompt, o->prompt);
	else if (read_text("prompt file", o->prompt_file, prompt) < 0)
		return -1;
	if (o->input_file && read_text("input file", o->input_file, input) < 0)
		return -1;
	if (o->cwd && !is_dir(o->cwd))
		return error("agents exec: --cwd '%s' is not a directory", o->cwd);
	*timeout = 0;
	if (o->timeout) {
		errno = 0;
		*timeout = strtod(o->timeout, &end);
		if (errno || *end || !(*timeout > 0) ||
		    *timeout > CONFIG_MAX_TIMEOUT)
			return error("agents exec: --timeout '%s' is not a number of seconds between 0 and %.0f",
				     o->timeout, CONFIG_MAX_TIMEOUT);
	}
	return 0;
}

static void print_plan_json(const struct agent_plan *pl, const char *prompt)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec v = STRVEC_INIT;

	strbuf_addstr(&sb, "{\"profile\":");
	strbuf_add_json_str(&sb, pl->profile);
	strbuf_addstr(&sb, ",\"argv\":[");
	agent_plan_redact_argv(pl, prompt, &v);
	for (size_t i = 0; i < v.nr; i++) {
		strbuf_addstr(&sb, i ? "," : "");
		strbuf_add_json_str(&sb, v.v[i]);
	}
	strvec_clear(&v);
	strbuf_addf(&sb, "],\"stdin\":%s,\"stdin_bytes\":%zu,\"env_keys\":",
		    pl->use_stdin ? "true" : "false", pl->stdin_data.len);
	if (pl->inherit_env) {
		strbuf_addstr(&sb, "null");
	} else {
		agent_plan_env_keys(pl, &v);
		strbuf_addch(&sb, '[');
		for (size_t i = 0; i < v.nr; i++) {
			strbuf_addstr(&sb, i ? "," : "");
			strbuf_add_json_str(&sb, v.v[i]);
		}
		strbuf_addch(&sb, ']');
		strvec_clear(&v);
	}
	strbuf_addf(&sb, ",\"timeout\":%g,\"sandbox\":\"%s\",\"model\":",
		    pl->timeout, sandbox_policy_name(pl->sandbox));
	if (pl->model)
		strbuf_add_json_str(&sb, pl->model);
	else
		strbuf_addstr(&sb, "null");
	strbuf_addstr(&sb, "}\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

static int exec_plan(const struct agent_plan *pl)
{
	struct child c = CHILD_INIT;
	bool timed_out;
	int ret;

	agent_plan_to_child(pl, &c);
	fflush(stdout);
	if (agents_run_child(&c, pl->timeout, &timed_out) < 0) {
		error_errno("agents exec: cannot run '%s'", pl->argv.v[0]);
		child_release(&c);
		return AG_EXIT_EXEC;
	}
	ret = c.status;
	if (timed_out)
		error("agents exec: agent '%s' timed out after %gs and was stopped",
		      pl->profile, pl->timeout);
	child_release(&c);
	return ret;
}

int agents_exec(const struct agents_opts *o)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct plan_request rq = PLAN_REQUEST_INIT;
	struct agent_plan pl = AGENT_PLAN_INIT;
	struct strbuf err = STRBUF_INIT, prompt = STRBUF_INIT,
		      input = STRBUF_INIT;
	const struct agent_profile *p;
	int ret = 1;

	if (exec_inputs(o, &prompt, &input, &rq.timeout) < 0 ||
	    agents_load_config(o, &cfg) < 0)
		goto out;
	if (agent_config_resolve(&cfg, o->name, NULL, NULL, &p, &err) < 0) {
		error("%s", err.buf);
		goto out;
	}
	if (p->sandbox != SANDBOX_NONE) {
		error("agents exec: agent '%s' asks for sandbox '%s', but sandboxing is not wired into 'agents exec' yet; refusing to run it unsandboxed (set 'sandbox: none' for this profile to run it anyway)",
		      p->name, sandbox_policy_name(p->sandbox));
		goto out;
	}
	rq.profile = p;
	rq.prompt = prompt.buf;
	rq.input = o->input_file ? input.buf : NULL;
	rq.model = o->model;
	rq.cwd = o->cwd;
	if (agent_plan_build(&rq, &pl, &err) < 0) {
		error("agents exec: %s", err.buf);
		goto out;
	}
	if (o->dry_run) {
		print_plan_json(&pl, prompt.buf);
		ret = 0;
	} else {
		ret = exec_plan(&pl);
	}
out:
	agent_plan_release(&pl);
	strbuf_release(&err);
	strbuf_release(&prompt);
	strbuf_release(&input);
	agent_config_release(&cfg);
	return ret;
}

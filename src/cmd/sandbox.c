/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git sandbox probe|run|workspace (and the internal `exec`, in
 * sandbox-exec.c): the operator's way to see what the host can sandbox
 * with and to exercise the sandbox end to end without a session.
 */
#include "base/common.h"
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/config.h"
#include "agents/sandbox-probe.h"
#include "agents/sandbox.h"
#include "base/die.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/fileio.h"
#include "base/path.h"
#include "base/spawn.h"
#include "base/xalloc.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "cmd/sandbox-int.h"
#include "git/realgit.h"
#include "fleet/sandbox-home.h"
#include "fleet/workspace.h"

const char sandbox_cli_usage[] =
	"usage: agentic-git sandbox probe [--json]\n"
	"   or: agentic-git sandbox run [--policy P] [--backend B] [--fallback F]\n"
	"                             [--workspace DIR] [--from REPO --head BRANCH [--base BRANCH]]\n"
	"                             [--ro PATH]... [--cache DIR] [--env NAME[=VALUE]]...\n"
	"                             [--agent NAME] [--allow HOST[:PORT]]... -- <cmd>...\n"
	"   or: agentic-git sandbox workspace --from REPO --head BRANCH [--base BRANCH]\n"
	"                             [--hooks-path DIR] DIR\n\n"
	"Run a command in the OS sandbox agents get (see docs/sandbox.md).\n\n"
	"  probe        what this host can sandbox with (bubblewrap, user namespaces,\n"
	"               Landlock ABI, seccomp)\n"
	"  run          run <cmd> under --policy fs-only|fs+api|fs+no-net|none\n"
	"               (default fs+no-net) with --backend auto|bwrap|landlock\n"
	"               (default auto); fs+api: network only to the --allow hosts\n"
	"               through agentic-git's proxy;\n"
	"               --fallback refuse|warn-run (default refuse)\n"
	"  workspace    provision a private workspace that borrows REPO's objects\n";

/* The safe base of an agent's environment (PRODUCT.md §7). */
static const char *const base_env[] = {
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
	"LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ",
};

static void add_sysdirs_json(struct strbuf *sb, const struct sandbox_caps *c)
{
	static const char *const dirs[] = SANDBOX_SYS_DIRS;
	bool first = true;

	strbuf_addstr(sb, "\"system_dirs\":[");
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++) {
		if (c->sys_kind[i] == SYSDIR_ABSENT)
			continue;
		if (!first)
			strbuf_addch(sb, ',');
		first = false;
		strbuf_add_json_str(sb, dirs[i]);
	}
	strbuf_addch(sb, ']');
}

#define FS_API_WHY "needs bubblewrap; landlock restricts ports, not addresses"

static const char *auto_backend(const struct sandbox_caps *c)
{
	if (c->bwrap_works)
		return "bwrap";
	if (c->landlock_abi >= 1 && c->seccomp)
		return "landlock";
	return "none";
}

/*
 * Where a cage would show agentic-git's home (fleet/sandbox-home.h): the
 * system dirs and every configured profile's ro_binds and cache_dir.
 * *home is owned.
 */
static void home_exposure(char **home, struct strvec *shown)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf path = STRBUF_INIT, errs = STRBUF_INIT;
	struct strvec binds = STRVEC_INIT;

	*home = ag_home_dir();
	if (!*home)
		return;
	agent_config_default_path(&path);
	/* a broken config is `agents check`'s to report; its binds count */
	agent_config_load(path.buf, false, &cfg, &errs);
	for (size_t i = 0; i < cfg.nr_profiles; i++) {
		strvec_pushv(&binds, cfg.profiles[i].ro_binds.v);
		if (cfg.profiles[i].cache_dir)
			strvec_push(&binds, cfg.profiles[i].cache_dir);
	}
	sandbox_home_exposure(*home, (const char *const *)binds.v, binds.nr,
			      shown);
	agent_config_release(&cfg);
	strvec_clear(&binds);
	strbuf_release(&path);
	strbuf_release(&errs);
}

static void add_home_json(struct strbuf *sb)
{
	struct strvec shown = STRVEC_INIT;
	char *home;

	home_exposure(&home, &shown);
	strbuf_addstr(sb, ",\"home\":{\"path\":");
	strbuf_add_json_str(sb, home ? home : "");
	strbuf_addstr(sb, ",\"shown_by\":[");
	for (size_t i = 0; i < shown.nr; i++) {
		if (i)
			strbuf_addch(sb, ',');
		strbuf_add_json_str(sb, shown.v[i]);
	}
	strbuf_addf(sb, "],\"landlock\":\"%s\"}",
		    shown.nr ? "refused" : "hidden");
	strvec_clear(&shown);
	free(home);
}

static void print_home(void)
{
	struct strvec shown = STRVEC_INIT;
	char *home;

	home_exposure(&home, &shown);
	if (!home)
		printf("home:      unknown (set AGENTIC_GIT_HOME or HOME)\n");
	else if (!shown.nr)
		printf("home:      %s, outside every directory a cage reads\n",
		       home);
	else
		printf("home:      %s lies in '%s', which a cage reads: landlock launches are refused (move AGENTIC_GIT_HOME out of it; bubblewrap hides it)\n",
		       home, shown.v[0]);
	strvec_clear(&shown);
	free(home);
}

static int probe_json(const struct sandbox_caps *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "{\"bwrap\":{\"path\":");
	strbuf_add_json_str(&sb, c->bwrap_path);
	strbuf_addf(&sb, ",\"works\":%s,\"why\":",
		    c->bwrap_works ? "true" : "false");
	strbuf_add_json_str(&sb, c->bwrap_works ? "" : c->bwrap_why);
	strbuf_addf(&sb, "},\"userns\":%s,\"landlock\":{\"abi\":%d,\"why\":",
		    c->userns ? "true" : "false", c->landlock_abi);
	strbuf_add_json_str(&sb, c->landlock_abi ? "" : c->landlock_why);
	strbuf_addf(&sb, "},\"seccomp\":%s,\"auto_backend\":\"%s\",",
		    c->seccomp ? "true" : "false", auto_backend(c));
	/* fs+api needs bwrap: Landlock knows ports, not addresses */
	strbuf_addf(&sb, "\"fs_api\":{\"available\":%s,\"why\":",
		    c->bwrap_works ? "true" : "false");
	strbuf_add_json_str(&sb, c->bwrap_works ? "" : FS_API_WHY);
	strbuf_addstr(&sb, "},");
	add_sysdirs_json(&sb, c);
	add_home_json(&sb);
	strbuf_addstr(&sb, "}\n");
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
	return 0;
}

static const struct argtable probe_table = { .cmd = "sandbox probe",
					     .specs = argtable_json_only,
					     .flags = ARGT_NO_REST };

static int cmd_probe(int argc, const char **argv)
{
	const struct sandbox_caps *c;
	bool json = false;
	struct argres r;

	sandbox_cli_parse(&probe_table, argc, argv, &json, &r);
	c = sandbox_probe();
	if (json)
		return probe_json(c);
	if (c->bwrap_works)
		printf("bwrap:     %s (works)\n", c->bwrap_path);
	else
		printf("bwrap:     unusable: %s\n", c->bwrap_why);
	printf("userns:    %s\n", c->userns ? "yes" : "no");
	if (c->landlock_abi)
		printf("landlock:  ABI %d%s\n", c->landlock_abi,
		       c->landlock_abi >= 4 ? "" : " (no network rules: seccomp covers fs+no-net)");
	else
		printf("landlock:  unavailable: %s\n", c->landlock_why);
	printf("seccomp:   %s\n", c->seccomp ? "yes" : "no");
	printf("auto:      %s\n", auto_backend(c));
	if (c->bwrap_works)
		printf("fs+api:    available (bwrap)\n");
	else
		printf("fs+api:    unavailable: %s\n", FS_API_WHY);
	print_home();
	return 0;
}

/* The real git (git/realgit.h), found once; dies when there is none. */
const char *sandbox_cli_real_git(void)
{
	static char *git; /* owned */
	char *home;

	if (git)
		return git;
	home = ag_home_dir();
	git = realgit_locate(home);
	free(home);
	if (!git)
		die("sandbox: cannot find git; set AGENTIC_GIT_REAL_GIT to its absolute path");
	return git;
}

/* Resolves cmd through PATH from the child's environment. */
char *sandbox_cli_resolve_command(const char *cmd, const struct strvec *env)
{
	const char *path = "/usr/local/bin:/usr/bin:/bin";

	if (strchr(cmd, '/')) {
		char *abs = real_path(cmd);
		if (!abs)
			die_code(AG_EXIT_EXEC, "sandbox: cannot run '%s': %s", cmd,
				 strerror(errno));
		return abs;
	}
	for (size_t i = 0; i < env->nr; i++)
		skip_prefix(env->v[i], "PATH=", &path);
	for (const char *p = path; *p;) {
		const char *e = strchrnul(p, ':');
		char *cand = xstrfmt("%.*s/%s", (int)(e - p), p, cmd);
		if (cand[0] == '/' && !access(cand, X_OK))
			return cand;
		free(cand);
		p = *e ? e + 1 : e;
	}
	die_code(AG_EXIT_EXEC, "sandbox: '%s' not found in the sandbox's PATH", cmd);
}

void sandbox_cli_build_env(const struct strvec *names, struct strvec *env)
{
	for (size_t i = 0; i < ARRAY_SIZE(base_env); i++) {
		const char *v = getenv(base_env[i]);
		if (v)
			strvec_pushf(env, "%s=%s", base_env[i], v);
	}
	for (size_t i = 0; i < names->nr; i++) {
		const char *n = names->v[i], *eq = strchr(n, '=');
		const char *v = eq ? eq + 1 : getenv(n);
		size_t len = eq ? (size_t)(eq - n) : strlen(n);
		if (!len || !v)
			continue;
		/* A later --env replaces an earlier entry of the same name. */
		for (size_t j = 0; j < env->nr; j++) {
			if (!strncmp(env->v[j], n, len) && env->v[j][len] == '=') {
				strvec_remove(env, j);
				break;
			}
		}
		strvec_pushf(env, "%.*s=%s", (int)len, n, v);
	}
}

char *sandbox_cli_canonical_existing(const char *what, const char *p)
{
	char *r = real_path(p);
	if (!r)
		die("sandbox: %s '%s': %s", what, p, strerror(errno));
	return r;
}

char *sandbox_cli_canonical_new(const char *p)
{
	char *abs = path_absolute(p);

	if (!abs)
		die_errno("sandbox: getcwd");
	return abs;
}

int sandbox_cli_parse(const struct argtable *t, int argc, const char **argv,
		      void *opts, struct argres *r)
{
	if (argtable_parse_table(t, argc, argv, opts, r) < 0)
		exit(AG_EXIT_USAGE);
	return r->rest;
}

struct workspace_opts {
	const char *from, *head, *base, *hooks_path;
};

#define ARGT_STRUCT struct workspace_opts
static const struct argspec workspace_specs[] = {
	OPT_REQUIRED("from", from),
	OPT_REQUIRED("head", head),
	OPT_VALUE(base),
	OPT_AS("hooks-path", ARG_VALUE, hooks_path),
	ARGSPEC_END,
};
#undef ARGT_STRUCT

/* One DIR among the options; `--` ends them. */
/* The verbs an operator runs; exec, proxy and relay are the planner's. */
const struct cmd_optset sandbox_optsets[] = {
	{ "probe", argtable_json_only, 0 },
	{ "run", sandbox_run_specs, 0 },
	{ "workspace", workspace_specs, 0 },
	{ NULL, NULL, 0 },
};

static const struct argtable workspace_table = {
	.cmd = "sandbox workspace",
	.hint = "only one DIR",
	.specs = workspace_specs,
	.flags = ARGT_NO_REST,
	.max_pos = 1,
};

static int cmd_workspace(int argc, const char **argv)
{
	struct workspace_request rq = { 0 };
	struct workspace ws = WORKSPACE_INIT;
	struct workspace_opts o = { NULL };
	struct argres r;
	char *dir;

	sandbox_cli_parse(&workspace_table, argc, argv, &o, &r);
	if (r.pos_nr != 1)
		die_code(AG_EXIT_USAGE, "sandbox workspace: need --from REPO --head BRANCH and one DIR");
	rq.git = sandbox_cli_real_git();
	rq.from = o.from;
	rq.head = o.head;
	rq.base = o.base;
	rq.hooks_path = o.hooks_path;
	rq.refs = WS_REFS_CLONE;
	rq.origin = true;
	rq.identity = true;
	dir = sandbox_cli_canonical_new(r.pos[0]);
	rq.dir = dir;
	if (workspace_create(&rq, &ws, NULL) < 0)
		return AG_EXIT_DENY;
	printf("workspace: %s\nhead: %s %s\n", ws.dir, rq.head, ws.head_oid);
	if (ws.base_oid)
		printf("base: origin/%s %s\n", rq.base, ws.base_oid);
	for (size_t i = 0; i < ws.ro_dirs.nr; i++)
		printf("borrows: %s\n", ws.ro_dirs.v[i]);
	workspace_release(&ws);
	free(dir);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, const char **argv);
	bool internal; /* the planner's helper: no --help, every word its own */
} subs[] = {
	{ "probe", cmd_probe, false },
	{ "run", cmd_sandbox_run, false },
	{ "workspace", cmd_workspace, false },
	{ "exec", cmd_sandbox_exec, true },
	{ "proxy", cmd_sandbox_proxy, true },
	{ "relay", cmd_sandbox_relay, true },
};

int cmd_sandbox(int argc, const char **argv)
{
	int sub = -1;

	if (argc < 2) {
		fputs(sandbox_cli_usage, stderr);
		return AG_EXIT_USAGE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i].name))
			sub = (int)i;
	if (sub >= 0 && subs[sub].internal)
		return subs[sub].fn(argc - 1, argv + 1);
	if (cmd_wants_help(argc, argv, sandbox_cli_usage))
		return 0;
	if (sub >= 0)
		return subs[sub].fn(argc - 1, argv + 1);
	error("sandbox: unknown subcommand '%s' (probe, run, workspace)", argv[1]);
	return AG_EXIT_USAGE;
}

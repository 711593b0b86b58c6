/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git snapshots list|show|diff|restore|prune (docs/snapshots.md).
 * Exit codes follow the original (reference §5.7-§5.9): 0 ok, 1 failure or
 * nothing to restore, 2 bad usage, not-our-ref or ambiguous.
 */
#include "base/common.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <time.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/path.h"
#include "base/xalloc.h"
#include "agentic-git/core.h"
#include "base/timefmt.h"
#include "cmd/argtable.h"
#include "cmd/cmd.h"
#include "cmd/optsets.h"
#include "cmd/snapshots-cli.h"
#include "fleet/session.h"
#include "git/gitcmd.h"
#include "git/realgit.h"
#include "agents/config.h"
#include "git/snapshot-restore.h"
#include "git/snapshot-retain.h"
#include "git/snapshot.h"

static const char usage_text[] =
	"usage: agentic-git snapshots <command> [<options>]\n\n"
	"Recovery snapshots taken before destructive git operations.\n\n"
	"  list    [--repo P] [--agent A] [--all] [--json]\n"
	"  show    <ref> [--repo P]\n"
	"  diff    <ref> [--repo P]\n"
	"  restore [<ref>] [--repo P] [--agent A] [--yes|-y] [--staged]\n"
	"          [--any-worktree] [--head]\n"
	"  restore --since <N>s|m|h|d|w [--repo P] [--agent A] [--staged]\n"
	"          [--head]\n"
	"          every snapshot taken in this work tree in that window,\n"
	"          newest first, so the oldest state wins (undoes a burst of\n"
	"          destructive commands in one go)\n"
	"          --head also puts the branch back on the commit the\n"
	"          snapshot recorded (the oldest one's, with --since)\n"
	"  prune   [--older-than <N>d] [--repo P] [--agent A]\n"
	"  prune   --policy [--repo P]\n"
	"          the operator's retention for the fleet: every agent's\n"
	"          snapshots and the quarantine, by config.yaml's snapshots:\n"
	"          (age, per work tree, per repository); never the newest\n"
	"          snapshot of a live session\n\n"
	"Who sees what: the operator (AGENTIC_GIT_AGENT unset) uses the\n"
	"snapshots taken in the work tree at --repo (default .), whichever agent\n"
	"took them; --agent A narrows to one agent, list --all shows every work\n"
	"tree's. Through this command an agent sees and restores only its own\n"
	"(through git itself: whole in the sandbox, by name only through the\n"
	"shim; docs/snapshots.md). A snapshot is restored only into the work\n"
	"tree it was taken in, unless --any-worktree. Names and paths an agent\n"
	"chose print inert; list --json keeps them exact.\n";

static void print_table(const struct snapshot_list *l)
{
	if (!l->nr) {
		printf("(no snapshots)\n");
		return;
	}
	printf("%-58s %-25s %-12s %-12s %s\n", "REF", "WHEN", "OP", "WHO",
	       "WORKTREE");
	for (size_t i = 0; i < l->nr; i++) {
		const struct snapshot_info *s = &l->v[i];
		struct strbuf when = STRBUF_INIT;

		time_rfc3339_seconds(s->when, &when);
		printf("%-58s %-25s %-12s %-12s %s\n", s->ref, when.buf,
		       s->name.slug, s->name.agent,
		       s->meta.worktree ? s->meta.worktree : "");
		strbuf_release(&when);
	}
}

static void json_field(struct strbuf *j, const char *k, const char *v)
{
	strbuf_addch(j, ',');
	strbuf_add_json_str(j, k);
	strbuf_addch(j, ':');
	if (v)
		strbuf_add_json_str(j, v);
	else
		strbuf_addstr(j, "null");
}

static void print_json(const struct snapshot_list *l)
{
	struct strbuf j = STRBUF_INIT;

	strbuf_addch(&j, '[');
	for (size_t i = 0; i < l->nr; i++) {
		const struct snapshot_info *s = &l->v[i];
		struct strbuf when = STRBUF_INIT;

		time_rfc3339_seconds(s->when, &when);
		strbuf_addstr(&j, i ? ",\n{\"ref\":" : "\n{\"ref\":");
		strbuf_add_json_str(&j, s->ref);
		json_field(&j, "agent", s->name.agent);
		json_field(&j, "op", s->name.slug);
		strbuf_addf(&j, ",\"seq\":%lu", s->name.seq);
		json_field(&j, "when", when.buf);
		json_field(&j, "commit", s->commit);
		json_field(&j, "worktree", s->meta.worktree);
		json_field(&j, "head", s->meta.head);
		json_field(&j, "index", s->meta.index);
		json_field(&j, "quarantine", s->meta.quarantine);
		strbuf_addf(&j, ",\"stashes\":%zu}", s->meta.stashes.nr);
		strbuf_release(&when);
	}
	strbuf_addstr(&j, l->nr ? "\n]\n" : "]\n");
	fputs(j.buf, stdout);
	strbuf_release(&j);
}

/*
 * After an empty list of this work tree: says where the scope's snapshots
 * are, or that the named agent has none at all (an error). Returns how
 * many exist in other work trees.
 */
static size_t hint_elsewhere(struct snap_cli *c)
{
	struct snapshot_list all = SNAPSHOT_LIST_INIT;
	struct strbuf err = STRBUF_INIT, pat = STRBUF_INIT, cmd = STRBUF_INIT,
		      rest = STRBUF_INIT;
	size_t n = 0;

	strbuf_addstr(&pat, SNAPSHOT_REF_PREFIX);
	strbuf_addstr(&rest, "--all");
	if (c->target_who) {
		strbuf_addf(&pat, "%s/", c->target_who);
		strbuf_addf(&rest, " --agent %s", c->target_who);
	}
	if (snapshot_list_load(c->git, c->repo, pat.buf, &all, &err) == 0)
		n = all.nr;
	snapshots_hint_cmd(&cmd, "list", c->top.buf, rest.buf);
	if (n)
		fprintf(stderr,
			"agentic-git: snapshots list: none taken in this work tree; %zu in other work trees of the repository: %s\n",
			n, cmd.buf);
	else if (c->target_who)
		error("snapshots list: agent '%s' has no snapshots in this repository",
		      c->target_who);
	snapshot_list_release(&all);
	strbuf_release(&err);
	strbuf_release(&pat);
	strbuf_release(&cmd);
	strbuf_release(&rest);
	return n;
}

void snapshots_hint_cmd(struct strbuf *sb, const char *sub, const char *repo,
			const char *rest)
{
	strbuf_addf(sb, "agentic-git snapshots %s --repo ", sub);
	strbuf_add_shell_quoted(sb, repo);
	if (rest && *rest)
		strbuf_addf(sb, " %s", rest);
}

static int cmd_list(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strbuf err = STRBUF_INIT, pat = STRBUF_INIT;
	int ret = 0;

	if (c->all || c->caller_is_agent) {
		/* every work tree: all agents', or the calling agent's own */
		strbuf_addstr(&pat, SNAPSHOT_REF_PREFIX);
		if (c->target_who)
			strbuf_addf(&pat, "%s/", c->target_who);
		if (snapshot_list_load(c->git, c->repo, pat.buf, &l, &err) < 0) {
			error("snapshots list: %s", err.buf);
			ret = 1;
		}
	} else if (snapshots_load_here(c, &l) < 0) {
		ret = 1;
	} else if (!l.nr && !hint_elsewhere(c) && c->target_who) {
		ret = 1;
	}
	if (!ret && c->json)
		print_json(&l);
	else if (!ret)
		print_table(&l);
	snapshot_list_release(&l);
	strbuf_release(&err);
	strbuf_release(&pat);
	return ret;
}

int snapshots_locate_top(struct snap_cli *c)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (c->top.len)
		return 0;
	if (gitcmd_capture(c->git, c->repo, &c->top, &err, "rev-parse",
			   "--show-toplevel", NULL) != 0 || c->top.buf[0] != '/') {
		/* one line: git may add a second ("Stopping at filesystem
		 * boundary …") where the path lies on its own mount */
		const char *nl = strchr(err.buf, '\n');
		if (nl)
			strbuf_setlen(&err, (size_t)(nl - err.buf));
		error("snapshots %s: '%s' is not a git work tree%s%s", c->sub,
		      c->repo, err.len ? ": " : "", err.buf);
		strbuf_reset(&c->top);
		ret = -1;
	}
	gitcmd_chomp(&c->top);
	strbuf_release(&err);
	return ret;
}

int snapshots_load_here(struct snap_cli *c, struct snapshot_list *l)
{
	struct strbuf err = STRBUF_INIT, pat = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&pat, SNAPSHOT_REF_PREFIX);
	if (c->target_who)
		strbuf_addf(&pat, "%s/", c->target_who);
	if (snapshots_locate_top(c) < 0)
		ret = -1;
	else if (snapshot_list_load(c->git, c->repo, pat.buf, l, &err) < 0)
		ret = error("snapshots %s: %s", c->sub, err.buf);
	if (!ret)
		snapshot_list_keep_worktree(l, c->top.buf);
	strbuf_release(&err);
	strbuf_release(&pat);
	return ret;
}

static int parse_days(const char *v, long *secs)
{
	size_t n = strlen(v);
	char num[32];
	unsigned long d;

	if (n < 2 || n >= sizeof(num) || (v[n - 1] != 'd' && v[n - 1] != 'D'))
		return -1;
	memcpy(num, v, n - 1);
	num[n - 1] = '\0';
	if (parse_ulong(num, 36500, &d) < 0)
		return -1;
	*secs = (long)d * 24 * 3600;
	return 0;
}

/* prune --policy: the fleet's retention (git/snapshot-retain.h) */
static int prune_policy(struct snap_cli *c)
{
	struct agent_config cfg = AGENT_CONFIG_INIT;
	struct strbuf path = STRBUF_INIT, errs = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec pruned = STRVEC_INIT;
	struct snapshot_retention r;
	int ret = 0;

	if (c->caller_is_agent || c->agent_opt || c->older) {
		error("snapshots prune --policy: the operator's, over every agent (no AGENTIC_GIT_AGENT, --agent or --older-than)");
		return AG_EXIT_USAGE;
	}
	agent_config_default_path(&path);
	if (agent_config_load(path.buf, false, &cfg, &errs) < 0) {
		const char *nl = strchrnul(errs.buf, '\n');

		error("%.*s", (int)(nl - errs.buf), errs.buf);
		ret = 1;
		goto out;
	}
	snapshot_retention_init(&r, cfg.snapshots.max_age_days,
				cfg.snapshots.keep_per_worktree,
				cfg.snapshots.keep_per_repository);
	if (snapshot_retain_apply(c->git, c->repo, c->home, &r, time(NULL),
				  &pruned, &err) < 0) {
		error("snapshots prune: %s", err.buf);
		ret = 1;
		goto out;
	}
	for (size_t i = 0; i < pruned.nr; i++)
		printf("pruned %s\n", pruned.v[i]);
	printf("%zu snapshot ref(s) pruned\n", pruned.nr);
out:
	agent_config_release(&cfg);
	strvec_clear(&pruned);
	strbuf_release(&path);
	strbuf_release(&errs);
	strbuf_release(&err);
	return ret;
}

static int cmd_prune(struct snap_cli *c)
{
	struct strvec refs = STRVEC_INIT, pruned = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	/* the operator prunes its own ("noagent") unless --agent names one */
	const char *who = c->target_who ? c->target_who : c->caller_who;
	long ttl = SNAPSHOT_TTL_SECONDS;
	int ret = 0;

	if (c->policy)
		return prune_policy(c);
	if (c->older && parse_days(c->older, &ttl) < 0) {
		error("--older-than value \"%s\" must look like `<N>d`",
		      c->older);
		return AG_EXIT_USAGE;
	}
	if (snapshot_list_refs(c->git, c->repo, who, &refs, &err) < 0 ||
	    snapshot_prune_refs(c->git, c->repo, NULL, c->home, who, &refs,
				time(NULL), ttl, NULL, &pruned, &err) < 0) {
		error("snapshots prune: %s", err.buf);
		ret = 1;
	} else {
		for (size_t i = 0; i < pruned.nr; i++)
			printf("pruned %s\n", pruned.v[i]);
		printf("%zu snapshot ref(s) pruned\n", pruned.nr);
	}
	strvec_clear(&refs);
	strvec_clear(&pruned);
	strbuf_release(&err);
	return ret;
}

enum { S_LIST = 1, S_SHOW = 2, S_DIFF = 4, S_RESTORE = 8, S_PRUNE = 16 };

static const struct {
	const char *name;
	int (*fn)(struct snap_cli *);
	unsigned bit;
	bool takes_ref;
} subs[] = {
	{ "list", cmd_list, S_LIST, false },
	{ "show", snapshots_show, S_SHOW, true },
	{ "diff", snapshots_diff, S_DIFF, true },
	{ "restore", snapshots_restore, S_RESTORE, true },
	{ "prune", cmd_prune, S_PRUNE, false },
};

#define S_ALL (S_LIST | S_SHOW | S_DIFF | S_RESTORE | S_PRUNE)
#define SNAP_OPT(name, sh, kind, field, subs) \
	ARGSPEC_AT(name, sh, kind, struct snap_cli, field, subs, 0)

static const struct argspec specs[] = {
	SNAP_OPT("repo", 0, ARG_VALUE, repo, S_ALL),
	SNAP_OPT("agent", 0, ARG_VALUE, agent_opt, S_ALL),
	SNAP_OPT("older-than", 0, ARG_VALUE, older, S_PRUNE),
	SNAP_OPT("policy", 0, ARG_FLAG, policy, S_PRUNE),
	SNAP_OPT("all", 0, ARG_FLAG, all, S_LIST),
	SNAP_OPT("json", 0, ARG_FLAG, json, S_LIST),
	SNAP_OPT("yes", 'y', ARG_FLAG, yes, S_RESTORE),
	SNAP_OPT("staged", 0, ARG_FLAG, staged, S_RESTORE),
	SNAP_OPT("since", 0, ARG_VALUE, since, S_RESTORE),
	SNAP_OPT("any-worktree", 0, ARG_FLAG, any_worktree, S_RESTORE),
	SNAP_OPT("head", 0, ARG_FLAG, head, S_RESTORE),
	ARGSPEC_END,
};

const struct cmd_optset snapshots_optsets[] = {
	{ "list", specs, S_LIST },   { "show", specs, S_SHOW },
	{ "diff", specs, S_DIFF },   { "restore", specs, S_RESTORE },
	{ "prune", specs, S_PRUNE }, { NULL, NULL, 0 },
};

/*
 * The sub-command's options, anywhere among its words; `--` ends them
 * (a ref that starts with '-' goes after it). 0, or -1 with one line.
 */
static int parse_args(struct snap_cli *c, unsigned bit, bool takes_ref,
		      int argc, const char **argv)
{
	char name[32];
	struct argtable t = { .cmd = name,
			      .hint = takes_ref ? "at most one snapshot ref"
						: NULL,
			      .specs = specs,
			      .flags = ARGT_NO_REST,
			      .sub = bit,
			      .max_pos = takes_ref ? 1 : 0 };
	struct argres r;

	snprintf(name, sizeof(name), "snapshots %s", c->sub);
	if (argtable_parse_table(&t, argc - 1, argv + 1, c, &r) < 0)
		return -1;
	if (r.pos_nr)
		c->ref = r.pos[0];
	return 0;
}

/*
 * Who may see what (docs/snapshots.md): an agent only its own snapshots;
 * the operator every agent's, or the one --agent names.
 */
static int check_scope(struct snap_cli *c)
{
	const char *why;
	const char *agent = ag_getenv_str(AGE_AGENT);

	c->caller_is_agent = *agent != '\0';
	c->caller_who = snapshot_who(agent);
	if (!snapshot_who_valid(c->caller_who)) {
		error("snapshots %s: invalid agent name '%s' in AGENTIC_GIT_AGENT",
		      c->sub, agent);
		return -1;
	}
	if (c->agent_opt && !snapshot_who_valid(c->agent_opt)) {
		ag_agent_name_valid(c->agent_opt, &why);
		error("snapshots %s: invalid agent name '%s': %s", c->sub,
		      c->agent_opt, why);
		return -1;
	}
	if (c->caller_is_agent &&
	    (c->all || (c->agent_opt && strcmp(c->agent_opt, c->caller_who)))) {
		error("snapshots %s: agent '%s' may only see its own snapshots (unset AGENTIC_GIT_AGENT to act as the operator)",
		      c->sub, c->caller_who);
		return -1;
	}
	c->target_who = c->caller_is_agent ? c->caller_who : c->agent_opt;
	return 0;
}

static void snap_cli_release(struct snap_cli *c)
{
	free(c->git);
	free(c->home);
	strbuf_release(&c->top);
}

/*
 * When `repo` is a session's worktree or workspace (a signed binding names
 * it), the cage of our git reads the objects of that session's clone, and
 * not the chain the workspace's own alternates file (the agent's) names
 * (docs/sandbox.md "The boundary rule").
 */
static void trust_bound_clone(const char *home, const char *repo)
{
	char *rt = home ? xstrfmt("%s/runtime", home) : NULL;
	char *real = real_path(repo);
	DIR *d = rt && real ? opendir(rt) : NULL;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct ag_binding b;
		const char *why, *rel;
		char *wt = NULL;

		if (e->d_name[0] == '.' ||
		    !ag_agent_name_valid(e->d_name, &why))
			continue;
		if (ag_binding_load(home, e->d_name, &b) == AG_BINDING_BOUND &&
		    b.worktree && b.source_repo &&
		    (wt = real_path(b.worktree)) &&
		    path_inside(real, wt, &rel)) {
			char *common = session_common_dir_of(b.source_repo);
			if (common) {
				char *objects = path_join(common, "objects");
				gitcmd_cage_trust_store(objects, true);
				free(objects);
			}
			free(common);
		}
		free(wt);
		ag_binding_release(&b);
	}
	if (d)
		closedir(d);
	free(rt);
	free(real);
}

int cmd_snapshots(int argc, const char **argv)
{
	struct snap_cli c = { .repo = ".", .top = STRBUF_INIT };
	int ret;

	if (argc < 2 || (cmd_wants_help(2, argv, usage_text))) {
		if (argc >= 2)
			return 0;
		error("snapshots: no subcommand given");
		fputs(usage_text, stderr);
		return AG_EXIT_USAGE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		c.sub = subs[i].name;
		if (cmd_wants_help(argc - 1, argv + 1, usage_text))
			return 0;
		if (parse_args(&c, subs[i].bit, subs[i].takes_ref, argc,
			       argv) < 0) {
			fputs(usage_text, stderr);
			return AG_EXIT_USAGE;
		}
		if (check_scope(&c) < 0)
			return AG_EXIT_USAGE;
		/* the snapshots live in agents' worktrees: their config is
		 * not ours to run (restore's checkout, show's diff) */
		gitcmd_trust_set(GIT_AGENT_REPO);
		c.home = ag_home_dir();
		trust_bound_clone(c.home, c.repo);
		c.git = realgit_locate(c.home);
		if (!c.git) {
			error("snapshots %s: cannot find real git (set AGENTIC_GIT_REAL_GIT)",
			      c.sub);
			snap_cli_release(&c);
			return 1;
		}
		ret = subs[i].fn(&c);
		snap_cli_release(&c);
		return ret;
	}
	error("snapshots: unknown subcommand `%s`", argv[1]);
	fputs(usage_text, stderr);
	return AG_EXIT_USAGE;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * agentic-git snapshots list|show|diff|restore|prune (docs/snapshots.md).
 * Exit codes follow the original (reference §5.7-§5.9): 0 ok, 1 failure or
 * nothing to restore, 2 bad usage, not-our-ref or ambiguous.
 */
#include "base/common.h"
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <time.h>
#include "base/die.h"
#include "base/envvar.h"
#include "base/xalloc.h"
#include "agentic-git/core.h"
#include "base/timefmt.h"
#include "cmd/cmd.h"
#include "cmd/snapshots-cli.h"
#include "git/gitcmd.h"
#include "git/snapshot-store.h"
#include "git/snapshot.h"

static const char usage_text[] =
	"usage: agentic-git snapshots <command> [<options>]\n\n"
	"Recovery snapshots taken before destructive git operations.\n\n"
	"  list    [--repo P] [--agent A | --all] [--json]\n"
	"  show    <ref> [--repo P]\n"
	"  diff    <ref> [--repo P]\n"
	"  restore [<ref>] [--repo P] [--yes|-y] [--staged]\n"
	"  restore --since <N>m|<N>h|<N>d [--repo P] [--staged]\n"
	"          every snapshot of yours in this work tree from that window,\n"
	"          newest first, so the oldest state wins (undoes a burst of\n"
	"          destructive commands in one go)\n"
	"  prune   [--older-than <N>d] [--repo P] [--agent A]\n\n"
	"Without --agent, only the calling agent's snapshots are used\n"
	"($AGENTIC_GIT_AGENT, or \"noagent\"). See docs/snapshots.md.\n";

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

static int cmd_list(struct snap_cli *c)
{
	struct snapshot_list l = SNAPSHOT_LIST_INIT;
	struct strbuf err = STRBUF_INIT, pat = STRBUF_INIT;
	int ret = 0;

	strbuf_addstr(&pat, SNAPSHOT_REF_PREFIX);
	if (!c->all)
		strbuf_addf(&pat, "%s/", c->target_who);
	if (snapshot_list_load(c->git.buf, c->repo, pat.buf, &l, &err) < 0) {
		error("snapshots list: %s", err.buf);
		ret = 1;
	} else if (c->json)
		print_json(&l);
	else
		print_table(&l);
	snapshot_list_release(&l);
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

static int cmd_prune(struct snap_cli *c)
{
	struct strvec refs = STRVEC_INIT, pruned = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT;
	long ttl = SNAPSHOT_TTL_SECONDS;
	int ret = 0;

	if (c->older && parse_days(c->older, &ttl) < 0) {
		error("--older-than value \"%s\" must look like `<N>d`",
		      c->older);
		return AG_EXIT_USAGE;
	}
	if (snapshot_list_refs(c->git.buf, c->repo, c->target_who, &refs,
			       &err) < 0 ||
	    snapshot_prune_refs(c->git.buf, c->repo, NULL,
				ag_getenv_str(AGE_HOME), c->target_who, &refs,
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

enum opt_kind { O_FLAG, O_VALUE };

static const struct {
	const char *name, *alias;
	enum opt_kind kind;
	size_t off;
	unsigned subs;
} opts[] = {
	{ "--repo", NULL, O_VALUE, offsetof(struct snap_cli, repo),
	  S_LIST | S_SHOW | S_DIFF | S_RESTORE | S_PRUNE },
	{ "--agent", NULL, O_VALUE, offsetof(struct snap_cli, agent_opt),
	  S_LIST | S_PRUNE },
	{ "--older-than", NULL, O_VALUE, offsetof(struct snap_cli, older),
	  S_PRUNE },
	{ "--all", NULL, O_FLAG, offsetof(struct snap_cli, all), S_LIST },
	{ "--json", NULL, O_FLAG, offsetof(struct snap_cli, json), S_LIST },
	{ "--yes", "-y", O_FLAG, offsetof(struct snap_cli, yes), S_RESTORE },
	{ "--staged", NULL, O_FLAG, offsetof(struct snap_cli, staged),
	  S_RESTORE },
	{ "--since", NULL, O_VALUE, offsetof(struct snap_cli, since),
	  S_RESTORE },
};

/* Returns how many argv elements were used, or -1 (message printed). */
static int parse_opt(struct snap_cli *c, unsigned bit, const char *a,
		     const char *next)
{
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const char *val = NULL;
		size_t n = strlen(opts[i].name);

		if (!(opts[i].subs & bit))
			continue;
		if (opts[i].kind == O_VALUE && !strncmp(a, opts[i].name, n) &&
		    a[n] == '=')
			val = a + n + 1;
		else if (strcmp(a, opts[i].name) &&
			 (!opts[i].alias || strcmp(a, opts[i].alias)))
			continue;
		if (opts[i].kind == O_FLAG) {
			*(bool *)((char *)c + opts[i].off) = true;
			return 1;
		}
		if (!val && !next) {
			error("snapshots %s: %s needs a value", c->sub, a);
			return -1;
		}
		*(const char **)((char *)c + opts[i].off) = val ? val : next;
		return val ? 1 : 2;
	}
	error("unknown flag `%s` for `snapshots %s`", a, c->sub);
	return -1;
}

static int parse_args(struct snap_cli *c, unsigned bit, bool takes_ref,
		      int argc, const char **argv)
{
	for (int i = 2; i < argc;) {
		const char *a = argv[i];
		int used;

		if (a[0] == '-' && a[1]) {
			used = parse_opt(c, bit, a, i + 1 < argc ? argv[i + 1]
								 : NULL);
			if (used < 0)
				return -1;
			i += used;
			continue;
		}
		if (!takes_ref || c->ref) {
			error(takes_ref ? "unexpected extra argument `%s` (at most one snapshot ref)"
					: "unexpected argument `%s`",
			      a);
			return -1;
		}
		c->ref = a;
		i++;
	}
	return 0;
}

/* Two agents never see each other's snapshots (docs/snapshots.md). */
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
	c->target_who = c->agent_opt ? c->agent_opt : c->caller_who;
	if (c->agent_opt && !snapshot_who_valid(c->agent_opt)) {
		ag_agent_name_valid(c->agent_opt, &why);
		error("snapshots %s: invalid agent name '%s': %s", c->sub,
		      c->agent_opt, why);
		return -1;
	}
	if (c->all && c->agent_opt) {
		error("snapshots %s: --agent and --all are mutually exclusive",
		      c->sub);
		return -1;
	}
	if (c->caller_is_agent &&
	    (c->all || strcmp(c->target_who, c->caller_who))) {
		error("snapshots %s: agent '%s' may only see its own snapshots (unset AGENTIC_GIT_AGENT to act as the operator)",
		      c->sub, c->caller_who);
		return -1;
	}
	return 0;
}

int cmd_snapshots(int argc, const char **argv)
{
	struct snap_cli c = { .repo = ".", .git = STRBUF_INIT };
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
		if (gitcmd_find_real_git(&c.git) < 0) {
			error("snapshots %s: cannot find real git (set AGENTIC_GIT_REAL_GIT)",
			      c.sub);
			return 1;
		}
		ret = subs[i].fn(&c);
		strbuf_release(&c.git);
		return ret;
	}
	error("snapshots: unknown subcommand `%s`", argv[1]);
	fputs(usage_text, stderr);
	return AG_EXIT_USAGE;
}

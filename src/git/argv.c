/* SPDX-License-Identifier: Apache-2.0 */
/*
 * git global-option parsing, mirroring git.c handle_options() (git 2.39+).
 *
 * Invariants:
 *  1. MUST recognise every global that consumes the next argument
 *     (-C, -c, --git-dir, --work-tree, --namespace, --super-prefix,
 *     --config-env, --shallow-file, --attr-source, --list-cmds) so a value is
 *     never mistaken for the subcommand.
 *  2. A global git does not know is recorded in bad_global: the policy fails
 *     closed on it instead of guessing what git would do.
 *  3. Pure: no I/O, no allocation beyond the arrays.
 */
#include "base/common.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "git/argv.h"

enum gopt_kind { G_FLAG, G_SEP, G_EQ_OR_SEP, G_EQ, G_INFO };
enum gopt_slot { S_NONE, S_CHDIR, S_CONFIG, S_CONFIG_ENV, S_GIT_DIR,
		 S_WORK_TREE, S_NAMESPACE, S_EXEC_PATH };

static const struct gopt {
	const char *name;
	enum gopt_kind kind;
	enum gopt_slot slot;
} gopts[] = {
	{ "-C", G_SEP, S_CHDIR },
	{ "-c", G_SEP, S_CONFIG },
	{ "--config-env", G_EQ_OR_SEP, S_CONFIG_ENV },
	{ "--git-dir", G_EQ_OR_SEP, S_GIT_DIR },
	{ "--work-tree", G_EQ_OR_SEP, S_WORK_TREE },
	{ "--namespace", G_EQ_OR_SEP, S_NAMESPACE },
	{ "--super-prefix", G_EQ_OR_SEP, S_NONE },
	{ "--shallow-file", G_EQ_OR_SEP, S_NONE },
	{ "--attr-source", G_EQ_OR_SEP, S_NONE },
	{ "--list-cmds", G_EQ, S_NONE },
	{ "--exec-path", G_EQ, S_EXEC_PATH },
	{ "-p", G_FLAG, S_NONE },
	{ "--paginate", G_FLAG, S_NONE },
	{ "-P", G_FLAG, S_NONE },
	{ "--no-pager", G_FLAG, S_NONE },
	{ "--no-replace-objects", G_FLAG, S_NONE },
	{ "--bare", G_FLAG, S_NONE },
	{ "--literal-pathspecs", G_FLAG, S_NONE },
	{ "--glob-pathspecs", G_FLAG, S_NONE },
	{ "--noglob-pathspecs", G_FLAG, S_NONE },
	{ "--icase-pathspecs", G_FLAG, S_NONE },
	{ "--no-optional-locks", G_FLAG, S_NONE },
	{ "--no-lazy-fetch", G_FLAG, S_NONE },
	{ "--no-advice", G_FLAG, S_NONE },
	{ "--version", G_INFO, S_NONE },
	{ "-v", G_INFO, S_NONE },
	{ "--help", G_INFO, S_NONE },
	{ "-h", G_INFO, S_NONE },
	{ "--html-path", G_INFO, S_NONE },
	{ "--man-path", G_INFO, S_NONE },
	{ "--info-path", G_INFO, S_NONE },
};

bool git_global_takes_value(const char *opt)
{
	for (size_t i = 0; i < ARRAY_SIZE(gopts); i++)
		if (!strcmp(opt, gopts[i].name))
			return gopts[i].kind == G_SEP ||
			       gopts[i].kind == G_EQ_OR_SEP;
	return false;
}

static void push(const char ***arr, size_t *nr, const char *v)
{
	*arr = xrealloc(*arr, st_mult(st_add(*nr, 1), sizeof(char *)));
	(*arr)[(*nr)++] = v;
}

static void store(struct git_argv *ga, enum gopt_slot slot, const char *v)
{
	switch (slot) {
	case S_CHDIR: push(&ga->chdirs, &ga->nchdirs, v); break;
	case S_CONFIG: push(&ga->configs, &ga->nconfigs, v); break;
	case S_CONFIG_ENV: push(&ga->config_envs, &ga->nconfig_envs, v); break;
	case S_GIT_DIR: ga->git_dir = v; break;
	case S_WORK_TREE: ga->work_tree = v; break;
	case S_NAMESPACE: ga->namespace_ = v; break;
	case S_EXEC_PATH: ga->exec_path = v; break;
	case S_NONE: break;
	}
}

void git_argv_parse(struct git_argv *ga, const char *const *argv, size_t argc)
{
	size_t i = 0;

	memset(ga, 0, sizeof(*ga));
	ga->words_.argv = argv;
	ga->words_.argc = argc;
	if (argc > GIT_ARGV_MAX)
		ga->too_long = true;
	while (i < argc) {
		const char *a = argv[i];
		const struct gopt *g = NULL;
		const char *val = NULL;
		bool eq = false;

		if (a[0] != '-')
			break;
		for (size_t k = 0; k < ARRAY_SIZE(gopts); k++) {
			size_t n = strlen(gopts[k].name);
			if (!strncmp(a, gopts[k].name, n) &&
			    (a[n] == '\0' ||
			     (a[n] == '=' && (gopts[k].kind == G_EQ ||
					      gopts[k].kind == G_EQ_OR_SEP)))) {
				g = &gopts[k];
				eq = a[n] == '=';
				val = eq ? a + n + 1 : NULL;
				break;
			}
		}
		if (!g) {
			if (!ga->bad_global)
				ga->bad_global = a;
			i++;
			continue;
		}
		if (g->kind == G_INFO) {
			ga->info_only = true;
			i++;
			continue;
		}
		if (g->kind == G_EQ && !eq) {
			/* `--exec-path` alone prints; `--list-cmds` needs = */
			if (g->slot == S_EXEC_PATH)
				ga->info_only = true;
			else if (!ga->bad_global)
				ga->bad_global = a;
			i++;
			continue;
		}
		if ((g->kind == G_SEP || g->kind == G_EQ_OR_SEP) && !eq) {
			if (i + 1 >= argc) {
				if (!ga->bad_global)
					ga->bad_global = a;
				i++;
				continue;
			}
			val = argv[i + 1];
			i++;
		}
		store(ga, g->slot, val);
		i++;
	}
	ga->words_.sub_idx = i;
	if (i < argc) {
		ga->sub = argv[i];
		git_cmdline_parse(ga);
	}
}

void git_argv_read_env(struct git_argv *ga, const char *(*get)(const char *))
{
	if (ga->env_read)
		config_env_release(&ga->env_config);
	config_env_read(&ga->env_config, get);
	ga->env_read = true;
}

void git_argv_release(struct git_argv *ga)
{
	free(ga->chdirs);
	free(ga->configs);
	free(ga->config_envs);
	free(ga->opts);
	free(ga->pos);
	if (ga->env_read)
		config_env_release(&ga->env_config);
	memset(ga, 0, sizeof(*ga));
}

/* ---- the emitters: the words git gets (git/argv.h) ---- */

static bool routed_drop(const char *a, bool *value_next)
{
	*value_next = !strcmp(a, "-C") || !strcmp(a, "--git-dir") ||
		      !strcmp(a, "--work-tree");
	return *value_next || starts_with(a, "--git-dir=") ||
	       starts_with(a, "--work-tree=");
}

static void push_inserts(const struct git_emit *e, size_t word,
			 struct strvec *out)
{
	for (size_t k = 0; k < e->nins; k++)
		if (e->ins[k].word == word)
			strvec_pushv(out, e->ins[k].words);
}

/*
 * -C/--git-dir/--work-tree dropped when routed, everything else kept
 * (reference §3.5). Every global that takes a separate value keeps that
 * value with it, so a value spelled like a dropped option (`--namespace
 * -C status checkout x`) cannot shift what git sees as the subcommand.
 */
void git_argv_emit(const struct git_argv *ga, const struct git_emit *e,
		   struct strvec *out, size_t *sub_args_at, size_t *opts_end_at)
{
	size_t n = ga->sub ? ga->words_.argc - ga->words_.sub_idx - 1 : 0;
	const char *const *w = ga->words_.argv + ga->words_.sub_idx + 1;
	bool next;

	for (size_t i = 0; i < ga->words_.sub_idx; i++) {
		const char *a = ga->words_.argv[i];
		if (e->routed && routed_drop(a, &next)) {
			i += next;
			continue;
		}
		strvec_push(out, a);
		if (git_global_takes_value(a) && i + 1 < ga->words_.sub_idx)
			strvec_push(out, ga->words_.argv[++i]);
	}
	*sub_args_at = out->nr + 1;
	*opts_end_at = out->nr + 1 + n;
	if (!ga->sub) {
		strvec_pushn(out, ga->words_.argv + ga->words_.sub_idx,
			     ga->words_.argc - ga->words_.sub_idx);
		return;
	}
	strvec_push(out, ga->sub);
	for (size_t j = 0; j < n; j++) {
		push_inserts(e, j, out);
		if (j == ga->opts_end)
			*opts_end_at = out->nr;
		strvec_push(out, w[j]);
	}
	push_inserts(e, n, out);
	if (ga->opts_end >= n)
		*opts_end_at = out->nr;
}

void git_argv_push_all(const struct git_argv *ga, struct strvec *out)
{
	strvec_pushn(out, ga->words_.argv, ga->words_.argc);
}

void git_argv_push_options(const struct git_argv *ga, struct strvec *out)
{
	const char *const *w = ga->words_.argv + ga->words_.sub_idx + 1;
	size_t last = SIZE_MAX;

	for (size_t k = 0; ga->sub && k < ga->nopts; k++) {
		const struct git_optuse *u = &ga->opts[k];

		if (u->word != last)
			strvec_push(out, w[u->word]);
		last = u->word;
		if (u->value && u->value == w[u->word + 1])
			strvec_push(out, u->value);
	}
}

void git_argv_push_after_verb(const struct git_argv *ga, struct strvec *out)
{
	size_t n = ga->sub ? ga->words_.argc - ga->words_.sub_idx - 1 : 0;
	const char *const *w = ga->words_.argv + ga->words_.sub_idx + 1;
	size_t j = 0;

	/* a spelled verb is its word itself (git/cmdline.c) */
	if (ga->verb && !ga->verb_implied) {
		while (j < n && w[j] != ga->verb)
			j++;
		j = j < n ? j + 1 : 0;
	}
	strvec_pushn(out, w + j, n - j);
}

static bool dropped(const struct git_optuse *u, const char *const *drop)
{
	for (; *drop; drop++)
		if (git_optuse_is(u, *drop))
			return true;
	return false;
}

/* One option as its own word(s): `-x`, `-xVALUE`, `--long[=v]`, `-x V`. */
static void push_optuse(const struct git_optuse *u, const char *const *w,
			struct strvec *out)
{
	const char *word = w[u->word];
	bool sep = u->value && u->value == w[u->word + 1];

	if (!(u->flags & GOPT_SHORT) || !u->def) {
		strvec_push(out, word);
	} else if (u->value && !sep) {
		strvec_pushf(out, "-%c%s", u->spelled[0], u->value);
	} else {
		strvec_pushf(out, "-%c", u->spelled[0]);
	}
	if (sep)
		strvec_push(out, u->value);
}

void git_argv_push_without(const struct git_argv *ga, const char *const *drop,
			   struct strvec *out)
{
	size_t n = ga->sub ? ga->words_.argc - ga->words_.sub_idx - 1 : 0;
	const char *const *w = ga->words_.argv + ga->words_.sub_idx + 1;
	size_t k = 0;

	for (size_t j = 0; j < n; j++) {
		bool opt = false, sep = false;

		for (; k < ga->nopts && ga->opts[k].word == j; k++) {
			const struct git_optuse *u = &ga->opts[k];
			opt = true;
			sep |= u->value && u->value == w[j + 1];
			if (!dropped(u, drop))
				push_optuse(u, w, out);
		}
		if (!opt)
			strvec_push(out, w[j]);
		j += sep;
	}
}

const char *git_config_split(const char *kv, char *key, size_t keylen)
{
	const char *eq = strchr(kv, '=');
	size_t n = eq ? (size_t)(eq - kv) : strlen(kv);
	const char *first_dot, *last_dot;

	if (n >= keylen)
		n = keylen - 1;
	memcpy(key, kv, n);
	key[n] = '\0';
	/* section and variable name are case-insensitive, subsection not */
	first_dot = strchr(key, '.');
	last_dot = strrchr(key, '.');
	for (char *c = key; *c; c++) {
		if (!first_dot || c < first_dot || c > last_dot)
			*c = (char)tolower((unsigned char)*c);
	}
	return eq ? eq + 1 : NULL;
}

/* Section-level and exact-key patterns; `*` stands for one subsection. */
static const char *const dangerous[] = {
	"core.hookspath", "core.fsmonitor", "core.sshcommand", "core.pager",
	"core.editor", "core.askpass", "core.gitproxy", "core.worktree",
	"core.bare", "core.alternaterefscommand", "sequence.editor",
	"diff.external", "diff.*.textconv", "diff.*.command", "merge.*.driver",
	"filter.*.clean", "filter.*.smudge", "filter.*.process",
	"remote.*.url", "remote.*.pushurl", "remote.*.uploadpack",
	"remote.*.push", "remote.*.fetch", "remote.*.mirror", "push.default",
	"remote.*.receivepack", "remote.*.proxy", "remote.*.vcs",
	"gpg.program", "gpg.*.program", "ssh.variant", "http.proxy",
	"uploadpack.packobjectshook", "protocol.*.allow", "protocol.allow",
	"interactive.difffilter", "web.browser", "browser.*.cmd",
	"browser.*.path", "man.*.cmd", "man.*.path", "mergetool.*.cmd",
	"difftool.*.cmd", "safe.directory", "submodule.*.update",
	"url.*.insteadof", "url.*.pushinsteadof", "receive.procreceiverefs",
};

static const char *const dangerous_sections[] = {
	"alias.", "credential.", "include.", "includeif.", "pager.",
	"guitool.", "instaweb.", "sendemail.", "trace2.",
};

static bool pattern_match(const char *pat, const char *key)
{
	/* pat: a.b or a.*.b where * is one subsection (which may hold dots) */
	const char *star = strstr(pat, ".*.");
	size_t plen;

	if (!star)
		return !strcmp(pat, key);
	plen = (size_t)(star - pat) + 1; /* "section." */
	if (strncmp(key, pat, plen))
		return false;
	{
		const char *var = strrchr(key, '.');
		const char *want = star + 3;
		if (!var || var < key + plen)
			return false;
		return var > key + plen && !strcmp(var + 1, want);
	}
}

bool git_config_key_dangerous(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(dangerous_sections); i++)
		if (starts_with(key, dangerous_sections[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(dangerous); i++)
		if (pattern_match(dangerous[i], key))
			return true;
	return false;
}

/* What an agent may persist with `git config`: everyday repository
 * options, no key that names a program, a path git reads or another
 * repository (PRODUCT.md §4: an allowlist, not a denylist). */
static const char *const persistable[] = {
	"user.name", "user.email", "core.autocrlf", "core.eol",
	"core.filemode", "core.ignorecase", "core.quotepath", "core.whitespace",
	"core.safecrlf", "core.precomposeunicode", "core.abbrev",
	"branch.*.remote", "branch.*.merge", "branch.*.rebase",
	"branch.*.description", "pull.rebase", "pull.ff", "merge.ff",
	"merge.conflictstyle", "rebase.autosquash", "rebase.autostash",
	"rerere.enabled", "rerere.autoupdate", "diff.renames",
	"diff.algorithm", "diff.colormoved", "diff.context", "status.showuntrackedfiles",
	"status.short", "status.branch", "log.date", "log.decorate",
	"color.ui", "color.diff", "color.status", "color.branch",
	"column.ui", "init.defaultbranch", "fetch.prune", "push.autosetupremote",
	"push.default", "advice.*", "i18n.commitencoding", "i18n.logoutputencoding",
	"commit.verbose", "commit.cleanup", "format.signoff",
};

bool git_config_key_persistable(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(persistable); i++) {
		const char *pat = persistable[i];
		size_t n = strlen(pat);
		if (n > 2 && !strcmp(pat + n - 2, ".*")) {
			if (!strncmp(key, pat, n - 1) && key[n - 1])
				return !strchr(key + n - 1, '.');
		} else if (pattern_match(pat, key)) {
			return true;
		}
	}
	return false;
}

bool git_config_value_disables(const char *key, const char *value)
{
	return value && !strcmp(key, "core.hookspath") &&
	       (!*value || !strcmp(value, "/dev/null"));
}

/*
 * Values that only take something away from git, with the session's hooks
 * untouched: no fsmonitor, no credential helper, prompt or askpass, an
 * empty ssh or external diff command (git fails to run "": nothing runs).
 * The CLIs put them in their tool shells' environment (Copilot CLI
 * 1.0.102: core.fsmonitor=false, credential.interactive=never, beside
 * safe.bareRepository=explicit, which is no dangerous key; Gemini CLI
 * 0.61.0: empty credential.helper, core.sshCommand, diff.external …).
 */
static bool value_restricts(const char *key, const char *value)
{
	static const char *const off[] = { "", "false", "0", "no", "off", NULL };

	if (!strcmp(key, "core.fsmonitor"))
		for (const char *const *o = off; *o; o++)
			if (!strcasecmp(value, *o))
				return true;
	/* an empty command: git tries to run "", which nothing can be */
	if (!strcmp(key, "credential.helper") || !strcmp(key, "core.askpass") ||
	    !strcmp(key, "core.sshcommand") || !strcmp(key, "diff.external"))
		return !*value;
	if (!strcmp(key, "credential.interactive"))
		return !strcasecmp(value, "never") ||
		       !strcasecmp(value, "false");
	return false;
}

bool git_config_value_inert(const char *key, const char *value)
{
	static const char *const keys[] = { "core.editor", "sequence.editor",
					    "core.pager" };
	static const char *const values[] = { "true", ":", "cat", "" };
	/* not upstream/tracking: they push to another branch's name */
	static const char *const push_defaults[] = { "simple", "current",
		"nothing" };
	bool k = false;

	if (!value)
		return false;
	if (value_restricts(key, value))
		return true;
	if (!strcmp(key, "push.default")) {
		/* matching and upstream push branches that are not the agent's */
		for (size_t i = 0; i < ARRAY_SIZE(push_defaults); i++)
			if (!strcmp(value, push_defaults[i]))
				return true;
		return false;
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		k |= !strcmp(key, keys[i]);
	if (!k)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (!strcmp(value, values[i]))
			return true;
	return false;
}

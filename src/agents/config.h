/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_AGENTS_CONFIG_H
#define AG_AGENTS_CONFIG_H

/**
 * The operator's config.yaml: agent profiles, per-repository agents,
 * sandbox settings and dispatch defaults (PRODUCT.md §7-§9, seed §3).
 *
 *   struct agent_config cfg = AGENT_CONFIG_INIT;
 *   struct strbuf errs = STRBUF_INIT;
 *   if (agent_config_load(path, explicit, &cfg, &errs) < 0)
 *           print errs (one "<file>:<line>:<col>: <message>" per line), exit 1
 *   const struct agent_profile *p;
 *   if (agent_config_resolve(&cfg, cli_profile, repo_path, repo_slug, &p,
 *                            &err) < 0) ...
 *   ... agent_plan_build() (plan.h) ...
 *   agent_config_release(&cfg);
 *
 * Security invariants (tests cite the numbers):
 *  1. The file MUST be opened O_NOFOLLOW and every check MUST run on the fd:
 *     a regular file, not group/other-writable, owned by us; bounded size
 *     (CONFIG_MAX_BYTES). Otherwise the load fails and nothing is used.
 *  2. command, model_args, env and ro_binds MUST be YAML sequences of
 *     strings: a scalar is refused (a string would imply a shell).
 *  3. command[0] of every profile that has a command block MUST be pinned
 *     to an absolute, existing path at load; a name that does not resolve
 *     is an error naming file:line:col. Preset commands not overridden are
 *     pinned when found and stay unpinned otherwise: the planner MUST NOT
 *     plan an unpinned command (it fails naming the binary).
 *  4. Unknown keys anywhere, wrong types and invalid values are errors;
 *     every error found is reported (not just the first) and a config with
 *     any error MUST NOT be used.
 *  5. Exactly one token containing {prompt} unless prompt_via is stdin,
 *     then none.
 *  6. Under sandbox fs+api every host of a configured secret MUST be one
 *     the profile's allow_hosts allows, and a secret's command[0] is
 *     pinned like command[0] (invariant 3).
 *
 * Ownership: the config owns every string it holds; profiles returned by
 * lookups point into it and live until agent_config_release(). Errors are
 * appended to the caller's strbuf, one per line, never printed here.
 */
#include "base/common.h"
#include "agents/presets.h"
#include "base/strbuf.h"
#include "base/strvec.h"

#define CONFIG_MAX_BYTES (256 * 1024)
#define CONFIG_MAX_TIMEOUT (7.0 * 24 * 3600) /* seconds */

/* Where a secret's value comes from (PRODUCT.md §7, agents/secrets.h). */
enum secret_source {
	SECRET_FROM_ENV = 0, /* the operator's variable of the same name */
	SECRET_FROM_FILE,    /* a file of the operator's, trimmed */
	SECRET_FROM_COMMAND, /* a command's output, run outside the cage */
};

struct secret_rule {
	char *name; /* the variable the agent reads */
	enum secret_source from;
	char *file;	       /* SECRET_FROM_FILE: absolute, ~ expanded */
	struct strvec command; /* SECRET_FROM_COMMAND: argv, [0] pinned */
	struct strvec hosts;   /* allowhosts.h entries: where it is injected */
	/*
	 * A preset's rule: skipped when its variable is not set, and its
	 * hosts are also the host of `base_url_env`'s URL when that is set.
	 */
	bool optional;
	const char *base_url_env; /* static, or NULL */
	char *where;		  /* "file:line:col" of its entry, or NULL */
};

struct agent_profile {
	char *name;
	struct strvec command;	  /* argv template; see `pinned` */
	bool pinned;		  /* command.v[0] is absolute and existed */
	struct strvec model_args; /* template, added only with a model */
	char *model;		  /* NULL: no model */
	enum prompt_via prompt_via;
	double timeout;		  /* seconds, 0: not set */
	bool inherit_env;	  /* no env list: the child inherits all */
	struct strvec env;	  /* allowlist (names) when !inherit_env */
	enum sandbox_policy sandbox;
	struct strvec ro_binds;	  /* absolute paths, ~ expanded */
	struct strvec allow_hosts; /* fs+api: allowhosts.h entries */
	char *cache_dir;	  /* absolute, ~ expanded; NULL: unset */
	struct secret_rule *secrets; /* `secrets:`, else the preset's */
	size_t nr_secrets;
	const struct agent_preset *preset; /* NULL for a custom profile */
	bool configured;	  /* has a block under agents: */
	char *where;		  /* "file:line:col" of its block, or NULL */
};

struct repo_rule {
	char *key;   /* normalised absolute path, or "owner/name" */
	bool is_path;
	char *agent;
};

struct dispatch_defaults {
	unsigned long concurrency; /* 0: not set */
	double timeout;		   /* seconds, 0: not set */
	struct strvec verify_command; /* argv; empty: not set */
	char *workspace_root;	   /* absolute, ~ expanded; NULL: not set */
	/* run retention and log cap (fleet/rundir.h); 0: not set */
	unsigned long keep_runs, keep_days, log_cap_mib;
};

/* snapshots: retention for the fleet (docs/snapshots.md, "Retention");
 * 0: not set (the defaults, git/snapshot-retain.h) */
struct snapshot_retention_cfg {
	unsigned long max_age_days;
	unsigned long keep_per_worktree;
	unsigned long keep_per_repository;
	bool auto_off; /* snapshots.auto: false (fleet/retention.h) */
};

/* journal: the audit log's rotation (base/eventlog-rotate.h); 0: not set */
struct journal_cfg {
	unsigned long max_mib;
	unsigned long keep;
};

struct agent_config {
	char *path; /* the file read, or NULL (presets only) */
	char *default_agent; /* NULL: not set (claude) */
	struct agent_profile *profiles; /* presets first, then custom */
	size_t nr_profiles, alloc_profiles;
	struct repo_rule *repos;
	size_t nr_repos, alloc_repos;
	enum sandbox_fallback sandbox_fallback;
	enum sandbox_backend sandbox_backend;
	struct dispatch_defaults dispatch;
	struct snapshot_retention_cfg snapshots;
	struct journal_cfg journal;
	char *tls_ca_file; /* the proxy's extra trusted CAs, or NULL */
};

#define AGENT_CONFIG_INIT { 0 }

/* How config_parse_buffer_opts() pins command[0]. */
enum config_pin_mode {
	CONFIG_PIN_REAL = 0, /* absolute/relative checked, bare name via PATH */
	CONFIG_PIN_SKIP,     /* no lookups at all (fuzzing): nothing pinned */
};

struct config_parse_opts {
	enum config_pin_mode pin;
	const char *base_dir; /* relative command paths; NULL: dir of name */
	const char *path_env; /* PATH for bare names; NULL: getenv("PATH") */
	const char *home;     /* for ~ expansion; NULL: getenv("HOME") */
};

/*
 * Parses `len` bytes of YAML named `name` (used in messages) into `out`,
 * which must be AGENT_CONFIG_INIT or released. The presets are always
 * present in the result. Does no file I/O except command pinning (stat and
 * access on candidate binaries). Returns 0, or -1 with every error appended
 * to `errs` as "<name>:<line>:<col>: <message>\n"; on -1 `out` holds partial
 * data and must still be released.
 */
int config_parse_buffer(const char *buf, size_t len, const char *name,
			struct agent_config *out, struct strbuf *errs);
int config_parse_buffer_opts(const char *buf, size_t len, const char *name,
			     const struct config_parse_opts *opts,
			     struct agent_config *out, struct strbuf *errs);

/*
 * Loads `path` under invariant 1. A missing file is fine (presets only)
 * unless `must_exist` (an explicit --config). Errors as above; file-level
 * errors are one line "<path>: <why>".
 */
int agent_config_load(const char *path, bool must_exist,
		      struct agent_config *out, struct strbuf *errs);

/* $AGENTIC_GIT_HOME/config.yaml (legacy AGEND_HOME), else
 * $HOME/.agentic-git/config.yaml. Appends to `out`. */
void agent_config_default_path(struct strbuf *out);

void agent_config_release(struct agent_config *cfg);

/* The profile called `name` (configured or preset), or NULL. */
const struct agent_profile *agent_config_find(const struct agent_config *cfg,
					      const char *name);

/*
 * Resolution: `cli_profile` (--profile) when non-empty, then the first
 * repos: rule matching the repository (a path key equal to `repo_path`, an
 * owner/name key equal to `repo_slug`, compared case-insensitively), then
 * default_agent, then "claude". Either repository argument may be NULL.
 * An unknown name fails with the message of the reference §2.5 in `err`.
 */
int agent_config_resolve(const struct agent_config *cfg,
			 const char *cli_profile, const char *repo_path,
			 const char *repo_slug,
			 const struct agent_profile **out, struct strbuf *err);

/*
 * "owner/name" from a remote URL (https://host/o/n(.git), git@host:o/n.git,
 * ssh://…/o/n.git, file paths …/o/n(.git)): the last two path components,
 * ".git" stripped. Returns 0, or -1 when the URL has fewer than two.
 */
int repo_slug_from_url(const char *url, struct strbuf *out);

/*
 * A profile holding a copy of preset `pr` (command[0] not pinned yet), and
 * its release. agent_profile_pin() pins command[0] by the rules of
 * invariant 3 against `base_dir` and `path_env` (NULL: getenv("PATH")):
 * 0 when pinned, -1 with the reason in `err` otherwise.
 */
void agent_profile_init_preset(struct agent_profile *p,
			       const struct agent_preset *pr);
int agent_profile_pin(struct agent_profile *p, const char *base_dir,
		      const char *path_env, struct strbuf *err);
void agent_profile_release(struct agent_profile *p);
/* The pinning of invariant 3 for one binary name: *out (owned) is the
 * absolute path; 0, or -1 with the reason in err. */
int agent_binary_pin(const char *cmd0, const char *base_dir,
		     const char *path_env, char **out, struct strbuf *err);

/* Releases one rule, and a profile's whole list. */
void secret_rule_release(struct secret_rule *r);
void agent_profile_clear_secrets(struct agent_profile *p);
/* "env", "file:PATH" or "command" */
void secret_rule_source(const struct secret_rule *r, struct strbuf *out);

#endif

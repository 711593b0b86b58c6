/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_RUNDIR_H
#define AG_FLEET_RUNDIR_H

/**
 * The run directory $AGENTIC_GIT_HOME/runs/<id>/ and what goes in it:
 * <key>.stdout.log, <key>.stderr.log, <key>.meta.yaml, escalations/<key>.md,
 * summary.md, plus the runs/latest symlink. Everything is created 0600/0700
 * (the caller sets umask 077 too). File names come from target keys, which
 * fleet/targets.h validated as file names.
 *
 * The record and formatting functions are pure (strbuf in, strbuf out) so
 * the unit tests call them; rundir_* do the I/O and return 0 or -1 with an
 * error printed.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"
#include "fleet/push.h"
#include "fleet/agent-verdict.h"
#include "fleet/verify.h"

struct rundir {
	char *id;   /* YYYYMMDDTHHMMSSZ-xxxxxx */
	char *path; /* <home>/runs/<id> */
};

/* Final per-target statuses; the exit ladder is in dispatch_exit_code(). */
enum run_status {
	RS_PUSHED = 0, RS_NO_CHANGE, RS_ESCALATED, RS_BLOCKED, RS_NO_VERDICT,
	RS_FAILED, RS_TIMED_OUT, RS_INTERRUPTED, RS_LEASE_REFUSED,
	RS_PUSH_FAILED, RS_ERROR, RS_REFUSED, RS_PLANNED, RS__COUNT
};

const char *run_status_str(enum run_status s);
/* 0 fine, 3 escalation, 2 attention (see docs/dispatch.md). */
int run_status_severity(enum run_status s);

struct run_record {
	const char *key, *repo, *head, *base; /* not owned */
	enum run_status status;
	int exit_code; /* -1: null */
	struct timespec started, finished;
	double duration;
	bool timed_out, ran;
	enum agent_verdict verdict;
	struct strbuf verdict_line;
	bool verified;
	struct verify_report verify;
	enum push_status push;
	struct strbuf push_detail;
	char pushed_sha[65];
	struct strvec agent_argv;     /* prompt elided */
	struct strvec agent_env_keys; /* sorted names */
	const char *sandbox;	      /* "fs+no-net (bwrap)", "none" … */
	const char *profile;	      /* profile name, NULL: raw command */
	struct strbuf warning;	      /* the agent needs a network it lacks */
	char *workspace;
	bool kept;
	struct strbuf note; /* error or why the workspace was kept */
	char *escalation;   /* salvaged file, or NULL */
	unsigned orphans_killed;
	/* fs+api: the proxy's counts (agent-sandbox.h invariant 9) */
	bool net;
	unsigned long net_allow, net_deny;
	struct strvec net_denied_hosts; /* "host:port" */
};

void run_record_init(struct run_record *r);
void run_record_release(struct run_record *r);

/* Replaces every occurrence of `prompt` inside argv elements. */
void argv_elide(struct strvec *argv, const char *prompt);
/* Sorted, de-duplicated names of a K=V environment. */
void env_key_names(const struct strvec *env, struct strvec *names);

void run_record_meta_yaml(const struct run_record *r, struct strbuf *out);
void run_record_json(const struct run_record *r, struct strbuf *out);
void run_summary_md(const char *id, const struct run_record *const *v, size_t nr,
		    int exit_code, struct strbuf *out);

int rundir_create(const char *home, struct rundir *rd);
/* A new log file in the run dir, O_EXCL, 0600. fd or -1. */
int rundir_open(const struct rundir *rd, const char *name);
int rundir_write(const struct rundir *rd, const char *name,
		 const struct strbuf *data);
/*
 * A bounded log (issue 35, issue 37): when <run>/<name> is larger than
 * `cap` bytes (0: RUNDIR_LOG_CAP), it is rewritten (atomically) as its
 * first cap/8 bytes, one line saying at which byte it was cut and how
 * many bytes were cut ("[agentic-git: log cut at byte N: M bytes
 * removed …]"), and its last bytes up to the cap (where the agent's
 * verdict line is). *cut gets the bytes cut (0: the log was within the
 * cap). 0 or -1.
 */
#define RUNDIR_LOG_CAP (8u << 20)
int rundir_cap_log(const struct rundir *rd, const char *name,
		   unsigned long long cap, unsigned long long *cut);

/*
 * The retention of runs/ (docs/dispatch.md, "Run directories"): of the
 * run directories under <home>/runs, those beyond the newest `keep`
 * (0: RUNDIR_KEEP) and those started more than `max_age` seconds before
 * `now` (0: RUNDIR_KEEP_DAYS) are removed, except `except` (the run
 * starting) and a run that still holds a kept workspace (a non-empty
 * work/). Returns how many were removed, or -1 when runs/ cannot be read.
 */
#define RUNDIR_KEEP 50
#define RUNDIR_KEEP_DAYS 30
int rundir_prune(const char *home, size_t keep, long max_age, time_t now,
		 const char *except);

/* Resolves "latest" or an id to the run's path. 0 or -1. */
int rundir_resolve(const char *home, const char *id, struct strbuf *path);
void rundir_release(struct rundir *rd);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FLEET_POOL_H
#define AG_FLEET_POOL_H

/**
 * The process supervisor: N agents in parallel, each with a timeout, none
 * outliving its target (git run_processes_parallel's callback shape,
 * bubblewrap's monitor loop).
 *
 * Invariants (tests: t0705-supervisor.bats, tests/unit/test-pool.c):
 *  1. At most `concurrency` children run at once.
 *  2. Every child starts in its own session (setsid: its own process group,
 *     no controlling terminal, so a terminal's Ctrl-C reaches only us) with
 *     PR_SET_PDEATHSIG=SIGKILL, stdin from a memfd or /dev/null, stdout and
 *     stderr straight to the caller's files, and descriptor 3 only when
 *     the launch passes one (`fd3`).
 *  3. On timeout (or when we are told to stop): SIGTERM to the child's whole
 *     process group, `grace_ms`, then SIGKILL.
 *  4. No orphan survives: the supervisor is a child subreaper
 *     (PR_SET_CHILD_SUBREAPER), so a grandchild that daemonises (setsid,
 *     double fork) is reparented to us. When a target's leader exits, its
 *     group and every orphan carrying its job token (the
 *     AGENTIC_GIT_POOL_JOB variable the pool adds to its environment), or
 *     carrying none, get SIGTERM, grace, SIGKILL; the target completes
 *     only when they are gone (checked every 20 ms, so helpers that exit
 *     by themselves right after the leader, like bwrap's PID 1, cost no
 *     grace). When the pool returns, no child of ours is left.
 *  5. First SIGINT drains (queued targets finish as POOL_INTERRUPTED without
 *     starting); a second SIGINT, or a SIGTERM/SIGHUP, also stops the
 *     running ones (POOL_KILLED).
 *  6. One poll() loop over a signalfd; deadlines are CLOCK_MONOTONIC and
 *     become the poll timeout. The pool blocks SIGCHLD/SIGINT/SIGTERM/SIGHUP
 *     while it runs and restores the mask afterwards.
 *
 * Ownership: `prepare` fills a pool_launch the pool releases after the
 * spawn (argv, env, dir, stdin) and closes its out_fd/err_fd. Callbacks run
 * in the supervisor's thread, between poll rounds.
 */
#include "base/common.h"
#include <time.h>
#include "base/strbuf.h"
#include "base/strvec.h"

/* The SIGTERM-to-SIGKILL grace dispatch (and run --timeout) use by default. */
#define POOL_DEFAULT_GRACE_S 5

struct pool_launch {
	struct strvec argv; /* argv[0] absolute */
	struct strvec env;  /* the whole environment */
	char *dir;	    /* working directory (owned) */
	struct strbuf stdin_data;
	int out_fd, err_fd; /* owned: closed by the pool */
	unsigned timeout;   /* seconds; 0 = none */
	int fd3; /* owned: the child's descriptor 3 (the fs+api proxy's
		    secrets, fleet/agent-secrets.h), or -1 */
};

enum pool_status {
	POOL_EXITED = 0,     /* exit_code is the exit status or 128+signal */
	POOL_TIMED_OUT,	     /* killed at its deadline */
	POOL_KILLED,	     /* stopped by our SIGTERM / second Ctrl-C */
	POOL_LAUNCH_FAILED,  /* launch_errno says why */
	POOL_INTERRUPTED,    /* drained before it started */
	POOL_SKIPPED,	     /* prepare() declined */
};

const char *pool_status_str(enum pool_status s);

struct pool_result {
	enum pool_status status;
	int exit_code; /* -1 when the child never ran */
	int launch_errno;
	struct timespec started, finished; /* CLOCK_REALTIME */
	double duration;		   /* seconds */
	unsigned orphans_killed;	   /* stragglers swept after the leader */
};

struct pool_ops {
	size_t nr, concurrency;
	unsigned grace_ms;
	/* 0: launch; -1: skip (finished gets POOL_SKIPPED). */
	int (*prepare)(void *data, size_t i, struct pool_launch *l);
	void (*started)(void *data, size_t i); /* optional */
	void (*finished)(void *data, size_t i, const struct pool_result *r);
	void *data;
};

/*
 * Runs every task. Returns 0, or -1 when the supervisor itself could not be
 * set up (signalfd) before anything ran. `*interrupted` (may be NULL) says
 * whether a SIGINT/SIGTERM/SIGHUP arrived.
 */
int pool_run(const struct pool_ops *ops, bool *interrupted);

#endif

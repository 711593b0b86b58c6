/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_SNAPSHOT_H
#define AG_SNAPSHOT_H

/**
 * Pre-operation snapshots (PRODUCT.md §5). This header is the contract the
 * shim relies on; the engine lives in snapshot.c.
 */
#include "base/common.h"
#include "base/strbuf.h"

struct snapshot_opts {
	const char *real_git;		/* absolute path of real git */
	const char *dir;		/* the work tree the operation runs in */
	const char *agent;		/* "" or NULL => "noagent" */
	const char *home;		/* $AGENTIC_GIT_HOME, may be "" */
	const char *slug;		/* operation slug */
	const char *const *clean_args;	/* for "clean": args after `clean` */
	bool quarantine_ignored;	/* clean -x/-X */
};

/*
 * Fail-open guard for the shim: takes the snapshot; on failure prints
 * `agentic-git: warning — pre-op snapshot FAILED (<reason>); proceeding
 * without a safety net` and appends a snapshot_failed event. Never fails.
 */
void snapshot_guard(const struct snapshot_opts *o);

/* 0 on success (ref_out empty when nothing needed saving), -1 with err. */
int snapshot_take(const struct snapshot_opts *o, struct strbuf *ref_out,
		  struct strbuf *err);

#endif

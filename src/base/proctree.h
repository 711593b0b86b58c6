/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_BASE_PROCTREE_H
#define AG_BASE_PROCTREE_H

/**
 * The processes of this pid namespace as /proc shows them, and the tree
 * below one of them.
 *
 * A process that calls setsid() leaves its process group, so a signal to
 * the group misses it; it cannot leave its parent. With the caller a child
 * subreaper (PR_SET_CHILD_SUBREAPER), an orphan below it is reparented to
 * it, not to init: every process it started, however it detached, stays
 * its descendant by the parent links /proc gives (`ppid`), until it exits.
 *
 * Invariants:
 *  1. A zombie (state Z or X) is not a live process: it is counted by no
 *     function here and never signalled.
 *  2. The root itself is never signalled, only what is below it.
 */
#include "base/common.h"
#include <sys/types.h>

struct proc_stat {
	pid_t pid, ppid, pgrp;
	char state; /* as /proc/<pid>/stat: R, S, D, T, Z, X, … */
};

/* /proc/<pid>/stat of `pid`; 0, or -1 when it cannot be read (gone). */
int proc_stat_read(pid_t pid, struct proc_stat *st);

/* Every process /proc lists now, malloc'd into *out; returns the count
 * (0 when /proc cannot be read). */
size_t proc_list(struct proc_stat **out);

/* Whether `st` is a live process (invariant 1). */
bool proc_live(const struct proc_stat *st);

/*
 * Sends `sig` (0: none, only count) to every live process below `root`
 * (invariant 2). Returns how many there were. One pass: a process forked
 * meanwhile is found by the next call.
 */
unsigned proctree_signal(pid_t root, int sig);

/*
 * Which of `n` files (canonical absolute paths) some process of this pid
 * namespace has open, as its /proc/<pid>/fd links show: open[i] set for
 * each. False when /proc cannot be read (nothing can be told then).
 * Processes of other users whose fds cannot be read count as not having it.
 */
bool proc_files_open(const char *const *paths, size_t n, bool *open);

#endif

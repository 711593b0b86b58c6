/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_UNIT_TMPDIR_H
#define AG_UNIT_TMPDIR_H

/**
 * A scratch directory for a cmocka group: unit_tmpdir_make() in the group
 * setup (a fresh /tmp/ag-<tag>-XXXXXX into `dir`), unit_tmpdir_remove() in
 * its teardown (everything under it, symlinks not followed). Both return
 * 0 or -1, as cmocka's group hooks expect.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>

static inline int unit_tmpdir_make(char *dir, size_t len, const char *tag)
{
	snprintf(dir, len, "/tmp/ag-%s-XXXXXX", tag);
	return mkdtemp(dir) ? 0 : -1;
}

static inline int unit_tmpdir_rm_one(const char *p, const struct stat *st,
				     int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static inline int unit_tmpdir_remove(const char *dir)
{
	return nftw(dir, unit_tmpdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif

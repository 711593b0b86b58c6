/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_UNIT_TMPDIR_H
#define AG_UNIT_TMPDIR_H

/**
 * A scratch directory for a cmocka group: unit_tmpdir_make() in the group
 * setup (a fresh /tmp/ag-<tag>-XXXXXX into `dir`), unit_tmpdir_remove() in
 * its teardown (everything under it, symlinks not followed). Both return
 * 0 or -1, as cmocka's group hooks expect. unit_slurp() reads
 * <dir>/<rel> (a regular file, at most 4 KiB) into a fresh string, or
 * returns NULL.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/fileio.h"
#include "base/strbuf.h"

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

static inline char *unit_slurp(const char *dir, const char *rel)
{
	struct strbuf b = STRBUF_INIT, p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", dir, rel);
	if (read_file_bounded(p.buf, 4096, RF_REGULAR, &b) < 0) {
		strbuf_release(&b);
		strbuf_release(&p);
		return NULL;
	}
	strbuf_release(&p);
	return strbuf_detach(&b, NULL);
}

#endif

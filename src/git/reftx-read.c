/* SPDX-License-Identifier: Apache-2.0 */
/* The files behind reftx_value_kept(); see reftx.h. */
#include "base/common.h"
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include "base/fileio.h"
#include "base/refname.h"
#include "base/strbuf.h"
#include "git/packed-refs.h"
#include "git/reftx.h"

#define REFTX_PACKED_MAX (256u << 20)

static bool is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return false;
	return true;
}

int reftx_read_values(const char *commondir, size_t hexlen, const char *ref,
		      struct reftx_values *v)
{
	struct strbuf path = STRBUF_INIT, data = STRBUF_INIT;
	struct packed_refs pr = PACKED_REFS_INIT;
	const struct packed_ref *p;
	struct stat st;
	int ret = -1;

	memset(v, 0, sizeof(*v));
	if ((hexlen != 40 && hexlen != 64) || !starts_with(ref, "refs/") ||
	    !refname_valid(ref, 0))
		return -1;
	if (packed_refs_read(&pr, commondir, hexlen, REFTX_PACKED_MAX) < 0)
		goto out;
	if ((p = packed_refs_find(&pr, ref)))
		memcpy(v->packed, p->oid, hexlen + 1);
	strbuf_addf(&path, "%s/%s", commondir, ref);
	if (read_file_bounded(path.buf, 128, RF_REGULAR, &data) < 0) {
		if (errno != ENOENT)
			goto out;
		memcpy(v->now, v->packed, sizeof(v->now));
	} else if (data.len == hexlen + 1 && data.buf[hexlen] == '\n' &&
		   is_hex(data.buf, hexlen)) {
		memcpy(v->now, data.buf, hexlen);
		v->now[hexlen] = '\0';
	} else {
		goto out; /* a symref or a file git would not write */
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/packed-refs.lock", commondir);
	v->packed_locked = lstat(path.buf, &st) == 0 || errno != ENOENT;
	ret = 0;
out:
	strbuf_release(&path);
	strbuf_release(&data);
	packed_refs_release(&pr);
	return ret;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test-tool: exposes internals to the shell tests (git's t/helper).
 *   test-tool key HOME            create the integrity key if missing
 *   test-tool sign HOME FILE      write FILE.sig (bare hex) with HOME's key
 *   test-tool hmac HOME FILE      print the hex MAC of FILE
 */
#include "base/common.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/strbuf.h"

static int sign_file(const char *home, const char *file, bool write_sig)
{
	struct strbuf data = STRBUF_INIT, path = STRBUF_INIT;
	char hex[AG_MAC_HEX_LEN + 1];

	if (read_file_bounded(file, 1 << 20, 0, &data) < 0 ||
	    ag_sign_with_home(home, data.buf, data.len, hex) < 0) {
		fprintf(stderr, "test-tool: %s: %s\n", file, strerror(errno));
		return 1;
	}
	if (!write_sig) {
		puts(hex);
		return 0;
	}
	strbuf_addf(&path, "%s.sig", file);
	if (write_file_atomic(path.buf, hex, AG_MAC_HEX_LEN, 0600) < 0) {
		fprintf(stderr, "test-tool: %s: %s\n", path.buf, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "key"))
		return ag_key_ensure(argv[2]) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "sign"))
		return sign_file(argv[2], argv[3], true);
	if (argc == 4 && !strcmp(argv[1], "hmac"))
		return sign_file(argv[2], argv[3], false);
	fprintf(stderr, "usage: test-tool key HOME | sign HOME FILE | hmac HOME FILE\n");
	return 2;
}

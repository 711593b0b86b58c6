/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test-tool: exposes internals to the shell tests (git's t/helper).
 *   test-tool key HOME            create the integrity key if missing
 *   test-tool sign HOME FILE      write FILE.sig (bare hex) with HOME's key
 *   test-tool hmac HOME FILE      print the hex MAC of FILE
 *   test-tool snapshot DIR SLUG [CLEAN-ARGS...]
 *                                 snapshot_guard() as the shim calls it
 *                                 (agent, home, real git from the env;
 *                                 -x/-X in CLEAN-ARGS quarantine ignored)
 *   test-tool hooks-install DIR EXE  write the session hook stubs
 *   test-tool event-stress HOME N AGENT
 *                                 append N events to HOME's event log
 *   test-tool write-tree INDEX OBJDIR
 *                                 the SHA-1 tree of INDEX as the snapshot
 *                                 builds it, new trees packed into OBJDIR;
 *                                 exit 3 when it leaves that to git
 *   test-tool gitcmd-scrubs VAR   exit 0 when agentic-git's git runner
 *                                 removes VAR from every git it starts
 */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agentic-git/core.h"
#include "base/fileio.h"
#include "base/envvar.h"
#include "base/eventlog.h"
#include "base/strbuf.h"
#include "git/clean-args.h"
#include "git/gitcmd.h"
#include "git/hooks.h"
#include "git/packw.h"
#include "git/refs-files.h"
#include "git/snapshot-index.h"
#include "git/snapshot.h"

static int sign_file(const char *home, const char *file, bool write_sig)
{
	struct strbuf data = STRBUF_INIT, path = STRBUF_INIT;
	char hex[AG_MAC_HEX_LEN + 1];
	int ret = 1;

	if (read_file_bounded(file, 1 << 20, 0, &data) < 0 ||
	    ag_sign_with_home(home, data.buf, data.len, hex) < 0) {
		fprintf(stderr, "test-tool: %s: %s\n", file, strerror(errno));
		goto out;
	}
	if (!write_sig) {
		puts(hex);
		ret = 0;
		goto out;
	}
	strbuf_addf(&path, "%s.sig", file);
	if (write_file_atomic(path.buf, hex, AG_MAC_HEX_LEN, 0600) < 0) {
		fprintf(stderr, "test-tool: %s: %s\n", path.buf, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	strbuf_release(&data);
	strbuf_release(&path);
	return ret;
}

static int snapshot(int argc, char **argv)
{
	struct snapshot_opts o = {
		.real_git = ag_getenv_str(AGE_REAL_GIT),
		.dir = argv[2],
		.agent = ag_getenv_str(AGE_AGENT),
		.home = ag_getenv_str(AGE_HOME),
		.slug = argv[3],
	};
	struct strvec dry = STRVEC_INIT;
	unsigned flags = 0;

	if (!strcmp(argv[3], "clean")) {
		o.clean_args = (const char *const *)argv + 4;
		if (clean_dry_run_args(o.clean_args, &dry, &flags) < 0)
			return 2;
		o.quarantine_ignored =
			flags & (CLEAN_IGNORED | CLEAN_ONLY_IGNORED);
	}
	strvec_clear(&dry);
	snapshot_guard(&o);
	return 0;
}

static int event_stress(const char *home, const char *n, const char *agent)
{
	unsigned long count;

	if (parse_ulong(n, 1000000, &count) < 0)
		return 2;
	for (unsigned long i = 0; i < count; i++) {
		struct event ev = EVENT_INIT("ref_update", agent, "stress");
		event_add_int(&ev, "seq", (long long)i);
		event_add_str(&ev, "pad", "0123456789abcdef0123456789abcdef"
					  "0123456789abcdef0123456789abcdef");
		if (event_write(home, &ev) < 0) {
			event_release(&ev);
			return 1;
		}
		event_release(&ev);
	}
	return 0;
}

/*
 * refs-list GITDIR HEXLEN | refs-lookup GITDIR HEXLEN REF...: what
 * git/refs-files.h reads, printed; exit 3 when it says "ask git".
 */
static int refs_files(int argc, char **argv)
{
	struct strbuf out = STRBUF_INIT;
	size_t hexlen = strcmp(argv[3], "64") ? 40 : 64;
	int rc = !strcmp(argv[1], "refs-list")
			 ? refs_files_list(argv[2], hexlen, &out)
			 : refs_files_lookup(argv[2], hexlen,
					     (const char *const *)argv + 4,
					     (size_t)argc - 4, &out);

	fputs(out.buf, stdout);
	strbuf_release(&out);
	return rc ? 3 : 0;
}

/* mapped, as the snapshot maps it (an empty file: an empty buffer) */
static int write_tree(const char *index, const char *objdir)
{
	struct strbuf hex = STRBUF_INIT, err = STRBUF_INIT;
	struct packw pw = PACKW_INIT;
	cleanup_fd int fd = open(index, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map = NULL;
	int rc = 1;

	if (fd < 0 || fstat(fd, &st) < 0 ||
	    (st.st_size && (map = mmap(NULL, (size_t)st.st_size, PROT_READ,
				       MAP_PRIVATE, fd, 0)) == MAP_FAILED)) {
		fprintf(stderr, "test-tool: %s: %s\n", index, strerror(errno));
		return 1;
	}
	rc = 3;
	if (snapshot_index_build(map ? map : "", (size_t)st.st_size, 20, &pw,
				 &hex) != SNAPSHOT_INDEX_TREE_VALID)
		goto out;
	rc = 1;
	if (packw_finish(&pw, objdir, &err) < 0) {
		fprintf(stderr, "test-tool: %s\n", err.buf);
		goto out;
	}
	printf("%s %zu\n", hex.buf, packw_count(&pw));
	rc = 0;
out:
	if (map)
		munmap(map, (size_t)st.st_size);
	packw_release(&pw);
	strbuf_release(&hex);
	strbuf_release(&err);
	return rc;
}

static int gitcmd_scrubs(const char *var)
{
	for (const char *const *v = gitcmd_repo_vars(); *v; v++)
		if (!strcmp(*v, var))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "gitcmd-scrubs"))
		return gitcmd_scrubs(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "write-tree"))
		return write_tree(argv[2], argv[3]);
	if ((argc == 4 && !strcmp(argv[1], "refs-list")) ||
	    (argc >= 5 && !strcmp(argv[1], "refs-lookup")))
		return refs_files(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "snapshot"))
		return snapshot(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "hooks-install"))
		return hooks_install(argv[2], argv[3]) ? 1 : 0;
	if (argc == 5 && !strcmp(argv[1], "event-stress"))
		return event_stress(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "key"))
		return ag_key_ensure(argv[2]) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "sign"))
		return sign_file(argv[2], argv[3], true);
	if (argc == 4 && !strcmp(argv[1], "hmac"))
		return sign_file(argv[2], argv[3], false);
	fprintf(stderr, "usage: test-tool key HOME | sign HOME FILE | hmac HOME FILE"
			" | snapshot DIR SLUG [ARGS] | event-stress HOME N AGENT"
			" | refs-list GITDIR HEXLEN | refs-lookup GITDIR HEXLEN REF..."
			" | write-tree INDEX OBJDIR\n");
	return 2;
}

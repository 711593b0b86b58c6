/* SPDX-License-Identifier: Apache-2.0 */
/* bwrap's test-run answer across processes (see sandbox-probe-cache.h). */
#include "base/common.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "agents/sandbox-probe-cache.h"
#include "base/envvar.h"
#include "base/fileio.h"
#include "base/xalloc.h"

#define CACHE_MAGIC "agentic-git sandbox probe v1\n"
#define CACHE_MAX 4096

/* What gates user namespaces and the namespaces bwrap --unshare-all makes. */
static const char *const gates[] = {
	"/proc/sys/kernel/random/boot_id",
	"/proc/sys/kernel/unprivileged_userns_clone",
	"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
	"/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined",
	"/proc/sys/user/max_user_namespaces",
	"/proc/sys/user/max_mnt_namespaces",
	"/proc/sys/user/max_pid_namespaces",
	"/proc/sys/user/max_net_namespaces",
	"/proc/sys/user/max_ipc_namespaces",
	"/proc/sys/user/max_uts_namespaces",
	"/proc/sys/user/max_cgroup_namespaces",
	"/sys/kernel/security/apparmor/revision",
	"/sys/kernel/security/lsm",
};

/* One line per value: newlines inside become spaces, "-" when absent. */
static void add_value(struct strbuf *key, const char *name, const char *v,
		      size_t len)
{
	strbuf_addf(key, "%s=", name);
	for (size_t i = 0; i < len; i++)
		strbuf_addch(key, v[i] == '\n' ? ' ' : v[i]);
	strbuf_addch(key, '\n');
}

static void add_file(struct strbuf *key, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (read_small_file(path, 256, &sb) < 0) {
		strbuf_reset(&sb);
		strbuf_addch(&sb, '-');
	}
	strbuf_trim(&sb);
	add_value(key, path, sb.buf, sb.len);
	strbuf_release(&sb);
}

static void add_link(struct strbuf *key, const char *path)
{
	char buf[128];
	ssize_t n = readlink(path, buf, sizeof(buf));

	if (n <= 0 || (size_t)n >= sizeof(buf))
		add_value(key, path, "-", 1);
	else
		add_value(key, path, buf, (size_t)n);
}

int probe_cache_key(const char *bwrap_path, struct strbuf *key)
{
	struct stat st;
	struct utsname u;

	if (stat(bwrap_path, &st) < 0 || uname(&u) < 0)
		return -1;
	strbuf_addf(key, "bwrap=%s %ju %ju %jd %o %ju %jd.%09ld %jd.%09ld\n",
		    bwrap_path, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
		    (intmax_t)st.st_size, (unsigned)st.st_mode,
		    (uintmax_t)st.st_uid, (intmax_t)st.st_mtim.tv_sec,
		    st.st_mtim.tv_nsec, (intmax_t)st.st_ctim.tv_sec,
		    st.st_ctim.tv_nsec);
	add_value(key, "kernel", u.release, strlen(u.release));
	add_value(key, "version", u.version, strlen(u.version));
	add_value(key, "machine", u.machine, strlen(u.machine));
	strbuf_addf(key, "ids=%ju %ju %ju %ju\n", (uintmax_t)getuid(),
		    (uintmax_t)geteuid(), (uintmax_t)getgid(),
		    (uintmax_t)getegid());
	strbuf_addf(key, "seccomp=%d nnp=%d\n",
		    prctl(PR_GET_SECCOMP, 0, 0, 0, 0),
		    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0));
	add_link(key, "/proc/self/ns/user");
	add_link(key, "/proc/self/ns/mnt");
	for (size_t i = 0; i < ARRAY_SIZE(gates); i++)
		add_file(key, gates[i]);
	return 0;
}

static char *cache_path(void)
{
	char *home = ag_home_dir();
	char *p = home ? xstrfmt("%s/runtime/sandbox-probe", home) : NULL;

	free(home);
	return p;
}

bool probe_cache_says_works(const char *key)
{
	char *path = cache_path();
	cleanup_fd int fd = -1;
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	struct stat st;
	bool ok = false;

	if (path)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY |
					O_NONBLOCK);
	free(path);
	/* a regular file of ours that only we may write */
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) ||
	    read_fd_bounded(fd, CACHE_MAX, &sb) < 0)
		goto out;
	strbuf_addf(&want, CACHE_MAGIC "bwrap works\n%s", key);
	ok = sb.len == want.len && !memcmp(sb.buf, want.buf, sb.len);
out:
	strbuf_release(&sb);
	strbuf_release(&want);
	return ok;
}

void probe_cache_record(const char *key, bool works)
{
	char *path = cache_path();
	char *dir = path ? xstrndup(path, strrchr(path, '/') - path) : NULL;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, CACHE_MAGIC "bwrap %s\n%s", works ? "works" : "fails",
		    key);
	if (dir && mkdir_p(dir, 0700) == 0 && sb.len <= CACHE_MAX)
		(void)write_file_atomic(path, sb.buf, sb.len, 0600);
	strbuf_release(&sb);
	free(dir);
	free(path);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The host capability probe (see sandbox-probe.h). */
#include "base/common.h"
#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "agents/sandbox-landlock.h"
#include "agents/sandbox-probe.h"
#include "agents/sandbox-probe-cache.h"
#include "base/spawn.h"

#define PROBE_TIMEOUT_MS 10000

static const char *const sys_dirs[] = SANDBOX_SYS_DIRS;
static const char *const bwrap_paths[] = { "/usr/bin/bwrap",
					   "/usr/local/bin/bwrap",
					   "/bin/bwrap" };

static bool disabled(const char *what)
{
	const char *v = getenv("AGENTIC_GIT_SANDBOX_UNAVAILABLE");
	size_t n = strlen(what);

	for (const char *p = v; p && *p;) {
		const char *end = strchrnul(p, ',');
		if ((size_t)(end - p) == n && !strncmp(p, what, n))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static void set_why(char *buf, size_t len, const char *msg)
{
	snprintf(buf, len, "%s", msg);
}

/* Waits for c with a timeout (pidfd), killing it when it expires. */
static int finish_with_timeout(struct child *c, bool *timed_out)
{
	int pfd = (int)syscall(SYS_pidfd_open, c->pid, 0);

	*timed_out = false;
	if (pfd >= 0) {
		struct pollfd p = { pfd, POLLIN, 0 };
		int n;
		do
			n = poll(&p, 1, PROBE_TIMEOUT_MS);
		while (n < 0 && errno == EINTR);
		if (n == 0) {
			kill(c->pid, SIGKILL);
			*timed_out = true;
		}
		close(pfd);
	}
	return child_finish(c);
}

/* The pinned bwrap; false (with the reason) when it may not be used. */
static bool locate_bwrap(struct sandbox_caps *caps)
{
	for (size_t i = 0; i < ARRAY_SIZE(bwrap_paths); i++) {
		if (!access(bwrap_paths[i], X_OK)) {
			set_why(caps->bwrap_path, sizeof(caps->bwrap_path),
				bwrap_paths[i]);
			break;
		}
	}
	if (disabled("bwrap")) {
		caps->bwrap_path[0] = '\0';
		set_why(caps->bwrap_why, sizeof(caps->bwrap_why),
			"disabled by AGENTIC_GIT_SANDBOX_UNAVAILABLE");
		return false;
	}
	if (!caps->bwrap_path[0]) {
		set_why(caps->bwrap_why, sizeof(caps->bwrap_why),
			"bwrap is not installed in /usr/bin, /usr/local/bin or /bin");
		return false;
	}
	/* a host without user namespaces: bwrap (not setuid) cannot start */
	if (disabled("userns")) {
		set_why(caps->bwrap_why, sizeof(caps->bwrap_why),
			"user namespaces are unavailable (disabled by AGENTIC_GIT_SANDBOX_UNAVAILABLE)");
		return false;
	}
	return true;
}

/* `bwrap --unshare-all … -- true`: sets bwrap_works or bwrap_why. */
static void test_bwrap(struct sandbox_caps *caps)
{
	struct child c = CHILD_INIT;
	const char *truebin =
		access("/bin/true", X_OK) ? "/usr/bin/true" : "/bin/true";
	bool timed_out;

	strvec_pushl(&c.args, caps->bwrap_path, "--unshare-all",
		     "--die-with-parent", "--new-session", "--ro-bind", "/", "/",
		     "--", truebin, NULL);
	strvec_push(&c.env, "PATH=/usr/bin:/bin");
	c.capture_err = true;
	c.capture_out = true;
	if (child_start(&c) < 0) {
		snprintf(caps->bwrap_why, sizeof(caps->bwrap_why),
			 "cannot run %.60s: %.80s", caps->bwrap_path,
			 strerror(errno));
	} else if (finish_with_timeout(&c, &timed_out) < 0 || timed_out) {
		set_why(caps->bwrap_why, sizeof(caps->bwrap_why),
			timed_out ? "bwrap test run timed out"
				  : "bwrap test run failed");
	} else if (c.status) {
		strbuf_trim(&c.err);
		snprintf(caps->bwrap_why, sizeof(caps->bwrap_why),
			 "bwrap test run exited %d: %.100s", c.status,
			 c.err.len ? c.err.buf : "(no message)");
	} else {
		caps->bwrap_works = true;
	}
	child_release(&c);
}

/*
 * With `cached`, a "works" remembered under this host's key stands in for
 * the test run (sandbox-probe-cache.h); every other answer is a real run,
 * recorded for the next process.
 */
static void probe_bwrap(struct sandbox_caps *caps, bool cached)
{
	struct strbuf key = STRBUF_INIT;
	bool keyed;

	caps->bwrap_works = false;
	caps->bwrap_why[0] = '\0';
	if (!locate_bwrap(caps))
		return;
	keyed = probe_cache_key(caps->bwrap_path, &key) == 0;
	if (cached && keyed && probe_cache_says_works(key.buf)) {
		caps->bwrap_works = true;
	} else {
		test_bwrap(caps);
		if (keyed)
			probe_cache_record(key.buf, caps->bwrap_works);
	}
	strbuf_release(&key);
}

static bool probe_userns(void)
{
	pid_t pid;
	int st;

	if (disabled("userns"))
		return false;
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid)
		_exit(unshare(CLONE_NEWUSER) ? 1 : 0);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && !WEXITSTATUS(st);
}

static void probe_landlock(struct sandbox_caps *caps)
{
	if (disabled("landlock")) {
		set_why(caps->landlock_why, sizeof(caps->landlock_why),
			"disabled by AGENTIC_GIT_SANDBOX_UNAVAILABLE");
		return;
	}
	caps->landlock_abi = landlock_abi_version();
	if (caps->landlock_abi)
		return;
	set_why(caps->landlock_why, sizeof(caps->landlock_why),
		errno == EOPNOTSUPP ? "disabled at boot (add landlock to lsm=)"
		: errno == ENOSYS   ? "not built into this kernel"
				    : strerror(errno));
}

static bool probe_seccomp(void)
{
	uint32_t action = SECCOMP_RET_ERRNO;

	if (disabled("seccomp") || prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)
		return false;
	return !syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
}

static void probe_sys_dirs(struct sandbox_caps *caps)
{
	for (size_t i = 0; i < SANDBOX_SYS_DIRS_NR; i++) {
		struct stat st;
		ssize_t n;

		caps->sys_kind[i] = SYSDIR_ABSENT;
		if (lstat(sys_dirs[i], &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			caps->sys_kind[i] = SYSDIR_DIR;
			continue;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		n = readlink(sys_dirs[i], caps->sys_link[i],
			     sizeof(caps->sys_link[i]) - 1);
		if (n > 0 && stat(sys_dirs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			caps->sys_link[i][n] = '\0';
			caps->sys_kind[i] = SYSDIR_SYMLINK;
		}
	}
}

void sandbox_probe_fill(struct sandbox_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	probe_sys_dirs(caps);
	probe_bwrap(caps, false);
	caps->userns = probe_userns();
	probe_landlock(caps);
	caps->seccomp = probe_seccomp();
}

/*
 * Per-process cache: the host does not change under us. The parts are
 * probed on demand: the cheap syscalls always, bwrap only when it may be
 * used (its test run, a whole sandbox start, replaced by the cross-process
 * cache when that says it works), the user-namespace fork only for the
 * full report, which always runs bwrap's test for real.
 */
static struct sandbox_caps cached;
static bool done_basic, done_bwrap, done_truth, done_userns;

const struct sandbox_caps *sandbox_probe_for(enum sandbox_backend pref)
{
	if (!done_basic) {
		probe_sys_dirs(&cached);
		probe_landlock(&cached);
		cached.seccomp = probe_seccomp();
		done_basic = true;
	}
	if (pref != SANDBOX_BACKEND_LANDLOCK && !done_bwrap) {
		probe_bwrap(&cached, true);
		done_bwrap = true;
	}
	return &cached;
}

const struct sandbox_caps *sandbox_probe(void)
{
	sandbox_probe_for(SANDBOX_BACKEND_LANDLOCK);
	if (!done_truth) {
		probe_bwrap(&cached, false);
		done_bwrap = done_truth = true;
	}
	if (!done_userns) {
		cached.userns = probe_userns();
		done_userns = true;
	}
	return &cached;
}

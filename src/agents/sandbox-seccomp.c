/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The run-time parts of the Landlock backend that are not Landlock: the
 * seccomp filter (libseccomp) and dropping capabilities. See the invariants
 * in sandbox-landlock.h.
 */
#include "base/common.h"
#include <errno.h>
#include <linux/capability.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "agents/sandbox-landlock.h"

static int deny_ioctl(scmp_filter_ctx ctx, unsigned long req)
{
	/* The request is an unsigned int: compare the low 32 bits only, so
	 * garbage in the upper half cannot slip past (bubblewrap, flatpak). */
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, req));
}

static int deny_net(scmp_filter_ctx ctx)
{
	int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES),
				  SCMP_SYS(socket), 1,
				  SCMP_A0(SCMP_CMP_NE, AF_UNIX));
	/* io_uring can open sockets without socket(2) (IORING_OP_SOCKET). */
	if (!rc)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM),
				      SCMP_SYS(io_uring_setup), 0);
	return rc;
}

int sandbox_seccomp_apply(bool no_net)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc;

	if (!ctx) {
		errno = ENOMEM;
		return -1;
	}
	rc = deny_ioctl(ctx, TIOCSTI);
	if (!rc)
		rc = deny_ioctl(ctx, TIOCLINUX);
	if (!rc && no_net)
		rc = deny_net(ctx);
	if (!rc)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc) {
		errno = -rc;
		return -1;
	}
	return 0;
}

static bool have_no_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &hdr, d) < 0)
		return false;
	return !d[0].permitted && !d[1].permitted && !d[0].effective &&
	       !d[1].effective && getuid() && geteuid();
}

int sandbox_drop_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	for (int cap = 0; cap < 64; cap++) {
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0)
			break; /* past the kernel's last capability */
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			/* Without CAP_SETPCAP: fine only when we hold
			 * nothing and are not root (no_new_privs stops the
			 * rest). */
			if (errno == EPERM && have_no_caps())
				break;
			return -1;
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	return (int)syscall(SYS_capset, &hdr, d);
}

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef AG_FDPASS_H
#define AG_FDPASS_H

/**
 * One file descriptor across a unix stream socket (SCM_RIGHTS), with one
 * tag byte (the fs+api relay hands its listener to the proxy; see
 * agents/netlistener.h).
 *
 *   fdpass_send(sock, 'L', fd);            // fd stays the caller's
 *   if (fdpass_recv(sock, &tag, &fd) < 0)  // fd is the caller's to close
 *
 * fdpass_recv() accepts exactly one descriptor: a message without one, or
 * with more than one (every one received is closed), or cut short, is -1
 * with errno EBADMSG, a peer that closed first ENODATA; the descriptor
 * received is close-on-exec. Both return 0, or -1 and set errno.
 */
#include "base/common.h"

int fdpass_send(int sock, char tag, int fd);
/* The same with `nr` descriptors (0 to 8): what a bad relay sends, for
 * the tests. */
int fdpass_send_many(int sock, char tag, const int *fds, size_t nr);
int fdpass_recv(int sock, char *tag, int *fd);

#endif

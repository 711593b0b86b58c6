/* SPDX-License-Identifier: Apache-2.0 */
/* agentic-git-proxy: the fs+api proxy program (proxy/proxy.c). */
#include "base/common.h"
#include <signal.h>
#include <unistd.h>

int proxy_main(int argc, const char **argv);

int main(int argc, const char **argv)
{
	/* nothing inherited leaks into bwrap but the launcher's secrets,
	 * which it passes as descriptor 3 and the proxy closes once read */
	closefrom(4);
	signal(SIGPIPE, SIG_IGN);
	return proxy_main(argc, argv);
}

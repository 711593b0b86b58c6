#!/bin/bash
# Scripted agent that never finishes and ignores SIGTERM; with
# HANG_DAEMON=1 it instead leaves a daemon (setsid, SIGTERM ignored) and
# exits at once; with HANG_DAEMON=hang it leaves the daemon and then hangs.
# Every process carries $MARK in its command line.
set -u
daemon() {
	setsid bash -c "trap '' TERM; exec -a daemon-$MARK sleep 300" </dev/null >/dev/null 2>&1 &
	for _ in $(seq 50); do
		pgrep -f "daemon-$MARK" >/dev/null && { echo "daemon started"; break; }
		sleep 0.1
	done
}
if [ "${HANG_DAEMON:-}" = 1 ]; then
	daemon
	echo "RESOLVED: left a daemon behind"
	exit 0
fi
[ "${HANG_DAEMON:-}" = hang ] && daemon
trap '' TERM
bash -c "trap '' TERM; exec -a child-$MARK sleep 300" &
exec -a "agent-$MARK" sleep 300

#!/bin/bash
# Scripted agent for fs+api: fetches from the listed server and from an
# unlisted one (through the proxy its environment names), then resolves
# like resolve.sh.
set -u
echo "A:$(curl -sS "http://127.0.0.1:$PORT_A/dispatch")"
echo "B:$(curl -sS "http://127.0.0.1:$PORT_B/dispatch")"
exec "$(dirname "$0")/resolve.sh"

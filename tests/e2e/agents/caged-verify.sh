#!/bin/bash
# verify_command that passes only when it cannot read the file given as
# $1 (the operator's private key): proof that it runs in the sandbox.
if cat "$1" >/dev/null 2>&1; then
	echo "verify: could read $1" >&2
	exit 1
fi
exit 0

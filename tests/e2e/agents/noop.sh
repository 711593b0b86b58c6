#!/bin/sh
# The no-op agent: reads its prompt and says it is done.
cat >/dev/null
echo "ESCALATED: nothing to do"

#!/bin/bash
# Scripted agent: resolves like resolve.sh, then plants config in its
# workspace for whoever runs git there next (fsmonitor, hooks, ssh, pager,
# external diff, a filter and a textconv on every file, an upload-pack
# hook). Each planted command touches $PLANT_MARKS/<phase>-<what>; the
# agent's own check runs with PLANT_PHASE=agent (the control), anything
# later leaves "after-…".
set -u
"${0%/*}/resolve.sh" >/dev/null || exit 1
git=${REAL_GIT:-git}
gd=$("$git" rev-parse --absolute-git-dir)
evil=$gd/evil.sh
printf '#!/bin/sh\ntouch "%s/${PLANT_PHASE:-after}-$1"\ncat\n' "$PLANT_MARKS" >"$evil"
chmod +x "$evil"
mkdir -p "$gd/evil-hooks"
for h in reference-transaction pre-push post-checkout post-index-change; do
	printf '#!/bin/sh\ntouch "%s/${PLANT_PHASE:-after}-hook-%s"\n' "$PLANT_MARKS" "$h" >"$gd/evil-hooks/$h"
	chmod +x "$gd/evil-hooks/$h"
done
for kv in "core.fsmonitor=$evil fsmonitor" "core.hooksPath=$gd/evil-hooks" \
	"core.sshCommand=$evil ssh" "core.pager=$evil pager" \
	"diff.external=$evil diff-external" "filter.evil.clean=$evil filter-clean" \
	"filter.evil.smudge=$evil filter-smudge" "diff.evil.textconv=$evil textconv" \
	"uploadpack.packObjectsHook=$evil upload-pack"; do
	"$git" config "${kv%%=*}" "${kv#*=}"
done
echo '* filter=evil diff=evil' >"$gd/info/attributes"
# the control: the plant is live for plain git here
PLANT_PHASE=agent "$git" status >/dev/null 2>&1
echo "RESOLVED: kept both changelog entries (and left a surprise)"

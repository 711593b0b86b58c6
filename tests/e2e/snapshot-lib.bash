# SPDX-License-Identifier: Apache-2.0
# Helpers for the snapshot end-to-end tests (t03xx).

# tree_state DIR: every path under DIR (but .git) with its type, exec bit and
# content hash, sorted: two equal listings mean byte-for-byte equal trees.
tree_state() {
	(
		cd "$1" || exit 1
		find . -path ./.git -prune -o -print0 | LC_ALL=C sort -z |
			while IFS= read -r -d '' p; do
				if [ -L "$p" ]; then
					printf 'L %s -> %s\n' "$p" "$(readlink "$p")"
				elif [ -d "$p" ]; then
					printf 'D %s\n' "$p"
				else
					x=-; [ -x "$p" ] && x=x
					printf 'F %s %s %s\n' "$p" "$x" "$(sha256sum <"$p" | cut -c1-64)"
				fi
			done
	)
}

# make_work: in the current work tree, commit a base (a force-added ignored
# file, a binary) and then leave every kind of unsaved work lying around.
make_work() {
	printf '*.log\n.env\nbuild/\n' >.gitignore
	echo "tracked log" >kept.log
	head -c 4096 /dev/urandom >blob.bin
	"$REAL_GIT" add .gitignore blob.bin
	"$REAL_GIT" add -f kept.log
	"$REAL_GIT" commit -q -m "base for work"
	echo "unstaged change" >>README.md
	echo "/* staged change */" >>src/main.c
	"$REAL_GIT" add src/main.c
	echo "more log" >>kept.log
	echo "new forced" >forced.log
	"$REAL_GIT" add -f forced.log
	echo "untracked notes" >notes.txt
	mkdir -p "dir with space"
	printf 'h\xc3\xa9llo\n' >"dir with space/na\xc3\xafve \xc3\xbcn\xc3\xafcode.txt"
	echo "magic" >':(glob)*magic'
	head -c 2048 /dev/urandom >new.bin
	head -c 100 /dev/urandom >>blob.bin
	echo '#!/bin/sh' >run.sh
	chmod +x run.sh
	mkdir -p empty/nested
	echo "SECRET=1" >.env
	mkdir -p build
	echo "object" >build/out.o
}

# newest_ref [OP]: the caller's newest snapshot ref (optionally of op OP).
newest_ref() {
	"$AG_BIN" snapshots list --json |
		jq -r --arg op "${1-}" '[.[] | select($op == "" or .op == $op)][0].ref // empty'
}

# without PATH…: filter a tree_state listing on stdin, dropping those files.
without() {
	local args=() p
	for p in "$@"; do args+=(-e " ./$p "); done
	if [ ${#args[@]} -gt 0 ]; then grep -v -F "${args[@]}"; else cat; fi
}

# no_links DIR / allow_links DIR: make DIR take no new names (immutable as
# root, read-only otherwise), so the snapshot cannot link the index next to
# it; and undo that.
no_links() {
	if [ "$(id -u)" = 0 ]; then chattr +i "$1"; else chmod a-w "$1"; fi
}
allow_links() {
	chattr -i "$1" 2>/dev/null || true
	chmod u+w "$1"
}

# snapshot_agent BRANCH: a fleet with agent ag1 bound on BRANCH, snapshots
# on, in its worktree (the t03xx tests' setup)
snapshot_agent() {
	ag_setup
	ag_bind ag1 "$1"
	export AGENTIC_GIT_SNAPSHOTS=1
	cd "$WT" || return 1
}

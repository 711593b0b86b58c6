#!/usr/bin/env bats
# Issue 37 point 1: the incremental capture (git/snapshot-ucache.h). An
# untracked file whose stat data has not changed since the last snapshot
# is not read again; one that changed, even within the same second and at
# the same size, is; a deleted one leaves the snapshot; a cache that is
# not ours, not whole, or whose objects are gone is not used.
load lib
load snapshot-lib

setup() {
	snapshot_agent feat/one
	GD=$("$REAL_GIT" rev-parse --absolute-git-dir)
	CACHE=$GD/agentic-git-snapshot-cache
}

# op: one destructive op through the shim (its pre-op snapshot)
op() {
	agit reset -q --hard
}

# blob_of PATH: the blob the newest snapshot holds for PATH (empty: none)
blob_of() {
	"$REAL_GIT" rev-parse -q --verify "$(newest_ref)^{tree}:$1" 2>/dev/null || true
}

@test "t0332: an unchanged untracked file is not read again, and is in the snapshot" {
	prereq strace strace -f -o /dev/null true
	head -c 1048576 /dev/urandom >big.bin
	op
	[ -f "$CACHE" ]
	# the second snapshot reads it again only if it was written in the
	# same second as the first looked (git's racy rule): not the case
	# here, nor from then on
	sleep 1
	op
	strace -f -e trace=open,openat -o "$T/trace" \
		env PATH="$AGENTIC_GIT_HOME/bin:$PATH" git reset -q --hard
	# the capture ran (add -A opened the index) but never big.bin
	grep -q 'agentic-git-snapshot-index' "$T/trace"
	run grep -c 'big\.bin' "$T/trace"
	[ "$output" = 0 ]
	[ "$(blob_of big.bin)" = "$("$REAL_GIT" hash-object big.bin)" ]
	"$REAL_GIT" cat-file -e "$(blob_of big.bin)"
}

@test "t0332: an untracked file modified between two ops, same size: captured again and restored" {
	printf 'aaaa\n' >u.txt
	touch -d '2 hours ago' u.txt
	op
	[ "$(blob_of u.txt)" = "$(printf 'aaaa\n' | "$REAL_GIT" hash-object --stdin)" ]
	printf 'bbbb\n' 1<>u.txt
	op
	[ "$(blob_of u.txt)" = "$(printf 'bbbb\n' | "$REAL_GIT" hash-object --stdin)" ]
	ref=$(newest_ref)
	rm u.txt
	run "$AG_BIN" snapshots restore "$ref"
	[ "$status" -eq 0 ]
	[ "$(cat u.txt)" = bbbb ]
}

@test "t0332: same size and stat as staged, modified in the index's second: the merged index keeps git's racy rule" {
	# the cache in use: an unchanged untracked file worth more than the
	# real index
	head -c 65536 /dev/urandom >keep.bin
	touch -d '2 hours ago' keep.bin
	op
	[ -f "$CACHE" ]
	# t.txt staged with its stat data, then new bytes of the same size
	# with that very stat data, in the second the index was written: git
	# must hash it again (racy), and does only if the merged index is as
	# old as the real one (not "now", not the cache's later time)
	"$REAL_GIT" config core.trustctime false
	x=$(date -d '1 minute ago' +@%s)
	printf 'aaaa\n' >t.txt
	touch -d "$x" t.txt
	"$REAL_GIT" add t.txt
	touch -d "$x" "$GD/index"
	printf 'bbbb\n' 1<>t.txt
	touch -d "$x" t.txt
	op
	[ "$(blob_of t.txt)" = "$(printf 'bbbb\n' | "$REAL_GIT" hash-object --stdin)" ]
	[ "$(blob_of keep.bin)" = "$("$REAL_GIT" hash-object keep.bin)" ]
}

@test "t0332: a deleted untracked file is not in the next snapshot; a new one is" {
	echo a >a.txt
	echo b >b.txt
	op
	[ -n "$(blob_of a.txt)" ]
	rm a.txt
	echo c >c.txt
	op
	[ -z "$(blob_of a.txt)" ]
	[ -n "$(blob_of b.txt)" ]
	[ -n "$(blob_of c.txt)" ]
}

@test "t0332: a cache whose objects were pruned is not used" {
	head -c 65536 /dev/urandom >u.bin
	touch -d '2 hours ago' u.bin
	op
	[ -f "$CACHE" ]
	# every snapshot gone, its objects pruned: the cache names a blob the
	# repository no longer has
	"$REAL_GIT" for-each-ref --format='%(refname)' refs/agentic-git/ |
		while read -r r; do "$REAL_GIT" update-ref -d "$r"; done
	"$REAL_GIT" reflog expire --expire=now --all
	"$REAL_GIT" gc -q --prune=now
	! "$REAL_GIT" cat-file -e "$("$REAL_GIT" hash-object u.bin)"
	op
	"$REAL_GIT" cat-file -e "$(blob_of u.bin)"
	[ "$(blob_of u.bin)" = "$("$REAL_GIT" hash-object u.bin)" ]
}

# stale_cache: a cache that says u.txt is "aaaa" while it holds "bbbb"
# with the stat data the cache recorded (as fooling git's own index with
# core.trustctime off would); in $T/old-cache
stale_cache() {
	"$REAL_GIT" config core.trustctime false
	printf 'aaaa\n' >u.txt
	touch -d '2 hours ago' u.txt
	op
	cp -p "$CACHE" "$T/old-cache"
	printf 'bbbb\n' 1<>u.txt
	touch -d '2 hours ago' u.txt
}

aaaa() { printf 'aaaa\n' | "$REAL_GIT" hash-object --stdin; }
bbbb() { printf 'bbbb\n' | "$REAL_GIT" hash-object --stdin; }

@test "t0332: the control: a cache left as it was is trusted on stat data, as git's index is" {
	stale_cache
	op
	[ "$(blob_of u.txt)" = "$(aaaa)" ]
}

@test "t0332: a cache that is a symlink, a second name, another's, or altered is not used" {
	stale_cache
	# a symlink to the very bytes
	rm "$CACHE"
	ln -s "$T/old-cache" "$CACHE"
	op
	[ "$(blob_of u.txt)" = "$(bbbb)" ]
	# a second name (a hard link) of the bytes
	rm -f "$CACHE"
	cp -p "$T/old-cache" "$T/linked"
	ln "$T/linked" "$CACHE" 2>/dev/null || skip "no hard link from the test dir to the git dir"
	op
	[ "$(blob_of u.txt)" = "$(bbbb)" ]
	# another user's file
	rm -f "$CACHE"
	cp -p "$T/old-cache" "$CACHE"
	chown 65534 "$CACHE" 2>/dev/null || skip "cannot chown"
	op
	[ "$(blob_of u.txt)" = "$(bbbb)" ]
	# one byte changed (the SHA-1 at its end no longer matches)
	rm -f "$CACHE"
	cp -p "$T/old-cache" "$CACHE"
	printf 'X' | dd of="$CACHE" bs=1 seek=100 conv=notrunc 2>/dev/null
	op
	[ "$(blob_of u.txt)" = "$(bbbb)" ]
}

@test "t0332: an untracked file that became ignored leaves the next snapshot" {
	echo one >later.log
	mkdir sub
	echo two >sub/gen.out
	touch -d '2 hours ago' later.log sub/gen.out
	op
	[ -n "$(blob_of later.log)" ]
	[ -n "$(blob_of sub/gen.out)" ]
	echo '*.log' >>.gitignore
	op
	[ -z "$(blob_of later.log)" ]
	[ -n "$(blob_of sub/gen.out)" ]
	# a .gitignore of its own directory, new since the cache
	echo '*.out' >sub/.gitignore
	op
	[ -z "$(blob_of sub/gen.out)" ]
	[ -n "$(blob_of sub/.gitignore)" ]
}

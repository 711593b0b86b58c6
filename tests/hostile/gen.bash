# SPDX-License-Identifier: Apache-2.0
# The hostile-workspace fuzzer's generator (docs/fuzzing.md, "The
# hostile-workspace fuzzer"), sourced by hostile.sh. gen_scene SEED prints
# the whole scene of that seed, the same on every machine: the PRNG is a
# 64-bit LCG in shell arithmetic, not $RANDOM or awk's rand.
#
# A scene is text, one directive a line:
#   backend bwrap|landlock      the sandbox the agent's cage uses
#   policy fs+no-net|fs-only
#   layout default|home|robind  where AGENTIC_GIT_HOME lies: $W/aghome,
#                               ~/.agentic-git, or below a ro_binds dir
#   payload none|trust-root|conflict   what the dispatch agent commits
#   plant KIND ARGS…            one thing left behind (plant.sh says what)
#   ops OP…                     (corpus only) these operator commands only
#                               (ops.bash), not every one
#   known ID KINDS OPS TEXT     (corpus only) a finding not fixed yet: the
#                               scene fails with violations of KINDS after
#                               OPS (comma-separated, OPS globs; a kind
#                               `kind~word` also needs word in the text)

HX_RNG=1

# rng_seed N
rng_seed() {
	HX_RNG=$(($1 * 2654435761 + 12345))
}

# rnd N: REPLY is the next number in [0, N)
rnd() {
	HX_RNG=$(((HX_RNG * 6364136223846793005 + 1442695040888963407) & 0x7fffffffffffffff))
	REPLY=$(((HX_RNG >> 17) % $1))
}

# pick WORD…: REPLY is one of the words
pick() {
	local -a w=("$@")
	rnd ${#w[@]}
	REPLY=${w[REPLY]}
}

# The catalogue. Keys a driver can be named by (plant.sh cfg_key).
HX_KEYS="fsmonitor hookspath filter filter-process textconv external pager sshcommand packobjectshook gpg editor askpass credential merge include includeif alternaterefs showsig bigfile"
HX_WHERE="top sub sub subabs subfile nested"
HX_LINK_TARGETS="home homefile aghome key wt2 wt2file repo repogit repoheads repoinfo secret canary wt2adm private"
HX_NAME_KINDS="esc c1 bidi nl cr bel long"

# gen_plant: one plant line on stdout
gen_plant() {
	local k
	pick cfg cfg cfg cfg hook attr attr worktree shallow grafts alternates \
		secretref replace ref ref forge forge link link link name name name \
		marker gitfile quarantine
	k=$REPLY
	case $k in
	cfg)
		# shellcheck disable=SC2086
		pick $HX_WHERE
		local where=$REPLY
		# shellcheck disable=SC2086
		pick $HX_KEYS
		echo "plant cfg $where $REPLY"
		;;
	hook)
		pick top sub subabs nested
		echo "plant hook $REPLY"
		;;
	attr)
		local f
		pick gitattributes info attrfile sub
		f=$REPLY
		pick -diff binary -text filter diff merge
		echo "plant attr $f $REPLY"
		;;
	worktree)
		local where
		pick top sub
		where=$REPLY
		pick repo wt2 home canary
		echo "plant worktree $where $REPLY"
		;;
	alternates)
		local mode
		pick append replace
		mode=$REPLY
		pick private repo
		echo "plant alternates $mode $REPLY"
		;;
	ref)
		pick main feat-b tag snap-ag2 session-ag2 origin-feat-a notes head-main packed-main replace-main
		echo "plant ref $REPLY"
		;;
	forge)
		pick worktree-wt2 worktree-wt2 worktree-repo agent-ag2 quarantine-ag2 head-other \
			through-link through-link-home
		echo "plant forge $REPLY"
		;;
	link)
		local place name
		pick ws gitdir gitdir cache cache
		place=$REPLY
		case $place in
		ws) pick file dir marker ;;
		gitdir) pick logs-HEAD logs-branch info hooks index ORIG_HEAD FETCH_HEAD packed-refs refs-snap snap-noagent description modules config HEAD alternates objects-pack snapref ;;
		cache) pick home tmp home tmp spool ;;
		esac
		name=$REPLY
		# shellcheck disable=SC2086
		pick $HX_LINK_TARGETS
		echo "plant link $place $name $REPLY"
		;;
	name)
		local where
		pick branch snapref file file subject argv argv spool spool verdict forged-path
		where=$REPLY
		# shellcheck disable=SC2086
		pick $HX_NAME_KINDS
		echo "plant name $where $REPLY"
		;;
	marker)
		pick ag2 esc c1 nl
		echo "plant marker $REPLY"
		;;
	gitfile)
		pick repogit wt2adm private
		echo "plant gitfile $REPLY"
		;;
	quarantine)
		local mode
		pick agent snap content
		mode=$REPLY
		# shellcheck disable=SC2086
		pick $HX_LINK_TARGETS
		echo "plant quarantine $mode $REPLY"
		;;
	*) echo "plant $k" ;;
	esac
}

# gen_scene SEED: the scene of that seed
gen_scene() {
	local seed=$1 n i
	rng_seed "$seed"
	echo "# hostile scene, seed $seed"
	pick bwrap landlock
	echo "backend $REPLY"
	pick fs+no-net fs+no-net fs-only
	echo "policy $REPLY"
	pick default default default home robind
	echo "layout $REPLY"
	pick none trust-root conflict
	echo "payload $REPLY"
	rnd 4
	n=$((REPLY + 1))
	for ((i = 0; i < n; i++)); do
		gen_plant
	done
}

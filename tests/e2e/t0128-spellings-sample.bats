#!/usr/bin/env bats
# One reading (issue 36; PRODUCT.md §4 "Spellings"), end to end: a sample
# of the options the policy reasons about, each in every spelling git
# reads alike — long, --opt=value, a unique prefix (unique in git 2.39's
# table), short, stuck, after the positionals — through `agentic-git
# check`, all with one verdict, event and snapshot.
# tests/unit/test-equivalence.c does the same for every option of git's
# table; this is the real binary, bound.
load lib
load shimlib

setup() {
	ag_setup
	(
		cd "$REPO"
		"$REAL_GIT" branch master
		"$REAL_GIT" branch feat/up
		"$REAL_GIT" tag v1
	)
	ag_bind ag1 feat/a
	cd "$WT"
}

# verdict, event and snapshot of one command line, one line
judged() {
	"$AG_BIN" check --json -- "$@" | jq -r '[.verdict, (.event // ""), (.snapshot // "")] | join(" ")'
}

# <sub> <long> <short|-> <value|-> <prefix|-> <positionals…>: every
# spelling of the option judged like the first; prints that verdict
spellings() {
	local sub=$1 long=$2 short=$3 val=$4 pre=$5
	shift 5
	local -a forms=() pos=("$@")
	local want got f
	if [ "$val" = - ]; then
		forms+=("--$long")
		[ "$short" = - ] || forms+=("-$short")
		[ "$pre" = - ] || forms+=("--$pre")
	else
		forms+=("--$long $val" "--$long=$val")
		[ "$short" = - ] || forms+=("-$short $val" "-$short$val")
		[ "$pre" = - ] || forms+=("--$pre $val" "--$pre=$val")
	fi
	# shellcheck disable=SC2086
	want=$(judged "$sub" ${forms[0]} "${pos[@]}")
	for f in "${forms[@]}"; do
		# shellcheck disable=SC2086
		got=$(judged "$sub" $f "${pos[@]}")
		[ "$got" = "$want" ] || {
			echo "'$sub ${forms[0]} ${pos[*]}' → $want, but '$sub $f ${pos[*]}' → $got" >&2
			return 1
		}
		if [ "${#pos[@]}" -gt 0 ]; then
			# shellcheck disable=SC2086
			got=$(judged "$sub" "${pos[@]}" $f)
			[ "$got" = "$want" ] || {
				echo "'$sub ${forms[0]} ${pos[*]}' → $want, but '$sub ${pos[*]} $f' → $got" >&2
				return 1
			}
		fi
	done
	echo "$want"
}

@test "branch --set-upstream-to: a protected branch's upstream is denied in every spelling" {
	run spellings branch set-upstream-to u feat/up set-upstream-t main
	assert_success
	assert_output "deny deny_protected_ref "
	run spellings branch set-upstream-to u feat/up set-upstream-t feat/a
	assert_success
	assert_output "route  "
}

@test "config --type: judged by its key in every spelling" {
	run spellings config type t bool typ core.filemode false
	assert_success
	assert_output --regexp '^route '
	run spellings config type t bool typ core.fsmonitor true
	assert_success
	assert_output --regexp '^deny '
}

@test "commit --message, reset --hard, tag --delete, push --delete, clean --force" {
	run spellings commit message m x mess
	assert_success
	assert_output --regexp '^route '
	run spellings reset hard - - har
	assert_success
	assert_output "route  reset"
	run spellings tag delete d - dele v1
	assert_success
	run spellings push delete d - dele origin main
	assert_success
	assert_output --regexp '^deny '
	run spellings clean force f - forc
	assert_success
	assert_output --regexp 'clean$'
}

@test "fetch --prune with a pattern over the snapshot namespace: denied in every spelling" {
	run spellings fetch prune p - - . 'refs/tags/none*:refs/agentic-git*'
	assert_success
	assert_output --regexp '^deny '
}

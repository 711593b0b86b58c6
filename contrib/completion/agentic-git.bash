# SPDX-License-Identifier: Apache-2.0
# bash completion for agentic-git. Source it, or install it as
# /usr/share/bash-completion/completions/agentic-git.
_agentic_git() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]}
	local cmds
	if [ "$COMP_CWORD" -eq 1 ]; then
		cmds=$(agentic-git help 2>/dev/null | awk '/^Commands:/{f=1;next} f && /^  [a-z]/{print $1}')
		COMPREPLY=($(compgen -W "$cmds" -- "$cur"))
		return
	fi
	case "$cmd" in
	snapshots) COMPREPLY=($(compgen -W "list show diff restore prune --repo --yes --staged --json --older-than --agent --all --since --any-worktree --head" -- "$cur")) ;;
	agents) COMPREPLY=($(compgen -W "list show check exec --config --json" -- "$cur")) ;;
	sandbox) COMPREPLY=($(compgen -W "probe run --json --policy --backend --workspace --ro --cache --env" -- "$cur")) ;;
	hook) COMPREPLY=($(compgen -W "prepare-commit-msg reference-transaction" -- "$cur")) ;;
	run) COMPREPLY=($(compgen -W "--agent --branch --base --profile --prompt --prompt-file --model --config --" -- "$cur")) ;;
	end) COMPREPLY=($(compgen -W "--agent --force" -- "$cur")) ;;
	events) COMPREPLY=($(compgen -W "--agent --event --disposition --since --until --follow --json" -- "$cur")) ;;
	dispatch) COMPREPLY=($(compgen -W "--targets --repo --head --base --task --prompt-file --profile --model --concurrency --timeout --shard --dry-run --json --config" -- "$cur")) ;;
	*) COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
	esac
}
complete -F _agentic_git agentic-git

#!/usr/bin/env bats
# SPDX-License-Identifier: Apache-2.0
# The YAML layer (src/base/yaml-doc.h) as the operator meets it: config.yaml
# and a dispatch targets file refused in one line "<file>:<line>:<col>: …"
# for each thing it does not accept, and nothing created by dispatch.
load lib

setup() { ag_setup; }

# cfg_refused WANT: `agents list` on $T/c.yaml fails with exactly one
# line, "agentic-git: $T/c.yaml:WANT".
cfg_refused() {
	chmod 600 "$T/c.yaml"
	run "$AG_BIN" agents list --config "$T/c.yaml"
	assert_failure 1
	assert_output "agentic-git: $T/c.yaml:$1"
}

# targets_refused FILE WANT: dispatch on FILE fails with exactly one line,
# "agentic-git: FILE:WANT", and creates nothing.
targets_refused() {
	run "$AG_BIN" dispatch --targets "$1" --task resolve-conflicts -- /bin/true
	assert_failure 1
	assert_output "agentic-git: $1:$2"
	[ ! -e "$AGENTIC_GIT_HOME/runs" ]
	[ -z "$(ls -A "$AGENTIC_GIT_HOME/runtime")" ]
}

# target_yaml: one valid target entry (indented for a list item)
target_yaml() {
	printf 'targets:\n  - repo: %s\n    head: feat/a\n    base: main\n' "$REPO"
}

@test "t0501.1 a duplicate key is refused at the repeat, naming the first" {
	printf 'default_agent: claude\nsandbox_fallback: refuse\ndefault_agent: codex\n' >"$T/c.yaml"
	cfg_refused "3:1: invalid YAML: duplicate key 'default_agent' (first at 1:1)"
	{ target_yaml; printf '    head: main\n'; } >"$T/t.yaml"
	targets_refused "$T/t.yaml" "5:5: invalid YAML: duplicate key 'head' (first at 3:5)"
}

@test "t0501.2 an alias bomb is one line: aliases are never expanded" {
	local prev=a x
	{
		printf 'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n'
		for x in b c d e f g h i; do
			printf '%s: &%s [' "$x" "$x"
			printf '*%s, ' "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev" "$prev"
			printf '*%s]\n' "$prev"
			prev=$x
		done
	} >"$T/bomb.yaml"
	cp "$T/bomb.yaml" "$T/c.yaml"
	cfg_refused "2:8: aliases are not supported in the config"
	{ target_yaml; printf '    key: &k x\n  - {repo: *k}\n'; } >"$T/t.yaml"
	targets_refused "$T/t.yaml" "6:12: aliases are not supported in the targets file"
}

@test "t0501.3 nesting deeper than 32 levels is refused where it starts" {
	printf 'default_agent: %s\n' "$(printf '[%.0s' $(seq 40))" >"$T/c.yaml"
	cfg_refused "1:47: nested deeper than 32 levels"
	{ target_yaml; printf '    prompt: %s\n' "$(printf '[%.0s' $(seq 40))"; } >"$T/t.yaml"
	targets_refused "$T/t.yaml" "5:42: nested deeper than 32 levels"
}

@test "t0501.4 more nodes than the cap is refused at the first one too many" {
	# 70,000 one-byte items: 140 KB, under the config's size cap
	{ printf 'repos: ['; printf 'a,%.0s' $(seq 70000); printf 'a]\n'; } >"$T/c.yaml"
	cfg_refused "1:131075: more than 65536 YAML nodes"
}

@test "t0501.5 text that is not UTF-8 is refused at the first bad byte" {
	printf 'default_agent: claude\nsandbox_fallback: r\xe9fuse\n' >"$T/c.yaml"
	cfg_refused "2:20: not valid UTF-8 text"
	{ target_yaml; printf '    key: caf\xe9\n'; } >"$T/t.yaml"
	targets_refused "$T/t.yaml" "5:13: not valid UTF-8 text"
}

@test "t0501.6 a tab used for indentation is refused with a hint" {
	printf 'agents:\n\tclaude:\n\t\tmodel: x\n' >"$T/c.yaml"
	cfg_refused "2:1: invalid YAML: found character that cannot start any token (while scanning for the next token at 2:1); YAML indents with spaces, not tabs"
	printf 'targets:\n\t- repo: /r\n' >"$T/t.yaml"
	targets_refused "$T/t.yaml" "2:1: invalid YAML: found character that cannot start any token (while scanning for the next token at 2:1); YAML indents with spaces, not tabs"
	# a tab after "key:" is only a separator, and fine
	printf 'default_agent:\tcodex\n' >"$T/c.yaml"
	chmod 600 "$T/c.yaml"
	run "$AG_BIN" agents list --config "$T/c.yaml"
	assert_success
	assert_output --partial "* codex"
}

@test "t0501.7 a JSON targets file must be strict JSON" {
	printf '{"targets": [{"repo": "/r", "head": "feat/a", "base": "main"}]} # note\n' >"$T/t.json"
	targets_refused "$T/t.json" "1:65: invalid JSON: end of file expected near '#'"
	printf '{"targets": [{"repo": "%s", "head": "feat/a", "base": "main", "head": "x"}]}\n' "$REPO" >"$T/t.json"
	run "$AG_BIN" dispatch --targets "$T/t.json" --task resolve-conflicts -- /bin/true
	assert_failure 1
	assert_output --partial "invalid JSON: duplicate object key"
	[ "${#lines[@]}" -eq 1 ]
}

#!/usr/bin/env bats
# config.yaml (src/agents/config.h): every error vector of tests/data/config
# with its message and position, the file rules (invariant 1), pinning
# (invariant 3), and what a valid config yields.
load lib

setup() {
	T=$BATS_TEST_TMPDIR
	export HOME=$T/home AGENTIC_GIT_HOME=$T/aghome
	mkdir -p "$HOME" "$AGENTIC_GIT_HOME" "$T/cfg"
	DATA=$BATS_TEST_DIRNAME/../data/config
}

# cfg NAME <<EOF: writes $T/cfg/NAME.yaml with mode 0600.
cfg() {
	cat >"$T/cfg/$1.yaml"
	chmod 600 "$T/cfg/$1.yaml"
}

@test "every config error vector fails with its exact messages and positions" {
	local bad=0 n=0 f name want got
	for f in "$DATA"/*.yaml; do
		name=$(basename "$f" .yaml)
		cp "$f" "$T/cfg/$name.yaml"
		chmod 600 "$T/cfg/$name.yaml"
		want=$(sed -e "s|@F@|$T/cfg/$name.yaml|g" -e "s|@DIR@|$T/cfg|g" \
			-e 's/^/agentic-git: /' "$DATA/$name.err")
		got=$("$AG_BIN" agents list --config "$T/cfg/$name.yaml" 2>&1 >/dev/null) && {
			echo "$name: exit 0, expected failure"
			bad=1
		}
		if [ "$got" != "$want" ]; then
			printf '%s: stderr differs\n--- want\n%s\n--- got\n%s\n' "$name" "$want" "$got"
			bad=1
		fi
		n=$((n + 1))
	done
	[ "$n" -ge 30 ]
	[ "$bad" = 0 ]
}

@test "a config writable by others or by the group is refused (invariant 1)" {
	printf 'default_agent: gemini\n' | cfg ok
	chmod 666 "$T/cfg/ok.yaml"
	must_fail "$AG_BIN" agents list --config "$T/cfg/ok.yaml"
	assert_output "agentic-git: $T/cfg/ok.yaml: refusing a config that is writable by group or others (mode 0666): run 'chmod go-w $T/cfg/ok.yaml'"
	chmod 620 "$T/cfg/ok.yaml"
	must_fail "$AG_BIN" agents list --config "$T/cfg/ok.yaml"
	assert_output --partial "writable by group or others (mode 0620)"
	chmod 644 "$T/cfg/ok.yaml"
	run "$AG_BIN" agents list --config "$T/cfg/ok.yaml"
	assert_success
	assert_line --regexp '^\* gemini '
}

@test "the default config.yaml under AGENTIC_GIT_HOME obeys the same rules" {
	printf 'default_agent: codex\n' >"$AGENTIC_GIT_HOME/config.yaml"
	chmod 602 "$AGENTIC_GIT_HOME/config.yaml"
	must_fail "$AG_BIN" agents list
	assert_output --partial "$AGENTIC_GIT_HOME/config.yaml: refusing a config that is writable by group or others"
	chmod 600 "$AGENTIC_GIT_HOME/config.yaml"
	run "$AG_BIN" agents list
	assert_success
	assert_line --regexp '^\* codex '
}

@test "a config owned by another user is refused (invariant 1)" {
	prereq root test "$(id -u)" = 0
	prereq nobody-user id -u nobody
	printf 'default_agent: gemini\n' | cfg theirs
	chown nobody "$T/cfg/theirs.yaml"
	must_fail "$AG_BIN" agents list --config "$T/cfg/theirs.yaml"
	assert_output "agentic-git: $T/cfg/theirs.yaml: refusing a config owned by uid $(id -u nobody), not by you (uid 0): it decides which programs run"
}

@test "a symlinked, non-regular, oversized or missing --config is refused" {
	printf 'default_agent: gemini\n' | cfg real
	ln -s "$T/cfg/real.yaml" "$T/cfg/link.yaml"
	must_fail "$AG_BIN" agents list --config "$T/cfg/link.yaml"
	assert_output "agentic-git: $T/cfg/link.yaml: is a symbolic link; refusing to follow it (give the real file)"
	must_fail "$AG_BIN" agents list --config "$T/cfg"
	assert_output "agentic-git: $T/cfg: not a regular file"
	head -c 300000 /dev/zero | tr '\0' '#' >"$T/cfg/big.yaml"
	chmod 600 "$T/cfg/big.yaml"
	must_fail "$AG_BIN" agents list --config "$T/cfg/big.yaml"
	assert_output "agentic-git: $T/cfg/big.yaml: larger than 262144 bytes"
	must_fail "$AG_BIN" agents list --config "$T/cfg/none.yaml"
	assert_output "agentic-git: $T/cfg/none.yaml: cannot open: No such file or directory"
}

@test "no config file at all means the presets, claude by default" {
	run "$AG_BIN" agents list --json
	assert_success
	run jq -r '.[] | "\(.name) \(.source) \(.default) \(.sandbox) \(.env|length)"' <<<"$output"
	assert_output "claude preset true none 9
codex preset false none 4
gemini preset false none 6
copilot preset false none 9
cursor preset false none 1"
}

@test "a relative command is resolved against the config file's directory" {
	mkdir -p "$T/cfg/bin" "$T/elsewhere"
	printf '#!/bin/sh\nexit 0\n' >"$T/cfg/bin/agent"
	chmod 755 "$T/cfg/bin/agent"
	cfg rel <<'EOF'
agents:
  mine:
    command: [bin/agent, run, "{prompt}"]
    env: []
EOF
	cd "$T/elsewhere"
	run "$AG_BIN" agents show mine --json --config "$T/cfg/rel.yaml"
	assert_success
	run jq -r '.argv | join("|")' <<<"$output"
	assert_output "$T/cfg/bin/agent|run|<prompt>"
}

@test "a bare command is pinned from PATH at load; relative PATH entries are ignored" {
	mkdir -p "$T/pathbin" "$T/cwd"
	printf '#!/bin/sh\nexit 0\n' >"$T/pathbin/mytool"
	cp "$T/pathbin/mytool" "$T/cwd/othertool"
	chmod 755 "$T/pathbin/mytool" "$T/cwd/othertool"
	cfg bare <<'EOF'
agents:
  a:
    command: [mytool, "{prompt}"]
  b:
    command: [othertool, "{prompt}"]
EOF
	cd "$T/cwd"
	PATH=".:$T/pathbin:/usr/bin:/bin" run "$AG_BIN" agents list --config "$T/cfg/bare.yaml"
	assert_failure
	assert_output "agentic-git: $T/cfg/bare.yaml:5:15: agents.b.command: 'othertool' not found in PATH"
	sed -i '/^  b:/,$d' "$T/cfg/bare.yaml"
	PATH=".:$T/pathbin:/usr/bin:/bin" run "$AG_BIN" agents show a --json --config "$T/cfg/bare.yaml"
	assert_success
	run jq -r '.profile.pinned, .argv[0]' <<<"$output"
	assert_output "true
$T/pathbin/mytool"
}

@test "a field-level override keeps the preset's other fields" {
	cfg over <<'EOF'
default_agent: gemini
agents:
  gemini:
    model: gemini-2.5-flash
    timeout: 600
    sandbox: fs+no-net
    ro_binds: [~/.nvm, /opt/node]
    cache_dir: ~/.cache/agent-gemini
EOF
	run "$AG_BIN" agents show gemini --json --config "$T/cfg/over.yaml"
	assert_success
	run jq -r '.profile | "\(.source) \(.model) \(.timeout) \(.sandbox) \(.env|join(",")) \(.ro_binds|join(",")) \(.cache_dir) \(.default)"' <<<"$output"
	assert_output "preset+config gemini-2.5-flash 600 fs+no-net GEMINI_API_KEY,GOOGLE_API_KEY,GOOGLE_GENAI_USE_VERTEXAI,GOOGLE_CLOUD_PROJECT,GOOGLE_GEMINI_BASE_URL,GEMINI_CLI_HOME $HOME/.nvm,/opt/node $HOME/.cache/agent-gemini true"
}

@test "the shipped example config loads" {
	mkdir -p "$T/pathbin"
	printf '#!/bin/sh\nexit 0\n' >"$T/pathbin/mytool"
	chmod 755 "$T/pathbin/mytool"
	cp "$BATS_TEST_DIRNAME/../../docs/config.yaml.example" "$T/cfg/example.yaml"
	chmod 600 "$T/cfg/example.yaml"
	PATH="$T/pathbin:$PATH" run "$AG_BIN" agents list --config "$T/cfg/example.yaml"
	assert_success
	assert_line --regexp '^  mytool +custom '
}

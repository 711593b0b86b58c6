# SPDX-License-Identifier: Apache-2.0
# Helpers for the inert-output tests (t087x, docs/commands.md "Output").

# HOSTILE: what an agent may put in a name: a clear-screen sequence, a
# window-title sequence ended by BEL, a carriage return that would let the
# rest overwrite the line, and a right-to-left override (U+202E, as bytes).
HOSTILE=$'x\e[2J\e]0;pwned\a\rY\xe2\x80\xaeZ'
# HOSTILE_SHOWN: the same, as every human-readable output must print it.
HOSTILE_SHOWN='x\x1b[2J\x1b]0;pwned\x07\x0dY\u202eZ'
# HOSTILE_REF: HOSTILE without what a ref name may not hold, for names
# that are refs as well (a bidi control and printable text only).
HOSTILE_REF=$'r\xe2\x80\xaeev'
HOSTILE_REF_SHOWN='r\u202eev'
export HOSTILE HOSTILE_SHOWN HOSTILE_REF HOSTILE_REF_SHOWN

# assert_inert TEXT [WHAT]: TEXT holds no control a terminal acts on: no C0
# byte but newline and tab, no DEL, no C1 control or bidi control or line
# separator as UTF-8 (the forbidden set of base/inert.h).
assert_inert() {
	local bad
	bad=$(printf '%s' "$1" | LC_ALL=C grep -naP \
		'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]' |
		cat -v || true)
	if [ -n "$bad" ]; then
		echo "raw control characters in ${2:-the output}:" >&2
		echo "$bad" >&2
		return 1
	fi
}

# assert_shows TEXT: TEXT is inert and holds HOSTILE_SHOWN (so the hostile
# string was printed, escaped, not dropped).
assert_shows() {
	assert_inert "$1" "${2-}"
	if [[ "$1" != *"$HOSTILE_SHOWN"* ]]; then
		echo "escaped form '$HOSTILE_SHOWN' missing from ${2:-the output}:" >&2
		printf '%s\n' "$1" | cat -v >&2
		return 1
	fi
}

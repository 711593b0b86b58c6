# SPDX-License-Identifier: Apache-2.0
# Turns what git says about one subcommand into the generator's option table
# (gen.awk): `git <cmd> -h`, a line "@helper", then `git <cmd>
# --git-completion-helper`. Prints <cmd> TAB <short> TAB <long> TAB <0|1|2>
# (no value, a value, an optional value), always at least one line.
#   awk -v cmd=<cmd> -f optlist.awk

function emit(s, l, a) {
	if (l != "" && (l in long))
		return
	if (l != "")
		long[l] = 1
	print cmd "\t" s "\t" l "\t" a
	n++
}
# argument kind of what follows an option's name in -h
function argkind(rest) {
	if (rest ~ /^\[=?</ || rest ~ /^\[=/ || rest ~ /^\[</)
		return 2
	if (rest ~ /^( <|=<|=)/ || rest ~ /^ \(/)
		return 1
	return 0
}
$0 == "@helper" { helper = 1; next }
!helper && /^    -/ {
	spec = substr($0, 5)
	s = ""; l = ""; rest = ""
	if (match(spec, /^-[A-Za-z0-9@#]/)) {
		s = substr(spec, 2, 1)
		spec = substr(spec, 3)
		if (substr(spec, 1, 2) == ", ")
			spec = substr(spec, 3)
		else
			rest = spec
	}
	if (match(spec, /^--[a-z0-9][-a-z0-9]*/)) {
		l = substr(spec, 3, RLENGTH - 2)
		rest = substr(spec, RLENGTH + 1)
	}
	if (s == "" && l == "")
		next
	emit(s, l, argkind(rest))
	next
}
helper {
	for (k = 1; k <= NF; k++) {
		o = $k
		if (o == "--" || o !~ /^--/)
			continue
		a = 0
		if (o ~ /=$/) {
			a = 1
			o = substr(o, 1, length(o) - 1)
		}
		emit("", substr(o, 3), a)
	}
}
END {
	if (n == 0)
		print cmd "\t\t\t0"
}

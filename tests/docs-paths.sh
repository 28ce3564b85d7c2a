#!/usr/bin/env bash
# Every path named in README.md and docs/*.md (in `backticks` or a markdown
# link) must exist in the work tree: a path with a '/' from the top (or
# from the doc's directory), a bare directory name 'x/' or source file
# name somewhere.  Skipped: build trees, absolute paths, variables,
# patterns, URLs, options, the examples' made-up names (mine, NAME, app).
set -u
out=$(
cd "${1:-.}"
files=$( (git ls-files; git ls-files --others --exclude-standard) | sort -u)
dirs=$(printf '%s\n' "$files" | sed -n 's|/[^/]*$||p' | sort -u | while read -r d; do
	while [ -n "$d" ]; do echo "$d"; case $d in */*) d=${d%/*} ;; *) d= ;; esac; done; done | sort -u)
for doc in README.md docs/*.md; do
	{ grep -o '`[^`]*`' "$doc" | tr -d '`' | tr ' ' '\n'
	  grep -o '](\([^)]*\))' "$doc" | sed 's/^](//; s/)$//'; } |
	sed 's/[,;:.)]*$//; s/^(//' | sort -u | while read -r p; do
		case $p in
		''|build*|/*|'$'*|../*|http*|*'<'*|*'*'*|*'$'*|*'%'*|*'['*|*'{'*|-*|*=*|*'#'*|'@'*|*:*|\
		*mine*|*NAME*|app.*|*/app.*|.*|lib*.so*|*[0-9]/[0-9]*) continue ;;
		esac
		case $p in
		*/) d=${p%/}
		    case $d in */*) [ -d "$d" ] || [ -d "$(dirname "$doc")/$d" ] || [ -d "tests/$d" ] ;;
		    *) printf '%s\n' "$dirs" | grep -qx "\(.*/\)\?$d" ;; esac && continue ;;
		*/*) [ -e "$p" ] || [ -e "$(dirname "$doc")/$p" ] || [ -e "tests/$p" ] && continue ;;
		*.c|*.h|*.sh|*.py|*.l|*.y|*.cmake|*.in|*.1|*.md)
		    printf '%s\n' "$files" | grep -q "\(^\|/\)$p$" && continue ;;
		*) continue ;;
		esac
		echo "$doc: $p"
	done
done
# Every link's #anchor must be a heading of its target (GitHub's slugs).
for doc in README.md docs/*.md; do
	grep -o '](\([^)]*#[^)]*\))' "$doc" | sed 's/^](//; s/)$//' | sort -u | while read -r l; do
		f=${l%%#*} a=${l#*#}
		t=$doc; [ -n "$f" ] && t=$(dirname "$doc")/$f
		[ -e "$t" ] || { echo "$doc: $l (no $t)"; continue; }
		grep '^#' "$t" | sed 's/^#* //' | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g' | grep -qx -- "$a" ||
			echo "$doc: $l (no such heading)"
	done
done
)
[ -z "$out" ] && exit 0
printf "docs name what does not exist:\n%s\n" "$out"; exit 1

#!/bin/sh
# Writes what the option table (tools/lib/opttab.h) generates:
# docs/command-line.md, and the OPTIONS section of tools/cli/ptxlink.1
# (the rest of the man page is written by hand).  tests/cli-options.sh
# fails until this is run after a change to the table.
#   usage: tools/cli/gen-docs.sh build/ptxlink
set -eu
exe=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
"$exe" --help=markdown >"$top/docs/command-line.md"
man=$top/tools/cli/ptxlink.1
"$exe" --help=man >"$man.options"
awk -v gen="$man.options" '
	/^\.SH / && skip { skip = 0 }
	/^\.SH OPTIONS$/ { while ((getline line < gen) > 0) print line; skip = 1; next }
	!skip' "$man" >"$man.new"
rm "$man.options"
mv "$man.new" "$man"

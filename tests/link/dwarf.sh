#!/bin/sh
# Link the corpus's -G programs with their DWARF and check what ptxas makes
# of it.
#
# usage: dwarf.sh PTXLINK CORPUSDIR
#
# Every directory under CORPUSDIR/ptx whose .ptx files all carry -G DWARF
# (`.section .debug_info`) is one program.  For each, this
#   1. links its files (sorted by name) with `ptxlink -v` and the default
#      stages, and checks ptxas -c accepts the result, and whole-program
#      ptxas too when ptxlink -v says it is a whole program;
#   2. on the whole-program cubin, checks that `readelf --debug-dump=info,
#      abbrev,line,loc` says no warning or error, that .debug_info holds one
#      compile unit per input, named after the input's .cu, in input order,
#      that every DW_AT_decl_file of a unit names, in the line table's file
#      table, a file of that unit's input, and that the decoded line table
#      has lines of every input's .cu;
#   3. for three inputs or more, links all but the last (--no-stages
#      --allow-undefined) and that output again with the last: the result,
#      a link's output linked again, must pass the checks of 2 as well;
#   4. runs every kernel on the interpreter (tests/difftest/difftest.sh) with the
#      DWARF linked and with --strip-debug: each must leave the same, and at
#      least one kernel of the program must complete.
# One line per program, `ok DIR` or `FAIL DIR: why`, then
# `link-dwarf: N passed, M failed`; exit 1 if any failed.  Without ptxas or
# readelf: "SKIPPED: ..." and exit 77.  PTXLINK_RUN names the interpreter
# (default: ptxlink-run beside PTXLINK).
set -u
. "$(dirname "$0")/../lib.sh"

if [ $# -ne 2 ]; then
	echo "usage: $0 PTXLINK CORPUSDIR" >&2
	exit 2
fi
ptxlink=$(exe_arg "$1") || exit 2
corpus=$2
dir_arg "$corpus/ptx"
need_ptxas
if ! command -v readelf >/dev/null 2>&1; then
	echo "SKIPPED: readelf not found"
	exit 77
fi
PTXLINK_RUN=${PTXLINK_RUN:-$(dirname "$ptxlink")/ptxlink-run}
export PTXLINK_RUN
difftest=$(cd "$(dirname "$0")/../.." && pwd)/tests/difftest/difftest.sh
scratch link-dwarf
limits 120 600

# The source an input was compiled from: main.sm_80.rdc.G.ptx -> main.cu.
source_of() {
	echo "${1%%.*}.cu"
}

# units CUBIN: "cu K NAME" for each compile unit, "file K N" for each
# DW_AT_decl_file in unit K.
units() {
	readelf --debug-dump=info "$1" 2>&1 | awk '
		/Compilation Unit @/ { k++ }
		/\(DW_TAG_compile_unit\)/ { want = 1; next }
		want && /DW_AT_name/ { sub(/.*: /, ""); print "cu", k, $0; want = 0 }
		/DW_AT_decl_file/ { sub(/.*: /, ""); print "file", k, $1 }'
}

# file_table CUBIN: "N NAME" for each entry of the line table's file table.
file_table() {
	readelf --debug-dump=line "$1" 2>&1 | awk '
		/The File Name Table/ { on = 1; next }
		on && /^ *Entry/ { next }
		on && NF == 0 { on = 0 }
		on && $1 ~ /^[0-9]+$/ { print $1, $NF }'
}

# check_dwarf DIR FILES CUBIN: prints why the cubin's DWARF is wrong, or nothing.
check_dwarf() {
	d=$1 files=$2 cubin=$3
	if readelf --debug-dump=info,abbrev,line,loc "$cubin" 2>&1 >/dev/null | grep -q .; then
		echo "readelf complains:"
		readelf --debug-dump=info,abbrev,line,loc "$cubin" 2>&1 >/dev/null | head -n 5 | sed 's/^/    /'
		return
	fi
	units "$cubin" > "$tmp/units"
	file_table "$cubin" > "$tmp/files"
	readelf --debug-dump=decodedline "$cubin" > "$tmp/lines" 2>&1
	k=0
	for f in $files; do
		k=$((k + 1))
		src=$(source_of "$f")
		got=$(awk -v k=$k '$1 == "cu" && $2 == k { print $3 }' "$tmp/units")
		if [ "$got" != "$src" ]; then
			echo "compile unit $k is '$got', not $src"
			return
		fi
		# the files this input's .file table names, by base name
		sed -n 's/^[[:space:]]*\.file[[:space:]]*[0-9]*[[:space:]]*"\(.*\)".*/\1/p' "$d/$f" |
			sed 's|.*/||' > "$tmp/own"
		for n in $(awk -v k=$k '$1 == "file" && $2 == k { print $3 }' "$tmp/units" | sort -u); do
			name=$(awk -v n=$n '$1 == n { print $2 }' "$tmp/files")
			if ! grep -qxF "$name" "$tmp/own"; then
				echo "unit $k ($src): DW_AT_decl_file $n is '$name', not a file of $f"
				return
			fi
		done
		if ! grep -q "^$src  *[0-9]" "$tmp/lines"; then
			echo "the decoded line table has no line of $src"
			return
		fi
	done
	n=$(grep -c '^cu ' "$tmp/units")
	[ "$n" -eq "$k" ] || echo "$n compile units for $k inputs"
}

# remerge DIR FILES: prints why linking a link's output again is wrong, or nothing.
remerge() {
	d=$1 files=$2
	n=$(echo $files | wc -w)
	[ $n -ge 3 ] || return 0
	first=$(echo $files | cut -d' ' -f1-$((n - 1))) last=$(echo $files | cut -d' ' -f$n)
	if ! (cd "$d" && $limit "$ptxlink" --no-stages --allow-undefined $first -o "$tmp/part.ptx") 2>"$tmp/r.err"; then
		echo "linking all but $last failed: $(head -n 3 "$tmp/r.err")"
	elif ! (cd "$d" && $limit "$ptxlink" "$tmp/part.ptx" "$last" -o "$tmp/r.ptx") 2>"$tmp/r.err"; then
		echo "linking that output again with $last failed: $(head -n 3 "$tmp/r.err")"
	elif ! $ptxas_limit ptxas -arch=sm_80 "$tmp/r.ptx" -o "$tmp/r.cubin" >"$tmp/ptxas" 2>&1; then
		echo "ptxas rejects the link of a link: $(head -n 3 "$tmp/ptxas")"
	else
		why=$(check_dwarf "$d" "$files" "$tmp/r.cubin")
		[ -z "$why" ] || echo "the link of a link: $why"
	fi
}

# args PARAM...: launch options for parameters as `ptxlink-run --list`
# gives them: buffers of a pattern for pointers, 8 for integers.
args() {
	for p in "$@"; do
		case $p in
		*:p) echo "--arg buf:4096:pattern=1" ;;
		.f32*) echo "--arg f32:1.5" ;;
		.f64*) echo "--arg f64:1.5" ;;
		.u64* | .s64* | .b64*) echo "--arg u64:8" ;;
		*) echo "--arg u32:8" ;;
		esac
	done
}

# run_kernels A B: prints why the kernels of A and B differ, or nothing.
run_kernels() {
	ran=0
	"$PTXLINK_RUN" --list "$1" > "$tmp/kernels" 2>&1 || { echo "ptxlink-run --list failed"; return; }
	while read -r k params; do
		out=$($limit "$difftest" "$1" "$2" "$k" --grid 2 --block 32 $(args $params) 2>&1)
		case $? in
		0) ran=$((ran + 1)) ;;
		77) ;;
		*) echo "$k: $out" | head -n 5; return ;;
		esac
	done < "$tmp/kernels"
	echo $ran > "$tmp/ran"
	[ $ran -gt 0 ] || echo "no kernel completed on the interpreter"
}

pass=0
fail=0
for d in "$corpus"/ptx/*/; do
	d=${d%/}
	name=${d##*/}
	files=$(cd "$d" && ls | LC_ALL=C sort | grep '\.ptx$')
	[ -n "$files" ] || continue
	(cd "$d" && grep -L '\.section[[:space:]]*\.debug_info' $files) | grep -q . && continue
	rm -f "$tmp"/*
	why=
	if ! (cd "$d" && $limit "$ptxlink" -v $files -o "$tmp/a.ptx") 2>"$tmp/a.err"; then
		why="ptxlink failed: $(head -n 3 "$tmp/a.err")"
	elif ! $ptxas_limit ptxas -arch=sm_80 -c "$tmp/a.ptx" -o "$tmp/c.cubin" >"$tmp/ptxas" 2>&1; then
		why="ptxas -c rejects it: $(head -n 3 "$tmp/ptxas")"
	elif ! grep -q 'whole program' "$tmp/a.err"; then
		why="not a whole program: readelf cannot apply a relocatable cubin's relocations"
	elif ! $ptxas_limit ptxas -arch=sm_80 "$tmp/a.ptx" -o "$tmp/a.cubin" >"$tmp/ptxas" 2>&1; then
		why="ptxas rejects it: $(head -n 3 "$tmp/ptxas")"
	fi
	[ -z "$why" ] && why=$(check_dwarf "$d" "$files" "$tmp/a.cubin")
	[ -z "$why" ] && why=$(remerge "$d" "$files")
	if [ -z "$why" ]; then
		if (cd "$d" && $limit "$ptxlink" --strip-debug $files -o "$tmp/s.ptx") 2>"$tmp/s.err"; then
			why=$(run_kernels "$tmp/a.ptx" "$tmp/s.ptx")
		else
			why="--strip-debug failed: $(head -n 3 "$tmp/s.err")"
		fi
	fi
	report "$name" "$why" "$(echo $files | wc -w) -G inputs, $(cat "$tmp/ran" 2>/dev/null) kernels compared"
done
finish link-dwarf "-G programs under $corpus/ptx"

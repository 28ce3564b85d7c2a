#!/usr/bin/env bash
# --tune (tools/cli/tune.c): plans compiled by ptxas and the best kept by
# the yardstick's order, the output being the plan's own (its PTX is what
# ptxlink writes at its options); the same bytes twice; the cache; the
# budget; a missing or failing ptxas refused with no output and no
# temporaries left.  Skipped without ptxas.
set -u
. "$(dirname "$0")/lib.sh"
ptxlink=$(exe_arg "$1")
need_ptxas
tools_scratch cli-tune   # the tools' temporaries in t/: none may stay (clean)
solver=("$root"/corpus/ptx/solver/*.ptx)
opts=(-Rpass=tune --tune-cache="$tmp/cache" -arch=sm_80)
tune=(--tune "${opts[@]}")

# The figures -Rpass=tune gives a compile: "spill stack warps sass".
figs() { sed -n 's/.*: \([0-9]*\) spill bytes, \([0-9]*\) stack, [0-9]* registers (\([0-9]*\) warps), \([0-9]*\) SASS bytes.*/\1 \2 \3 \4/p'; }
# What the choice must be: the best of the plan given's compiles by the
# yardstick's order (fewer spills, stack, more warps, less SASS; the first
# of equals), unless another beats it so with no more spills and stack
# and at most 110% of its SASS.
best() { grep 'tune: tried' err | sed 's/.*tried plan \([0-9]*\) .*/\1/' | paste -d' ' - <(grep 'tune: tried' err | figs) |
	awk 'function better(i, j) { if (sp[i] != sp[j]) return sp[i] < sp[j]; if (st[i] != st[j]) return st[i] < st[j]
			if (w[i] != w[j]) return w[i] > w[j]; return sa[i] < sa[j] }
		{ n++; p[n] = $1; sp[n] = $2; st[n] = $3; w[n] = $4; sa[n] = $5 }
		END { g = 1; for (i = 2; i <= n && p[i] == 0; i++) if (better(i, g)) g = i
			b = g; for (; i <= n; i++) if (sp[i] <= sp[g] && st[i] <= st[g] && sa[i] * 100 <= sa[g] * 110 && better(i, b)) b = i
			print sp[b], st[b], w[b], sa[b] }'; }

# solver: inlining at 100 beats the default model (whole program: 9,600
# SASS bytes at 32 registers with ptxas 13, against more at the default)
"$ptxlink" "${tune[@]}" -v -o out.ptx "${solver[@]}" 2>err; rc=$?
chosen=$(grep 'tune: chosen:' err | figs)
plan=$(sed -n 's/.*tune: chosen: plan [0-9]* (\(.*\)), [a-z ]*: .*/\1/p' err)
check "solver: tuned" "[ $rc = 0 ] && [ -s out.ptx ] && clean"
check "solver: plans differ ($(grep 'tune: tried' err | figs | sort -u | wc -l) kinds of figures)" \
	"[ \$(grep 'tune: tried' err | figs | sort -u | wc -l) -ge 2 ]"
check "solver: the best by the yardstick's order is chosen ($chosen: $plan)" \
	"[ -n \"$chosen\" ] && [ \"$chosen\" = \"\$(best)\" ] && [ \"$plan\" != 'as given' ]"
check "solver: -v says ptxas's time beside one compile" \
	"grep -q 'ptxlink: tune: plan [0-9]* (.*) chosen; [0-9]* compiles of [0-9]* plans ([0-9]* cached or the same) at -j [0-9]*: ptxas [0-9]* ms in all, the plan given.s own [0-9]* ms$' err"
# the output is the plan's: ptxlink at its options writes the same PTX
# shellcheck disable=SC2086
"$ptxlink" -arch=sm_80 $plan -o plan.ptx "${solver[@]}" 2>/dev/null
check "solver: the output is ptxlink's at the plan's options ($plan)" "cmp -s out.ptx plan.ptx"

# a second run: every compile from the cache, the same bytes
"$ptxlink" "${tune[@]}" -v -o again.ptx "${solver[@]}" 2>err; rc=$?
n=$(grep -c 'tune: tried' err)
check "the cache: all $n compiles cached" "[ $rc = 0 ] && [ $n -ge 2 ] && [ \$(grep 'tune: tried' err | grep -c '(cached)') = $n ] && ! grep -q running err"
check "the same bytes twice" "cmp -s out.ptx again.ptx && clean"
"$ptxlink" "${tune[@]}" --tune-cache= -o nocache.ptx "${solver[@]}" 2>err; rc=$?
check "no cache: the same bytes" "[ $rc = 0 ] && cmp -s out.ptx nocache.ptx && ! grep -q '(cached)' err"

# --ptxas: the chosen compile is the output, not compiled again
"$ptxlink" "${tune[@]}" --ptxas -v -o out.cubin "${solver[@]}" 2>err; rc=$?
check "--ptxas --tune: a cubin, compile mode the plan's, no compile after the choice" \
	"[ $rc = 0 ] && [ -s out.cubin ] && grep -q \"compile mode: .*--tune's plan\" err && ! sed -n '/compile mode:/,\$p' err | grep -q 'running .*ptxas' && clean"
"$ptxlink" "${tune[@]}" --ptxas -o out2.cubin "${solver[@]}" 2>/dev/null
check "--ptxas --tune: the same cubin twice" "cmp -s out.cubin out2.cubin"

# the budget: at most N compiles
"$ptxlink" --tune=3 "${opts[@]}" -o three.ptx "${solver[@]}" 2>err; rc=$?
check "--tune=3: 3 compiles" "[ $rc = 0 ] && [ \$(grep -c 'tune: tried' err) = 3 ]"
"$ptxlink" --tune=1 "${opts[@]}" -o one.ptx "${solver[@]}" 2>err; rc=$?
"$ptxlink" -arch=sm_80 -o plain.ptx "${solver[@]}" 2>/dev/null
check "--tune=1: the plan given, as without --tune" "[ $rc = 0 ] && [ \$(grep -c 'tune: tried' err) = 1 ] && cmp -s one.ptx plain.ptx"
"$ptxlink" "${tune[@]}" --no-tune -o off.ptx "${solver[@]}" 2>err; rc=$?
check "--no-tune" "[ $rc = 0 ] && ! grep -q tune err && cmp -s off.ptx plain.ptx"

# a ptxas that fails: a clear error, no output, no temporaries
mkdir bad && printf '#!/bin/sh\necho "ptxas fatal   : broken"\nexit 1\n' >bad/ptxas && chmod +x bad/ptxas
PATH=$tmp/bad:$PATH "$ptxlink" "${tune[@]}" --tune-cache= -o fail.ptx "${solver[@]}" 2>err; rc=$?
check "a failing ptxas: an error" "[ $rc = 1 ] && grep -q 'error: --tune: ptxas failed on every plan' err && grep -q 'ptxas fatal   : broken' err"
check "a failing ptxas: no output, no temporaries" "[ ! -e fail.ptx ] && clean"
PATH=$tmp/bad:$PATH "$ptxlink" "${tune[@]}" --tune-cache= --ptxas -o fail.cubin "${solver[@]}" 2>err; rc=$?
check "a failing ptxas under --ptxas: an error, no output" "[ $rc = 1 ] && [ ! -e fail.cubin ] && clean"
# none at all
PATH=/nonexistent CUDA_HOME=/nonexistent "$ptxlink" "${tune[@]}" -o none.ptx "${solver[@]}" 2>err; rc=$?
check "no ptxas: refused" "[ $rc = 1 ] && grep -q 'error: --tune measures plans with ptxas, which is not found' err && [ ! -e none.ptx ] && clean"
# refused before any work
"$ptxlink" --tune -o x.ptx "${solver[@]}" 2>err; rc=$?
check "--tune needs -arch" "[ $rc = 2 ] && grep -q 'error: --tune needs -arch=sm_XX' err"
"$ptxlink" "${tune[@]}" -o x.ptx - "${solver[1]}" <"${solver[0]}" 2>err; rc=$?
check "--tune reads no standard input" "[ $rc = 1 ] && grep -q 'standard input cannot be read again' err && [ ! -e x.ptx ] && clean"
"$ptxlink" --tune -dlink -arch=sm_80 -o x.o "${solver[@]}" 2>err; rc=$?
check "--tune is not for -dlink" "[ $rc = 2 ] && grep -q 'error: --tune is not for -dlink' err"
"$ptxlink" --tune=0 -arch=sm_80 -o x.ptx "${solver[@]}" 2>err; rc=$?
check "--tune=0 refused" "[ $rc = 2 ] && grep -q \"'--tune=0' needs a number of compiles from 1 to 16\" err"

finish cli-tune

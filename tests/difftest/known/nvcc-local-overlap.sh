#!/usr/bin/env bash
# Does this nvcc still give two live local arrays the same local memory
# (nvcc-local-overlap.cu)?  Builds the kernel with nvcc -O3 and nvcc -G,
# runs both on ptxlink's interpreter on the same data, and says which.
#
#   tests/difftest/known/nvcc-local-overlap.sh
#
# Exit 0: nvcc -O3 still computes a different result from -G (the known
# issue, as difftest-calls.sh reports it); 1: they agree (nvcc fixed, and
# difftest-calls.sh's KNOWN check can go); 2: no nvcc or a build failed.
# PTXLINK_RUN names the interpreter (default build/ptxlink-run).
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUN=${PTXLINK_RUN:-$HERE/../../../build/ptxlink-run}
command -v nvcc > /dev/null || { echo "nvcc-local-overlap: no nvcc" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for o in O3 G; do
	nvcc -arch=sm_80 --ptx "-$o" "$HERE/nvcc-local-overlap.cu" -o "$tmp/$o.ptx" || exit 2
	"$RUN" "$tmp/$o.ptx" k --dump --grid 1 --block 32 \
		--arg buf:128:zero --arg buf:128:pattern=1 > "$tmp/$o.out" 2>&1 || exit 2
done
v=$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
if cmp -s "$tmp/O3.out" "$tmp/G.out"; then
	echo "nvcc-local-overlap: nvcc $v -O3 and -G agree: the issue is gone"
	exit 1
fi
echo "nvcc-local-overlap: nvcc $v -O3 and -G disagree: the issue is still there"
diff "$tmp/G.out" "$tmp/O3.out" | sed -n 's/^> /  -O3: /p; s/^< /  -G:  /p' | head -8
exit 0

#!/usr/bin/env bash
# The main job on the bundled corpus: builds ptxlink, passes every corpus
# PTX file through it, and checks with ptxas that the output is accepted
# and compiles to the same machine code as the input.  Outputs are kept in
# build/corpus-out/.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
rm -rf build/corpus-out && mkdir -p build/corpus-out
ROUNDTRIP_KEEP=build/corpus-out ROUNDTRIP_VERBOSE=1 \
	tests/roundtrip.sh build/ptxlink build/cubin-cmp corpus

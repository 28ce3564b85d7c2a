#!/usr/bin/env bash
# The test command: installs what is missing, builds with warnings as
# errors, runs every test (unit, CLI, bad input, corpus round trip through
# ptxas), then the suite again under AddressSanitizer+UBSan and the
# library's tests under ThreadSanitizer (tools/sanitize.sh), then a short
# run of each fuzzing harness (parse, link, stages).  FUZZ_SECONDS (default
# 30) sets the fuzzing time per harness.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export PATH=/usr/local/cuda/bin:$PATH
cmake -S . -B build -DPTXLINK_WERROR=ON -DPTXLINK_VERIFY=ON >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
ctest --test-dir build --output-on-failure
tools/sanitize.sh
tools/fuzz.sh "${FUZZ_SECONDS:-30}"

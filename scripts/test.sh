#!/usr/bin/env bash
# Builds and runs every test: the libFuzzer targets for a bounded time (clang,
# ASan+UBSan), an ASan+UBSan build of the whole suite, a ThreadSanitizer build
# of the whole suite, then the Release build
# (tests, benchmarks run once briefly). Ends with CTest's summary.
# Also an MPI build (build-mpi) running only the tests labelled mpi. First
# installs what scripts/setup.sh installs (Open MPI among it), when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
scripts/setup.sh

CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DECMPSIM_FUZZ=ON -DECMPSIM_WERROR=ON \
  -DECMPSIM_TESTS=OFF -DECMPSIM_BENCH=OFF -DECMPSIM_FUZZ_SECONDS="${ECMPSIM_FUZZ_SECONDS:-20}" >/dev/null
cmake --build build-fuzz -j "$jobs"
ctest --test-dir build-fuzz --output-on-failure

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DECMPSIM_SANITIZE=ON -DECMPSIM_WERROR=ON -DECMPSIM_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure

# ThreadSanitizer: the whole suite again, threads from std::thread (sim/base/parallel.h).
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DECMPSIM_TSAN=ON -DECMPSIM_WERROR=ON -DECMPSIM_BENCH=OFF >/dev/null
cmake --build build-tsan -j "$jobs"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 ctest --test-dir build-tsan -j "$jobs" --output-on-failure

cmake -S . -B build-mpi -G Ninja -DCMAKE_BUILD_TYPE=Release -DECMPSIM_MPI=ON -DECMPSIM_WERROR=ON -DECMPSIM_BENCH=OFF >/dev/null
cmake --build build-mpi -j "$jobs"
ctest --test-dir build-mpi -L mpi -j "$jobs" --output-on-failure

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DECMPSIM_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure

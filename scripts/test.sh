#!/usr/bin/env bash
# Builds and runs every test, each build tree making only what its tests need
# (docs/testing.md says why each test runs where it does):
#   build-fuzz  clang, ASan+UBSan: the libFuzzer targets, each linked against
#               the lowest stage it parses into, for a bounded time;
#   build-asan  the whole suite under ASan+UBSan (-O1), less the
#               flavour-independent tests;
#   build-tsan  the whole suite under ThreadSanitizer, less those and the
#               tests that start no thread (labels netns, single-threaded);
#   build       Release with the MPI layer beside the plain `ecmpsim` and the
#               Python module: every test (the mpi and python ones too), the
#               layer checks, the benchmarks run once briefly. Ends with
#               CTest's summary.
# Every tree treats warnings as errors. Prints each phase's wall time as it
# ends and all of them, with the total, at the end (also when a phase fails).
# First installs what scripts/setup.sh --test installs, when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

phases=()
started=$SECONDS
trees=()
# The phase times, then each tree's CTest summary and the count over all
# trees as the closing line.
summary() {
  echo "== phase times (wall)"
  for p in "${phases[@]}"; do echo "   $p"; done
  printf '   %-22s %5d s\n' total $((SECONDS - started))
  local passed=0 failed=0 line n f
  for t in "${trees[@]}"; do
    line=$(grep -E 'tests passed, [0-9]+ tests? failed out of' "$t/ctest.log" | tail -n 1) || continue
    echo "   $t: $line"
    n=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<< "$line")
    f=$(sed -E 's/.* ([0-9]+) tests? failed.*/\1/' <<< "$line")
    passed=$((passed + n - f)) failed=$((failed + f))
  done
  [ ${#trees[@]} -eq 0 ] || echo "all trees: $passed passed, $failed failed"
}
trap summary EXIT
# phase NAME COMMAND...: runs COMMAND and records how long it took.
phase() {
  local name=$1 t0=$SECONDS
  shift
  "$@"
  phases+=("$(printf '%-22s %5d s' "$name" $((SECONDS - t0)))")
  echo "== $name: $((SECONDS - t0)) s" >&2
}
# run_tests TREE CTEST-ARGS...: CTest in TREE, its output kept for the summary.
run_tests() {
  local tree=$1
  shift
  trees+=("$tree")
  ctest --test-dir "$tree" -j "$jobs" --output-on-failure "$@" 2>&1 | tee "$tree/ctest.log"
}

phase setup scripts/setup.sh --test

common=(-G Ninja -DECMPSIM_WERROR=ON)

# -g1: line tables are all a crash report needs.
phase "fuzz configure" env CC=clang CXX=clang++ cmake -S . -B build-fuzz "${common[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DECMPSIM_FUZZ=ON -DECMPSIM_FUZZ_SECONDS="${ECMPSIM_FUZZ_SECONDS:-20}" >/dev/null
phase "fuzz build" cmake --build build-fuzz -j "$jobs" --target fuzz_targets
# Each target runs its full time on a core of its own.
phase "fuzz test" run_tests build-fuzz

# -O1 -g1: a third of -O0's test time for the same checks; line tables are
# all the sanitizers' reports need. Debug keeps assert() on.
phase "asan configure" cmake -S . -B build-asan "${common[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DECMPSIM_SANITIZE=ON -DECMPSIM_TESTS=ON >/dev/null
phase "asan build" cmake --build build-asan -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
phase "asan test" run_tests build-asan -LE flavour-independent
unset ASAN_OPTIONS UBSAN_OPTIONS

# ThreadSanitizer: the whole suite again, threads from std::thread (sim/base/parallel.h).
phase "tsan configure" cmake -S . -B build-tsan "${common[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DECMPSIM_TSAN=ON -DECMPSIM_TESTS=ON >/dev/null
phase "tsan build" cmake --build build-tsan -j "$jobs"
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
phase "tsan test" run_tests build-tsan -LE 'flavour-independent|netns|single-threaded'

# The Python module for Debian's interpreter, whose site-packages hold what
# setup.sh installed (a pyenv or venv python3 first on PATH may not).
python=()
[ -x /usr/bin/python3 ] && python=(-DPython3_EXECUTABLE=/usr/bin/python3)
# The MPI executable as build/ecmpsim-mpi, so that the plain build/ecmpsim
# and the MPI layer share one tree's objects.
phase "release configure" cmake -S . -B build "${common[@]}" -DCMAKE_BUILD_TYPE=Release -DECMPSIM_TESTS=ON \
  -DECMPSIM_BENCH=ON -DECMPSIM_LAYER_CHECKS=ON -DECMPSIM_MPI=ON -DECMPSIM_MPI_BINARY=ecmpsim-mpi \
  -DECMPSIM_PYTHON=ON "${python[@]}" >/dev/null
phase "release build" cmake --build build -j "$jobs"
phase "release test" run_tests build

#!/usr/bin/env bash
# Runs the distribution test under mpirun with 2 and 3 ranks (oversubscribed:
# the machine may have fewer cores than ranks).
# Usage: distribute.sh MPIEXEC TEST_EXE
set -euo pipefail
mpiexec=$1 exe=$2
# Root in containers: Open MPI refuses to run as root without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for np in 2 3; do
  "$mpiexec" --oversubscribe -np "$np" "$exe" || { echo "distribute test failed with -np $np" >&2; exit 1; }
done

#include "sim/cli/mpi/mpi_ranks.h"

#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "sim/mpi/sweep_ranks.h"

namespace ecmpsim::cli {

void MpiRanks::agree(const std::function<void()>& setup) const {
  std::exception_ptr error;
  try {
    setup();
  } catch (...) {
    error = std::current_exception();
  }
  mpi::raise_first_failure(session_, error);
}

SweepRun MpiRanks::run_sweep(const Sweep& sweep, unsigned threads, SweepControl& control,
                            RankCheckpointing* ck) const {
  return mpi::run_sweep_on_ranks(session_, sweep, threads, control, ck);
}

bool MpiRanks::terminal() const {
  if (session_.rank() != 0) return false;
  if (::isatty(STDERR_FILENO) == 1) return true;
  // Open MPI gives a rank a pipe for stderr; mpirun (the parent of the ranks
  // on its own node) has the user's.
  const std::string parent = "/proc/" + std::to_string(::getppid()) + "/fd/2";
  const int fd = ::open(parent.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool tty = ::isatty(fd) == 1;
  ::close(fd);
  return tty;
}

}  // namespace ecmpsim::cli

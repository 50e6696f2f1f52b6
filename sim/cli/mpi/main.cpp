// `ecmpsim` built with -DECMPSIM_MPI=ON: the same command line, run by every
// rank of an MPI job. `sweep` splits its variants across the ranks; rank 0
// alone prints and writes files.
#include <csignal>
#include <cstdint>
#include <iostream>
#include <pthread.h>
#include <string>

#include "hashing/xxh.h"
#include "sim/base/output_file.h"
#include "sim/cli/run.h"
#include "sim/cli/mpi/mpi_ranks.h"
#include "sim/mpi/distribute.h"

int main(int argc, char** argv) {
  // Open MPI starts threads in MPI_Init. They inherit the stop signals
  // blocked, so those reach a sweep's watching thread (sim/app/stop_signals.h)
  // or the main thread, never an MPI thread, where their default action would
  // end the process.
  sigset_t stops, old;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &stops, &old);
  const ecmpsim::mpi::Session session(argc, argv);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);

  if (session.size() == 1) return ecmpsim::checked_stdout(ecmpsim::cli::run(argc, argv, {std::cout, std::cerr}), std::cerr);
  // The ranks only meet in the collectives of one sweep when they run one
  // command line; an MPMD launch that gives them different ones fails here.
  std::string line;
  for (int i = 1; i < argc; ++i) line.append(argv[i]).push_back('\0');
  const std::uint64_t fingerprint =
      ecmpsim::hashing::xxh64({reinterpret_cast<const std::uint8_t*>(line.data()), line.size()}, 0);
  if (!ecmpsim::mpi::same_on_every_rank(session, fingerprint)) {
    if (session.rank() == 0) std::cerr << "ecmpsim: the ranks were given different command lines\n";
    return 2;
  }
  const ecmpsim::cli::MpiRanks ranks(session);
  std::ostream discard(nullptr);  // the other ranks' output and errors are rank 0's too
  const ecmpsim::cli::Io io = session.rank() == 0 ? ecmpsim::cli::Io{std::cout, std::cerr, &ranks}
                                                  : ecmpsim::cli::Io{discard, discard, &ranks};
  const int code = ecmpsim::cli::run(argc, argv, io);
  return session.rank() == 0 ? ecmpsim::checked_stdout(code, std::cerr) : code;
}

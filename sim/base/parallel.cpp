#include "sim/base/parallel.h"

#ifdef ECMPSIM_STD_THREADS
#include <sched.h>
#include <thread>
#else
#include <tbb/info.h>
#endif

namespace ecmpsim {

unsigned default_threads() noexcept {
#ifdef ECMPSIM_STD_THREADS
  // The cores this process may run on (as TBB counts them), not the machine's.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
  const unsigned n = std::thread::hardware_concurrency();
  return n > 0 ? n : 1;
#else
  const int n = tbb::info::default_concurrency();
  return n > 0 ? static_cast<unsigned>(n) : 1;
#endif
}

}  // namespace ecmpsim

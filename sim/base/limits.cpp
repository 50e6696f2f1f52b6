// The machine's memory, for the default of --max-memory (limits.h).
#include "sim/base/limits.h"

#include <unistd.h>

namespace ecmpsim {

std::uint64_t half_physical_memory() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 8ULL << 30;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
}

}  // namespace ecmpsim

// A deliberate data race through on_threads: the TSan build's CTest expects
// ThreadSanitizer to report it, proving that the sanitizer sees the threads
// the sweeps run on (a silent TSan would make the rest of that run worthless).
#include <cstdio>

#include "sim/base/parallel.h"

int main() {
  static volatile long shared = 0;
  ecmpsim::on_threads(2, [](unsigned t) {
    for (int i = 0; i < 100000; ++i) shared = shared + t + 1;
  });
  std::printf("%ld\n", shared);
}

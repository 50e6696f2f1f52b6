#include <iostream>

#include "sim/base/output_file.h"
#include "sim/cli/run.h"

int main(int argc, char** argv) {
  return ecmpsim::checked_stdout(ecmpsim::cli::run(argc, argv, {std::cout, std::cerr}), std::cerr);
}

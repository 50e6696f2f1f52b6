#include <iostream>

#include "sim/cli/run.h"

int main(int argc, char** argv) { return ecmpsim::cli::run(argc, argv, {std::cout, std::cerr}); }

// The report's stylesheet, inlined into the page: screen at 1280 px and print.
#pragma once

#include <string>

namespace ecmpsim::report {

std::string stylesheet();

}  // namespace ecmpsim::report

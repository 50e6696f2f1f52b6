// Files a command-line test writes and reads back: a scratch folder of its
// own under the system's temporary directory, and a file's whole text.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ecmpsim::test_support {

// <tmp>/`name`, created if absent.
inline std::filesystem::path temp_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::create_directories(dir);
  return dir;
}

// The file's text; empty when it cannot be read (a test then fails on its content).
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ecmpsim::test_support

#include "sim/base/input_file.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace input_file_test {

using namespace ecmpsim;

namespace {

std::string error_of(const std::string& path) {
  try {
    read_input_file(path, {path, 0, 0, {}}, "the test file");
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace

TEST_CASE("read_input_file returns every byte, binary and larger than one read chunk") {
  const auto path = std::filesystem::temp_directory_path() / "ecmpsim_input_file_test.bin";
  std::string data;
  for (int i = 0; i < 300000; ++i) data += static_cast<char>((i * 7919) & 0xFF);  // NULs and CRs included
  std::ofstream(path, std::ios::binary) << data;
  CHECK(read_input_file(path.string(), {}, "x") == data);
  std::ofstream(path, std::ios::binary | std::ios::trunc).flush();
  CHECK(read_input_file(path.string(), {}, "x").empty());
  std::filesystem::remove(path);
}

TEST_CASE("read_input_file names the file and the cause") {
  CHECK(error_of("/nonexistent/ecmpsim.toml") == "/nonexistent/ecmpsim.toml: cannot open the test file");
  const auto dir = std::filesystem::temp_directory_path().string();
  CHECK(error_of(dir) == dir + ": cannot read the test file");
}

TEST_CASE("read_stream reads a pipe to its end") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string data = "src,dst,proto,sport,dport\n10.0.0.1,10.0.0.2,17,49152,4791\n";
  REQUIRE(::write(fds[1], data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  ::close(fds[1]);
  std::FILE* in = ::fdopen(fds[0], "rb");
  REQUIRE(in != nullptr);
  CHECK(read_stream(in) == data);
  std::fclose(in);
}
}  // namespace input_file_test

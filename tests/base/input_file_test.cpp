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

const ByteLimit kNoLimit{~0ULL, "max_test_bytes"};

std::string error_of(const std::string& path) {
  try {
    read_input_file(path, {path, 0, 0, {}}, "the test file", kNoLimit);
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
  CHECK(read_input_file(path.string(), {}, "x", kNoLimit) == data);
  std::ofstream(path, std::ios::binary | std::ios::trunc).flush();
  CHECK(read_input_file(path.string(), {}, "x", kNoLimit).empty());
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
  CHECK(read_stream(in, ~0ULL) == data);
  std::fclose(in);
}
// D5 (issue 47): a reader stops at its limit on what is not a regular file.
TEST_CASE("read_input_file: a regular file past the limit is refused unread, a device when reading passes it") {
  const auto path = std::filesystem::temp_directory_path() / "ecmpsim_input_limit_test.bin";
  std::ofstream(path, std::ios::binary) << std::string(1000, 'x');
  const std::string p = path.string();
  CHECK(read_input_file(p, {p, 0, 0, {}}, "file", {1000, "max_x"}).size() == 1000);  // at the limit: read
  try {
    read_input_file(p, {p, 0, 0, {}}, "file", {999, "max_x"});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.describe() == p + ": --max-x: the file has 1000 bytes, more than the limit of 999");
  }
  std::filesystem::remove(path);
  try {
    read_input_file("/dev/zero", {"/dev/zero", 0, 0, {}}, "the flows file", {1 << 20, "max_capture_bytes"});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.describe() == "/dev/zero: --max-capture-bytes: the flows file holds more than the limit of 1048576 bytes");
  }
}

TEST_CASE("read_stream stops one byte past its limit, so a stream at the limit is told from one beyond it") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string data(5000, 'y');
  REQUIRE(::write(fds[1], data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  ::close(fds[1]);
  std::FILE* in = ::fdopen(fds[0], "rb");
  REQUIRE(in != nullptr);
  CHECK(read_stream(in, 100)->size() == 101);
  CHECK(read_stream(in, 10000)->size() == 4899);  // the rest: the first call read no further than 101 bytes
  std::fclose(in);
}
}  // namespace input_file_test

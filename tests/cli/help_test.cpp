// Every command's --help: options show a value name a user can type (N, X,
// SIZE, FILE, their choices) and their range and default in words, never
// CLI11's C++ type names glued to the validator ("UINT:INTEGER >= 1=4294967296").
#include <doctest/doctest.h>

#include "sim/cli/cli.h"
#include "tests/support/cli_capture.h"

#include <regex>
#include <sstream>
#include <string>

namespace help_test {

namespace {

// The tokens of CLI11's own option layout: a C++ type name (UINT, TEXT, ...)
// or a validator's (INTEGER, NUMBER), choices glued on by ':' ("TEXT:{a,b}"),
// or a default glued on by '=' ("TEXT=report.html", "... >= 1=4294967296").
const std::regex kNoise(R"(\b(UINT|INT|FLOAT|TEXT|INTEGER|NUMBER|BOOLEAN)\b|[A-Z]:\{|[0-9\]}]=\S)");

// The line of `help` that starts (after indentation) with `flag`.
std::string line_of(const std::string& help, const std::string& flag) {
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(' ') != std::string::npos && line.substr(line.find_first_not_of(' ')).rfind(flag, 0) == 0)
      return line;
  return {};
}

}  // namespace

TEST_CASE("--help of every command: no CLI11 type names, ranges and defaults in words") {
  for (const char* command : {"run", "sweep", "hash", "flows", "report", "reproduce", "emulate", "fit", "calibrate", "validate", "topology", "replay", "init"}) {
    CAPTURE(command);
    const auto r = cli_run({command, "--help"});
    REQUIRE(r.code == 0);
    REQUIRE(!r.out.empty());
    std::smatch m;
    const bool noisy = std::regex_search(r.out, m, kNoise);
    CHECK_MESSAGE(!noisy, "CLI11 type noise '" << m.str() << "' in " << command << " --help");
  }
  const auto top = cli_run({"--help"});
  CHECK(!std::regex_search(top.out, kNoise));
}

TEST_CASE("--help: a numeric flag shows N, its range and its default; a choice flag its choices") {
  const std::string sweep = cli_run({"sweep", "--help"}).out;
  const std::string threads = line_of(sweep, "-j,--threads");
  CHECK(threads.find("-j,--threads N ") != std::string::npos);
  CHECK(threads.find("(in [1, 4096], default: all cores)") != std::string::npos);
  const std::string run = cli_run({"run", "--help"}).out;
  CHECK(line_of(run, "-f,--format").find("{table,summary,json,csv}") != std::string::npos);
  const std::string hosts = line_of(run, "--max-hosts");
  CHECK(hosts.find("--max-hosts N ") != std::string::npos);
  CHECK(hosts.find("(>= 1, default: 1000000 NIC endpoints)") != std::string::npos);
  const std::string capture = line_of(run, "--max-capture-bytes");
  CHECK(capture.find("--max-capture-bytes SIZE ") != std::string::npos);
  CHECK(capture.find("default: 4G = 4294967296 bytes") != std::string::npos);
  CHECK(line_of(run, "--seed ").find("(in [0, 4294967295])") != std::string::npos);
}

// Issue 35: every limit's help says its default and its unit. The expected
// texts are worked by hand (64 MiB = 64 x 2^20 = 67108864 bytes), not read
// back from the flag table.
TEST_CASE("--help: each limit flag shows its default with its unit") {
  const std::string sweep = cli_run({"sweep", "--help"}).out;
  const std::pair<const char*, const char*> expected[] = {
      {"--max-hosts", "default: 1000000 NIC endpoints"},
      {"--max-flows", "default: 100000000 flows"},
      {"--max-switches", "default: 1000000 switches"},
      {"--max-links", "default: 10000000 cables"},
      {"--max-scenarios", "default: 100000 [[scenario]] tables"},
      {"--max-config-bytes", "default: 64M = 67108864 bytes"},
      {"--max-variants", "default: 10000000 variants"},
  };
  for (const auto& [name, text] : expected) {
    CAPTURE(name);
    CHECK(line_of(sweep, name).find(text) != std::string::npos);
  }
  CHECK(line_of(sweep, "--max-config-bytes").find("SIZE in bytes, or with a unit") != std::string::npos);
}

TEST_CASE("--help: --max-capture-bytes only on the commands that read a measurement file") {
  for (const char* command : {"run", "report", "calibrate", "fit", "hash"}) {
    CAPTURE(command);
    CHECK(cli_run({command, "--help"}).out.find("--max-capture-bytes") != std::string::npos);
  }
  for (const char* command : {"sweep", "flows", "reproduce", "emulate"}) {
    CAPTURE(command);
    CHECK(cli_run({command, "--help"}).out.find("--max-capture-bytes") == std::string::npos);
    CHECK(cli_run({command, "--help"}).out.find("--max-hosts") != std::string::npos);
    CHECK(cli_run({command, "--help"}).out.find("--max-memory") != std::string::npos);
  }
}

TEST_CASE("negative control: CLI11's own formatter prints the noise the help test looks for") {
  CLI::App app{"x", "x"};
  unsigned threads = 4;
  app.add_option("--threads", threads, "Threads")->capture_default_str()->check(ecmpsim::cli::integer_in(1, 4096));
  const std::string plain = app.help();
  CHECK(std::regex_search(plain, kNoise));
  app.formatter(ecmpsim::cli::help_formatter());
  const std::string ours = app.help();
  CHECK(!std::regex_search(ours, kNoise));
  CHECK(ours.find("--threads N") != std::string::npos);
  CHECK(ours.find("(in [1, 4096], default: 4)") != std::string::npos);
}
}  // namespace help_test

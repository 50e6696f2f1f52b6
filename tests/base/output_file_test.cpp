// --out on real special files made in a temporary directory: a symlink keeps
// being a link and its target gets the text; a FIFO, a socket and a character
// device node (/dev/null's and /dev/full's numbers) are written in place
// and stay what they were; "-" is stdout for every command.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "sim/base/error.h"
#include "sim/base/output_file.h"
#include "tests/support/cli_capture.h"

namespace output_file_test {

namespace {

namespace fs = std::filesystem;
using ecmpsim::write_output;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "ecmpsim_out_XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string read_all(int fd) {
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  return got;
}

mode_t kind_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & S_IFMT;
}

std::string error_of(const std::string& path) {
  std::ostringstream sink;
  try {
    write_output(path, "x", sink);
  } catch (const ecmpsim::InputError& e) {
    return e.describe();
  }
  return "";
}

bool must_run_privileged() {
  const char* v = std::getenv("ECMPSIM_REQUIRE_KERNEL_TESTS");
  return v != nullptr && std::string(v) == "1";
}

}  // namespace

TEST_CASE("a regular file is replaced whole and keeps its mode; a new one gets 0666 less the umask") {
  TempDir d;
  std::ostringstream sink;
  const fs::path f = d.path / "out.json";
  std::ofstream(f) << "old contents, longer than the new";
  fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write);
  write_output(f.string(), "new", sink);
  CHECK(slurp(f) == "new");
  CHECK(fs::status(f).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(sink.str().empty());

  const mode_t mask = ::umask(022);
  write_output((d.path / "fresh").string(), "x", sink);
  ::umask(mask);
  CHECK((fs::status(d.path / "fresh").permissions() & fs::perms::mask) == static_cast<fs::perms>(0644));
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 2);  // no temporary left
}

TEST_CASE("a symlink stays a link; its target (through a relative chain, or dangling) gets the text") {
  TempDir d;
  std::ostringstream sink;
  fs::create_directories(d.path / "real");
  std::ofstream(d.path / "real" / "file") << "old";
  fs::create_symlink("real/file", d.path / "hop");
  fs::create_symlink("hop", d.path / "link");
  write_output((d.path / "link").string(), "through two links", sink);
  CHECK(kind_of(d.path / "link") == S_IFLNK);
  CHECK(kind_of(d.path / "hop") == S_IFLNK);
  CHECK(kind_of(d.path / "real" / "file") == S_IFREG);
  CHECK(slurp(d.path / "real" / "file") == "through two links");

  fs::create_symlink("real/missing", d.path / "dangling");
  write_output((d.path / "dangling").string(), "created", sink);
  CHECK(kind_of(d.path / "dangling") == S_IFLNK);
  CHECK(slurp(d.path / "real" / "missing") == "created");

  fs::create_symlink("loop", d.path / "loop");
  CHECK(error_of((d.path / "loop").string()) ==
        (d.path / "loop").string() + ": cannot write output file: Too many levels of symbolic links");
}

TEST_CASE("a FIFO is written in place and stays a FIFO") {
  TempDir d;
  const fs::path fifo = d.path / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto reader = std::async(std::launch::async, [&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    std::string got = read_all(fd);
    ::close(fd);
    return got;
  });
  std::ostringstream sink;
  CHECK(ecmpsim::output_kind(fifo.string()) == ecmpsim::OutputKind::Direct);
  write_output(fifo.string(), std::string(200000, 'f'), sink);  // more than a pipe buffer holds
  CHECK(reader.get() == std::string(200000, 'f'));
  CHECK(kind_of(fifo) == S_IFIFO);
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);
}

TEST_CASE("a listening Unix socket receives the text; the socket file stays") {
  TempDir d;
  const fs::path path = d.path / "sock";
  const int srv = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  REQUIRE(::bind(srv, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
  REQUIRE(::listen(srv, 1) == 0);
  auto reader = std::async(std::launch::async, [&] {
    const int c = ::accept(srv, nullptr, nullptr);
    std::string got = read_all(c);
    ::close(c);
    return got;
  });
  std::ostringstream sink;
  write_output(path.string(), "to the socket", sink);
  CHECK(reader.get() == "to the socket");
  CHECK(kind_of(path) == S_IFSOCK);
  ::close(srv);
}

TEST_CASE("a character device node is written in place: /dev/null's node stays a node, /dev/full's says ENOSPC") {
  if (::geteuid() != 0) {
    if (must_run_privileged()) FAIL("ECMPSIM_REQUIRE_KERNEL_TESTS=1, but mknod needs root");
    MESSAGE("skipped: mknod needs root");
    return;
  }
  TempDir d;
  const fs::path null = d.path / "null", full = d.path / "full";
  REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
  REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
  const CliResult r = cli_run({"run", "--format", "json", "--out", null.string()});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  struct stat st {};
  REQUIRE(::lstat(null.c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK(st.st_rdev == makedev(1, 3));
  // The write reached the device itself: a temporary renamed over it would have succeeded.
  CHECK(error_of(full.string()) == full.string() + ": cannot write output file: No space left on device");
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 2);
}

TEST_CASE("a directory or an unreachable path is a one-line error, and nothing is created") {
  TempDir d;
  fs::create_directories(d.path / "sub");
  CHECK(error_of((d.path / "sub").string()) == (d.path / "sub").string() + ": cannot write output file: Is a directory");
  std::ofstream(d.path / "plain") << "x";
  CHECK(error_of((d.path / "plain" / "x").string()) ==
        (d.path / "plain" / "x").string() + ": cannot write output file: Not a directory");
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 2);
}

TEST_CASE("--out - is stdout for every command that writes one; no file named '-' appears") {
  TempDir d;
  const fs::path cwd = fs::current_path();
  const std::string cfg = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";
  fs::current_path(d.path);
  const std::vector<std::vector<std::string>> commands{
      {"run", cfg, "--format", "json", "--out", "-"},
      {"flows", cfg, "--out", "-"},
      {"hash", "--algo", "crc16-ccitt", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "49152", "--members", "4", "--out", "-"},
      {"sweep", cfg, "--seeds", "0:4", "--format", "json", "--out", "-"},
      {"report", cfg, "--seeds", "0:4", "--out", "-"},
      {"reproduce", "--config", cfg, "--seeds", "0:4", "--out", "-"},
  };
  for (const auto& args : commands) {
    CAPTURE(args[0]);
    const CliResult r = cli_run(args);
    CHECK(r.code == 0);
    CHECK(!r.out.empty());
    CHECK(!fs::exists(d.path / "-"));
  }
  const CliResult page = cli_run({"reproduce", "--config", cfg, "--seeds", "0:4", "--out", "-"});
  CHECK(page.out.rfind("<!DOCTYPE html>", 0) == 0);  // the page alone; the table went to stderr
  CHECK(page.err.find("FlowTracer") != std::string::npos);
  fs::current_path(cwd);
}

TEST_CASE("sweep --out through a symlink into a FIFO: the reader gets the whole report") {
  TempDir d;
  const fs::path fifo = d.path / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink("pipe", d.path / "link");
  auto reader = std::async(std::launch::async, [&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    std::string got = read_all(fd);
    ::close(fd);
    return got;
  });
  const std::string cfg = std::string(ECMPSIM_SOURCE_DIR) + "/configs/paper16.toml";
  const CliResult r = cli_run({"sweep", cfg, "--seeds", "0:8", "--format", "json", "--out", (d.path / "link").string()});
  CHECK(r.code == 0);
  const std::string got = reader.get();
  CHECK(got.find("\"variants\": 8") != std::string::npos);
  CHECK(kind_of(d.path / "link") == S_IFLNK);
  CHECK(kind_of(fifo) == S_IFIFO);
}
TEST_CASE("a descriptor's name writes to that descriptor, as it is open") {
  using ecmpsim::descriptor_path;
  CHECK(descriptor_path("/dev/stdout") == 1);
  CHECK(descriptor_path("/dev/stderr") == 2);
  CHECK(descriptor_path("/dev/fd/7") == 7);
  CHECK(descriptor_path("/proc/self/fd/12") == 12);
  for (const char* not_one : {"/dev/fd/", "/dev/fd/1x", "/dev/fd/-1", "/dev/null", "fd/3", "/proc/1/fd/3", "-"})
    CHECK_FALSE(descriptor_path(not_one));
  CHECK(ecmpsim::output_kind("/dev/stdout") == ecmpsim::OutputKind::Stdout);
  CHECK(ecmpsim::output_kind("/dev/fd/5") == ecmpsim::OutputKind::Descriptor);

  // /dev/stdout is the stream "-" writes to.
  std::ostringstream out;
  write_output("/dev/stdout", "to stdout", out);
  CHECK(out.str() == "to stdout");
  // A pipe's write end, named by /dev/fd/N and /proc/self/fd/N: the reader gets the text.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  write_output("/dev/fd/" + std::to_string(fds[1]), "through ", out);
  write_output("/proc/self/fd/" + std::to_string(fds[1]), "the pipe", out);
  ::close(fds[1]);
  CHECK(read_all(fds[0]) == "through the pipe");
  ::close(fds[0]);
  // A file opened for appending stays appended to (the shell's >>).
  TempDir dir;
  const fs::path log = dir.path / "log";
  { std::ofstream(log) << "first\n"; }
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND);
  REQUIRE(fd >= 0);
  write_output("/dev/fd/" + std::to_string(fd), "second\n", out);
  ::close(fd);
  CHECK(slurp(log) == "first\nsecond\n");
  // A closed descriptor is a one-line error.
  CHECK(error_of("/dev/fd/" + std::to_string(fd)) ==
        "/dev/fd/" + std::to_string(fd) + ": cannot write output file: Bad file descriptor");
}

TEST_CASE("an input is never written over, whatever path names it") {
  TempDir dir;
  const fs::path in = dir.path / "in.toml";
  { std::ofstream(in) << "input"; }
  fs::create_symlink("in.toml", dir.path / "link.toml");
  fs::create_hard_link(in, dir.path / "hard.toml");
  const std::vector<std::string> inputs{in.string()};
  std::ostringstream out;
  for (const fs::path& target : {in, dir.path / "." / "in.toml", dir.path / "link.toml", dir.path / "hard.toml"}) {
    CAPTURE(target);
    try {
      write_output(target.string(), "output", out, inputs);
      FAIL("written over the input");
    } catch (const ecmpsim::InputError& e) {
      CHECK(e.describe() == target.string() + ": cannot write output file: it is this command's input '" +
                                in.string() + "'; choose another file");
    }
  }
  CHECK(slurp(in) == "input");
  // The negative control: a file that is not an input is written.
  write_output((dir.path / "other.toml").string(), "output", out, inputs);
  CHECK(slurp(dir.path / "other.toml") == "output");
}

TEST_CASE("a killed run's temporaries of the same target are removed by the next write; a live writer's stay") {
  const TempDir dir;
  std::ostringstream out;
  const fs::path target = dir.path / "out.txt";
  auto touch = [&](const std::string& name) { std::ofstream(dir.path / name) << "stale"; };
  touch(".out.txt.a1B2c3");    // a SIGKILLed writer's: nobody holds its lock
  touch(".out.txt.abcdefg");   // not mkstemp's six characters
  touch(".other.txt.a1B2c3");  // another target's
  touch("out.txt.a1B2c3");     // no leading dot: not a temporary
  // A live writer's temporary: locked, as replace_atomically holds its own.
  touch(".out.txt.L1v3w8");
  const int live = ::open((dir.path / ".out.txt.L1v3w8").c_str(), O_RDONLY);
  REQUIRE(live >= 0);
  REQUIRE(::flock(live, LOCK_EX) == 0);
  write_output(target.string(), "new", out);
  CHECK(slurp(target) == "new");
  CHECK_FALSE(fs::exists(dir.path / ".out.txt.a1B2c3"));
  CHECK(fs::exists(dir.path / ".out.txt.L1v3w8"));
  CHECK(fs::exists(dir.path / ".out.txt.abcdefg"));
  CHECK(fs::exists(dir.path / ".other.txt.a1B2c3"));
  CHECK(fs::exists(dir.path / "out.txt.a1B2c3"));
  // Its writer gone (the lock dropped), the next write removes it too.
  ::close(live);
  write_output(target.string(), "again", out);
  CHECK_FALSE(fs::exists(dir.path / ".out.txt.L1v3w8"));
  std::size_t left = 0;
  for (const auto& e : fs::directory_iterator(dir.path)) left += e.path().filename().string().rfind(".out.txt.", 0) == 0;
  CHECK(left == 1);  // .out.txt.abcdefg only: no temporary of ours stays behind
}

TEST_CASE("replace_file writes its parts in order, atomically, and refuses an input") {
  const TempDir dir;
  const std::string path = (dir.path / "ck").string();
  const std::string_view parts[] = {"head\n", std::string_view("\0bin\0", 5), "tail\n"};
  ecmpsim::replace_file(path, parts);
  CHECK(slurp(path) == std::string("head\n\0bin\0tail\n", 15));
  const std::vector<std::string> inputs{path};
  CHECK_THROWS_AS(ecmpsim::replace_file(path, parts, inputs), ecmpsim::InputError);
  CHECK_THROWS_AS(ecmpsim::replace_file((dir.path).string(), parts), ecmpsim::InputError);
}
}  // namespace output_file_test

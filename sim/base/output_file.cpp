#include "sim/base/output_file.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sim/base/error.h"

namespace ecmpsim {
namespace {

namespace fs = std::filesystem;

constexpr const char* kStdoutFailed = "standard output: cannot write output";

[[noreturn]] void fail(const std::string& path, const std::string& cause) {
  throw InputError({path, 0, 0, {}}, "cannot write output file: " + cause);
}

// The path a chain of symlinks ends at (which need not exist yet). Relative
// link targets are taken from the link's own directory, as the kernel does.
fs::path follow_links(const std::string& path) {
  fs::path p(path);
  for (int hops = 0; hops < 40; ++hops) {  // 40: Linux's MAXSYMLINKS
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::error_code ec;
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) fail(path, ec.message());
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  fail(path, std::strerror(ELOOP));
}

// Writes all of `text` to `fd`, retrying short writes; "" or why it failed.
std::string write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (n < 0 && errno != EINTR)
      return std::strerror(errno);
  }
  return {};
}

// A device, FIFO or socket: written in place, never replaced.
void write_direct(const std::string& path, const fs::path& target, bool socket, const std::string& text) {
  int fd = -1;
  if (socket) {
    fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string name = target.string();
    if (fd >= 0 && name.size() < sizeof addr.sun_path) {
      std::memcpy(addr.sun_path, name.c_str(), name.size() + 1);
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        const int err = errno;
        ::close(fd);
        fail(path, std::strerror(err));
      }
    } else if (fd >= 0) {
      ::close(fd);
      fail(path, std::strerror(ENAMETOOLONG));
    }
  } else {
    fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  }
  if (fd < 0) fail(path, std::strerror(errno));
  std::string cause = write_all(fd, text);
  if (::close(fd) != 0 && cause.empty() && errno != EINTR) cause = std::strerror(errno);
  if (!cause.empty()) fail(path, cause);
}

// The mode a new file gets from open(2): 0666 less the umask.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

// A regular file or a new one: a temporary beside it, renamed over it when whole.
void replace_atomically(const std::string& path, const fs::path& target, mode_t mode, const std::string& text) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    throw InputError({path, 0, 0, {}}, "cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
  std::string cause = write_all(fd, text);
  if (cause.empty() && ::fchmod(fd, mode) != 0) cause = std::strerror(errno);
  if (cause.empty() && ::fsync(fd) != 0) cause = std::strerror(errno);
  if (::close(fd) != 0 && cause.empty()) cause = std::strerror(errno);
  if (cause.empty() && ::rename(tmpl.c_str(), target.c_str()) != 0) cause = std::strerror(errno);
  if (!cause.empty()) {
    ::unlink(tmpl.c_str());
    fail(path, cause);
  }
}

// The target (a regular file, `st`) must not be one of the command's inputs.
void refuse_inputs(const std::string& path, const struct stat& st, std::span<const std::string> inputs) {
  for (const std::string& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
      fail(path, "it is this command's input '" + input + "'; choose another file");
  }
}

}  // namespace

std::optional<int> descriptor_path(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view dir : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() <= dir.size() || path.compare(0, dir.size(), dir) != 0) continue;
    int fd = 0;
    const char* first = path.data() + dir.size();
    const char* last = path.data() + path.size();
    const auto [end, ec] = std::from_chars(first, last, fd);
    if (ec == std::errc() && end == last && fd >= 0) return fd;
  }
  return std::nullopt;
}

int checked_stdout(int code, std::ostream& err) {
  errno = 0;
  std::cout.flush();
  const int cause = errno;
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  // A command that failed has said why in its one line (write_output's, when
  // it was this); a reader that went away (EPIPE) is no error of ours.
  if (!failed || code != 0 || cause == EPIPE) return code;
  err << "ecmpsim: " << kStdoutFailed << (cause != 0 ? ": " + std::string(std::strerror(cause)) : "") << "\n";
  return 2;
}

OutputKind output_kind(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return OutputKind::Stdout;
  if (descriptor_path(path)) return OutputKind::Descriptor;
  struct stat st {};
  if (::stat(follow_links(path).c_str(), &st) != 0) return OutputKind::Replace;
  return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? OutputKind::Replace : OutputKind::Direct;
}

void write_output(const std::string& path, const std::string& text, std::ostream& stdout_stream,
                  std::span<const std::string> inputs) {
  if (path.empty()) throw InputError({"", 0, 0, "--out"}, "no file given");
  const std::optional<int> fd = path == "-" ? 1 : descriptor_path(path);
  if (fd == 1) {
    errno = 0;
    stdout_stream << text << std::flush;
    if (!stdout_stream && errno != EPIPE)
      throw InputError({}, std::string(kStdoutFailed) + (errno != 0 ? ": " + std::string(std::strerror(errno)) : ""));
    return;
  }
  if (fd) {
    if (::fcntl(*fd, F_GETFD) == -1) fail(path, std::strerror(EBADF));
    if (const std::string cause = write_all(*fd, text); !cause.empty()) fail(path, cause);
    return;
  }
  const fs::path target = follow_links(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(path, std::strerror(errno));
    replace_atomically(path, target, new_file_mode(), text);
  } else if (S_ISDIR(st.st_mode)) {
    fail(path, std::strerror(EISDIR));
  } else if (S_ISREG(st.st_mode)) {
    refuse_inputs(path, st, inputs);
    if (::access(target.c_str(), W_OK) != 0) fail(path, std::strerror(errno));
    replace_atomically(path, target, st.st_mode & 07777, text);
  } else {
    write_direct(path, target, S_ISSOCK(st.st_mode), text);
  }
}

}  // namespace ecmpsim

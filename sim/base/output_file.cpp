#include "sim/base/output_file.h"

#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <ostream>
#include <sys/file.h>
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
std::string write_all(int fd, std::string_view text) {
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

// Writes every piece `produce` makes to `fd`; after the first failure, whose
// cause goes to `cause`, the rest are made but not written.
void produce_into(int fd, const OutputProducer& produce, std::string& cause) {
  produce([&](std::string_view piece) {
    if (cause.empty()) cause = write_all(fd, piece);
  });
}

// A device, FIFO or socket: written in place, never replaced.
void write_direct(const std::string& path, const fs::path& target, bool socket, const OutputProducer& produce) {
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
  std::string cause;
  try {
    produce_into(fd, produce, cause);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0 && cause.empty() && errno != EINTR) cause = std::strerror(errno);
  if (!cause.empty()) fail(path, cause);
}

// The mode a new file gets from open(2): 0666 less the umask.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}


// The temporary being written, for the signal handler below to remove: a
// handler can reach nothing else, hence this one process-wide buffer (one
// write at a time: outputs are written from the main thread).
char g_writing_temp[PATH_MAX + 1];

// SIGINT, SIGTERM and SIGHUP while a temporary is written: remove it, then
// die of the signal as the default action would (unlink, signal and raise
// are async-signal-safe).
void remove_temp_and_die(int sig) {
  if (g_writing_temp[0] != '\0') ::unlink(g_writing_temp);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Installs remove_temp_and_die for the signals whose action is the default
// (terminate) while a temporary of `path` exists, and restores them after.
class TempGuard {
 public:
  explicit TempGuard(const std::string& temp) {
    if (temp.size() < sizeof g_writing_temp) std::memcpy(g_writing_temp, temp.c_str(), temp.size() + 1);
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction now {};
      now.sa_handler = remove_temp_and_die;
      sigemptyset(&now.sa_mask);
      ::sigaction(kSignals[i], nullptr, &old_[i]);
      installed_[i] = old_[i].sa_handler == SIG_DFL && ::sigaction(kSignals[i], &now, nullptr) == 0;
    }
  }
  ~TempGuard() {
    for (std::size_t i = 0; i < kSignals.size(); ++i)
      if (installed_[i]) ::sigaction(kSignals[i], &old_[i], nullptr);
    g_writing_temp[0] = '\0';
  }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;

 private:
  static constexpr std::array<int, 3> kSignals{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> old_{};
  std::array<bool, 3> installed_{};
};

// Removes the temporaries of `target` ('.NAME.XXXXXX' beside it) that a
// killed run left: a writer holds an exclusive flock on its temporary for as
// long as it writes, and the kernel drops the lock when the writer dies, so a
// temporary that can be locked has no writer left.
void remove_stale_temps(const fs::path& dir, const std::string& name) {
  const std::string prefix = "." + name + ".";
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (entry.size() != prefix.size() + 6 || entry.compare(0, prefix.size(), prefix) != 0) continue;
    const int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(it->path().c_str());
    ::close(fd);
  }
}

// A new locked temporary beside `target`: its descriptor, its name in `tmpl`.
// Locked before it can be written, and created again should a cleaner have
// removed it between mkstemp and flock.
int locked_temp(const std::string& path, const fs::path& dir, const fs::path& target, std::string& tmpl) {
  for (;;) {
    tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
      throw InputError({path, 0, 0, {}},
                       "cannot create a temporary file in " + dir.string() + ": " + std::strerror(errno));
    struct stat mine {}, named {};
    if (::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &mine) == 0 && ::stat(tmpl.c_str(), &named) == 0 &&
        mine.st_ino == named.st_ino && mine.st_dev == named.st_dev)
      return fd;
    ::close(fd);
  }
}

// A regular file or a new one: a temporary beside it, renamed over it when whole.
void replace_atomically(const std::string& path, const fs::path& target, mode_t mode,
                        const OutputProducer& produce) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  remove_stale_temps(dir, target.filename().string());
  std::string tmpl;
  // The signals wait from before the temporary exists until the guard that
  // removes it is in place: one arriving in between would leave it behind.
  sigset_t stops, before;
  sigemptyset(&stops);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  ::pthread_sigmask(SIG_BLOCK, &stops, &before);
  int fd = -1;
  try {
    fd = locked_temp(path, dir, target, tmpl);
  } catch (...) {
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    throw;
  }
  const TempGuard guard(tmpl);
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  std::string cause;
  try {
    produce_into(fd, produce, cause);
  } catch (...) {
    ::unlink(tmpl.c_str());
    ::close(fd);
    throw;
  }
  if (cause.empty() && ::fchmod(fd, mode) != 0) cause = std::strerror(errno);
  if (cause.empty() && ::fsync(fd) != 0) cause = std::strerror(errno);
  if (cause.empty() && ::rename(tmpl.c_str(), target.c_str()) != 0) cause = std::strerror(errno);
  if (!cause.empty()) ::unlink(tmpl.c_str());
  if (::close(fd) != 0 && cause.empty()) cause = std::strerror(errno);
  if (!cause.empty()) fail(path, cause);
}

// The target (a regular file, `st`) must not be one of the command's inputs.
void refuse_inputs(const std::string& path, const struct stat& st, std::span<const std::string> inputs) {
  for (const std::string& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino)
      fail(path, "it is this command's input '" + input + "'; choose another file");
  }
}

// Standard output: each piece as it comes. A failure other than EPIPE is an
// error; after EPIPE (the reader went away) the pieces are made but dropped.
void write_stdout(const OutputProducer& produce, std::ostream& out) {
  bool gone = false;
  produce([&](std::string_view piece) {
    if (gone) return;
    errno = 0;
    out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
    if (out) return;
    if (errno != EPIPE)
      throw InputError({}, std::string(kStdoutFailed) + (errno != 0 ? ": " + std::string(std::strerror(errno)) : ""));
    gone = true;
  });
  if (gone) return;
  errno = 0;
  out.flush();
  if (!out && errno != EPIPE)
    throw InputError({}, std::string(kStdoutFailed) + (errno != 0 ? ": " + std::string(std::strerror(errno)) : ""));
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

void check_output(const std::string& path, std::span<const std::string> inputs) {
  if (path.empty()) throw InputError(option_at("out"), "no file given");
  const std::optional<int> fd = path == "-" ? 1 : descriptor_path(path);
  if (fd) {
    if (*fd != 1 && ::fcntl(*fd, F_GETFD) == -1) fail(path, std::strerror(EBADF));
    return;
  }
  const fs::path target = follow_links(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(path, std::strerror(errno));
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      fail(path, "cannot create a file in " + dir.string() + ": " + std::strerror(errno));
  } else if (S_ISDIR(st.st_mode)) {
    fail(path, std::strerror(EISDIR));
  } else {
    if (S_ISREG(st.st_mode)) refuse_inputs(path, st, inputs);
    if (::access(target.c_str(), W_OK) != 0) fail(path, std::strerror(errno));
  }
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
  write_output(path, [&](const std::function<void(std::string_view)>& put) { put(text); }, stdout_stream, inputs);
}

void write_output(const std::string& path, const OutputProducer& produce, std::ostream& stdout_stream,
                  std::span<const std::string> inputs) {
  if (path.empty()) throw InputError(option_at("out"), "no file given");
  const std::optional<int> fd = path == "-" ? 1 : descriptor_path(path);
  if (fd == 1) {
    write_stdout(produce, stdout_stream);
    return;
  }
  if (fd) {
    if (::fcntl(*fd, F_GETFD) == -1) fail(path, std::strerror(EBADF));
    std::string cause;
    produce_into(*fd, produce, cause);
    if (!cause.empty()) fail(path, cause);
    return;
  }
  const fs::path target = follow_links(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(path, std::strerror(errno));
    replace_atomically(path, target, new_file_mode(), produce);
  } else if (S_ISDIR(st.st_mode)) {
    fail(path, std::strerror(EISDIR));
  } else if (S_ISREG(st.st_mode)) {
    refuse_inputs(path, st, inputs);
    if (::access(target.c_str(), W_OK) != 0) fail(path, std::strerror(errno));
    replace_atomically(path, target, st.st_mode & 07777, produce);
  } else {
    write_direct(path, target, S_ISSOCK(st.st_mode), produce);
  }
}

void replace_file(const std::string& path, std::span<const std::string_view> parts,
                  std::span<const std::string> inputs) {
  if (path.empty()) throw InputError({"", 0, 0, {}}, "no file given");
  const fs::path target = follow_links(path);
  struct stat st {};
  const OutputProducer produce = [&](const std::function<void(std::string_view)>& put) {
    for (const std::string_view part : parts) put(part);
  };
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) fail(path, std::strerror(errno));
    replace_atomically(path, target, new_file_mode(), produce);
  } else if (!S_ISREG(st.st_mode)) {
    fail(path, "not a regular file");
  } else {
    refuse_inputs(path, st, inputs);
    replace_atomically(path, target, st.st_mode & 07777, produce);
  }
}

namespace {

// Writes all of `bytes` at `offset`; "" or why it failed.
std::string pwrite_all(int fd, std::string_view bytes, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (n < 0 && errno != EINTR)
      return std::strerror(errno);
  }
  return {};
}

// `fd`, open on `path`, locked for this process alone: InputError when
// another holds it.
void lock_alone(const std::string& path, int fd) {
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  ::close(fd);
  if (err == EWOULDBLOCK)
    throw InputError({path, 0, 0, {}}, "another running process is writing this file (it holds its lock)");
  fail(path, std::strerror(err));
}

// Creates `path` holding `initial` (see AppendFile); -1 when another process
// created it first, else its locked descriptor.
int create_whole(const std::string& path, std::string_view initial) {
  const fs::path target(path);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  remove_stale_temps(dir, target.filename().string());
  sigset_t stops, before;
  sigemptyset(&stops);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
  ::pthread_sigmask(SIG_BLOCK, &stops, &before);
  std::string tmpl;
  int fd = -1;
  try {
    fd = locked_temp(path, dir, target, tmpl);
  } catch (...) {
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    throw;
  }
  const TempGuard guard(tmpl);
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  std::string cause = pwrite_all(fd, initial, 0);
  if (cause.empty() && ::fchmod(fd, new_file_mode()) != 0) cause = std::strerror(errno);
  if (cause.empty() && ::fsync(fd) != 0) cause = std::strerror(errno);
  const bool linked = cause.empty() && ::link(tmpl.c_str(), path.c_str()) == 0;
  const int link_error = errno;
  ::unlink(tmpl.c_str());
  if (linked) return fd;
  ::close(fd);
  if (cause.empty() && link_error == EEXIST) return -1;
  fail(path, cause.empty() ? std::strerror(link_error) : cause);
}

}  // namespace

AppendFile::AppendFile(const std::string& path, std::string_view initial, std::span<const std::string> inputs)
    : path_(path) {
  for (;;) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0 && errno != ENOENT) fail(path, std::strerror(errno));
    if (fd_ < 0) {
      fd_ = create_whole(path, initial);
      if (fd_ < 0) continue;  // created meanwhile by another run: open that one
      created_ = true;
      size_ = initial.size();
      return;
    }
    struct stat mine {}, named {};
    if (::fstat(fd_, &mine) != 0 || !S_ISREG(mine.st_mode)) {
      ::close(fd_);
      fail(path, "not a regular file");
    }
    try {
      refuse_inputs(path, mine, inputs);
    } catch (...) {
      ::close(fd_);
      throw;
    }
    lock_alone(path, fd_);
    // Still the file the name says (not replaced between open and lock)?
    if (::stat(path.c_str(), &named) == 0 && named.st_dev == mine.st_dev && named.st_ino == mine.st_ino) {
      size_ = static_cast<std::uint64_t>(mine.st_size);
      return;
    }
    ::close(fd_);
  }
}

AppendFile::~AppendFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string AppendFile::read_all() const {
  std::string bytes(size_, '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n == 0) break;
    if (n < 0 && errno != EINTR) throw InputError({path_, 0, 0, {}}, std::string("cannot read: ") + std::strerror(errno));
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

void AppendFile::truncate(std::uint64_t size) {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) fail(path_, std::strerror(errno));
  size_ = size;
}

void AppendFile::append(std::string_view bytes) {
  const std::string cause = pwrite_all(fd_, bytes, size_);
  if (cause.empty()) {
    size_ += bytes.size();
    return;
  }
  // What was written of it goes again, so the next addition follows whole ones.
  [[maybe_unused]] const int cut = ::ftruncate(fd_, static_cast<off_t>(size_));
  fail(path_, cause);
}

void AppendFile::flush(bool wait) {
  if (wait) {
    if (::fdatasync(fd_) != 0) fail(path_, std::strerror(errno));
  } else {
    ::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
  }
}

}  // namespace ecmpsim

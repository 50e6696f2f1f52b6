#include "sim/emulate/netns.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ecmpsim::netns {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input) {
  // stdin is a socket so that writing to a child that stopped reading (ip
  // -batch exits at its first error) fails with EPIPE instead of raising SIGPIPE.
  int in[2], out[2], err[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) fail("socketpair");
  if (::pipe2(out, O_CLOEXEC) != 0) fail("pipe");
  if (::pipe2(err, O_CLOEXEC) != 0) fail("pipe");
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) fail("fork");
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  ProcessResult r;
  std::size_t written = 0;
  int fds[3] = {in[1], out[0], err[0]};
  if (input.empty()) close_fd(fds[0]);
  while (fds[1] >= 0 || fds[2] >= 0) {
    pollfd p[3];
    nfds_t n = 0;
    int which[3];
    for (int i = 0; i < 3; ++i)
      if (fds[i] >= 0) {
        p[n] = {fds[i], static_cast<short>(i == 0 ? POLLOUT : POLLIN), 0};
        which[n++] = i;
      }
    if (::poll(p, n, -1) < 0) {
      if (errno == EINTR) continue;
      fail("poll");
    }
    for (nfds_t k = 0; k < n; ++k) {
      if (p[k].revents == 0) continue;
      const int i = which[k];
      if (i == 0) {
        const ssize_t w = ::send(fds[0], input.data() + written, input.size() - written, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 || written == input.size()) close_fd(fds[0]);
      } else {
        char buf[65536];
        const ssize_t got = ::read(fds[i], buf, sizeof buf);
        if (got > 0)
          (i == 1 ? r.out : r.err).append(buf, static_cast<std::size_t>(got));
        else if (got == 0 || errno != EINTR)
          close_fd(fds[i]);
      }
    }
  }
  close_fd(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) fail("waitpid");
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

namespace {
// `tool [-n ns] flags... -batch -` over `commands`; throws with the tool's
// first line of stderr unless `force`.
std::string batch(const std::string& tool, const std::string& ns, std::vector<std::string> flags,
                  const std::string& commands, bool force) {
  std::vector<std::string> argv{tool};
  if (!ns.empty()) argv.insert(argv.end(), {"-n", ns});
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-batch", "-"});
  ProcessResult r = run_process(argv, commands);
  if (r.status != 0 && !force) {
    std::string msg = r.err.substr(0, r.err.find('\n'));
    throw std::runtime_error(tool + (ns.empty() ? std::string() : " -n " + ns) + " -batch failed (exit " +
                             std::to_string(r.status) + "): " + msg);
  }
  return std::move(r.out);
}
}  // namespace

std::string ip_batch(const std::string& ns, const std::string& commands, bool json, bool force) {
  std::vector<std::string> flags;
  if (json) flags.push_back("-json");
  if (force) flags.push_back("-force");
  return batch("ip", ns, std::move(flags), commands, force);
}

std::string ip6_batch(const std::string& ns, const std::string& commands) {
  return batch("ip", ns, {"-6"}, commands, false);
}

std::string tc_batch(const std::string& ns, const std::string& commands, bool stats) {
  return batch("tc", ns, stats ? std::vector<std::string>{"-s"} : std::vector<std::string>{}, commands, false);
}

std::map<std::string, ClassStats> parse_class_stats(const std::string& text) {
  // "class htb 1:1f parent 1:1 ... \n Sent 1514 bytes 1 pkt (dropped 0, overlimits ...".
  std::map<std::string, ClassStats> out;
  std::istringstream in(text);
  std::string line, id;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string w0, w1, w2;
    words >> w0 >> w1 >> w2;
    if (w0 == "class") {
      id = w2;
      continue;
    }
    if (w0 != "Sent" || id.empty()) continue;
    ClassStats s;
    std::string unit, pkt, dropped;
    std::istringstream rest(line);
    rest >> w0 >> s.bytes >> unit >> s.packets >> pkt >> dropped >> s.dropped;
    out[id] = s;
    id.clear();
  }
  return out;
}

std::vector<std::string> list_namespaces() {
  std::vector<std::string> names;
  DIR* d = ::opendir("/run/netns");
  if (d == nullptr) return names;
  while (const dirent* e = ::readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  return names;
}

bool process_alive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

Handle::Handle(const std::string& name) {
  fd_ = ::open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail("open network namespace " + name);
}

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    close_fd(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

Handle::~Handle() { close_fd(fd_); }

Enter::Enter(const Handle& ns) {
  home_ = ::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
  if (home_ < 0) fail("open /proc/thread-self/ns/net");
  if (::setns(ns.fd(), CLONE_NEWNET) != 0) {
    close_fd(home_);
    fail("setns");
  }
}

Enter::~Enter() {
  // Failing to return would leave the process in a namespace about to be deleted.
  if (::setns(home_, CLONE_NEWNET) != 0) std::abort();
  close_fd(home_);
}

namespace {
std::string sysctl_path(std::string key) {
  for (char& c : key)
    if (c == '.') c = '/';
  return "/proc/sys/" + key;
}
}  // namespace

void write_sysctl(const std::string& key, const std::string& value) {
  const std::string path = sysctl_path(key);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("sysctl " + key);
  const ssize_t n = ::write(fd, value.data(), value.size());
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (n != static_cast<ssize_t>(value.size())) fail("sysctl " + key + "=" + value);
}

std::string read_sysctl(const std::string& key) {
  std::ifstream in(sysctl_path(key));
  std::string v;
  if (!(in >> v)) throw std::runtime_error("cannot read sysctl " + key);
  return v;
}

std::map<std::string, std::uint64_t> parse_tx_packets(const std::string& text) {
  // Two header lines, then "name: rx_bytes rx_packets errs drop fifo frame
  // compressed multicast tx_bytes tx_packets ...".
  std::map<std::string, std::uint64_t> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    name.erase(0, name.find_first_not_of(' '));
    std::istringstream fields(line.substr(colon + 1));
    std::uint64_t v = 0;
    int i = 0;
    while (i < 10 && fields >> v) ++i;
    if (i == 10) out[name] = v;
  }
  return out;
}

std::map<std::string, std::uint64_t> tx_packets() {
  const int fd = ::open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("open /proc/thread-self/net/dev");
  std::string text;
  char buf[16384];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return parse_tx_packets(text);
}

namespace {

// enum rtattr_type_t, include/uapi/linux/rtnetlink.h: RTA_FLOWLABEL = 31
// (read by RTM_GETROUTE since Linux 6.5); older userspace headers lack the name.
constexpr unsigned short kRtaFlowLabel = 31;

struct RouteRequest {
  nlmsghdr nh;
  rtmsg rt;
  char attrs[256];
};

void add_attr(RouteRequest& r, unsigned short type, const void* data, std::size_t len) {
  auto* a = reinterpret_cast<rtattr*>(reinterpret_cast<char*>(&r) + NLMSG_ALIGN(r.nh.nlmsg_len));
  a->rta_type = type;
  a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
  std::memcpy(RTA_DATA(a), data, len);
  r.nh.nlmsg_len = static_cast<std::uint32_t>(NLMSG_ALIGN(r.nh.nlmsg_len) + RTA_ALIGN(a->rta_len));
}

// The output interface index of the kernel's answer; 0 when it has none.
int ask_route(int fd, std::uint32_t seq, const RouteQuery6& q, std::uint32_t iif) {
  RouteRequest r{};
  r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg));
  r.nh.nlmsg_type = RTM_GETROUTE;
  r.nh.nlmsg_flags = NLM_F_REQUEST;
  r.nh.nlmsg_seq = seq;
  r.rt.rtm_family = AF_INET6;
  r.rt.rtm_dst_len = 128;
  r.rt.rtm_src_len = 128;
  add_attr(r, RTA_DST, q.dst.data(), 16);
  add_attr(r, RTA_SRC, q.src.data(), 16);
  add_attr(r, RTA_IIF, &iif, sizeof iif);
  add_attr(r, RTA_IP_PROTO, &q.proto, sizeof q.proto);
  const std::uint16_t sp = htons(q.sport), dp = htons(q.dport);
  add_attr(r, RTA_SPORT, &sp, sizeof sp);
  add_attr(r, RTA_DPORT, &dp, sizeof dp);
  const std::uint32_t label = htonl(q.flow_label);
  add_attr(r, kRtaFlowLabel, &label, sizeof label);
  if (::send(fd, &r, r.nh.nlmsg_len, 0) < 0) fail("netlink send");
  alignas(nlmsghdr) char buf[8192];
  ssize_t got;
  while ((got = ::recv(fd, buf, sizeof buf, 0)) < 0)
    if (errno != EINTR) fail("netlink recv");
  auto left = static_cast<unsigned>(got);
  for (auto* h = reinterpret_cast<nlmsghdr*>(buf); NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
    if (h->nlmsg_type == NLMSG_ERROR) return 0;
    if (h->nlmsg_type != RTM_NEWROUTE) continue;
    auto* rt = static_cast<rtmsg*>(NLMSG_DATA(h));
    int len = static_cast<int>(RTM_PAYLOAD(h));
    for (auto* a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len))
      if (a->rta_type == RTA_OIF) return *static_cast<int*>(RTA_DATA(a));
  }
  return 0;
}

}  // namespace

std::vector<std::string> route_get6(const std::vector<RouteQuery6>& queries) {
  int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) fail("netlink socket");
  std::vector<std::string> out;
  std::uint32_t seq = 0;
  try {
    for (const RouteQuery6& q : queries) {
      const unsigned iif = ::if_nametoindex(q.iif.c_str());
      const int oif = iif == 0 ? 0 : ask_route(fd, ++seq, q, iif);
      char name[IF_NAMESIZE] = {};
      out.emplace_back(oif > 0 && ::if_indextoname(static_cast<unsigned>(oif), name) != nullptr ? name : "");
    }
  } catch (...) {
    close_fd(fd);
    throw;
  }
  close_fd(fd);
  return out;
}

}  // namespace ecmpsim::netns

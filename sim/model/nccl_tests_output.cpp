// nccl-tests' stdout as a table: the line formats are those of
// src/common.cu (nccl-tests 2.x: "#  Rank %2d Group %2d Pid %6d on %10s
// device %2d", the column header, "%12li  %12li  %8s  %6s  %6i" then time,
// algbw, busbw and #wrong twice); older versions print no root column and a
// float error instead of #wrong, and mpirun --tag-output prefixes
// "[1,0]<stdout>:". Examples of each: tests/model/nccl_tests_output_test.cpp.
#include "sim/model/nccl_tests_output.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "sim/base/error.h"
#include "sim/base/text.h"

namespace ecmpsim {

namespace {

// nccl-tests' type names (-d) and their sizes (src/common.cu test_typenames).
constexpr std::array<std::pair<std::string_view, std::uint64_t>, 12> kTypeSizes{
    {{"int8", 1}, {"uint8", 1}, {"int32", 4}, {"uint32", 4}, {"int64", 8}, {"uint64", 8}, {"half", 2},
     {"float", 4}, {"double", 8}, {"bfloat16", 2}, {"f8e4m3", 1}, {"f8e5m2", 1}}};

// The collectives a calibration fits, by nccl-tests' binary name.
constexpr std::array<std::pair<std::string_view, NcclColl>, 3> kTests{{{"all_reduce_perf", NcclColl::AllReduce},
                                                                       {"all_gather_perf", NcclColl::AllGather},
                                                                       {"reduce_scatter_perf", NcclColl::ReduceScatter}}};

std::string_view test_name(NcclColl c) {
  for (const auto& [name, coll] : kTests)
    if (coll == c) return name;
  return "?";
}

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

template <class T>
std::optional<T> number(std::string_view s) {
  T v{};
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The text after "[1,0]<stdout>:" (mpirun --tag-output), else the line.
std::string_view untagged(std::string_view line) {
  if (!line.empty() && line.front() == '[')
    if (const auto p = line.find("]<stdout>:"); p != std::string_view::npos) return line.substr(p + 10);
  return line;
}

// The word after `key` in `line`, "" when absent.
std::string_view word_after(std::string_view line, std::string_view key) {
  const auto p = line.find(key);
  if (p == std::string_view::npos) return {};
  const auto t = tokens(line.substr(p + key.size()));
  return t.empty() ? std::string_view{} : t.front();
}

// Where the columns of a result row are, from the "#  size  count ..." header.
struct Columns {
  std::size_t n = 0;
  std::size_t type = 2, redop = 0, root = 0;
  std::size_t time[2] = {0, 0};
  bool has_redop = false, has_root = false;
};

std::optional<Columns> column_header(const std::vector<std::string_view>& t) {
  if (t.size() < 6 || t[0] != "size" || t[1] != "count" || t[2] != "type") return std::nullopt;
  Columns c;
  c.n = t.size();
  int times = 0;
  for (std::size_t i = 3; i < t.size(); ++i) {
    if (t[i] == "redop") c.redop = i, c.has_redop = true;
    if (t[i] == "root") c.root = i, c.has_root = true;
    if (t[i] == "time" && times < 2) c.time[times++] = i;
  }
  if (times == 0 || c.time[0] + 2 >= t.size()) return std::nullopt;
  if (times == 1) c.time[1] = c.time[0];
  return c;
}

class Parser {
 public:
  explicit Parser(const std::string& path) { table_.source = path; }
  void line(std::string_view raw, std::uint32_t no);
  NcclTestsTable finish(std::uint32_t last_line);

 private:
  [[noreturn]] void fail(std::uint32_t no, const std::string& why) const {
    throw InputError({table_.source, no, 0, {}}, why);
  }
  void comment(std::string_view body, std::uint32_t no);
  void row(const std::vector<std::string_view>& t, std::uint32_t no);
  void set_coll(NcclColl c, std::string_view why, std::uint32_t no);

  NcclTestsTable table_;
  std::optional<Columns> cols_;
  bool header_ = false;
  std::optional<NcclColl> coll_;
  std::uint32_t coll_line_ = 0;
  std::uint64_t type_size_ = 0;
  std::uint32_t rank_lines_max_ = 0;
  bool rank_lines_ = false;
  std::set<std::string, std::less<>> hosts_;
  std::uint32_t info_ranks_ = 0, info_nodes_ = 0;
  std::map<std::uint64_t, std::uint32_t> sizes_;
};

void Parser::set_coll(NcclColl c, std::string_view why, std::uint32_t no) {
  if (coll_ && *coll_ != c)
    fail(no, std::string(why) + " " + std::string(test_name(c)) + " after " + std::string(test_name(*coll_)) +
                 " (line " + std::to_string(coll_line_) + "): one collective per file");
  if (!coll_) coll_line_ = no;
  coll_ = c;
}

void Parser::comment(std::string_view body, std::uint32_t no) {
  const auto t = tokens(body);
  if (t.empty()) return;
  if (body.find("Collective test starting:") != std::string_view::npos) {
    const std::string_view name = word_after(body, "Collective test starting:");
    const auto it = std::find_if(kTests.begin(), kTests.end(), [&](const auto& e) { return e.first == name; });
    if (it == kTests.end())
      fail(no, "calibrate fits all_reduce_perf, all_gather_perf or reduce_scatter_perf, not " + std::string(name));
    set_coll(it->second, "the test", no);
  } else if (t[0] == "nThread") {
    header_ = true;
  } else if (t[0] == "Rank" && t.size() >= 2) {
    const auto r = number<std::uint32_t>(t[1]);
    const std::string_view host = word_after(body, " on ");
    if (!r || host.empty()) fail(no, "expected \"#  Rank N ... on HOST device D\"");
    rank_lines_ = true;
    rank_lines_max_ = std::max(rank_lines_max_, *r);
    hosts_.emplace(host);
  } else if (const auto c = column_header(t)) {
    cols_ = c;
  }
}

void Parser::row(const std::vector<std::string_view>& t, std::uint32_t no) {
  const Columns& c = *cols_;
  if (t.size() != c.n)
    fail(no, "expected " + std::to_string(c.n) + " columns as the header says, got " + std::to_string(t.size()));
  NcclTestsRow r;
  r.line = no;
  const auto size = number<std::uint64_t>(t[0]), count = number<std::uint64_t>(t[1]);
  if (!size || !count) fail(no, "expected the size and count as integers");
  r.size = *size;
  r.count = *count;
  for (int k = 0; k < 2; ++k) {
    const auto time = number<double>(t[c.time[k]]), alg = number<double>(t[c.time[k] + 1]),
               bus = number<double>(t[c.time[k] + 2]);
    if (!time || !alg || !bus || !(*time > 0) || !std::isfinite(*time))
      fail(no, "expected time, algbw and busbw as positive numbers");
    r.time_us[k] = *time, r.algbw_gbs[k] = *alg, r.busbw_gbs[k] = *bus;
  }
  const std::string_view type = t[c.type];
  if (table_.type.empty()) {
    const auto it = std::find_if(kTypeSizes.begin(), kTypeSizes.end(), [&](const auto& e) { return e.first == type; });
    if (it == kTypeSizes.end()) fail(no, "unknown data type '" + std::string(type) + "'");
    table_.type = type;
    type_size_ = it->second;
  } else if (type != table_.type) {
    fail(no, "data type " + std::string(type) + " after " + table_.type + ": one table per file");
  }
  if (r.count == 0 || r.size == 0) return;  // nothing moved: no time to fit
  if (r.count > r.size / type_size_)
    fail(no, "count " + std::to_string(r.count) + " x " + std::to_string(type_size_) + " bytes exceeds size " +
                 std::to_string(r.size));
  if (c.has_root && t[c.root] != "-1") fail(no, "a rooted collective (root " + std::string(t[c.root]) + "): calibrate fits all_reduce, all_gather and reduce_scatter");
  const bool reduces = !c.has_redop || t[c.redop] != "none";
  const std::uint64_t per = r.count * type_size_;
  if (per == r.size && reduces) {
    set_coll(NcclColl::AllReduce, "a row of", no);
  } else if (r.size % per == 0 && r.size / per > 1) {
    set_coll(reduces ? NcclColl::ReduceScatter : NcclColl::AllGather, "a row of", no);
    info_ranks_ = info_ranks_ != 0 ? info_ranks_ : static_cast<std::uint32_t>(r.size / per);
  } else {
    fail(no, "size " + std::to_string(r.size) + " is not count x " + std::to_string(type_size_) +
                 " bytes (x ranks): not a collective calibrate fits");
  }
  if (const auto [it, fresh] = sizes_.emplace(r.size, no); !fresh)
    fail(no, "size " + std::to_string(r.size) + " again (first at line " + std::to_string(it->second) +
                 "): one table per file");
  table_.rows.push_back(r);
}

void Parser::line(std::string_view raw, std::uint32_t no) {
  std::string_view s = untagged(raw);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  if (s.find(" NCCL INFO ") != std::string_view::npos) {
    if (const auto v = word_after(s, "NCCL INFO NCCL version "); !v.empty() && table_.nccl_version.empty())
      table_.nccl_version = std::string(v.substr(0, v.find('+')));
    if (const auto n = number<std::uint32_t>(word_after(s, " nRanks "))) info_ranks_ = *n;
    if (const auto n = number<std::uint32_t>(word_after(s, " nranks "))) info_ranks_ = *n;
    if (const auto n = number<std::uint32_t>(word_after(s, " nNodes "))) info_nodes_ = *n;
    return;
  }
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string_view::npos) return;
  if (s.substr(first).starts_with("NCCL version ") && table_.nccl_version.empty()) {  // nccl-tests' own print
    const std::string_view v = word_after(s, "NCCL version ");
    table_.nccl_version = std::string(v.substr(0, v.find('+')));
    return;
  }
  if (s[first] == '#') return comment(s.substr(first + 1), no);
  const auto t = tokens(s);
  if (!all_digits(t.front()) || t.size() < 6) return;  // a launcher's or the system's own text
  if (!cols_) fail(no, "a result row before nccl-tests' column header (\"#  size  count  type ...\")");
  row(t, no);
}

NcclTestsTable Parser::finish(std::uint32_t last_line) {
  if (!header_ && !cols_)
    fail(1, "not nccl-tests output: no \"# nThread\" header and no \"#  size  count  type\" column header");
  if (table_.rows.size() < kMinCalibrationSizes)
    fail(last_line, "only " + std::to_string(table_.rows.size()) + " sizes with data; calibrate needs at least " +
                        std::to_string(kMinCalibrationSizes) + " to fit");
  table_.coll = *coll_;
  table_.test = test_name(*coll_);
  table_.ranks = rank_lines_ ? rank_lines_max_ + 1 : info_ranks_;
  table_.nodes = rank_lines_ ? static_cast<std::uint32_t>(hosts_.size()) : info_nodes_;
  if (rank_lines_ && table_.coll != NcclColl::AllReduce) {
    const NcclTestsRow& r = table_.rows.front();
    if (r.size != r.count * type_size_ * table_.ranks)
      fail(r.line, "size " + std::to_string(r.size) + " is not count x " + std::to_string(type_size_) + " x " +
                       std::to_string(table_.ranks) + " ranks (the Rank lines)");
  }
  return std::move(table_);
}

// Calls f(line, number) for every line of `text`, numbered from 1.
template <class F>
void for_lines(std::string_view text, F&& f) {
  std::uint32_t no = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {  // a final newline ends the last line, it starts none
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    f(text.substr(begin, end - begin), ++no);
    begin = end + 1;
  }
}

// Lines first..last of `text` parsed as one table.
NcclTestsTable parse_lines(const std::string& path, std::string_view text, std::uint32_t first, std::uint32_t last) {
  Parser p(path);
  for_lines(text, [&](std::string_view line, std::uint32_t no) {
    if (no >= first && no <= last) p.line(line, no);
  });
  return p.finish(last);
}

// Where runs begin: a run's "# nccl-tests version", "# Collective test
// starting" or "# nThread" line once the run before has its own nThread line
// or a row (nccl-tests prints them together, the first two only in recent
// releases).
std::vector<std::uint32_t> run_starts(std::string_view text) {
  std::vector<std::uint32_t> starts{1};
  bool seen = false;  // the current run has an nThread line or a row
  for_lines(text, [&](std::string_view raw, std::uint32_t no) {
    const std::string_view s = untagged(raw);
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return;
    if (s[first] != '#') {
      const auto t = tokens(s);
      if (t.size() >= 6 && all_digits(t.front()) && s.find(" NCCL INFO ") == std::string_view::npos) seen = true;
      return;
    }
    const auto t = tokens(s.substr(first + 1));
    const bool threads = !t.empty() && t[0] == "nThread";
    const bool starting = s.find("Collective test starting:") != std::string_view::npos ||
                          s.find("nccl-tests version") != std::string_view::npos;
    if ((threads || starting) && seen) starts.push_back(no), seen = false;
    if (threads) seen = true;
  });
  return starts;
}

std::string run_summary(const NcclTestsTable& t) {
  std::string out = t.test;
  if (t.ranks != 0) out += ", " + plural(t.ranks, "rank");
  if (t.nodes != 0) out += " on " + plural(t.nodes, "node");
  std::uint64_t lo = ~0ULL, hi = 0;
  for (const NcclTestsRow& r : t.rows) lo = std::min(lo, r.size), hi = std::max(hi, r.size);
  return out + ", " + human_bytes(static_cast<double>(lo)) + " to " + human_bytes(static_cast<double>(hi)) + " (" +
         plural(t.rows.size(), "size") + ")";
}

std::string runs_list(const std::vector<NcclTestsRun>& runs) {
  std::string out;
  for (std::size_t i = 0; i < runs.size(); ++i)
    out += (i ? "; " : "") + std::to_string(i + 1) + ": lines " + std::to_string(runs[i].first_line) + "-" +
           std::to_string(runs[i].last_line) + ", " + runs[i].summary;
  return out;
}

}  // namespace

std::vector<NcclTestsRun> nccl_tests_runs(const std::string& path, std::string_view text) {
  const std::vector<std::uint32_t> starts = run_starts(text);
  std::uint32_t lines = 0;
  for_lines(text, [&](std::string_view, std::uint32_t no) { lines = no; });
  std::vector<NcclTestsRun> out;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    NcclTestsRun r{starts[i], i + 1 < starts.size() ? starts[i + 1] - 1 : lines, {}};
    try {
      r.summary = run_summary(parse_lines(path, text, r.first_line, r.last_line));
    } catch (const InputError& e) {
      r.summary = "not readable (line " + std::to_string(e.where().line) + ": " + e.what() + ")";
    }
    out.push_back(std::move(r));
  }
  return out;
}

NcclTestsTable parse_nccl_tests(const std::string& path, std::string_view text, std::uint32_t run) {
  const std::vector<NcclTestsRun> runs = nccl_tests_runs(path, text);
  if (run > runs.size())
    throw InputError(option_at("run"), "the file holds " + plural(runs.size(), "run") + " of nccl-tests, not " +
                                           std::to_string(run) + ": " + runs_list(runs));
  if (run == 0 && runs.size() > 1)
    throw InputError({path, runs[1].first_line, 0, {}},
                     "holds " + std::to_string(runs.size()) + " runs of nccl-tests; choose one with " +
                         option_ref("run") + " N: " + runs_list(runs));
  const NcclTestsRun& r = runs[run == 0 ? 0 : run - 1];
  return parse_lines(path, text, r.first_line, r.last_line);
}

}  // namespace ecmpsim

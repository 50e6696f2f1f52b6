#include "workloads/import/import_rdma_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "sim/base/csv_reader.h"
#include "sim/base/text.h"

namespace ecmpsim::workloads {

namespace {

struct Token {
  std::string_view text;
  std::uint32_t column = 0;  // 1-based
};

std::vector<Token> tokens_of(std::string_view line) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back({line.substr(start, i - start), static_cast<std::uint32_t>(start + 1)});
  }
  return out;
}

// Whether the words from `t[i]` on run rdma: optional sudo and its options,
// then a command whose last path component is "rdma".
bool runs_rdma(const std::vector<Token>& t, std::size_t i) noexcept {
  if (i < t.size() && t[i].text == "sudo")
    for (++i; i < t.size() && t[i].text.starts_with('-');) ++i;
  if (i >= t.size()) return false;
  const std::string_view cmd = t[i].text;
  const std::size_t slash = cmd.rfind('/');
  return (slash == std::string_view::npos ? cmd : cmd.substr(slash + 1)) == "rdma";
}

// A line that holds no QP: blank, a comment, a prompt running rdma or a bare
// prompt, or -dd's driver fields (indented, each key starting "drv_").
bool skipped(std::string_view line, const std::vector<Token>& t) {
  if (t.empty()) return true;
  const char c = t[0].text[0];
  return c == '$' || c == '#' || t[0].text.starts_with("drv_") || bare_prompt(line) || rdma_prompt(line);
}

std::optional<std::uint32_t> qpn_of(std::string_view s) {
  std::uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v > 0xFFFFFF) return std::nullopt;
  return v;
}

// One `link DEV/PORT key value ...` line.
RdmaQp parse_line(const std::vector<Token>& t, std::uint32_t line, std::uint32_t line_end, const std::string& name) {
  auto fail = [&](std::uint32_t column, std::string field, std::string message) {
    throw InputError({name, line, column, std::move(field)}, message);
  };
  if (t[0].text != "link")
    fail(t[0].column, {},
         "expected a QP line 'link DEV/PORT lqpn N ...' (rdma resource show qp), found '" + printable(t[0].text) + "'");
  if (t.size() < 2) fail(line_end, "link", "missing DEV/PORT");
  RdmaQp q;
  q.line = line;
  q.ifname = std::string(t[1].text.substr(0, t[1].text.find('/')));
  if (q.ifname.empty()) fail(t[1].column, "link", "empty device name in '" + printable(t[1].text) + "'");
  bool has_lqpn = false;
  for (std::size_t i = 2; i < t.size(); i += 2) {
    const std::string_view key = t[i].text;
    if (key == "comm") break;  // the last field; a name may hold spaces, -o may append driver fields
    if (i + 1 == t.size()) fail(line_end, std::string(key), "missing value");
    const Token& value = t[i + 1];
    if (key == "lqpn" || key == "rqpn") {
      const auto v = qpn_of(value.text);
      if (!v) fail(value.column, std::string(key), "expected an unsigned integer <= 16777215, found '" +
                                                       printable(value.text) + "'");
      (key == "lqpn" ? q.lqpn : q.rqpn) = *v;
      (key == "lqpn" ? has_lqpn : q.has_rqpn) = true;
    } else if (key == "type") {
      q.type = std::string(value.text);
    } else if (key == "state") {
      q.state = std::string(value.text);
    }
  }
  if (!has_lqpn) fail(line_end, "lqpn", "missing (raw -r dumps hold no QP numbers: drop -r)");
  if (q.type.empty()) fail(line_end, "type", "missing");
  if (q.state.empty()) fail(line_end, "state", "missing");
  return q;
}

}  // namespace

bool bare_prompt(std::string_view line) {
  const std::vector<Token> t = tokens_of(line);
  // A JSON line starts with `{`, `"` or `[` then not a letter ("[root@h ~]#"
  // is RHEL's prompt).
  if (t.empty() || t[0].text == "link" || t[0].text[0] == '{' || t[0].text[0] == '"') return false;
  if (t[0].text[0] == '[' && (t[0].text.size() < 2 || std::isalpha(static_cast<unsigned char>(t[0].text[1])) == 0))
    return false;
  const char last = t.back().text.back();
  return last == '$' || last == '#' || last == '>';
}

bool rdma_prompt(std::string_view line) {
  const std::vector<Token> t = tokens_of(line);
  // The prompt is the words up to one that ends in $, # or > ("root@h:~#",
  // "[root@h", "~]#", "$"); the command starts after it.
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char last = t[i].text.back();
    if ((last == '$' || last == '#' || last == '>') && runs_rdma(t, i + 1)) return true;
  }
  return false;
}

bool rdma_text_head(std::string_view head) noexcept {
  while (!head.empty()) {
    std::string_view line = take_line(head);
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t\r")));
    if (line.empty()) continue;
    return line.starts_with("link ") || rdma_prompt(line);
  }
  return false;
}

RdmaQps parse_rdma_text(std::string_view text, const std::string& name) {
  std::vector<RdmaQp> out;
  std::uint32_t number = 0;
  try {
    while (!text.empty()) {
      const std::string_view line = take_line(text);
      ++number;
      const auto t = tokens_of(line);
      if (skipped(line, t)) continue;
      out.push_back(parse_line(t, number, static_cast<std::uint32_t>(line.size() + 1), name));
      out.back().record = static_cast<std::uint32_t>(out.size());
    }
  } catch (InputError& e) {
    return std::move(e);
  }
  return out;
}

}  // namespace ecmpsim::workloads

// One switch's hash decision for arbitrary tuples: the engine behind
// `ecmpsim hash` (what cl-ecmpcalc or `show load-balance` answer on a live switch).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "hashing/select.h"
#include "hashing/toeplitz.h"
#include "sim/base/csv_reader.h"

namespace ecmpsim {

struct HashQuery {
  const hashing::Algorithm* algo = nullptr;
  std::vector<hashing::Field> fields = hashing::default_fields();
  std::uint32_t seed = 0;
  hashing::SeedAs seed_as = hashing::SeedAs::Register;  // where the seed enters
  std::uint32_t offset = 0;
  hashing::Selection select = hashing::Selection::Modulo;
  std::uint32_t members = 1;
  std::vector<std::uint32_t> weights;  // threshold/resilient; empty = equal weights
  std::uint32_t buckets = 128;
  std::optional<hashing::RssKey> rss_key;  // toeplitz only: a key other than the standard RSS key
};

struct HashAnswer {
  std::uint64_t hash = 0;  // the algorithm's output, masked to its bits
  std::uint32_t member = 0;
};

class HashCalculator {
 public:
  explicit HashCalculator(HashQuery q);
  HashAnswer operator()(const hashing::Tuple& t) const noexcept;
  const HashQuery& query() const noexcept { return q_; }

 private:
  HashQuery q_;
  std::vector<std::uint64_t> bounds_;
  std::vector<std::uint32_t> buckets_;
};

// Hex with as many digits as the algorithm has bits ("0x29b1" for 16 bits).
std::string format_hash(std::uint64_t h, unsigned bits);

// Parses the `--tuples` CSV (header line `src,dst,proto,sport,dport`, or with
// `,flow_label`; then `src,dst,proto,sport,dport`
// with an optional sixth field, the IPv6 flow label; addresses IPv4 or IPv6)
// and calls f(tuple) for each row in order. Throws InputError naming
// `name`, the line and the column of the first bad value.
template <class F>
void for_each_tuple_csv(std::string_view text, const std::string& name, F&& f);

// Implementation details of for_each_tuple_csv, exposed for the template.
bool parse_tuple_fields(const CsvLine& line, hashing::Tuple& t, std::size_t& bad_column,
                        std::string& why) noexcept;
[[noreturn]] void throw_csv_error(const std::string& name, std::size_t line, std::size_t column,
                                  const std::string& why);

template <class F>
void for_each_tuple_csv(std::string_view text, const std::string& name, F&& f) {
  static constexpr std::string_view kHeader[] = {"src", "dst", "proto", "sport", "dport", "flow_label"};
  CsvReader reader(text, CsvStyle::Strict);
  CsvLine line;
  if (!reader.next(line))
    throw_csv_error(name, 1, 1, "empty input, expected the header line src,dst,proto,sport,dport[,flow_label]");
  bool header = line.fields.size() == std::size(kHeader) - 1 || line.fields.size() == std::size(kHeader);
  for (std::size_t i = 0; header && i < line.fields.size(); ++i) header = line.fields[i].text == kHeader[i];
  if (!header) throw_csv_error(name, line.number, 1, "expected the header line src,dst,proto,sport,dport[,flow_label]");
  while (reader.next(line)) {
    hashing::Tuple t;
    std::size_t column = 0;
    std::string why;
    if (!parse_tuple_fields(line, t, column, why)) throw_csv_error(name, line.number, column, why);
    f(t);
  }
}

}  // namespace ecmpsim

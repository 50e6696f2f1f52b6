#include "sim/sweep/rank_checkpoints.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <optional>

#include "sim/base/error.h"
#include "sim/base/input_file.h"

namespace ecmpsim {
namespace {

// R and N of a file named BASE.rank-R-of-N (`name` past "BASE.rank-"), or nothing.
std::optional<std::pair<int, int>> rank_file_numbers(std::string_view name) {
  int r = 0, n = 0;
  const char* end = name.data() + name.size();
  auto [p, ec] = std::from_chars(name.data(), end, r);
  if (ec != std::errc() || std::string_view(p, static_cast<std::size_t>(end - p)).substr(0, 4) != "-of-") return std::nullopt;
  auto [q, ec2] = std::from_chars(p + 4, end, n);
  if (ec2 != std::errc() || q != end || n <= 0 || r < 0 || r >= n) return std::nullopt;
  if (std::to_string(r) + "-of-" + std::to_string(n) != name) return std::nullopt;  // no "07"
  return std::pair{r, n};
}

// The rank files beside `base`, by rank count, then rank.
std::map<int, std::map<int, std::string>> rank_files_of(const std::string& base) {
  namespace fs = std::filesystem;
  const fs::path p(base);
  const std::string prefix = p.filename().string() + ".rank-";
  std::map<int, std::map<int, std::string>> sets;
  std::error_code ec;
  for (fs::directory_iterator it(p.has_parent_path() ? p.parent_path() : fs::path("."), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    if (const auto rn = rank_file_numbers(std::string_view(name).substr(prefix.size())))
      sets[rn->second][rn->first] = rank_checkpoint_path(base, rn->first, rn->second);
  }
  return sets;
}

}  // namespace

std::vector<std::string> rank_checkpoint_files(const std::string& base, int except_ranks) {
  std::vector<std::string> out;
  for (const auto& [n, files] : rank_files_of(base))
    if (n != except_ranks)
      for (const auto& [r, path] : files) out.push_back(path);
  return out;
}

std::string rank_checkpoint_path(const std::string& base, int rank, int ranks) {
  return base + ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks);
}

namespace {

// "12..40, 50..51 and 3 more ranges" (half-open, as the docs write them).
std::string ranges_text(const std::vector<VariantRange>& ranges) {
  std::string out;
  for (std::size_t i = 0; i < ranges.size() && i < 3; ++i)
    out += (i == 0 ? "" : ", ") + std::to_string(ranges[i].begin) + ".." + std::to_string(ranges[i].end);
  if (ranges.size() > 3) out += " and " + std::to_string(ranges.size() - 3) + " more ranges";
  return out;
}

// Refuses a set with files missing whose other files leave variants out:
// names the missing files of the rank count with the most files and the
// variants no file holds.
void check_missing(const std::string& base, const std::map<int, std::map<int, std::string>>& sets,
                   const std::vector<VariantRange>& finished, std::uint64_t total) {
  bool complete = std::filesystem::exists(base);
  for (const auto& [n, files] : sets) complete = complete || files.size() == static_cast<std::size_t>(n);
  const std::vector<VariantRange> lost = ranges_missing(finished, {0, total});
  if (complete || lost.empty()) return;
  const auto& [n, files] = *std::max_element(sets.begin(), sets.end(), [](const auto& a, const auto& b) {
    return a.second.size() < b.second.size();
  });
  std::vector<int> missing;
  for (int r = 0; r < n; ++r)
    if (!files.count(r)) missing.push_back(r);
  std::uint64_t count = 0;
  for (const VariantRange& r : lost) count += r.size();
  std::string names;
  for (std::size_t i = 0; i < missing.size() && i < 3; ++i) names += (i == 0 ? "" : ", ") + std::to_string(missing[i]);
  if (missing.size() > 3) names += " and " + std::to_string(missing.size() - 3) + " more";
  throw InputError({rank_checkpoint_path(base, missing.front(), n), 0, 0, {}},
                   "missing: no file for rank (shard) " + names + " of " + std::to_string(n) + " (" +
                       files.begin()->second + " is there); " + std::to_string(count) + " of " +
                       std::to_string(total) + " variants are in no file: " + ranges_text(lost));
}

}  // namespace

RankCheckpoints read_rank_checkpoints(const std::string& base, const CheckpointId& id, std::size_t jobs,
                                      std::uint64_t total, bool rows) {
  const auto sets = rank_files_of(base);
  if (sets.empty() && !std::filesystem::exists(base))
    throw InputError({base, 0, 0, {}}, "no checkpoint: neither this file nor " + rank_checkpoint_path(base, 0, 2) +
                                           " and the like (MPI ranks' or shards') exist");
  std::vector<std::string> paths;
  if (std::filesystem::exists(base)) paths.push_back(base);
  for (const auto& [n, files] : sets)
    for (const auto& [r, path] : files) paths.push_back(path);
  // Every file's share, then its ranges in variant order with the share they come from.
  std::vector<CheckpointShare> shares;
  struct Piece {
    VariantRange range;
    std::size_t share;
    std::uint64_t row;  // the range's first row in its share
  };
  std::vector<Piece> pieces;
  RankCheckpoints out;
  for (const std::string& path : paths) {
    CheckpointShare s = load_checkpoint_share(path, id, jobs, total);
    const bool named = path == base ? s.ranks == 0 : path == rank_checkpoint_path(base, s.rank, s.ranks);
    if (!named)
      throw InputError({path, 0, 0, "rank"}, "the checkpoint holds rank " + std::to_string(s.rank) + " of " +
                                                 std::to_string(s.ranks) + ", not what its name says");
    if (s.dropped > 0) out.dropped.emplace_back(path, s.dropped);
    std::uint64_t row = 0;
    for (const VariantRange& r : s.ranges) {
      pieces.push_back({r, shares.size(), row});
      row += r.size();
    }
    out.merged.decisions += s.decisions;
    if (!rows) s.values = ValueTable(jobs);
    shares.push_back(std::move(s));
    out.files.push_back(path);
  }
  std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.range.begin < b.range.begin; });
  out.merged.values = ValueTable(jobs);
  std::uint64_t covered = 0;  // every variant below is in `finished` (pieces are in order of their begins)
  for (const Piece& p : pieces) {
    if (p.range.end <= covered) continue;
    const VariantRange fresh{std::max(covered, p.range.begin), p.range.end};
    if (!out.finished.empty() && out.finished.back().end == fresh.begin)
      out.finished.back().end = fresh.end;
    else
      out.finished.push_back(fresh);
    if (rows)
      out.merged.append(fresh, shares[p.share].values.view().sub(p.row + (fresh.begin - p.range.begin), fresh.size()));
    covered = fresh.end;
  }
  check_missing(base, sets, out.finished, total);
  return out;
}

}  // namespace ecmpsim

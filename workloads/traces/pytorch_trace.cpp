#include "workloads/traces/pytorch_trace.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "sim/base/error.h"
#include "sim/base/text.h"

namespace ecmpsim::workloads {

namespace {

using nlohmann::json;

struct OpName {
  std::string_view name;
  TraceOp op;
};
// ProcessGroupNCCL's RECORD_PARAM_COMMS names (torch/csrc/distributed/c10d/
// ProcessGroupNCCL.cpp), the coalesced and tensor forms beside the plain ones.
constexpr std::array<OpName, 21> kOpNames{{
    {"allreduce", TraceOp::AllReduce},
    {"allreduce_coalesced", TraceOp::AllReduce},
    {"all_reduce", TraceOp::AllReduce},
    {"allgather", TraceOp::AllGather},
    {"_allgather_base", TraceOp::AllGather},
    {"allgather_coalesced", TraceOp::AllGather},
    {"allgather_into_tensor_coalesced", TraceOp::AllGather},
    {"all_gather", TraceOp::AllGather},
    {"reduce_scatter", TraceOp::ReduceScatter},
    {"_reduce_scatter_base", TraceOp::ReduceScatter},
    {"reduce_scatter_tensor_coalesced", TraceOp::ReduceScatter},
    {"all_to_all", TraceOp::AllToAll},
    {"alltoall_base", TraceOp::AllToAll},
    {"alltoall", TraceOp::AllToAll},
    {"send", TraceOp::Send},
    {"recv", TraceOp::Recv},
    {"broadcast", TraceOp::Broadcast},
    {"_broadcast_oop", TraceOp::Broadcast},
    {"reduce", TraceOp::Reduce},
    {"_reduce_oop", TraceOp::Reduce},
    {"barrier", TraceOp::Barrier},
}};

struct DtypeSize {
  std::string_view name;
  std::uint32_t bytes;
};
// c10::toString(ScalarType) names (c10/core/ScalarType.h) and their sizes.
constexpr std::array<DtypeSize, 21> kDtypes{{
    {"Float", 4},         {"Double", 8},        {"Half", 2},           {"BFloat16", 2},      {"Int", 4},
    {"Long", 8},          {"Short", 2},         {"Char", 1},           {"Byte", 1},          {"Bool", 1},
    {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1},   {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1}, {"ComplexHalf", 4},
    {"ComplexFloat", 8},  {"ComplexDouble", 16}, {"UInt16", 2},        {"UInt32", 4},        {"UInt64", 8},
    {"Float8_e8m0fnu", 1},
}};

[[noreturn]] void fail(const std::string& file, std::uint32_t event, const std::string& field, const std::string& why) {
  throw InputError({file, 0, 0, field, event}, why);
}

// A number PyTorch may write as a number or as a string of one.
std::optional<double> number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  double out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return out;
}

// An event's numeric field, NaN when absent or not a number.
double field(const json& e, const char* key) {
  const auto it = e.find(key);
  if (it == e.end()) return NAN;
  return number(*it).value_or(NAN);
}

std::uint64_t count_arg(const json& args, const char* key, const std::string& file, std::uint32_t event) {
  const auto it = args.find(key);
  if (it == args.end()) return 0;
  const auto v = number(*it);
  if (!v || !(*v >= 0 && *v <= 9.0e18) || *v != static_cast<double>(static_cast<std::uint64_t>(*v)))
    fail(file, event, key, "not a count of elements: " + it->dump());
  return static_cast<std::uint64_t>(*v);
}

std::string string_arg(const json& args, const char* key) {
  const auto it = args.find(key);
  if (it == args.end()) return {};
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// An event's text field, empty when absent or not text (json::value would
// throw a type_error on a number, which is not an InputError).
std::string text_of(const json& e, const char* key) {
  const auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The ranks of a "Process Group Ranks" value or of pg_config's "ranks" (a
// list, or the text of one).
std::optional<RankList> ranks_of(const json& v) {
  if (v.is_string()) return parse_rank_list(v.get_ref<const std::string&>());
  if (!v.is_array()) return std::nullopt;
  RankList out;
  for (const json& r : v) {
    if (!r.is_number_unsigned()) return std::nullopt;
    out.ranks.push_back(r.get<std::uint32_t>());
  }
  return out;
}

TraceKernel read_kernel(const json& e, const json& args, const std::string& file, std::uint32_t event) {
  TraceKernel k;
  k.name = text_of(e, "name");
  k.collective = string_arg(args, "Collective name");
  k.op = trace_op(k.collective);
  k.in_nelems = count_arg(args, "In msg nelems", file, event);
  k.out_nelems = count_arg(args, "Out msg nelems", file, event);
  k.dtype = string_arg(args, "dtype");
  k.dtype_bytes = dtype_size(k.dtype);
  k.group = string_arg(args, "Process Group Name");
  if (const auto it = args.find("Process Group Ranks"); it != args.end()) {
    const auto list = ranks_of(*it);
    if (!list) fail(file, event, "Process Group Ranks", "not a list of ranks: " + it->dump());
    k.ranks = list->ranks;
    k.ranks_cut = list->cut;
  }
  k.group_size = static_cast<std::uint32_t>(count_arg(args, "Group size", file, event));
  for (const char* key : {"Dst Rank", "Src Rank"})
    if (const auto it = args.find(key); it != args.end())
      if (const auto v = number(*it); v && *v >= 0 && *v < 4294967296.0) k.peer = static_cast<std::uint32_t>(*v);
  const double ts = field(e, "ts"), dur = field(e, "dur");
  if (!std::isfinite(ts)) fail(file, event, "ts", "a kernel without a start time");
  if (!std::isfinite(dur) || dur < 0) fail(file, event, "dur", "a kernel without a duration");
  k.ts_us = ts;
  k.dur_us = dur;
  if (const auto it = args.find("stream"); it != args.end())
    if (const auto v = number(*it); v && *v >= 0 && *v <= 9.0e18) k.stream = static_cast<std::uint64_t>(*v);
  k.event = event;
  parse_kernel_name(k.name, k);
  return k;
}

void read_distributed_info(const json& doc, RankTrace& out) {
  const auto it = doc.find("distributedInfo");
  if (it == doc.end() || !it->is_object()) return;
  if (const auto r = it->find("rank"); r != it->end() && r->is_number_unsigned()) out.rank = r->get<std::uint32_t>();
  if (const auto w = it->find("world_size"); w != it->end() && w->is_number_unsigned())
    out.world_size = w->get<std::uint32_t>();
  const auto pgs = it->find("pg_config");
  if (pgs == it->end() || !pgs->is_array()) return;
  for (const json& pg : *pgs) {
    if (!pg.is_object()) continue;
    TraceGroup g;
    g.name = string_arg(pg, "pg_name");
    g.desc = string_arg(pg, "pg_desc");
    if (const auto r = pg.find("ranks"); r != pg.end())
      if (const auto list = ranks_of(*r)) {
        g.ranks = list->ranks;
        g.ranks_cut = list->cut;
      }
    out.groups.push_back(std::move(g));
  }
}

}  // namespace

std::string gunzip_if_compressed(std::string text, const std::string& file, const ByteLimit& limit) {
  if (text.size() < 2 || static_cast<unsigned char>(text[0]) != 0x1f || static_cast<unsigned char>(text[1]) != 0x8b)
    return text;
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw InputError({file, 0, 0, ""}, "cannot start zlib");
  std::string out;
  std::array<char, 1 << 16> buf{};
  z.next_in = reinterpret_cast<Bytef*>(text.data());
  z.avail_in = static_cast<uInt>(text.size());
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    z.next_out = reinterpret_cast<Bytef*>(buf.data());
    z.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      const std::string why = rc == Z_BUF_ERROR ? "the gzip stream is cut short" : "corrupt gzip data";
      inflateEnd(&z);
      throw InputError({file, 0, 0, ""}, why);
    }
    out.append(buf.data(), buf.size() - z.avail_out);
    if (out.size() > limit.max) {  // a small file can inflate without bound
      inflateEnd(&z);
      throw InputError(option_at(limit.key, file),
                       "the file inflates to more than the limit of " + std::to_string(limit.max) + " bytes");
    }
  }
  inflateEnd(&z);
  return out;
}

RankTrace read_pytorch_trace(std::string_view text, const std::string& file) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception& e) {
    throw InputError({file, 0, 0, ""}, std::string("not a JSON trace: ") + e.what());
  }
  RankTrace out;
  out.file = file;
  const json* events = &doc;
  if (doc.is_object()) {
    read_distributed_info(doc, out);
    const auto it = doc.find("traceEvents");
    if (it == doc.end()) throw InputError({file, 0, 0, "traceEvents"}, "a JSON document without traceEvents");
    events = &*it;
  }
  if (!events->is_array()) throw InputError({file, 0, 0, "traceEvents"}, "traceEvents is not a list of events");
  static const json kNoArgs = json::object();
  std::uint32_t index = 0;
  for (const json& e : *events) {
    ++index;
    if (!e.is_object()) continue;
    const std::string cat = text_of(e, "cat");
    const std::string name = text_of(e, "name");
    const auto a = e.find("args");
    const json& args = a != e.end() && a->is_object() ? *a : kNoArgs;
    if (name.starts_with("ProfilerStep#")) {
      if (const double ts = field(e, "ts"); std::isfinite(ts)) out.steps.push_back(ts);
      continue;
    }
    if (cat != "kernel") continue;
    if (name.starts_with("nccl")) {
      if (args.contains("Collective name")) out.kernels.push_back(read_kernel(e, args, file, index));
      continue;
    }
    const double ts = field(e, "ts"), dur = field(e, "dur");
    if (std::isfinite(ts) && std::isfinite(dur) && dur > 0) out.compute.push_back({ts, ts + dur});
  }
  std::stable_sort(out.kernels.begin(), out.kernels.end(),
                   [](const TraceKernel& a, const TraceKernel& b) { return a.ts_us < b.ts_us; });
  out.compute = merge_intervals(std::move(out.compute));
  std::sort(out.steps.begin(), out.steps.end());
  out.steps.erase(std::unique(out.steps.begin(), out.steps.end()), out.steps.end());
  return out;
}

void parse_kernel_name(std::string_view name, TraceKernel& k) {
  name = name.substr(0, name.find('('));
  std::vector<std::string_view> tokens;
  for (std::size_t at = 0; at <= name.size();) {
    const std::size_t end = std::min(name.find('_', at), name.size());
    tokens.push_back(name.substr(at, end - at));
    at = end + 1;
  }
  for (std::size_t i = 2; i < tokens.size(); ++i) {
    const std::string_view t = tokens[i];
    if (t == "RING" || t == "TREE" || t == "NVLS" || t == "COLLNET" || t == "PAT") {
      if (k.algo_name.empty()) k.algo_name = std::string(t);
      if (t == "RING") k.algo = NcclAlgo::Ring;
      if (t == "TREE" && k.algo_name == "TREE") k.algo = NcclAlgo::Tree;
    } else if (t == "LL" || t == "LL128" || t == "SIMPLE") {
      k.proto = t == "LL" ? NcclProto::LL : t == "LL128" ? NcclProto::LL128 : NcclProto::Simple;
      break;
    }
  }
}

std::uint32_t dtype_size(std::string_view dtype) noexcept {
  for (const DtypeSize& d : kDtypes)
    if (d.name == dtype) return d.bytes;
  return 0;
}

TraceOp trace_op(std::string_view collective) noexcept {
  for (const OpName& o : kOpNames)
    if (o.name == collective) return o.op;
  return TraceOp::Other;
}

std::optional<RankList> parse_rank_list(std::string_view text) {
  const auto trim = [](std::string_view s) { return ecmpsim::trim(s, " "); };
  text = trim(text);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
  text = trim(text.substr(1, text.size() - 2));
  RankList out;
  while (!text.empty()) {
    const std::size_t comma = std::min(text.find(','), text.size());
    const std::string_view item = trim(text.substr(0, comma));
    text = comma < text.size() ? trim(text.substr(comma + 1)) : std::string_view{};
    if (item == "...") {
      if (!text.empty()) return std::nullopt;
      out.cut = true;
      break;
    }
    std::uint32_t r = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), r);
    if (ec != std::errc() || end != item.data() + item.size()) return std::nullopt;
    out.ranks.push_back(r);
  }
  return out;
}

}  // namespace ecmpsim::workloads

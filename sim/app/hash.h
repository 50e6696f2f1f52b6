// `hash`: one flow's hash and ECMP member (or a CSV of flows', or the
// catalogue), its options as values: the query and tuple they describe
// (checked with the options' messages), the answer, and the JSON and text
// the command prints. The command line fills HashOptions from its flags, the
// Python module (python/) from keyword arguments, so both answer alike.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/base/limits.h"
#include "sim/routing/hash_query.h"

namespace ecmpsim::app {

struct HashOptions {
  bool list = false;
  std::string algo;
  std::string src, dst;
  std::string proto = "17", sport, dport = "4791", seed = "0", seed_as, offset = "0";
  std::string dst_qp = "0", flow_label = "0", in_port = "0", rss_key;
  std::string src_mac = "00:00:00:00:00:00", dst_mac = "00:00:00:00:00:00", ethertype, vlan_id = "0";
  std::vector<std::string> fields, weights;
  std::string members, select, buckets = "128";
  std::string tuples;  // a CSV of flows to hash ('-': standard input)
  std::uint64_t max_capture_bytes = Limits{}.max_capture_bytes;  // of tuples
};

// One flow's answer: what `hash -f json` and `hash` print.
struct HashOne {
  HashQuery query;
  hashing::Tuple tuple;
  HashAnswer answer;
  Json json() const;
  std::string text() const;
  // The shapes `hash` writes: the document on one line (one per query), the text; borrows this.
  Result result() const;
};

// The query the options describe; InputError naming the flag.
HashQuery make_query(const HashOptions& o);
// The one flow of the options (--src, --dst, --sport, ...) hashed; InputError
// naming the flag of a missing or bad value.
HashOne hash_one(const HashOptions& o);

// What `hash` answers: the catalogue (list), one hash,member line per flow
// of `tuples`, or one flow's answer.
struct HashReport {
  std::string text;            // list or tuples: the lines, as printed
  std::optional<HashOne> one;  // else
};
HashReport hash(const HashOptions& o);

}  // namespace ecmpsim::app

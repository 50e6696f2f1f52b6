// `ecmpsim hash`: its flags, as app::HashOptions (sim/app/hash.h), and its answer written.
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/app/hash.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {

Action add_hash_command(CLI::App& app) {
  struct Options : app::HashOptions {
    std::string format, out;
  };
  auto o = std::make_shared<Options>();
  CLI::App* sub = app.add_subcommand("hash", "Hash one flow (or a CSV of flows) and pick its ECMP member");
  sub->add_flag("--list", o->list, "List the hash algorithms");
  sub->add_option("--algo", o->algo, "Hash algorithm, by catalogue or SAI name (see --list)");
  sub->add_option("--src", o->src, "Source IPv4 or IPv6 address (required without --tuples)");
  sub->add_option("--dst", o->dst, "Destination IPv4 or IPv6 address, same family (required without --tuples)");
  sub->add_option("--proto", o->proto, "IP protocol")->default_str("17");
  sub->add_option("--sport", o->sport, "UDP/TCP source port (required without --tuples)");
  sub->add_option("--dport", o->dport, "Destination port")->default_str("4791");
  sub->add_option("--dst-qp", o->dst_qp, "RoCEv2 destination QP number (24-bit; hashed by the dst-qp field)")
      ->default_str("0");
  sub->add_option("--flow-label", o->flow_label, "IPv6/GRH flow label (20-bit; the flow-label field)")->default_str("0");
  sub->add_option("--in-port", o->in_port, "Ingress port number (the in-port field)")->default_str("0");
  sub->add_option("--src-mac", o->src_mac, "Source MAC as the switch receives it (the src-mac field)")
      ->default_str("00:00:00:00:00:00");
  sub->add_option("--dst-mac", o->dst_mac, "Destination MAC: the switch's receiving interface (the dst-mac field)")
      ->default_str("00:00:00:00:00:00");
  sub->add_option("--ethertype", o->ethertype, "Ethertype (the ethertype field); default the address family's, 2048 (IPv4) or 34525 (IPv6)");
  sub->add_option("--vlan-id", o->vlan_id, "VLAN ID, 0 untagged (the vlan-id field)")->default_str("0");
  sub->add_option("--seed", o->seed, "Hash seed (32-bit)")->default_str("0");
  sub->add_option("--seed-as", o->seed_as,
                  "Where the seed enters: register, prefix (4 key bytes, SONiC's SAI-P4 program) or xor; default "
                  "prefix for a SAI algorithm name (CRC_32LO), else register");
  sub->add_option("--rss-key", o->rss_key, "toeplitz: a 40-byte key as 80 hex digits (default the standard RSS key)");
  sub->add_option("--offset", o->offset, "Rotate the hash right by N bits before selection")->default_str("0");
  sub->add_option("--fields", o->fields,
                  "Hashed fields in order, comma-separated, by name, SONiC/SAI name or Cumulus NVUE name (default "
                  "src-ip,dst-ip,proto,src-port,dst-port)")
      ->delimiter(',');
  sub->add_option("-n,--members", o->members, "Members in the ECMP group (required)");
  sub->add_option("--select", o->select,
                  "modulo, threshold or resilient (default: threshold for linux-l3/l4, else modulo)");
  sub->add_option("--weights", o->weights, "Per-member weights for threshold/resilient, comma-separated")
      ->delimiter(',');
  sub->add_option("--buckets", o->buckets, "Bucket-table size for resilient")->default_str("128");
  add_format_flag(sub, o->format, {Shape::Text, Shape::Json}, Format::Table, "--tuples prints hash,member lines instead");
  sub->add_option("--tuples", o->tuples, "CSV src,dst,proto,sport,dport[,flow_label] with a header ('-' = stdin); prints hash,member per line")
      ->check(file_role(FileRole::Input));
  add_out_flag(sub, o->out, "the output");
  add_capture_limit_flag(sub, o->max_capture_bytes);
  return [o](Io io) {
    const app::HashReport r = app::hash(*o);
    if (!r.one) {
      emit(io, r.text, o->out, {&o->tuples, 1});
      return 0;
    }
    emit(io, chosen_format(o->format), r.one->result(), o->out, {&o->tuples, 1});
    return 0;
  };
}

}  // namespace ecmpsim::cli

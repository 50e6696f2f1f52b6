#include <nlohmann/json.hpp>

#include "sim/output/flows_output.h"

#include "sim/base/text.h"
#include "workloads/generators/collective.h"

namespace ecmpsim {
namespace {

std::string_view collective_of(const workloads::Flows& flows, std::size_t f) {
  return workloads::collective_name(static_cast<workloads::Collective>(flows.collective[f]));
}

const std::string& nic_name(const Fabric& fabric, std::uint32_t endpoint) {
  return fabric.node(fabric.endpoint_node(endpoint)).name;
}

// Whether the flows carry a flow label worth a column, and each flow's.
bool has_label(const Fabric& fabric, const PortPlan* plan) {
  return plan != nullptr || fabric.family() == hashing::Family::V6;
}
std::uint32_t label_of(const workloads::Flows& flows, const PortPlan* plan, std::size_t f) {
  return plan ? plan->flow_label[f] : flows.flow_label[f];
}

}  // namespace

void flows_json(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan,
                JsonWriter& w) {
  w.begin_object().key("flows").begin_array();
  Json row;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    row = Json{{"job", spec.jobs[flows.job[f]].name},
                    {"collective", collective_of(flows, f)},
                    {"channel", flows.channel[f]},
                    {"src", nic_name(fabric, flows.src[f])},
                    {"dst", nic_name(fabric, flows.dst[f])},
                    {"src_ip", hashing::format_ip(flows.src_ip[f])},
                    {"dst_ip", hashing::format_ip(flows.dst_ip[f])},
                    {"proto", flows.proto[f]},
                    {"sport", plan ? plan->sport[f] : flows.sport[f]},
                    {"dport", flows.dport[f]},
                    {"lqpn", flows.lqpn[f]},
                    {"rqpn", flows.rqpn[f]},
                    {"bytes", flows.bytes[f]}};
    if (has_label(fabric, plan)) row["flow_label"] = label_of(flows, plan, f);
    w.value(row);
  }
  w.end().end();
}

void flows_csv(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan, Csv& csv) {
  csv.cells({"job", "collective", "channel", "src", "dst", "src_ip", "dst_ip", "proto", "sport", "dport", "lqpn",
             "rqpn", "bytes"});
  const bool label = has_label(fabric, plan);
  if (label) csv.cell("flow_label");
  csv.end_row();
  for (std::size_t f = 0; f < flows.size(); ++f) {
    csv.cells({spec.jobs[flows.job[f]].name, collective_of(flows, f)})
        .cell(flows.channel[f])
        .cells({nic_name(fabric, flows.src[f]), nic_name(fabric, flows.dst[f]), hashing::format_ip(flows.src_ip[f]),
                hashing::format_ip(flows.dst_ip[f])})
        .cell(flows.proto[f])
        .cell(plan ? plan->sport[f] : flows.sport[f])
        .cell(flows.dport[f])
        .cell(flows.lqpn[f])
        .cell(flows.rqpn[f])
        .cell(flows.bytes[f]);
    if (label) csv.cell(label_of(flows, plan, f));
    csv.end_row();
  }
}

Result flows_result(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan) {
  Result r;
  r.json = [s = &spec, fa = &fabric, fl = &flows, plan](JsonWriter& w) { flows_json(*s, *fa, *fl, plan, w); };
  r.csv = [s = &spec, fa = &fabric, fl = &flows, plan](Csv& csv) { flows_csv(*s, *fa, *fl, plan, csv); };
  return r;
}

}  // namespace ecmpsim

#include "sim/output/flows_output.h"

#include <nlohmann/json.hpp>

#include "sim/base/text.h"
#include "workloads/collective.h"

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

std::string flows_json(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan) {
  using json = nlohmann::ordered_json;
  json list = json::array();
  for (std::size_t f = 0; f < flows.size(); ++f) {
    list.push_back({{"job", spec.jobs[flows.job[f]].name},
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
                    {"bytes", flows.bytes[f]}});
    if (has_label(fabric, plan)) list.back()["flow_label"] = label_of(flows, plan, f);
  }
  json doc;
  doc["flows"] = std::move(list);
  return doc.dump(2) + "\n";
}

std::string flows_csv(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan) {
  std::string out = "job,collective,channel,src,dst,src_ip,dst_ip,proto,sport,dport,lqpn,rqpn,bytes";
  const bool label = has_label(fabric, plan);
  out += label ? ",flow_label\n" : "\n";
  for (std::size_t f = 0; f < flows.size(); ++f) {
    out += spec.jobs[flows.job[f]].name;
    out += ',';
    out += collective_of(flows, f);
    for (const std::string& v :
         {std::to_string(flows.channel[f]), nic_name(fabric, flows.src[f]), nic_name(fabric, flows.dst[f]),
          hashing::format_ip(flows.src_ip[f]), hashing::format_ip(flows.dst_ip[f]), std::to_string(flows.proto[f]),
          std::to_string(plan ? plan->sport[f] : flows.sport[f]), std::to_string(flows.dport[f]),
          std::to_string(flows.lqpn[f]), std::to_string(flows.rqpn[f]), std::to_string(flows.bytes[f])}) {
      out += ',';
      out += v;
    }
    if (label) out += ',' + std::to_string(label_of(flows, plan, f));
    out += '\n';
  }
  return out;
}

}  // namespace ecmpsim

// The result of `ecmpsim flows` in its shapes, JSON and CSV: the generated
// flows, one record per QP (sim/base/format.h writes them).
#pragma once

#include <string>

#include "sim/base/format.h"
#include "sim/fabric/fabric.h"
#include "sim/config/spec.h"
#include "sim/routing/port_plan.h"
#include "workloads/flow.h"

namespace ecmpsim {

// {"flows": [{"job", "collective", "channel", "src", "dst", "src_ip", "dst_ip",
// "proto", "sport", "dport", "lqpn", "rqpn", "bytes"}, ...]}; src and dst are NIC names.
// With a source-port plan, "sport" is the planned port and each flow also has
// "flow_label": the GRH flow label the kernel derives that port from. An IPv6
// fabric's flows always have "flow_label" (the label their packets carry);
// IPv4 packets have none, so IPv4 flows without a plan have no such key.
// Written to `w` flow by flow: the document is never in memory whole.
void flows_json(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan,
                JsonWriter& w);
// The same columns as CSV, with a header row (and a last column flow_label with a plan or on IPv6).
void flows_csv(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows, const PortPlan* plan, Csv& csv);
// Both shapes, for write(); the arguments outlive it.
Result flows_result(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows,
                    const PortPlan* plan = nullptr);

}  // namespace ecmpsim

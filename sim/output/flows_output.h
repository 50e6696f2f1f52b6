// Writers for `ecmpsim flows`: the generated flows, one record per QP.
#pragma once

#include <string>

#include "sim/fabric/fabric.h"
#include "sim/config/spec.h"
#include "sim/routing/port_plan.h"
#include "workloads/flow.h"

namespace ecmpsim {

// {"flows": [{"job", "collective", "channel", "src", "dst", "src_ip", "dst_ip",
// "proto", "sport", "dport", "lqpn", "rqpn", "bytes"}, ...]}; src and dst are NIC names.
// With a source-port plan, "sport" is the planned port and each flow also has
// "flow_label": the GRH flow label the kernel derives that port from.
std::string flows_json(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows,
                       const PortPlan* plan = nullptr);
// The same columns as CSV, with a header row (and a last column flow_label with a plan).
std::string flows_csv(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows,
                      const PortPlan* plan = nullptr);

}  // namespace ecmpsim

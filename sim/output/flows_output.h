// Writers for `ecmpsim flows`: the generated flows, one record per QP.
#pragma once

#include <string>

#include "sim/fabric/fabric.h"
#include "sim/config/spec.h"
#include "workloads/flow.h"

namespace ecmpsim {

// {"flows": [{"job", "collective", "channel", "src", "dst", "src_ip", "dst_ip",
// "proto", "sport", "dport", "lqpn", "rqpn", "bytes"}, ...]}; src and dst are NIC names.
std::string flows_json(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows);
// The same columns as CSV, with a header row.
std::string flows_csv(const Spec& spec, const Fabric& fabric, const workloads::Flows& flows);

}  // namespace ecmpsim

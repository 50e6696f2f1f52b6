// `flows`: the RoCEv2 flows a config's jobs put on the fabric, or with a
// scenario that plans its source ports, the plan (the planned sport and the
// flow_label a host sets on each QP).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/base/format.h"
#include "sim/base/limits.h"
#include "sim/model/simulation.h"

namespace ecmpsim::app {

struct FlowsRequest {
  std::string config;  // empty: default_config_path()
  Limits limits;
  std::string scenario;  // a scenario with sports = "planned": its plan
};

struct FlowsReport {
  std::shared_ptr<const Simulation> sim;  // with a scenario
  std::shared_ptr<const Spec> spec;       // without: the config, its fabric and workload
  std::shared_ptr<const Fabric> fabric;
  workloads::Flows flows;
  std::optional<PortPlan> plan;
  std::vector<std::string> notes;   // "note: ..." lines
  std::vector<std::string> inputs;  // the files read: what no output may replace
  // The shapes `flows` writes; borrows this.
  Result result() const;
};

FlowsReport flows(const FlowsRequest& request);
// On a config already loaded (request.config and limits unused).
FlowsReport flows(Spec spec, const FlowsRequest& request);

}  // namespace ecmpsim::app

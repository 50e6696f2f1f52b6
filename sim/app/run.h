// `run`: route a config's flows (generated, or imported from a capture)
// under every scenario, with the flow model's predicted times, and every
// note a user should read beside the result (the channels derived from a
// named GPU, idle NICs, importer notes, the flow-label note). What both
// front doors print or return.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/app/progress.h"
#include "sim/app/sizes.h"
#include "sim/base/limits.h"
#include "sim/config/overrides.h"
#include "sim/model/simulation.h"
#include "sim/output/run_data.h"

namespace ecmpsim::app {

struct RunRequest {
  std::string config;  // empty: default_config_path()
  Limits limits;
  Overrides overrides;
  std::string seed_mode;  // a SeedMode name (same, per-tier, per-switch); empty: the config's
  // What-if failures (cables leaf0-spine1, switches spine2): each scenario
  // is reported healthy and, next to it, as NAME+down with these down.
  std::vector<std::string> down;
  // Imported flows instead of the workload: each option given or not.
  std::optional<std::string> flows, flows_format, rdma_map;
  std::optional<std::uint64_t> flow_bytes;  // rdma: bytes per QP pair
  bool allow_unpaired = false;
  // Flows given as CSV text (the columns `run --flows` CSVs hold; Python's
  // flows=), read as the file "<flows>"; instead of `flows`.
  std::optional<std::string> flows_csv;
  SizeFlags sizes;
  bool no_slowdown = false;
  std::string out;  // where the door will write: refused before the work if it names an input
};

// The run: the simulation and its results, with the size tables and split
// paths the writers print (sim/output/run_data.h), and the notes.
struct RunReport {
  std::shared_ptr<const RunData> data;
  std::vector<std::string> notes;   // "note: ..." lines, in order
  std::vector<std::string> inputs;  // the files the run read: what no output may replace
};

// Loads request.config; InputError naming the file or the option at fault.
RunReport run(const RunRequest& request, const Progress& progress = {});
// On a config already loaded (request.config and limits unused).
RunReport run(Spec spec, const RunRequest& request, const Progress& progress = {});

// The notes of a run of `spec`'s own workload, without running it: NICs its
// channels leave unused (issue 34 item 7); none for a job whose channels
// the simulation derived from a named GPU (nccl_notes says where they go).
std::vector<std::string> idle_nic_notes(const Spec& spec);

// The notes of a simulation of the config's own workload ("note: ..."): the
// channels derived from a named GPU, the idle NICs, the flow label; what
// `run` and `calibrate` print.
std::vector<std::string> workload_notes(const Simulation& sim);

}  // namespace ecmpsim::app

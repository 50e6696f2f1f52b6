// Flows imported from files (`ecmpsim run --flows`): reading the files, choosing
// the importer, and placing the flows on the fabric's endpoints by address.
#pragma once

#include <optional>
#include <string>

#include "sim/base/error.h"
#include "sim/fabric/fabric.h"
#include "sim/config/spec.h"
#include "sim/base/units.h"
#include "workloads/import/importers.h"

namespace ecmpsim {

struct FlowsImportOptions {
  std::string flows;   // a file; for rdma also comma-separated files or a directory
  std::string format;  // an importer's name (workloads/import/importers.h); empty = detected
  std::string rdma_map;  // rdma: the device -> IP map file
  std::optional<Bytes> flow_bytes;  // rdma: bytes per QP pair; default the first job's message size
  bool allow_unpaired = false;      // rdma: skip QPs without a partner instead of failing
};

// Reads and parses the files. Throws InputError naming the file and the
// place in it (line:column or record), or the flag at fault.
workloads::ImportedFlows import_flows(const FlowsImportOptions& options, const Spec& spec);

// The imported flows with src/dst set to the fabric endpoints owning their
// addresses. An address no endpoint has, or a flow from an endpoint to
// itself, is an InputError at the place the address was read; so is an
// import of more than limits.max_flows flows.
workloads::Flows place_imported_flows(const workloads::ImportedFlows& imported, const Fabric& fabric,
                                      const Limits& limits);

}  // namespace ecmpsim

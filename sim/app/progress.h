// How far a command's work has got, reported through a callback that the
// front door turns into its own display (the command line's one progress
// line; nothing in Python). The engine calls it from its working threads, as
// the work moves: after each flow-model event, after each chunk of seeds.
// The callback must be cheap, and safe to call from several threads at once.
#pragma once

#include <cstdint>
#include <functional>

namespace ecmpsim::app {

struct ProgressUpdate {
  enum class Stage { FlowModel, SeedSearch } stage;
  std::uint64_t done = 0;   // flows finished (FlowModel), seeds searched (SeedSearch)
  std::uint64_t total = 0;  // flows of this scenario's run; seeds to search
  std::uint64_t events = 0;  // FlowModel: rate allocations so far, this run
  double simulated_s = 0;    // FlowModel: simulated seconds reached
};

using Progress = std::function<void(const ProgressUpdate&)>;

}  // namespace ecmpsim::app

// A training step's collectives, counted and sized by hand from the formulas
// of docs/workloads.md ("Training steps") on two small shapes.
#include <doctest/doctest.h>

#include <map>

#include "workloads/generators/training.h"

namespace training_test {

using namespace ecmpsim::workloads;

namespace {

struct Tally {
  std::map<std::pair<Collective, std::uint64_t>, int> by;  // (collective, bytes) -> count
  int total = 0;
};

Tally tally(const TrainingStep& step) {
  Tally t;
  for (const StepCollective& c : step.collectives) {
    ++t.by[{c.collective, c.bytes}];
    ++t.total;
  }
  return t;
}

}  // namespace

TEST_CASE("dense: tp 2, pp 2, dp 2, one layer a stage, one microbatch") {
  TrainingShape s;
  s.tp = s.pp = s.dp = 2;
  s.layers = 2;
  s.hidden = 1024;
  s.seq_len = 512;
  s.microbatches = 1;
  s.dtype = TrainingDtype::BF16;
  const TrainingStep step = training_step(s);
  CHECK(step.groups.size() == 12);  // 4 tensor, 4 data, 4 pipeline groups of 2
  const std::uint64_t act = 512ULL * 1024 * 2;
  const Tally t = tally(step);
  // Tensor: 2 all-reduces a layer forward and 2 backward, on 2 stages x 2 data ranks.
  CHECK(t.by.at({Collective::RingAllReduce, act}) == 16);
  // Pipeline: one boundary, each of tp x dp = 4 ranks sends act / tp forward and back.
  CHECK(t.by.at({Collective::SendRecv, act / 2}) == 8);
  // Data: 12 h^2 / tp parameters on a stage's one layer, under one 40M bucket,
  // per data group (tp of them a stage, 2 stages).
  CHECK(t.by.at({Collective::RingAllReduce, 12ULL * 1024 * 1024 / 2 * 2}) == 4);
  CHECK(t.total == 28);
  // Megatron's order: rank = t + tp (d + dp p); tensor group 0 is ranks 0, 1.
  CHECK(step.groups[0].ranks == std::vector<std::uint32_t>{0, 1});
  // The first send goes from stage 0 to stage 1 of the same tensor and data rank.
  for (const StepCollective& c : step.collectives)
    if (c.collective == Collective::SendRecv) {
      CHECK(c.src == 0);
      CHECK(c.dst == 4);
      break;
    }
}

TEST_CASE("MoE: dp 4, ep 2, four experts") {
  TrainingShape s;
  s.dp = 4;
  s.ep = 2;
  s.experts = 4;
  s.layers = 1;
  s.hidden = 1024;
  s.seq_len = 256;
  s.dtype = TrainingDtype::FP16;
  const TrainingStep step = training_step(s);
  const std::uint64_t act = 256ULL * 1024 * 2;
  const Tally t = tally(step);
  // Dispatch and combine, forward and backward, in each of dp / ep = 2 expert groups.
  CHECK(t.by.at({Collective::AllToAll, act}) == 8);
  // Dense 4h^2 over the data group; the experts' 8h^2 x E/ep over each expert-data group.
  CHECK(t.by.at({Collective::RingAllReduce, 4ULL * 1024 * 1024 * 2}) == 1);
  CHECK(t.by.at({Collective::RingAllReduce, 8ULL * 1024 * 1024 * 2 * 2}) == 2);
  CHECK(t.total == 11);
  // Negative control: the dense model of the same shape has no all-to-all.
  s.experts = 0;
  s.ep = 1;
  CHECK(tally(training_step(s)).by.count({Collective::AllToAll, act}) == 0);
}

TEST_CASE("gradients come in Megatron-Core's buckets") {
  CHECK(gradient_bucket_elements(8) == 40'000'000);
  CHECK(gradient_bucket_elements(64) == 64'000'000);
  TrainingShape s;
  s.dp = 2;
  s.layers = 4;
  s.hidden = 2048;  // 12 h^2 x 4 layers = 201,326,592 parameters: 5 full buckets and 1,326,592
  const Tally t = tally(training_step(s));
  CHECK(t.by.at({Collective::RingAllReduce, 40'000'000ULL * 2}) == 5);
  CHECK(t.by.at({Collective::RingAllReduce, (201'326'592ULL - 200'000'000) * 2}) == 1);
}

}  // namespace training_test

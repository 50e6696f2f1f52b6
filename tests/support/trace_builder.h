// Hand-made PyTorch profiler traces for the replay tests: the events a
// torch.profiler trace holds for an NCCL kernel, with PyTorch's metadata keys
// (torch/csrc/profiler/util.h), one document per rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct HandKernel {
  std::string name = "ncclDevKernel_AllReduce_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
  std::string collective = "allreduce";
  std::uint64_t in_nelems = 0, out_nelems = 0;
  std::string dtype = "Float";
  std::string group = "0";
  std::string ranks = "[0, 1]";
  std::uint32_t group_size = 2;
  double ts = 0, dur = 0;
};

struct HandCompute {
  double ts = 0, dur = 0;
};

inline std::string hand_trace(std::uint32_t rank, const std::vector<HandKernel>& kernels,
                              const std::vector<HandCompute>& compute = {}) {
  std::string events;
  const auto add = [&](const std::string& e) { events += (events.empty() ? "" : ",\n") + e; };
  for (const HandKernel& k : kernels)
    add(R"({"ph": "X", "cat": "kernel", "name": ")" + k.name + R"(", "pid": 0, "tid": 7, "ts": )" +
        std::to_string(k.ts) + R"(, "dur": )" + std::to_string(k.dur) +
        R"(, "args": {"stream": 7, "Collective name": ")" + k.collective + R"(", "In msg nelems": )" +
        std::to_string(k.in_nelems) + R"(, "Out msg nelems": )" + std::to_string(k.out_nelems ? k.out_nelems : k.in_nelems) +
        R"(, "Group size": )" + std::to_string(k.group_size) + R"(, "dtype": ")" + k.dtype +
        R"(", "Process Group Name": ")" + k.group + R"(", "Process Group Ranks": ")" + k.ranks + R"("}})");
  for (const HandCompute& c : compute)
    add(R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": )" + std::to_string(c.ts) +
        R"(, "dur": )" + std::to_string(c.dur) + R"(, "args": {"stream": 7}})");
  return R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": )" + std::to_string(rank) +
         R"(}, "traceEvents": [)" + events + "]}";
}

// The keys of issue 44: [hosts] gpu (names, the error that lists them),
// cpu, pcie generations; a job's NCCL_* settings by their environment
// names (nccl_env) and their own keys; [fabric] sharp and nvlink_domain.
#include <doctest/doctest.h>

#include <string>

#include "sim/config/config.h"
#include "tests/support/config_error.h"

namespace nccl_hardware_config_test {

using namespace ecmpsim;

namespace {

std::string error_of(const std::string& text) { return test_support::config_error(text); }

const std::string kFabric = "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 8\ngpus_per_node = 8\n";

}  // namespace

TEST_CASE("[hosts] gpu takes short and nvidia-smi names; anything else lists the known ones") {
  CHECK(parse_config(kFabric + "[hosts]\ngpu = \"H100\"\n", "t.toml").hosts.gpu == workloads::Gpu::H100);
  CHECK(parse_config(kFabric + "[hosts]\ngpu = \"NVIDIA A100-SXM4-40GB\"\n", "t.toml").hosts.gpu == workloads::Gpu::A100);
  CHECK(!parse_config(kFabric, "t.toml").hosts.gpu);
  CHECK(error_of(kFabric + "[hosts]\ngpu = \"H300\"\n") ==
        "t.toml:7:7: hosts.gpu: unknown GPU 'H300', expected one of V100, A100, A800, H100, H800, H200, H20, B200, "
        "B300, GB200, GB300 or the name nvidia-smi prints for one of them");
  CHECK(error_of(kFabric + "[hosts]\ngpu = 100\n").find("expected a GPU name") != std::string::npos);
  CHECK(error_of(kFabric + "[hosts]\npcie_gen = 7\n") == "t.toml:7:12: hosts.pcie_gen: expected a PCIe generation, 1 to 6 (0: the default)");
  const Spec s = parse_config(kFabric + "[hosts]\ncpu = \"amd\"\nnic_pcie_gen = 4\n", "t.toml");
  CHECK(s.hosts.cpu == workloads::Cpu::Amd);
  CHECK(s.hosts.nic_pcie_gen == 4);
}

TEST_CASE("nccl_env: NCCL_* settings set the keys they stand for") {
  const Spec s = parse_config(kFabric +
                                  "[workload]\nnccl_env = { NCCL_CROSS_NIC = 1, NCCL_PXN_DISABLE = \"1\", NCCL_ALGO = "
                                  "\"ring\", NCCL_PROTO = \"simple\", NCCL_MIN_NCHANNELS = \"4\", NCCL_MAX_NCHANNELS = "
                                  "32, NCCL_NVLS_ENABLE = 0, NCCL_COLLNET_ENABLE = \"1\", NCCL_IB_QPS_PER_CONNECTION = "
                                  "\"2\", NCCL_PAT_ENABLE = 0 }\n",
                              "t.toml");
  const JobSpec& j = s.jobs.front();
  CHECK(j.cross_nic == 1);
  CHECK(!j.pxn);
  CHECK(j.nccl.algo == workloads::NcclAlgo::Ring);
  CHECK(j.nccl.proto == workloads::NcclProto::Simple);
  CHECK(j.min_channels == 4);
  CHECK(j.max_channels == 32);
  CHECK(!j.nvls);
  CHECK(j.collnet);
  CHECK(j.qps_per_connection == 2);
  CHECK(!j.pat);
  // The same through the keys themselves.
  const Spec k = parse_config(kFabric + "[workload]\ncross_nic = 1\npxn = false\nmin_channels = 4\nnvls = false\n", "t.toml");
  CHECK(k.jobs.front().cross_nic == 1);
  CHECK(k.jobs.front().min_channels == 4);
  // NCCL_MIN_CTAS / NCCL_MAX_CTAS bound the channels with NCCL_MIN/MAX_NCHANNELS
  // (connect.cc: max(ncclMinNchannels(), minCTAs), min(ncclMaxNchannels(), maxCTAs)),
  // whatever the order; the key itself in the same table gives way to nccl_env.
  const auto bounds = [](const std::string& env) {
    const JobSpec j = parse_config(kFabric + "[workload]\nmin_channels = 30\nnccl_env = { " + env + " }\n", "t.toml")
                          .jobs.front();
    return std::pair{j.min_channels, j.max_channels};
  };
  CHECK(bounds("NCCL_MIN_NCHANNELS = 32, NCCL_MIN_CTAS = 24") == std::pair{32u, 0u});
  CHECK(bounds("NCCL_MIN_CTAS = 24") == std::pair{24u, 0u});
  CHECK(bounds("NCCL_MAX_CTAS = 8, NCCL_MAX_NCHANNELS = 16, NCCL_MIN_NCHANNELS = 2") == std::pair{2u, 8u});
  CHECK(bounds("NCCL_MAX_CTAS = 0, NCCL_MAX_NCHANNELS = 16, NCCL_MIN_NCHANNELS = 2") == std::pair{2u, 16u});
  // Errors name the setting and the cause; the key's own range applies.
  CHECK(error_of(kFabric + "[workload]\nnccl_env = { NCCL_CROSS_NICS = 1 }\n").find(
            "workload.nccl_env.NCCL_CROSS_NICS: NCCL setting not modelled (did you mean 'NCCL_CROSS_NIC'?)") !=
        std::string::npos);
  CHECK(error_of(kFabric + "[workload]\nnccl_env = { NCCL_CROSS_NIC = 3 }\n").find("out of range [0, 2]") !=
        std::string::npos);
  CHECK(error_of(kFabric + "[workload]\nnccl_env = { NCCL_ALGO = \"Ring,Tree\" }\n").find("one algorithm only") !=
        std::string::npos);
  CHECK(error_of(kFabric + "[workload]\nnccl_env = { NCCL_MIN_NCHANNELS = \"four\" }\n").find("expected an integer") !=
        std::string::npos);
  CHECK(error_of(kFabric + "[workload]\nmin_channels = 16\nmax_channels = 8\n") ==
        "t.toml:7:16: workload.min_channels: min_channels 16 exceeds max_channels 8");
}

TEST_CASE("nccl_algo takes every NCCL_ALGO name") {
  for (const char* name : {"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"})
    CHECK(parse_config(kFabric + "[workload]\nnccl_algo = \"" + name + "\"\n", "t.toml").jobs.front().nccl.algo ==
          parse_name(workloads::kNcclAlgos, name));
  CHECK(error_of(kFabric + "[workload]\nnccl_algo = \"Rings\"\n").find("expected one of \"Tree\" | \"Ring\"") !=
        std::string::npos);
}

TEST_CASE("[fabric] nvlink_domain is whole nodes; sharp is a boolean") {
  CHECK(parse_config("[fabric]\nkind = \"rail\"\nnodes = 36\nnics_per_node = 4\ngpus_per_node = 4\nnvlink_domain = 72\n",
                     "t.toml")
            .fabric.nvlink_domain == 72);
  CHECK(error_of("[fabric]\nkind = \"rail\"\nnodes = 36\nnics_per_node = 4\ngpus_per_node = 8\nnvlink_domain = 36\n") ==
        "t.toml:6:17: fabric.nvlink_domain: 36 GPUs is not a whole number of nodes of 8 (gpus_per_node)");
  CHECK(parse_config(kFabric + "sharp = true\n", "t.toml").fabric.sharp);
  CHECK(error_of(kFabric + "sharp = 1\n") == "t.toml:6:9: fabric.sharp: expected true or false");
}

}  // namespace nccl_hardware_config_test

// The importers' table (workloads/import/importers.h): each format's sample
// file is recognised by its bytes whatever it is called, and JSON is rdma only
// when it looks like what rdma -j prints (issue 46: no JSON taken for rdma by
// its first byte or its name alone); the command line refuses other JSON in
// one line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "tests/support/cli_capture.h"
#include "tests/support/test_data.h"
#include "workloads/import/importers.h"

namespace importers_test {

using namespace ecmpsim;
using workloads::detect_flows_format;
using test_support::test_data;
using workloads::FlowsFormat;

TEST_CASE("each format's sample is recognised by its bytes, under any name") {
  const std::pair<const char*, FlowsFormat> samples[] = {
      {"rdma/host1.json", FlowsFormat::Rdma},    {"rdma/host2.json", FlowsFormat::Rdma},
      {"rdma_text/host1.txt", FlowsFormat::Rdma}, {"roce_mixed.pcap", FlowsFormat::Pcap},
      {"roce_mixed.pcapng", FlowsFormat::Pcap},  {"roce_mixed_ns.pcap", FlowsFormat::Pcap},
      {"roce_sll.pcap", FlowsFormat::Pcap},
  };
  for (const auto& [file, format] : samples)
    for (const char* name : {"flows", "flows.csv", "flows.json", "flows.pcap"}) {
      CAPTURE(file);
      CAPTURE(name);
      CHECK(detect_flows_format(test_data(file), name) == format);
    }
  // CSV bears no mark in its bytes: it is what neither bytes nor name make anything else.
  for (const char* name : {"flows", "flows.csv", "flows.txt"})
    CHECK(detect_flows_format(test_data("paper16_flows.csv"), name) == FlowsFormat::Csv);
  // The file as rdma -j -p prints it (pretty: the keys on lines of their own),
  // one array per device as some versions print, and a prompt pasted above.
  CHECK(detect_flows_format("[ {\n        \"ifindex\": 0,\n        \"ifname\": \"mlx5_0\",\n        \"port\": 1,\n"
                            "        \"lqpn\": 1,\n        \"type\": \"GSI\",\n",
                            "h.txt") == FlowsFormat::Rdma);
  CHECK(detect_flows_format("[[{\"ifname\":\"mlx5_0\",\"lqpn\":7}],[{\"ifname\":\"mlx5_1\",\"lqpn\":9}]]", "h") ==
        FlowsFormat::Rdma);
  CHECK(detect_flows_format("$ rdma -j res show qp\n" + test_data("rdma/host1.json"), "h.log") == FlowsFormat::Rdma);
}

TEST_CASE("JSON that is not an rdma dump is no importer's, whatever its name") {
  // Negative controls, each one step from a dump: the keys as values, one key
  // missing, the QP's keys one object too deep, an object at the top (rdma
  // prints arrays), no object at all, and a document of another tool.
  for (const char* json : {"{}", "[]", "[1, 2, 3]", "[{\"name\":\"ifname\",\"key\":\"lqpn\"}]",
                           "[{\"ifname\":\"mlx5_0\",\"qpn\":1}]", "[{\"qp\":{\"ifname\":\"mlx5_0\",\"lqpn\":1}}]",
                           "{\"ifname\":\"mlx5_0\",\"lqpn\":1}", "  \n{\"fabric\": {\"kind\": \"leaf-spine\"}}"})
    for (const char* name : {"x", "x.json", "x.csv"}) {
      CAPTURE(json);
      CAPTURE(name);
      CHECK(detect_flows_format(json, name) == std::nullopt);
    }
  // The control's control: the same bytes with both keys in the first QP are a dump.
  CHECK(detect_flows_format("[{\"ifname\":\"mlx5_0\",\"lqpn\":1}]", "x") == FlowsFormat::Rdma);
}

TEST_CASE("the table: enum order, one fallback, the options each format takes") {
  const auto rows = workloads::importers();
  REQUIRE(rows.size() == 3);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(static_cast<std::size_t>(rows[i].value) == i);
    CHECK(static_cast<bool>(rows[i].parse));
  }
  CHECK(workloads::parse_flows_format("rdma") == FlowsFormat::Rdma);
  CHECK(workloads::parse_flows_format("json") == std::nullopt);
  CHECK(workloads::importer(FlowsFormat::Rdma).flow_bytes);
  CHECK_FALSE(workloads::importer(FlowsFormat::Csv).flow_bytes);
  CHECK_FALSE(workloads::importer(FlowsFormat::Pcap).allow_unpaired);
}

TEST_CASE("ecmpsim run --flows on JSON no importer reads: one line, exit 2") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ecmpsim_importers_test." + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << "[{\"src_ip\": \"10.0.0.1\", \"dst_ip\": \"10.0.1.1\", \"bytes\": 1}]\n";
  const auto r = cli_run({"run", ECMPSIM_SOURCE_DIR "/configs/paper16.toml", "--flows", path.string()});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: " + path.string() +
                     ": JSON that no flows format reads (rdma: rdma -j resource show qp prints an array of QP "
                     "objects with the keys ifname and lqpn)\n");
  // Named as rdma, it is read as rdma and refused by the rdma reader.
  const auto forced = cli_run({"run", ECMPSIM_SOURCE_DIR "/configs/paper16.toml", "--flows", path.string(),
                               "--flows-format", "rdma", "--rdma-map", ECMPSIM_SOURCE_DIR "/tests/data/rdma/map.csv"});
  CHECK(forced.code == 2);
  CHECK(forced.err.find("ifname") != std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace importers_test

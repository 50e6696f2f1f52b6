// [fabric] gpu_nics (issue 34 item 4): read and checked once, the default
// unchanged when the map states it, and bad maps as one positioned line.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "sim/config/config.h"
#include "sim/model/simulation.h"
#include "tests/support/cli_capture.h"

namespace gpu_nics_test {

using namespace ecmpsim;

namespace {

std::string gpu_nics_error(const std::string& toml) {
  try {
    const Simulation sim(parse_config(toml, "t.toml"));
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

}  // namespace

TEST_CASE("gpu_nics stating the default map changes no flow of the shipped rail config") {
  std::ifstream in(ECMPSIM_SOURCE_DIR "/configs/rail.toml");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("gpus_per_node = 8\n");
  REQUIRE(at != std::string::npos);
  std::string mapped = text;
  mapped.insert(at, "gpu_nics = [0, 1, 2, 3, 4, 5, 6, 7]\n");
  const Simulation plain(parse_config(text, ECMPSIM_SOURCE_DIR "/configs/rail.toml"));
  const Simulation stated(parse_config(mapped, ECMPSIM_SOURCE_DIR "/configs/rail.toml"));
  REQUIRE(stated.spec().fabric.gpu_nics.near.size() == 8);
  CHECK(stated.flows().src == plain.flows().src);
  CHECK(stated.flows().dst == plain.flows().dst);
  CHECK(stated.flows().channel == plain.flows().channel);
  CHECK(stated.flows().bytes == plain.flows().bytes);
  // Negative control: GPUs 0 and 1 trading NICs moves the ring channels that start on them.
  mapped.replace(mapped.find("[0, 1,"), 6, "[1, 0,");
  const Simulation swapped(parse_config(mapped, ECMPSIM_SOURCE_DIR "/configs/rail.toml"));
  CHECK(swapped.flows().src != plain.flows().src);
}

TEST_CASE("bad gpu_nics: one line at the key") {
  const std::string head = "[fabric]\nkind = \"rail\"\nnodes = 2\nnics_per_node = 4\ngpus_per_node = 2\n";
  CHECK(gpu_nics_error(head + "gpu_nics = [3]\n") ==
        "t.toml:6:12: fabric.gpu_nics: 1 entry for gpus_per_node = 2: give one per GPU");
  CHECK(gpu_nics_error(head + "gpu_nics = [3, 4]\n") ==
        "t.toml:6:12: fabric.gpu_nics: GPU 1: NIC 4 but a node has 4 NICs (nics_per_node)");
  CHECK(gpu_nics_error(head + "gpu_nics = [3, [2, 2]]\n") == "t.toml:6:12: fabric.gpu_nics: GPU 1: NIC 2 twice");
  CHECK(gpu_nics_error(head + "gpu_nics = [3, \"x\"]\n") ==
        "t.toml:6:16: fabric.gpu_nics: GPU 1: expected a NIC index in [0, 253]");
  CHECK(gpu_nics_error(head + "gpu_nics = [3, []]\n") == "t.toml:6:16: fabric.gpu_nics: GPU 1: an empty list of NICs");
  CHECK(gpu_nics_error(head + "gpu_nics = [3, [1, 2]]\n") == "no error");
}

}  // namespace gpu_nics_test

// The sweep's notes on a seed axis that changes nothing: written when the
// routing explains it and the swept seeds really gave identical metrics, and
// not otherwise (a mixing hash, a group of three, a renaming that is no
// symmetry of a fabric with a failed cable).
#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/config/config.h"
#include "sim/sweep/sweep.h"
#include "sim/sweep/sweep_notes.h"

namespace sweep_notes_test {

using namespace ecmpsim;

namespace {

const std::string kPaper16 = ECMPSIM_SOURCE_DIR "/configs/paper16.toml";

SweepRun sweep_all(const Sweep& sweep) {
  SweepRun run = run_sweep(sweep, 0, sweep.space().size(), 2);
  REQUIRE(run.done == sweep.space().size());
  return run;
}

// Whether any two variants differ in any metric.
bool varies(const SweepRun& run) {
  for (std::uint64_t i = 1; i < run.values.size(); ++i)
    if (!std::equal(run.values[i].begin(), run.values[i].end(), run.values[0].begin())) return true;
  return false;
}

SeedEffect::Reach reach_of(const Sweep& sweep) {
  return seed_effect(sweep.base().fabric(), sweep.plan(0).forwarding()).reach;
}

Sweep seeds_of(const Spec& spec, const std::string& scenario, SeedMode mode, std::vector<std::string> algos = {}) {
  SweepSpec axes;
  axes.scenarios = {scenario};
  axes.seeds = UintRange{0, 64, 1};
  axes.seed_mode = mode;
  axes.algos = std::move(algos);
  return Sweep(spec, axes);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a CRC on power-of-two groups: every seed gives the same metrics, and the sweep says why") {
  // paper16: 4 leaves x 4 spines, one cable per pair; every flow is hashed
  // once, by its source leaf, over 4 uplinks; the strided ring sends each
  // leaf's flows to one other leaf, so even per-switch seeds only rename.
  const Spec spec = load_config(kPaper16);
  for (const SeedMode mode : {SeedMode::Same, SeedMode::PerTier, SeedMode::PerSwitch}) {
    CAPTURE(static_cast<int>(mode));
    const Sweep sweep = seeds_of(spec, "ecmp", mode);
    const SweepRun run = sweep_all(sweep);
    CHECK_FALSE(varies(run));  // the observation the note rests on, made independently here
    CHECK(reach_of(sweep) == SeedEffect::Reach::Renames);
    const auto notes = seed_notes(sweep, 0, run.values);
    REQUIRE(notes.size() == 1);
    CHECK(contains(notes[0], "scenario 'ecmp'"));
    CHECK(contains(notes[0], "all 64 seeds gave the same metrics"));
    CHECK(contains(notes[0], "crc16-ccitt is affine in the seed"));
    CHECK(contains(notes[0], "groups of 4 members"));
    // paper16's ports come from the QP numbers (sport_model linux): those vary, the port base does not.
    CHECK(contains(notes[0], "--qpn-base"));
    CHECK_FALSE(contains(notes[0], "--sport-base"));
    CHECK(contains(notes[0], "--algos xxh3"));
  }
  // The axis the note points to does spread the metrics.
  SweepSpec qpns;
  qpns.scenarios = {"ecmp"};
  qpns.qpn_base = UintRange{0x100, 0x300, 0x10};
  CHECK(varies(sweep_all(Sweep(spec, qpns))));
}

TEST_CASE("negative controls: a mixing hash and a group of three get no note, and their seeds do vary") {
  const Spec paper16 = load_config(kPaper16);
  const Sweep xxh3 = seeds_of(paper16, "ecmp", SeedMode::Same, {"xxh3"});
  const SweepRun mixed = sweep_all(xxh3);
  CHECK(varies(mixed));
  CHECK(reach_of(xxh3) == SeedEffect::Reach::Varies);
  CHECK(seed_notes(xxh3, 0, mixed.values).empty());

  // Three spines: (h ^ c) mod 3 is no renaming of h mod 3.
  const Spec three = parse_config(R"(
[fabric]
leaves = 4
spines = 3
hosts_per_leaf = 2
[workload]
nodes = 8
placement = "strided"
channels = 4
sport_model = "range"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
)",
                                  "three.toml");
  const Sweep crc3 = seeds_of(three, "ecmp", SeedMode::Same);
  const SweepRun run3 = sweep_all(crc3);
  CHECK(varies(run3));
  CHECK(reach_of(crc3) == SeedEffect::Reach::Varies);
  CHECK(seed_notes(crc3, 0, run3.values).empty());
}

TEST_CASE("a renaming that is no symmetry (a failed cable) changes the metrics: no note") {
  // leaf0 reaches leaf1 over both spines but leaf2 only over spine0 (spine1's
  // cable to leaf2 is down): renaming spine0 <-> spine1 at leaf0 moves its
  // leaf1 flows but not its leaf2 flows, so the uplink loads change unless
  // the leaf1 flows happen to split evenly or mirror another leaf's (with 2
  // channels they do: every seed gives the same numbers there by accident).
  const Spec spec = parse_config(R"(
[fabric]
leaves = 3
spines = 2
hosts_per_leaf = 2
[workload]
nodes = 6
collective = "alltoall"
channels = 3
sport_model = "range"
[[scenario]]
name = "ecmp"
down = ["spine1-leaf2"]
[scenario.hash]
algo = "crc16-ccitt"
)",
                                 "failed.toml");
  const Sweep sweep = seeds_of(spec, "ecmp", SeedMode::Same);
  const SweepRun run = sweep_all(sweep);
  CHECK(reach_of(sweep) == SeedEffect::Reach::Renames);  // the routing alone would claim it
  CHECK(varies(run));                                    // but the seeds do change the outcome
  CHECK(seed_notes(sweep, 0, run.values).empty());
}

TEST_CASE("static tables and fabrics without a choice: the seed cannot enter") {
  const Spec paper16 = load_config(kPaper16);
  const Sweep stat = seeds_of(paper16, "static", SeedMode::Same);
  const SweepRun run = sweep_all(stat);
  CHECK_FALSE(varies(run));
  const auto notes = seed_notes(stat, 0, run.values);
  REQUIRE(notes.size() == 1);
  CHECK(contains(notes[0], "scenario 'static'"));
  CHECK(contains(notes[0], "static tables"));

  const Spec single = parse_config(R"(
[fabric]
leaves = 2
spines = 1
hosts_per_leaf = 2
[workload]
nodes = 4
placement = "strided"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "xxh3"
)",
                                   "single.toml");
  const Sweep one = seeds_of(single, "ecmp", SeedMode::Same);
  const SweepRun r1 = sweep_all(one);
  CHECK(reach_of(one) == SeedEffect::Reach::NoChoice);
  const auto n1 = seed_notes(one, 0, r1.values);
  REQUIRE(n1.size() == 1);
  CHECK(contains(n1[0], "no switch has more than one equal-cost next hop"));
}

TEST_CASE("weights and resilient buckets are no renaming") {
  const std::string base = R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 2
[workload]
nodes = 4
[[scenario]]
name = "ecmp"
)";
  const Spec weighted = parse_config(base + "weights = { \"leaf0-spine1\" = 3 }\n", "w.toml");
  CHECK(reach_of(seeds_of(weighted, "ecmp", SeedMode::Same)) == SeedEffect::Reach::Varies);
  const Spec resilient = parse_config(base + "[scenario.hash]\nselect = \"resilient\"\n", "r.toml");
  CHECK(reach_of(seeds_of(resilient, "ecmp", SeedMode::Same)) == SeedEffect::Reach::Varies);
  const Spec plain = parse_config(base, "p.toml");
  CHECK(reach_of(seeds_of(plain, "ecmp", SeedMode::Same)) == SeedEffect::Reach::Renames);
}

TEST_CASE("the notes reach the sweep's JSON and table and the report's data") {
  const CliResult flat = cli_run({"sweep", kPaper16, "--seeds", "0:50", "--format", "json"});
  REQUIRE(flat.code == 0);
  const auto doc = nlohmann::json::parse(flat.out);
  REQUIRE(doc["notes"].size() == 1);
  CHECK(contains(doc["notes"][0].get<std::string>(), "all 50 seeds gave the same metrics"));
  CHECK(doc["metrics"]["fim"]["min"] == doc["metrics"]["fim"]["max"]);

  const CliResult mixed = cli_run({"sweep", kPaper16, "--seeds", "0:50", "--algos", "xxh3", "--format", "json"});
  REQUIRE(mixed.code == 0);
  const auto doc2 = nlohmann::json::parse(mixed.out);
  CHECK(doc2["notes"].is_array());
  CHECK(doc2["notes"].empty());
  CHECK(doc2["metrics"]["fim"]["min"] < doc2["metrics"]["fim"]["max"]);

  // Per algorithm: the CRC's seeds are flat, xxh3's are not; one note, naming the CRC.
  const CliResult both = cli_run({"sweep", kPaper16, "--seeds", "0:50", "--algos", "xxh3,crc16-ccitt", "--format",
                                  "json"});
  REQUIRE(both.code == 0);
  const auto doc3 = nlohmann::json::parse(both.out);
  REQUIRE(doc3["notes"].size() == 1);
  CHECK(contains(doc3["notes"][0].get<std::string>(), "scenario 'ecmp' with crc16-ccitt:"));

  const CliResult table = cli_run({"sweep", kPaper16, "--seeds", "0:50"});
  REQUIRE(table.code == 0);
  const std::size_t note = table.out.find("\nnote       seeds changed nothing for scenario 'ecmp'");
  REQUIRE(note != std::string::npos);
  // The note is wrapped to 100 columns, its continuation lines indented under its text.
  const std::string block = table.out.substr(note + 1, table.out.find("\n\n", note) - note);
  CHECK(std::count(block.begin(), block.end(), '\n') > 1);
  for (std::size_t at = 0, end; (end = block.find('\n', at)) != std::string::npos; at = end + 1) {
    CHECK(end - at <= 100);
    if (at > 0) CHECK(block.compare(at, 11, std::string(11, ' ')) == 0);
  }

  const CliResult page = cli_run({"report", kPaper16, "--seeds", "0:20", "--out", "-"});
  REQUIRE(page.code == 0);
  CHECK(contains(page.out, "<p class=\"note\">seeds changed nothing for scenario &#39;ecmp&#39;"));
}
}  // namespace sweep_notes_test

// Config keys of issue 49: seed_as and its vocabulary default, the
// port-channel hash tables, `[fabric] lag`, a topology file's address column.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "sim/config/config.h"
#include "sim/fabric/fabric.h"

namespace hash_vocabulary_config_test {

using namespace ecmpsim;

namespace {

const std::string kScenario = "[[scenario]]\nname = \"x\"\n[scenario.hash]\n";

HashSpec hash_of(const std::string& keys) { return parse_config(kScenario + keys, "t.toml").scenarios[0].hash; }

}  // namespace

TEST_CASE("seed_as: the default is the vocabulary's the algorithm is named in; the key says otherwise") {
  CHECK(hash_of("algo = \"CRC_32LO\"\n").seed_as == hashing::SeedAs::Prefix);
  CHECK(hash_of("algo = \"SAI_HASH_ALGORITHM_CRC_32LO\"\n").seed_as == hashing::SeedAs::Prefix);
  CHECK(hash_of("algo = \"crc_32lo\"\n").seed_as == hashing::SeedAs::Prefix);
  CHECK(hash_of("algo = \"crc32-lo\"\n").seed_as == hashing::SeedAs::Register);
  CHECK(hash_of("seed_as = \"register\"\nalgo = \"CRC_32LO\"\n").seed_as == hashing::SeedAs::Register);
  CHECK(hash_of("algo = \"crc32\"\nseed_as = \"xor\"\n").seed_as == hashing::SeedAs::Xor);
  // Per tier: a SAI name there sets that tier's convention with its algorithm.
  const Spec s = parse_config(kScenario + "algo = \"crc32-lo\"\n[scenario.hash.spine]\nalgo = \"CRC_CCITT\"\n", "t.toml");
  REQUIRE(s.scenarios[0].hash_tiers.size() == 1);
  const HashOverride& spine = s.scenarios[0].hash_tiers[0];
  CHECK(spine.keys == kHashAlgo);  // the convention travels with the algorithm, not as a key of its own
  HashSpec at_spine = s.scenarios[0].hash;
  CHECK(at_spine.seed_as == hashing::SeedAs::Register);
  apply_override(at_spine, spine);
  CHECK(at_spine.seed_as == hashing::SeedAs::Prefix);
  // And back: an ecmpsim name over a SAI-named base brings the register convention.
  const Spec t = parse_config(kScenario + "algo = \"CRC_32LO\"\n[scenario.hash.spine]\nalgo = \"crc16-ccitt\"\n",
                              "t.toml");
  HashSpec back = t.scenarios[0].hash;
  CHECK(back.seed_as == hashing::SeedAs::Prefix);
  apply_override(back, t.scenarios[0].hash_tiers[0]);
  CHECK(back.seed_as == hashing::SeedAs::Register);
  // An override that names no algorithm leaves the convention below it.
  const Spec u = parse_config(kScenario + "algo = \"CRC_32LO\"\n[scenario.hash.spine]\nseed = 3\n", "t.toml");
  HashSpec kept = u.scenarios[0].hash;
  apply_override(kept, u.scenarios[0].hash_tiers[0]);
  CHECK(kept.seed_as == hashing::SeedAs::Prefix);
}

TEST_CASE("[scenario.hash.lag] and [scenario.hash.bond]: the keys they set") {
  const Spec s = parse_config(kScenario + "seed = 9\n[scenario.hash.lag]\noffset = 4\n[scenario.hash.bond]\nalgo = \"xxh3\"\n",
                              "t.toml");
  const ScenarioSpec& sc = s.scenarios[0];
  CHECK(sc.lag_hash.keys == kHashOffset);
  CHECK(sc.lag_hash.values.offset == 4);
  CHECK(sc.bond_hash.keys == kHashAlgo);
  CHECK(sc.bond_hash.values.seed_as == hashing::SeedAs::Register);  // a catalogue name: its register convention
  CHECK(sc.bond_hash.values.algo == "xxh3");
  CHECK_THROWS_WITH_AS(parse_config(kScenario + "[scenario.hash.lagg]\noffset = 4\n", "t.toml"),
                       "unknown key (did you mean 'lag'?)", InputError);
}

TEST_CASE("[fabric] lag = true: the parallel leaf-spine cables are port-channels") {
  const Spec s = parse_config("[fabric]\nleaves = 2\nspines = 2\nhosts_per_leaf = 1\nlinks_per_pair = 2\nlag = true\n",
                              "t.toml");
  CHECK(s.fabric.leaf_spine.lag);
  const Fabric f = build_fabric(s.fabric);
  REQUIRE(f.lags().size() == 8);
  CHECK(f.lags()[0].members.size() == 2);
  CHECK(f.lags()[0].name == "po-spine0");
  CHECK_THROWS_AS(parse_config("[fabric]\nkind = \"fat-tree\"\nlag = true\n", "t.toml"), InputError);
}

TEST_CASE("a topology file's address column: the endpoint's address, the plan's for the others") {
  const auto dir = std::filesystem::temp_directory_path() / "ecmpsim_address_column_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "t.csv") << "node,l0,leaf\nnode,l1,leaf\nnode,s,spine\nnode,a,host,,,10.20.0.7\nnode,b,host\n"
                                  "node,c,host,,,10.20.1.9\nlink,a,l0,100\nlink,b,l0,100\nlink,c,l1,100\n"
                                  "link,l0,s,100\nlink,l1,s,100\n";
  const Spec s = parse_config("[fabric]\nkind = \"file\"\nfile = \"t.csv\"\n", (dir / "c.toml").string());
  const Fabric f = build_fabric(s.fabric);
  CHECK(hashing::format_ip(f.node(f.find("a")).ip) == "10.20.0.7");
  CHECK(hashing::format_ip(f.node(f.find("b")).ip) == "10.0.0.2");  // the plan: ToR 0's second
  CHECK(hashing::format_ip(f.node(f.find("c")).ip) == "10.20.1.9");
  std::filesystem::remove_all(dir);
}

}  // namespace hash_vocabulary_config_test

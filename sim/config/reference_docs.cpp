// Markdown for the generated reference pages (reference_docs.h). The text
// around the tables is here; every row comes from a table the code runs on.
#include "sim/config/reference_docs.h"

#include <array>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/vocabulary.h"
#include "sim/config/config_sections.h"

namespace ecmpsim {
namespace {

// A table cell: a pipe would end the cell (even inside a code span) and an
// asterisk outside one could start emphasis.
std::string cell(std::string_view text) {
  std::string out;
  bool code = false;
  for (const char c : text) {
    if (c == '`') code = !code;
    if (c == '|' || (c == '*' && !code)) out += '\\';
    out += c;
  }
  return out;
}

std::string generated_notice(std::string_view source) {
  return "<!-- Generated from " + std::string(source) + ". Do not edit: run `" +
         std::string(kRegenerateDocsCommand) + "`. -->\n";
}

template <class S>
void append_section(std::string& out, std::string_view header, std::span<const config::Knob<S>> knobs) {
  const S defaults{};
  out += "\n## `" + std::string(header) + "`\n\n";
  out += "| key | type | range | default | meaning |\n|---|---|---|---|---|\n";
  for (const auto& k : knobs) {
    const std::string def = k.show_default ? k.show_default(defaults) : "";
    out += "| `" + std::string(k.key) + "` | " + cell(std::string(k.type)) + " | " + cell(k.range) + " | " +
           (def.empty() ? "" : cell("`" + def + "`")) + " | " + cell(k.doc) + " |\n";
  }
}

constexpr std::array kPages{
    GeneratedPage{"docs/config-reference.md", &config_reference_markdown},
    GeneratedPage{"docs/hash-catalogue.md", &hash_catalogue_markdown},
};

}  // namespace

std::span<const GeneratedPage> generated_pages() { return kPages; }

std::string config_reference_markdown() {
  std::string out = generated_notice("the config knob tables (sim/config/knobs.h, sim/config/config_*.cpp)");
  out += "# Configuration reference\n\n"
         "Every key a config file may hold, rendered from the knob tables that also read and validate\n"
         "it, so this page and the code cannot disagree; `ecmpsim run --help` prints the same tables.\n"
         "An unknown key, a value of the wrong type and a value out of range are errors naming the\n"
         "file, line, column and key ([Errors](errors.md)). *Range* is what the reader accepts beyond\n"
         "the type; *default* is the value a config that omits the key gets (blank where the key has\n"
         "none, or its meaning says).\n";
  config::for_each_section([&](std::string_view header, auto knobs) { append_section(out, header, knobs); });
  out += "\n## `" + std::string(config::kHashOverrideTables) + "`\n\n" + std::string(config::kHashOverrideDoc) +
         " See [Per-switch hashes](fabrics-and-routing.md#per-switch-hashes).\n"
         "\n## Not in these tables\n\n"
         "Topology files (`[fabric] file`) and route CSV files (`[[scenario]] routes_file`) have formats\n"
         "of their own: [Fabrics and routing](fabrics-and-routing.md#fabric-kinds) and\n"
         "[Static routing at scale](fabrics-and-routing.md#static-routing-at-scale).\n";
  return out;
}

std::string hash_catalogue_markdown() {
  std::string out = generated_notice("the hash catalogue (hashing/catalogue.cpp)");
  out += "# Hash catalogue\n\n"
         "Every hash algorithm ecmpsim models, rendered from the catalogue the code looks algorithms up\n"
         "in (`ecmpsim hash --list` prints the same list). How each is defined, pinned to published\n"
         "values and measured: [Hash models](hash-models.md).\n\n"
         "- *bits*: the significant output bits, which the window and the member selection use.\n"
         "- *key layout*: the bytes hashed. *configured fields*: the scenario's field list, packed in\n"
         "  order; *Linux flow_keys*: `struct flow_keys` as `fib_multipath_hash` fills it under that\n"
         "  policy; *bond_ip_hash words*: the words Linux bonding's layer3+4 policy reads.\n"
         "- *seed-affine*: yes when, for keys of one length, a seed only XORs one constant into every\n"
         "  hash; over a power-of-two group with modulo selection such a seed changes no balance, and\n"
         "  a sweep turns a new seed into one XOR per flow.\n\n"
         "- *SAI name*: the `sai_hash_algorithm_t` name (`SAI_HASH_ALGORITHM_` + it), which SONiC's\n"
         "  `ecmp_hash_algorithm` also uses, accepted as a synonym wherever an algorithm is named, short\n"
         "  (`CRC_CCITT`) or in full (`SAI_HASH_ALGORITHM_CRC_CCITT`).\n\n"
         "| name | SAI name | bits | key layout | seed-affine | definition; how a non-zero seed enters |\n"
         "|---|---|---|---|---|---|\n";
  for (const hashing::Algorithm& a : hashing::catalogue())
    out += "| `" + std::string(a.name) + "` | " + (a.sai.empty() ? "" : "`" + std::string(a.sai) + "`") + " | " +
           std::to_string(a.bits) + " | " + std::string(hashing::key_layout(a.layout).text) + " | " +
           (a.seed_affine ? "yes" : "no") + " | " + cell(a.doc) + " |\n";
  out += "\n## SAI names that are not one algorithm\n\n"
         "SAI defines these by kind only, so each ASIC computes its own; naming one is an error that lists\n"
         "the catalogue models below and points at [`ecmpsim fit`](fit.md), which tells from observed\n"
         "member choices which model a switch runs.\n\n"
         "| SAI name | what it is | closest catalogue models |\n|---|---|---|\n";
  for (const hashing::VendorDefined& v : hashing::vendor_defined())
    out += "| `" + std::string(v.name) + "` | " + cell(v.what) + " | " + cell(v.closest) + " |\n";
  out += "\n## Key fields\n\n"
         "The fields a `fields` list (and `ecmpsim hash --fields`, `ecmpsim fit --fields`) names, by\n"
         "ecmpsim name, by the name SONiC's `ECMP_HASH` lists use (short, or in full as\n"
         "`SAI_NATIVE_HASH_FIELD_` + it, opencomputeproject/SAI `inc/saihash.h`, either wholly in lower\n"
         "case as SONiC's APP_DB writes them; `SRC_IPV4`, `DST_IPV4`, `SRC_IPV6` and `DST_IPV6` are the\n"
         "address fields too), by the name Cumulus Linux's NVUE gives it (`nv set system forwarding\n"
         "ecmp-hash NAME`; NVIDIA's NVUE Command Reference, *System Forwarding*) or by Arista EOS's\n"
         "load-balance keyword (every EOS keyword listed is accepted; the first is shown). Outputs\n"
         "print the ecmpsim name. Tunnel fields (`INNER_*`, `inner-*`) are accepted and add nothing to\n"
         "the key: non-tunnelled RoCEv2 has no inner header. Fields marked *per hop* take the value the\n"
         "hop sees ([Hash models](hash-models.md#per-hop-fields)).\n\n"
         "| field | SONiC name | Cumulus NVUE name | Arista EOS keywords | bytes in the key | per hop |\n"
         "|---|---|---|---|---|---|\n";
  for (const auto& f : hashing::kFields) {
    hashing::KeyBuffer key;
    const hashing::Field one[] = {f.value};
    const std::size_t bytes = hashing::build_key(hashing::KeyLayout::Fields, one, hashing::Tuple{}, key);
    const std::string_view nvue = name_of(hashing::kNvueFields, f.value);
    std::string eos;
    for (const auto& e : hashing::kEosFields)
      if (e.value == f.value) eos += (eos.empty() ? "`" : ", `") + std::string(e.name) + "`";
    out += "| `" + std::string(f.name) + "` | `" + std::string(name_of(hashing::kSonicFields, f.value)) + "` | " +
           (nvue == "?" ? std::string() : "`" + std::string(nvue) + "`") + " | " + eos + " | " +
           std::to_string(bytes) + " | " + (hashing::per_hop(f.value) ? "yes" : "") + " |\n";
  }
  out += "\n## Where the seed enters\n\n"
         "`seed_as` (`[scenario.hash]`, `ecmpsim hash --seed-as`, `ecmpsim fit --seed-as`): the same seed is\n"
         "a different switch in each convention ([Hash models](hash-models.md#seeds)).\n\n"
         "| seed_as | the seed is |\n|---|---|\n";
  for (const auto& c : hashing::kSeedAs) out += "| `" + std::string(c.name) + "` | " + cell(c.doc) + " |\n";
  out += "\nEach vocabulary's default, taken when the algorithm is named in it and `seed_as` is not given:\n\n"
         "| vocabulary | names | default seed_as | why |\n|---|---|---|---|\n";
  for (const auto& v : hashing::kVocabularies)
    out += "| " + std::string(v.name) + " | " + cell(v.who) + " | `" + std::string(hashing::seed_as_name(v.seed_as)) +
           "` | " + cell(v.seed_source) + " |\n";
  return out;
}

}  // namespace ecmpsim

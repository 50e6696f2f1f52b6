// The vendors' names for algorithms and fields (the vocabularies a config,
// `ecmpsim hash` and `ecmpsim fit` accept) and, per vocabulary, where its
// seed enters (seed_as.h): the default a [scenario.hash] table, `hash` and
// `fit` take when the algorithm is named in that vocabulary and no seed_as is
// given. Only SAI names algorithms; NVUE and EOS name fields only, so their
// rows say what their vendors publish about the seed and keep the default.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "hashing/hasher.h"
#include "hashing/key.h"
#include "hashing/seed_as.h"
#include "sim/base/named.h"

namespace ecmpsim::hashing {

enum class Vocabulary : std::uint8_t { Catalogue, Sai, Nvue, Eos };

struct VocabularyInfo {
  Vocabulary value;
  std::string_view name;
  std::string_view who;            // who spells names this way
  std::span<const Named<Field>> fields;
  SeedAs seed_as;                  // where its seed enters, by default
  std::string_view seed_source;    // why
};

inline constexpr std::array<VocabularyInfo, 4> kVocabularies{{
    {Vocabulary::Catalogue, "catalogue", "ecmpsim's own names", kFields, SeedAs::Register,
     "each family's rule in hashing/catalogue.cpp (a CRC's initial register, an XOR fold's result, xxHash's "
     "seed)"},
    {Vocabulary::Sai, "sai", "SAI and SONiC (CRC_32LO, SAI_HASH_ALGORITHM_CRC_32LO, crc_32lo; SRC_IP, src_ip)",
     kSonicFields, SeedAs::Prefix,
     "SONiC's SAI-P4 program prepends the 32-bit seed to the hashed fields: hash(..., {seed, src_addr, dst_addr, "
     "l4_src_port, l4_dst_port}) (sonic-net/sonic-pins sai_p4/instantiations/google/hashing.p4, commit 5b9097d)"},
    {Vocabulary::Nvue, "nvue", "Cumulus Linux NVUE (source-ip, ingress-interface)", kNvueFields, SeedAs::Register,
     "NVIDIA does not publish where Spectrum's hash seed enters: the catalogue's rule until `ecmpsim fit` tells"},
    {Vocabulary::Eos, "eos", "Arista EOS load-balance keywords (source-ip, next-header)", kEosFields,
     SeedAs::Register,
     "Arista does not publish where its hash seed enters: the catalogue's rule until `ecmpsim fit` tells"},
}};

constexpr const VocabularyInfo& vocabulary(Vocabulary v) noexcept {
  for (const VocabularyInfo& row : kVocabularies)
    if (row.value == v) return row;
  return kVocabularies.front();
}

// The vocabulary an algorithm's name is in: SAI when spelt as SAI or SONiC
// spell it, else the catalogue (NVUE and EOS name no algorithm).
inline Vocabulary algorithm_vocabulary(std::string_view name) noexcept {
  return sai_spelling(name) ? Vocabulary::Sai : Vocabulary::Catalogue;
}

// Where the seed of a hash whose algorithm is named `name` enters, unless
// the user says: its vocabulary's convention.
inline SeedAs default_seed_as(std::string_view algo_name) noexcept {
  return vocabulary(algorithm_vocabulary(algo_name)).seed_as;
}

}  // namespace ecmpsim::hashing

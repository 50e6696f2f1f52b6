// The hash interface: every algorithm is a pure function of (key bytes, seed).
// The switch model only looks algorithms up by name and calls them. Seed 0
// gives each algorithm exactly as published; how a non-zero seed enters is
// documented per family (crc.h, toeplitz.h, ...) and in docs/hash-models.md.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace ecmpsim::hashing {

using Key = std::span<const std::uint8_t>;
using HashFn = std::uint64_t (*)(Key key, std::uint32_t seed) noexcept;

// How the key bytes for an algorithm are laid out. Most switch hashes read
// the configured field list packed in order (P4 style); a few models (the
// Linux kernel's multipath and bonding hashes) define their own layout.
enum class KeyLayout : std::uint8_t {
  Fields,      // configured fields, each in network byte order, in order
  LinuxL3,     // struct flow_keys as fib_multipath_hash policy 0 fills it
  LinuxL4,     // struct flow_keys as fib_multipath_hash policy 1 fills it
  BondL34,     // the words bond_ip_hash (layer3+4) reads
};

struct Algorithm {
  std::string_view name;
  unsigned bits;  // significant output bits (16, 31, 32, 64)
  HashFn fn;
  KeyLayout layout;
  // The output is affine over GF(2) in (seed, key) for keys of one length, so
  // changing the seed XORs every hash with one constant (CRCs, XOR folds; not
  // Toeplitz, whose seed enters the key words, lookup3, xxHash or SipHash).
  bool seed_affine;
  std::string_view doc;  // one line: definition, how the seed enters, source
  // The SAI / SONiC name of the same function (SAI_HASH_ALGORITHM_<sai>,
  // SONiC's ecmp_hash_algorithm value), accepted wherever an algorithm is
  // named, short or in full; empty when SAI names none that is exactly this
  // algorithm.
  std::string_view sai = {};
};

// A SAI algorithm name that defines no function of its own: what the ASIC
// implements (CRC, XOR, CRC_XOR), a per-packet choice (RANDOM, ROUND_ROBIN) or
// none set (NONE). Naming one is an error that lists the catalogue models
// closest to it.
struct VendorDefined {
  std::string_view name;     // as SAI and SONiC spell it
  std::string_view what;     // what SAI says it is
  std::string_view closest;  // catalogue names, comma-separated
};

// Every algorithm, in a stable order.
std::span<const Algorithm> catalogue() noexcept;

// The algorithm with that catalogue or SAI name ("CRC_CCITT" or
// "SAI_HASH_ALGORITHM_CRC_CCITT", or either wholly in lower case as SONiC's
// APP_DB writes them: "crc_ccitt"); nullptr when none has it.
const Algorithm* find(std::string_view name) noexcept;
// Whether `name` names its algorithm by the SAI name (the SONiC vocabulary,
// whose seed convention is its own: hashing/vocabulary.h).
bool sai_spelling(std::string_view name) noexcept;

// Every vendor-defined SAI name, and the row for `name` (any letter case,
// short or with the SAI_HASH_ALGORITHM_ prefix); nullptr when it is not one.
std::span<const VendorDefined> vendor_defined() noexcept;
const VendorDefined* find_vendor_defined(std::string_view name) noexcept;

}  // namespace ecmpsim::hashing

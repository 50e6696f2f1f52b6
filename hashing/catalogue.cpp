#include <algorithm>
#include <array>

#include "hashing/bonding.h"
#include "hashing/crc.h"
#include "hashing/hasher.h"
#include "hashing/jenkins.h"
#include "hashing/key.h"
#include "hashing/linux_multipath.h"
#include "hashing/toeplitz.h"
#include "hashing/xor_fold.h"
#include "hashing/xxh.h"

namespace ecmpsim::hashing {
namespace {

using enum KeyLayout;
// Whether the seed's effect is a constant XOR on the output for keys of one
// length (a CRC's initial register, an XOR fold's result: both affine over GF(2)).
constexpr bool kAffine = true, kMixing = false;

constexpr std::array kAlgorithms{
    Algorithm{"crc16-ccitt", 16, &crc16_ccitt, Fields, kAffine,
              "CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF); seed XORed into the initial value (SAI CRC_CCITT: "
              "SAI names the polynomial only; another initial value is another seed)",
              "CRC_CCITT"},
    Algorithm{"crc16-xmodem", 16, &crc16_xmodem, Fields, kAffine,
              "CRC-16/XMODEM (poly 0x1021, init 0); seed XORed into the initial value"},
    Algorithm{"crc16-kermit", 16, &crc16_kermit, Fields, kAffine,
              "CRC-16/KERMIT (poly 0x1021, init 0, reflected); seed XORed into the initial value"},
    Algorithm{"crc16-arc", 16, &crc16_arc, Fields, kAffine,
              "CRC-16/ARC (poly 0x8005, init 0, reflected; bmv2 crc16); seed XORed into the initial value"},
    Algorithm{"crc16-buypass", 16, &crc16_buypass, Fields, kAffine,
              "CRC-16/BUYPASS (poly 0x8005, init 0, not reflected); seed XORed into the initial value"},
    Algorithm{"crc32", 32, &crc32, Fields, kAffine,
              "CRC-32 (Ethernet; poly 0x04C11DB7, reflected); seed XORed into the initial value"},
    Algorithm{"crc32-lo", 16, &crc32_lo, Fields, kAffine,
              "low 16 bits of CRC-32 (SAI CRC_32LO); seed XORed into the initial value", "CRC_32LO"},
    Algorithm{"crc32-hi", 16, &crc32_hi, Fields, kAffine,
              "high 16 bits of CRC-32 (SAI CRC_32HI); seed XORed into the initial value", "CRC_32HI"},
    Algorithm{"crc32c", 32, &crc32c, Fields, kAffine,
              "CRC-32C (Castagnoli, poly 0x1EDC6F41, reflected); seed XORed into the initial value"},
    Algorithm{"xor16", 16, &xor16, Fields, kAffine,
              "XOR of big-endian 16-bit words, tail zero-padded (bmv2 xor16); seed XORed into the result"},
    Algorithm{"xor32", 32, &xor32, Fields, kAffine,
              "XOR of big-endian 32-bit words, tail zero-padded; seed XORed into the result"},
    Algorithm{"toeplitz", 32, &toeplitz, Fields, kMixing,
              "Toeplitz (RSS) with the standard 40-byte key or the switch's rss_key; seed XORed into every 32-bit key word"},
    Algorithm{"jenkins", 32, &jenkins, Fields, kMixing,
              "Bob Jenkins lookup3 hashlittle, 32 bits; seed = initval"},
    Algorithm{"jenkins-lo", 16, &jenkins_lo, Fields, kMixing,
              "low 16 bits of lookup3 hashlittle (SAI JENKINS_LO); seed = initval"},
    Algorithm{"jenkins-hi", 16, &jenkins_hi, Fields, kMixing,
              "high 16 bits of lookup3 hashlittle (SAI JENKINS_HI); seed = initval"},
    Algorithm{"xxh32", 32, &xxh32, Fields, kMixing, "XXH32 (libxxhash); seed = xxHash seed"},
    Algorithm{"xxh64", 64, &xxh64, Fields, kMixing, "XXH64 (libxxhash); seed = xxHash seed"},
    Algorithm{"xxh3", 64, &xxh3, Fields, kMixing, "XXH3_64bits_withSeed (libxxhash); seed = xxHash seed"},
    Algorithm{"linux-bond-l34", 31, &linux_bond_l34, BondL34, kAffine,
              "Linux bonding layer3+4 (bond_ip_hash), select modulo; seed XORed before folding (Linux: 0)"},
    Algorithm{"linux-l3", 31, &linux_multipath, LinuxL3, kMixing,
              "Linux multipath hash, policy 0 (IPv4 addresses; IPv6 addresses, flow label, next header; "
              "SipHash-2-4 of flow_keys >> 1), select threshold; "
              "seed = net.ipv4.fib_multipath_hash_seed"},
    Algorithm{"linux-l4", 31, &linux_multipath, LinuxL4, kMixing,
              "Linux multipath hash, policy 1 (five-tuple, IPv4 or IPv6; SipHash-2-4 of flow_keys >> 1), "
              "select threshold; "
              "seed = net.ipv4.fib_multipath_hash_seed"},
};

// opencomputeproject/SAI inc/saiswitch.h, sai_hash_algorithm_t: these name
// no polynomial, word size or combination, so each ASIC's is its own; two
// spray per packet (RANDOM, ROUND_ROBIN) and NONE sets none.
constexpr std::array kVendorDefined{
    VendorDefined{"CRC", "a CRC of the vendor's choosing (SAI's default algorithm)",
                  "crc16-ccitt, crc16-arc, crc16-buypass, crc32-lo, crc32-hi, crc32c"},
    VendorDefined{"XOR", "an XOR fold of the vendor's choosing", "xor16, xor32"},
    VendorDefined{"CRC_XOR", "a vendor-defined combination of a CRC and an XOR fold",
                  "crc16-ccitt, crc32-lo, xor16"},
    VendorDefined{"RANDOM", "a random member per packet, not a function of the flow: routing = \"spray\" models it",
                  "xxh3 (a well-mixed per-flow hash)"},
    VendorDefined{"ROUND_ROBIN",
                  "the next member per packet (round-robin spraying), not a function of the flow: routing = \"spray\" "
                  "models it",
                  "xxh3 (a well-mixed per-flow hash)"},
    VendorDefined{"NONE", "no algorithm set: the ASIC's default runs (SAI's default ECMP algorithm is CRC)",
                  "crc16-ccitt, crc16-arc, crc16-buypass, crc32-lo, crc32-hi, crc32c"},
};

// The full enum spelling (saiswitch.h): "SAI_HASH_ALGORITHM_CRC_CCITT" names CRC_CCITT.
constexpr std::string_view kSaiAlgorithmPrefix = "SAI_HASH_ALGORITHM_";

constexpr char upper(char c) noexcept { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// `name` is the SAI name `sai`, short or in full, as SAI spells it or wholly
// in lower case as SONiC's APP_DB writes it (sonic-net/sonic-pins
// p4rt_app/sonic/hashing.cc: SAI_HASH_ALGORITHM_CRC_32LO -> "crc_32lo").
constexpr bool names_sai(std::string_view name, std::string_view sai) noexcept {
  for (const bool lower : {false, true}) {
    std::string_view stem = name;
    if (sai_spelt(stem.substr(0, kSaiAlgorithmPrefix.size()), kSaiAlgorithmPrefix, lower))
      stem.remove_prefix(kSaiAlgorithmPrefix.size());
    if (sai_spelt(stem, sai, lower)) return true;
  }
  return false;
}

}  // namespace

std::span<const Algorithm> catalogue() noexcept { return kAlgorithms; }

const Algorithm* find(std::string_view name) noexcept {
  for (const Algorithm& a : kAlgorithms)
    if (a.name == name || (!a.sai.empty() && names_sai(name, a.sai))) return &a;
  return nullptr;
}

bool sai_spelling(std::string_view name) noexcept {
  const Algorithm* a = find(name);
  return a != nullptr && a->name != name;
}

std::span<const VendorDefined> vendor_defined() noexcept { return kVendorDefined; }

const VendorDefined* find_vendor_defined(std::string_view name) noexcept {
  if (name.size() >= kSaiAlgorithmPrefix.size() &&
      std::equal(kSaiAlgorithmPrefix.begin(), kSaiAlgorithmPrefix.end(), name.begin(),
                 [](char a, char b) { return a == upper(b); }))
    name.remove_prefix(kSaiAlgorithmPrefix.size());
  for (const VendorDefined& v : kVendorDefined)
    if (v.name.size() == name.size() &&
        std::equal(name.begin(), name.end(), v.name.begin(), [](char a, char b) { return upper(a) == b; }))
      return &v;
  return nullptr;
}

}  // namespace ecmpsim::hashing

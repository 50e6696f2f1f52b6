#include <doctest/doctest.h>

#include "tests/cli_capture.h"

#include <sstream>
#include <vector>

#include "sim/error.h"
#include "sim/hash_query.h"

namespace {

// CRC-16/CCITT-FALSE bit by bit, independent of Boost.CRC.
std::uint16_t crc16_ccitt_bitwise(const std::vector<std::uint8_t>& data) {
  std::uint16_t crc = 0xFFFF;
  for (std::uint8_t b : data) {
    crc ^= static_cast<std::uint16_t>(b << 8);
    for (int i = 0; i < 8; ++i) crc = (crc & 0x8000) ? static_cast<std::uint16_t>((crc << 1) ^ 0x1021) : crc << 1;
  }
  return crc;
}

}  // namespace

TEST_CASE("ecmpsim hash: one flow, key bytes in network order, member by modulo") {
  // 10.0.0.1 -> 10.0.1.1, UDP 49156 -> 4791.
  const std::vector<std::uint8_t> key{10, 0, 0, 1, 10, 0, 1, 1, 17, 0xC0, 0x04, 0x12, 0xB7};
  const std::uint16_t crc = crc16_ccitt_bitwise(key);
  const auto r = cli_run({"hash", "--algo", "crc16-ccitt", "--src", "10.0.0.1", "--dst", "10.0.1.1", "--sport", "49156",
                      "--members", "4", "--format", "json"});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "{\"algo\":\"crc16-ccitt\",\"hash\":\"" + ecmpsim::format_hash(crc, 16) + "\",\"member\":" +
                     std::to_string(crc % 4) +
                     ",\"members\":4,\"select\":\"modulo\",\"seed\":0,\"key\":\"0a0000010a00010111c00412b7\"}\n");
}

TEST_CASE("ecmpsim hash: fields pick the key bytes in the order given") {
  const std::vector<std::uint8_t> key{0x12, 0xB7, 0xC0, 0x04};  // dport then sport
  const auto r = cli_run({"hash", "--algo", "crc16-ccitt", "--sport", "49156", "--fields", "dst-port,src-port",
                      "--members", "3", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"hash\":\"" + ecmpsim::format_hash(crc16_ccitt_bitwise(key), 16) + "\"") != std::string::npos);
  CHECK(r.out.find("\"key\":\"12b7c004\"") != std::string::npos);
}

TEST_CASE("ecmpsim hash: threshold selection splits the 16-bit space by weight") {
  // Weights 1,3 over 16 bits: bounds round(1*65536/4)-1 = 16383 and 65535.
  // --fields proto with proto 0 hashes the single byte 00.
  const std::uint16_t crc = crc16_ccitt_bitwise({0});
  const auto r = cli_run({"hash", "--algo", "crc16-ccitt", "--proto", "0", "--fields", "proto", "--members", "2",
                      "--select", "threshold", "--weights", "1,3", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"member\":" + std::to_string(crc <= 16383 ? 0 : 1)) != std::string::npos);
}

TEST_CASE("the tuples CSV parser reports line and column") {
  using ecmpsim::for_each_tuple_csv;
  std::vector<ecmpsim::hashing::Tuple> got;
  for_each_tuple_csv("src,dst,proto,sport,dport\n10.0.0.1,10.0.0.2,17,49152,4791\r\n\n1.2.3.4,5.6.7.8,6,1,2\n", "t.csv",
                     [&](const auto& t) { got.push_back(t); });
  REQUIRE(got.size() == 2);
  CHECK(got[0].src_ip == 0x0A000001);
  CHECK(got[0].sport == 49152);
  CHECK(got[1].proto == 6);
  CHECK(got[1].dport == 2);
  auto error = [](const char* text) {
    try {
      for_each_tuple_csv(text, "t.csv", [](const auto&) {});
    } catch (const ecmpsim::InputError& e) {
      return e.describe();
    }
    return std::string("no error");
  };
  CHECK(error("src,dst,proto,sport,dport\n10.0.0.1,10.0.0.300,17,1,2\n") ==
        "t.csv:2:10: invalid IPv4 address '10.0.0.300'");
  CHECK(error("src,dst,proto,sport,dport\n1.1.1.1,2.2.2.2,17,70000,2\n") == "t.csv:2:20: invalid port '70000' (0..65535)");
  CHECK(error("src,dst,proto,sport,dport\n1.1.1.1,2.2.2.2,17\n") == "t.csv:2:19: expected 5 fields src,dst,proto,sport,dport");
  CHECK(error("10.0.0.1,10.0.0.2,17,1,2\n") == "t.csv:1:1: expected the header line src,dst,proto,sport,dport");
  CHECK(error("") == "t.csv:1:1: empty input, expected the header line src,dst,proto,sport,dport");
}

TEST_CASE("ecmpsim hash: bad values are one-line errors naming the flag, exit 2") {
  auto r = cli_run({"hash", "--algo", "md5"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: --algo: unknown hash algorithm 'md5'\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--seed", "4294967296"});
  CHECK(r.err == "ecmpsim: --seed: invalid value '4294967296' (0..4294967295)\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--src", "1.2.3"});
  CHECK(r.err == "ecmpsim: --src: invalid IPv4 address '1.2.3'\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--fields", "src-ip,mac"});
  CHECK(r.err == "ecmpsim: --fields: unknown hash field 'mac'\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--fields", "src-ip,dst-port,src-ip"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: --fields: hash field 'src-ip' listed twice\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--tuples", "/nonexistent.csv"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: /nonexistent.csv: cannot open file\n");
}

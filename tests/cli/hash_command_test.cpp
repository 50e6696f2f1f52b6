#include <doctest/doctest.h>

#include "tests/support/cli_capture.h"

#include <sstream>
#include <vector>

#include "sim/base/error.h"
#include "sim/routing/hash_query.h"

namespace hash_command_test {

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
                     ",\"members\":4,\"select\":\"modulo\",\"seed\":0,\"seed_as\":\"register\",\"key\":\"0a0000010a00010111c00412b7\"}\n");
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
        "t.csv:2:10: invalid IP address '10.0.0.300'");
  CHECK(error("src,dst,proto,sport,dport\n1.1.1.1,2.2.2.2,17,70000,2\n") == "t.csv:2:20: invalid port '70000' (0..65535)");
  CHECK(error("src,dst,proto,sport,dport\n1.1.1.1,2.2.2.2,17\n") == "t.csv:2:19: expected 5 fields src,dst,proto,sport,dport");
  CHECK(error("src,dst,proto,sport,dport\n1.1.1.1,2.2.2.2,17,1,2,9,9\n") ==
        "t.csv:2:25: expected 5 or 6 fields src,dst,proto,sport,dport[,flow_label], found more");
  CHECK(error("src,dst,proto,sport,dport\n::1,::2,17,1,2,1048576\n") ==
        "t.csv:2:16: invalid flow label '1048576' (20 bits: 0..1048575)");
  CHECK(error("src,dst,proto,sport,dport\nfd00::1,10.0.0.2,17,1,2\n") ==
        "t.csv:2:9: destination 10.0.0.2 is IPv4 but the source is IPv6");
  CHECK(error("src,dst,proto,sport,dport\nfd00::1,fd00:::2,17,1,2\n") == "t.csv:2:9: invalid IP address 'fd00:::2'");
  CHECK(error("10.0.0.1,10.0.0.2,17,1,2\n") == "t.csv:1:1: expected the header line src,dst,proto,sport,dport[,flow_label]");
  CHECK(error("src,dst,proto,sport,dport,bytes\n") ==
        "t.csv:1:1: expected the header line src,dst,proto,sport,dport[,flow_label]");
  CHECK(error("") == "t.csv:1:1: empty input, expected the header line src,dst,proto,sport,dport[,flow_label]");
  // The header may name the sixth column (as `ecmpsim fit` observations do).
  std::vector<ecmpsim::hashing::Tuple> six;
  for_each_tuple_csv("src,dst,proto,sport,dport,flow_label\nfd00::1,fd00::2,17,1,4791,699050\n", "t.csv",
                     [&](const auto& t) { six.push_back(t); });
  REQUIRE(six.size() == 1);
  CHECK(six[0].flow_label == 699050);
}

TEST_CASE("ecmpsim hash: bad values are one-line errors naming the flag, exit 2") {
  auto r = cli_run({"hash", "--algo", "md5"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "ecmpsim: --algo: unknown hash algorithm 'md5' (ecmpsim hash --list shows them)\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--seed", "4294967296"});
  CHECK(r.err == "ecmpsim: --seed: invalid value '4294967296' (0..4294967295)\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--src", "1.2.3", "--dst", "10.0.0.2", "--sport", "1", "-n", "2"});
  CHECK(r.err == "ecmpsim: --src: invalid IP address '1.2.3' (IPv4 10.0.0.1 or IPv6 fd00::1)\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--fields", "src-ip,mac"});
  CHECK(r.err == "ecmpsim: --fields: unknown hash field 'mac' (one of src-ip, dst-ip, proto, src-port, dst-port, flow-label, "
        "in-port, dst-qp, src-mac, dst-mac, ethertype, vlan-id)\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--fields", "src-ip,dst-port,src-ip"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: --fields: hash field 'src-ip' listed twice\n");
  r = cli_run({"hash", "--algo", "crc16-ccitt", "--tuples", "/nonexistent.csv", "-n", "2"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: /nonexistent.csv: cannot open file\n");
}

TEST_CASE("ecmpsim hash: the RoCE and tunnel fields have their own flags") {
  // dst-qp is 3 bytes, in-port 2, flow-label 4 (20 bits right-aligned), each in network order.
  const auto r = cli_run({"hash", "--algo", "crc16-ccitt", "--fields", "dst-qp,in-port,flow-label", "--dst-qp",
                          "0x123456", "--in-port", "7", "--flow-label", "0xabcde", "--members", "5", "--format", "json"});
  REQUIRE(r.code == 0);
  const std::uint16_t crc = crc16_ccitt_bitwise({0x12, 0x34, 0x56, 0x00, 0x07, 0x00, 0x0a, 0xbc, 0xde});
  CHECK(r.out.find("\"key\":\"1234560007000abcde\"") != std::string::npos);
  CHECK(r.out.find("\"hash\":\"" + ecmpsim::format_hash(crc, 16) + "\"") != std::string::npos);
  CHECK(r.out.find("\"member\":" + std::to_string(crc % 5) + ",") != std::string::npos);
  auto e = cli_run({"hash", "--algo", "crc16-ccitt", "--dst-qp", "0x1000000", "-n", "2", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "1"});
  CHECK(e.code == 2);
  CHECK(e.err == "ecmpsim: --dst-qp: invalid value '0x1000000' (0..16777215)\n");
  e = cli_run({"hash", "--algo", "crc16-ccitt", "--flow-label", "1048576", "-n", "2", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "1"});
  CHECK(e.err == "ecmpsim: --flow-label: invalid value '1048576' (0..1048575)\n");
}

TEST_CASE("ecmpsim hash: toeplitz takes another RSS key") {
  // With a key of all ones every set input bit XORs in 0xffffffff: the hash is
  // 0xffffffff for an odd number of set bits and 0 for an even one.
  std::string ones;
  for (int i = 0; i < 40; ++i) ones += i ? ":ff" : "ff";
  auto r = cli_run({"hash", "--algo", "toeplitz", "-n", "2", "--rss-key", ones, "--fields", "proto", "--proto", "1",
                    "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"hash\":\"0xffffffff\"") != std::string::npos);
  r = cli_run({"hash", "--algo", "toeplitz", "-n", "2", "--rss-key", ones, "--fields", "proto", "--proto", "3", "--format", "json"});
  CHECK(r.out.find("\"hash\":\"0x00000000\"") != std::string::npos);
  // The standard key spelled out gives the Intel 82599 vector (66.9.149.187:2794 -> 161.142.100.80:1766).
  r = cli_run({"hash", "--algo", "toeplitz", "-n", "2", "--rss-key",
               "6d5a56da255b0ec24167253d43a38fb0d0ca2bcbae7b30b477cb2da38030f20c6a42b73bbeac01fa", "--src",
               "66.9.149.187", "--dst", "161.142.100.80", "--sport", "2794", "--dport", "1766", "--fields",
               "src-ip,dst-ip,src-port,dst-port", "--format", "json"});
  CHECK(r.out.find("\"hash\":\"0x51ccc178\"") != std::string::npos);
  auto e = cli_run({"hash", "--algo", "toeplitz", "-n", "2", "--rss-key", "6d5a"});
  CHECK(e.code == 2);
  CHECK(e.err == "ecmpsim: --rss-key: expected 40 bytes as 80 hex digits (':' separators allowed)\n");
  e = cli_run({"hash", "--algo", "crc32", "-n", "2", "--fields", "proto", "--rss-key", ones});
  CHECK(e.err == "ecmpsim: --rss-key: only used with --algo toeplitz\n");
}

TEST_CASE("ecmpsim hash: the fields the key hashes must be given; typos get the nearest name") {
  auto r = cli_run({"hash", "--algo", "crc32", "-n", "4"});
  CHECK(r.code == 2);
  CHECK(r.err == "ecmpsim: --src: required: the key hashes it (or give flows with --tuples FILE)\n");
  r = cli_run({"hash", "--algo", "crc32", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "5"});
  CHECK(r.err == "ecmpsim: --members: required: the members in the ECMP group\n");
  // A key of the protocol alone needs no addresses (negative control of the rule).
  r = cli_run({"hash", "--algo", "crc32", "--fields", "proto", "-n", "2"});
  CHECK(r.code == 0);
  r = cli_run({"hash", "--algo", "crc33", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "5", "-n", "2"});
  CHECK(r.err == "ecmpsim: --algo: unknown hash algorithm 'crc33' (did you mean 'crc32'?)\n");
  // A family's stem, two or more edits from each member: the members it begins, in catalogue order.
  r = cli_run({"hash", "--algo", "crc16", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "5", "-n", "2"});
  CHECK(r.err == "ecmpsim: --algo: unknown hash algorithm 'crc16' (did you mean 'crc16-ccitt', 'crc16-xmodem', "
                 "'crc16-kermit', 'crc16-arc' or 'crc16-buypass'?)\n");
  r = cli_run({"hash", "--algo", "crc32", "--sed", "3"});
  CHECK(r.code == 2);
  CHECK(r.err.find("(did you mean '--seed'?)") != std::string::npos);
}
}  // namespace hash_command_test

// RoCEv2 flows from a packet capture (pcap or pcapng, read with libpcap).
//
// Link types: Ethernet (with any number of 802.1Q/802.1ad tags), Linux cooked
// SLL and SLL2, raw IPv4. A RoCEv2 packet is IPv4 (first fragment), UDP to
// port 4791, with the 12-byte Base Transport Header captured. Its BTH opcode
// (byte 0) says whether it carries data: acknowledgements (ACK/NAK 0x11,
// atomic ACK 0x12, of RC, RD or XRC) and congestion notifications (CNP 0x81,
// sent by the receiver's NIC, often with UDP source port 0) make no flow of
// their own and are counted in a note by kind. The data packets make one flow
// per distinct five-tuple, in order of first appearance; its bytes are the
// sum of the frames' original lengths (what was on the wire even when the snap
// length cut the capture; for SLL/SLL2/raw captures the pseudo-header counts as
// a 14-byte Ethernet header); its rqpn is the destination QP (BTH bytes 5..7)
// of its first packet. Packets to port 4791 whose capture ends before the BTH
// does are counted with the snap length that cut them; every other packet is
// skipped and counted in a note.
#pragma once

#include <string>
#include <string_view>

#include "workloads/import/import.h"

namespace ecmpsim::workloads {

// `name` is the file name errors carry: "NAME: record N: cause". A damaged or
// truncated capture, or one without any RoCEv2 data packet, is an error that
// says why (no packet to port 4791, all cut by the snap length, or none with data).
ImportResult parse_pcap(std::string_view bytes, const std::string& name);

// Whether `head`, the first bytes of a file, starts with a pcap magic number
// (0xa1b2c3d4, or 0xa1b23c4d for nanosecond captures, in either byte order)
// or pcapng's Section Header Block type 0x0a0d0d0a.
bool is_capture(std::string_view head) noexcept;

}  // namespace ecmpsim::workloads

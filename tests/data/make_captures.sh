#!/usr/bin/env bash
# Writes the test captures from the hand-written hex dumps with Wireshark's
# text2pcap (Debian package wireshark-common), so the files the importer is
# tested on come from a real tool. The outputs are committed; re-run after
# editing a .hex file. Timestamps come from the clock and are not read.
set -euo pipefail
cd "$(dirname "$0")"
text2pcap -q -F pcap roce_mixed.hex roce_mixed.pcap
text2pcap -q -F pcapng roce_mixed.hex roce_mixed.pcapng
text2pcap -q -F nsecpcap roce_mixed.hex roce_mixed_ns.pcap
text2pcap -q -F pcap non_roce.hex non_roce.pcap
text2pcap -q -F pcap -l 113 roce_sll.hex roce_sll.pcap
# Cut inside record 3: the 24-byte file header, record 1 (16 + 74 bytes),
# record 2 (16 + 42), record 3's 16-byte header and 12 of its 74 bytes.
head -c 200 roce_mixed.pcap > roce_truncated.pcap
# Cut the pcapng 10 bytes short: record 7's block loses its end.
size=$(stat -c %s roce_mixed.pcapng)
head -c $((size - 10)) roce_mixed.pcapng > roce_truncated.pcapng
text2pcap -q -F pcap roce_control.hex roce_control.pcap
# Snap lengths that cut the BTH (editcap, also from wireshark-common, keeps each
# frame's original length): 50 bytes cut every RoCEv2 packet of roce_mixed
# before its BTH ends (byte 54, 58 with the VLAN tag); 54 cut only record 7's.
editcap -F pcap -s 50 roce_mixed.pcap roce_snap50.pcap
editcap -F pcap -s 54 roce_mixed.pcap roce_snap54.pcap
# The same cut in pcapng: the interface block keeps the input's snaplen
# (262144), so only the packets' captured length (50) tells what was cut.
editcap -F pcapng -s 50 roce_mixed.pcapng roce_snap50.pcapng

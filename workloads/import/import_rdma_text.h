// The QPs of one `rdma resource show qp` dump, from either of the two forms
// iproute2 prints (rdma/res-qp.c, rdma/res.c): the JSON of `-j`, or the text
// people paste, one QP per line:
//
//   link mlx5_0/1 lqpn 421 rqpn 695 type RC state RTS rq-psn 9240651 sq-psn 3313207 path-mig-state MIGRATED pdn 3 pid 4721 comm python3
//
// Fields after `link DEV/PORT` are "key value" pairs in a fixed order, each
// printed only when the kernel reports it (rqpn, rq-psn, path-mig-state, pdn,
// pid; `comm [name]` in brackets for kernel QPs); `comm` ends the QP. With -dd
// the driver's fields (`drv_*`) follow on indented lines (or, with -o, on the
// same line after a backslash). Blank lines, indented `drv_*` lines, comment
// lines (starting with `$` or `#`), shell prompts that run rdma and the bare
// prompt a terminal shows after it ("root@host:~#") are skipped, so a pasted
// terminal session reads as it is.
//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "workloads/import/import.h"

namespace ecmpsim::workloads {

struct RdmaQp {
  std::string ifname;
  std::uint32_t lqpn = 0;
  std::uint32_t rqpn = 0;
  bool has_rqpn = false;
  std::string type, state;
  std::uint32_t record = 0;  // 1-based position in its dump
  std::uint32_t line = 0;    // text: the QP's line; JSON: 0
};

using RdmaQps = std::variant<std::vector<RdmaQp>, InputError>;

// Whether `line` is a shell prompt running rdma, as terminals print it:
// "$ rdma res show qp", "root@host:~# rdma ...", "[root@h ~]# sudo rdma ...",
// "# /opt/mellanox/iproute2/sbin/rdma ...": a prompt ending in `$`, `#` or
// `>` and a space, then optionally sudo (and its options), then a command
// whose file name is rdma.
bool rdma_prompt(std::string_view line);
// Whether `line` is the prompt a terminal prints once the command has ended,
// pasted with its output ("root@host:~#", "[root@h ~]$", "user@h:~>"): words
// ending in `$`, `#` or `>` with nothing typed after them. No QP line (it
// starts "link") and no line of JSON is one.
bool bare_prompt(std::string_view line);

// Whether `head`, the first bytes of a file, starts like this text: its first
// line that is not blank starts "link " (a CSV flows file starts with its
// header, src_ip,...), or is a shell prompt running rdma, as pasted.
bool rdma_text_head(std::string_view head) noexcept;

// The text form (import_rdma.cpp reads the JSON one and tells them apart).
// Errors name the line and column.
RdmaQps parse_rdma_text(std::string_view text, const std::string& name);

}  // namespace ecmpsim::workloads

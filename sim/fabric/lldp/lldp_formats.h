// Each LLDP form's parser and detector: the columns of lldp.h's format
// table. Text forms in lldp_text.cpp, JSON forms in lldp_json.cpp.
#pragma once

#include <string>
#include <string_view>

#include "sim/fabric/lldp/lldp.h"

namespace ecmpsim::lldp {

ParseResult parse_eos_text(std::string_view text, const std::string& file);
bool detect_eos_text(std::string_view text);
ParseResult parse_sonic_text(std::string_view text, const std::string& file);
bool detect_sonic_text(std::string_view text);
ParseResult parse_lldpd_keyvalue(std::string_view text, const std::string& file);
bool detect_lldpd_keyvalue(std::string_view text);

ParseResult parse_lldpd_json(std::string_view text, const std::string& file);
bool detect_lldpd_json(std::string_view text);
ParseResult parse_lldpd_json0(std::string_view text, const std::string& file);
bool detect_lldpd_json0(std::string_view text);
ParseResult parse_eos_json(std::string_view text, const std::string& file);
bool detect_eos_json(std::string_view text);
ParseResult parse_nvue_json(std::string_view text, const std::string& file);
bool detect_nvue_json(std::string_view text);

}  // namespace ecmpsim::lldp

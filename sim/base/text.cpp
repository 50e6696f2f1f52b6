#include "sim/base/text.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace ecmpsim {

std::string format_mac(std::uint64_t mac) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int b = 5; b >= 0; --b) {
    const auto byte = static_cast<unsigned>(mac >> (8 * b)) & 0xFFu;
    if (b != 5) out += ':';
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

std::string format_hex_bytes(std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i) out += ':';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

std::string format_ipv4(std::uint32_t ip) {
  return std::to_string(ip >> 24) + '.' + std::to_string((ip >> 16) & 255) + '.' +
         std::to_string((ip >> 8) & 255) + '.' + std::to_string(ip & 255);
}

std::string format_number(double v) {
  char buf[64];
  const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc{} ? std::string(buf, p) : std::string("nan");
}

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  if (std::isinf(v)) return v > 0 ? "\u221e" : "-\u221e";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string_view trim(std::string_view s, std::string_view chars) {
  const std::size_t a = s.find_first_not_of(chars);
  if (a == std::string_view::npos) return {};
  return s.substr(a, s.find_last_not_of(chars) - a + 1);
}

std::string format_percent(double fraction) {
  return std::isnan(fraction) ? "-" : fixed(100 * fraction, 1) + "%";
}

std::string human_bytes(double bytes) {
  constexpr std::array<const char*, 6> units{"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t u = 0;
  while (bytes >= 1024 && u + 1 < units.size()) {
    bytes /= 1024;
    ++u;
  }
  return fixed(bytes, u == 0 ? 0 : 2) + " " + units[u];
}

std::string human_seconds(double s) {
  if (!std::isfinite(s)) return fixed(s, 0);
  const double a = std::abs(s);
  if (a >= 1) return fixed(s, 3) + " s";
  if (a >= 1e-3) return fixed(s * 1e3, 3) + " ms";
  return fixed(s * 1e6, 3) + " \u00b5s";
}

std::string format_hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

std::string pad_left(std::string s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

std::string pad_right(std::string s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

std::string wrap(std::string_view s, std::size_t width, std::size_t indent) {
  std::string out;
  std::size_t column = indent;  // the caller has printed `indent` characters before the first line
  for (std::size_t at = 0; at < s.size();) {
    const std::size_t end = std::min(s.find(' ', at), s.size());
    const std::string_view word = s.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (!out.empty() && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (!out.empty()) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
  }
  return out;
}

std::string grouped(std::uint64_t v, std::string_view separator) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += separator;
    out += digits[i];
  }
  return out;
}

std::string plural(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string or_list(std::span<const std::string> items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// A code point and the bytes it took; len 0 when the byte at `i` starts no
// valid UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF).
struct Utf8 {
  char32_t cp = 0;
  std::size_t len = 0;
};

Utf8 decode_utf8(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = byte(0);
  if (c < 0x80) return {c, 1};
  std::size_t len = 0;
  char32_t cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range; later ones are always 80..BF
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0Fu;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07u;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return {};
  }
  if (s.size() - i < len) return {};
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char x = byte(k);
    if (x < (k == 1 ? lo : 0x80) || x > (k == 1 ? hi : 0xBF)) return {};
    cp = (cp << 6) | (x & 0x3Fu);
  }
  return {cp, len};
}

// The code points every context escapes (text.h).
bool is_escaped(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void append_hex_escape(std::string& out, char kind, std::uint32_t v, int digits) {
  out += '\\';
  out += kind;
  for (int d = digits - 1; d >= 0; --d) out += kHexDigits[(v >> (4 * d)) & 15u];
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Whether a backslash before s[j] would, left single, read as the start of a
// \\xNN escape or of a doubled backslash in json_string_bytes().
bool backslash_needs_doubling(std::string_view s, std::size_t j) {
  if (j >= s.size()) return false;
  if (s[j] == '\\' || decode_utf8(s, j).len == 0) return true;
  return s[j] == 'x' && j + 2 < s.size() && is_hex(s[j + 1]) && is_hex(s[j + 2]);
}

}  // namespace

std::string escape_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const Utf8 u = decode_utf8(s, i);
    if (u.len == 0) {
      append_hex_escape(out, 'x', static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    if (!is_escaped(u.cp))
      out.append(s.substr(i, u.len));
    else if (u.cp < 0x80)
      append_hex_escape(out, 'x', u.cp, 2);
    else
      append_hex_escape(out, 'u', u.cp, 4);
    i += u.len;
  }
  return out;
}

std::string printable(std::string_view s, std::size_t max) {
  if (s.size() <= max) return escape_text(s);
  return escape_text(s.substr(0, max)) + "...";
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    const Utf8 u = decode_utf8(s, i);
    if (u.len == 0) {  // the parsed string holds \xNN: the JSON text \\xNN
      out += '\\';
      append_hex_escape(out, 'x', static_cast<unsigned char>(s[i]), 2);
      ++i;
      continue;
    }
    i += u.len;
    switch (u.cp) {  // nlohmann's dump() escapes, in its spelling
      case '\b': out += "\\b"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\f': out += "\\f"; break;
      case '\r': out += "\\r"; break;
      case '"': out += "\\\""; break;
      case '\\': out += backslash_needs_doubling(s, i) ? "\\\\\\\\" : "\\\\"; break;
      default:
        if (is_escaped(u.cp))
          append_hex_escape(out, 'u', u.cp, 4);
        else
          out.append(s.substr(i - u.len, u.len));
    }
  }
  out += '"';
}

std::string json_string_bytes(std::string_view decoded) {
  std::string out;
  out.reserve(decoded.size());
  for (std::size_t i = 0; i < decoded.size(); ++i) {
    if (decoded[i] == '\\' && i + 1 < decoded.size() && decoded[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (decoded[i] == '\\' && i + 3 < decoded.size() && decoded[i + 1] == 'x' && is_hex(decoded[i + 2]) &&
               is_hex(decoded[i + 3])) {
      unsigned v = 0;
      std::from_chars(decoded.data() + i + 2, decoded.data() + i + 4, v, 16);
      out += static_cast<char>(v);
      i += 3;
    } else {
      out += decoded[i];
    }
  }
  return out;
}

std::string shell_quote(std::string_view s) {
  const auto bare = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
  };
  if (!s.empty() && std::all_of(s.begin(), s.end(), bare)) return std::string(s);
  bool controls = false;
  for (std::size_t i = 0; i < s.size() && !controls;) {
    const Utf8 u = decode_utf8(s, i);
    controls = u.len == 0 || is_escaped(u.cp);
    i += std::max<std::size_t>(u.len, 1);
  }
  std::string out;
  if (!controls) {
    out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  }
  out = "$'";
  for (std::size_t i = 0; i < s.size();) {
    const Utf8 u = decode_utf8(s, i);
    const std::size_t n = std::max<std::size_t>(u.len, 1);
    if (u.len == 0 || is_escaped(u.cp)) {
      for (std::size_t k = 0; k < n; ++k) append_hex_escape(out, 'x', static_cast<unsigned char>(s[i + k]), 2);
    } else if (s[i] == '\\' || s[i] == '\'') {
      out += '\\';
      out += s[i];
    } else {
      out.append(s.substr(i, n));
    }
    i += n;
  }
  return out + "'";
}

std::string shell_command(std::span<const std::string> words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + shell_quote(w);
  return out;
}

}  // namespace ecmpsim

// A plan's target, "METRIC>=X", read against the metric table (sweep_metric.h).
#include <cmath>
#include <cstdlib>

#include "sim/base/text.h"
#include "sim/config/sweep_metric.h"

namespace ecmpsim {
SweepTarget parse_sweep_target(std::string_view text, const SourcePos& at) {
  const std::size_t pos = text.find_first_of("<>");
  if (pos == std::string_view::npos)
    throw InputError(at, "'" + printable(text) + "' has no comparison: write METRIC>=X, METRIC<=X, METRIC>X or METRIC<X");
  const bool equal = pos + 1 < text.size() && text[pos + 1] == '=';
  SweepTarget t;
  t.op = text[pos] == '>' ? (equal ? TargetOp::AtLeast : TargetOp::Above) : (equal ? TargetOp::AtMost : TargetOp::Below);
  const std::string_view name = trim(text.substr(0, pos), " \t");
  const auto metric = parse_name(kSweepMetricNames, name);
  if (!metric)
    throw InputError(at, "unknown metric '" + printable(name) + "'; one of " + quoted_choices(kSweepMetricNames));
  t.metric = *metric;
  const std::string number(trim(text.substr(pos + (equal ? 2 : 1)), " \t"));
  char* end = nullptr;
  const std::string op(name_of(kTargetOps, t.op));
  if (number.empty()) throw InputError(at, "no number after " + op + ": write METRIC" + op + "X");
  t.value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(t.value))
    throw InputError(at, "'" + printable(number) + "' after " + op + " is not a finite number");
  return t;
}

std::string target_text(const SweepTarget& t) {
  return std::string(sweep_metric_name(t.metric)) + " " + std::string(name_of(kTargetOps, t.op)) + " " +
         format_number(t.value);
}

}  // namespace ecmpsim

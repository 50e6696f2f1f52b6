// The LLDP neighbour table readers of `ecmpsim topology` (sim/fabric/lldp/):
// the first byte picks the form (its index in the table, mod their number),
// the rest is the table; then the bytes merged as one device's table into a
// topology, as the command does.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/fabric/discover.h"
#include "sim/fabric/lldp/lldp.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto forms = ecmpsim::lldp::formats();
  const auto& form = forms[data[0] % forms.size()];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  (void)form.parse(text, "fuzz");
  (void)form.detect(text);
  try {
    const ecmpsim::LldpFile file{"fuzz", text};
    ecmpsim::DiscoverOptions o;
    o.format = std::string(form.name);
    ecmpsim::discover_topology({&file, 1}, o);
  } catch (const ecmpsim::InputError&) {
  }
  return 0;
}

#include "sim/base/error.h"

namespace ecmpsim {

std::string InputError::describe() const {
  std::string s;
  if (!where_.file.empty()) {
    s += where_.file;
    if (where_.line > 0) {
      s += ':' + std::to_string(where_.line);
      if (where_.column > 0) s += ':' + std::to_string(where_.column);
    }
    s += ": ";
  }
  if (where_.record > 0) s += "record " + std::to_string(where_.record) + ": ";
  if (!where_.field.empty()) s += where_.field + ": ";
  s += what();
  return s;
}

}  // namespace ecmpsim

// The files a command names (see files.h).
#include "sim/app/files.h"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

#include "sim/base/error.h"
#include "sim/base/output_file.h"

namespace ecmpsim::app {

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0) return ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
  return !ea && !eb && ca == cb;
}

void check_named_files(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedFile& out = outputs[i];
    if (out.path.empty() || out.path == "-") continue;
    for (const NamedFile& in : inputs) {
      if (in.path.empty() || in.path == "-" || (out.checkpoint && in.resume)) continue;
      if (same_file(in.path, out.path))
        throw InputError({out.path, 0, 0, out.option},
                         "this file is the command's input (" + in.option + "); choose another output file");
    }
    for (std::size_t j = 0; j < i; ++j)
      if (same_file(outputs[j].path, out.path))
        throw InputError({out.path, 0, 0, out.option}, "this file is also " + outputs[j].option + "; choose another");
    check_output(out.path);
  }
}

}  // namespace ecmpsim::app

// The files a command names, checked before its work, whichever door named
// them: no output is one of the command's inputs or another of its outputs
// (issue 47, D1/D2), and each output can be written.
#pragma once

#include <string>
#include <vector>

namespace ecmpsim::app {

struct NamedFile {
  std::string option;  // the option that names it, as the door spells it ("--out")
  std::string path;
  // A checkpoint (an output) is what a resume (an input) reads: the one file may be both.
  bool checkpoint = false, resume = false;
};

// Whether two names are one file: by device and inode when the first exists
// (a link, a hard link, another spelling), else by the path they resolve to.
bool same_file(const std::string& a, const std::string& b);

// InputError naming the output and its option when it is one of `inputs`
// or an earlier output, or cannot be written (sim/base/output_file.h's
// check_output); "" and "-" (standard output) are skipped.
void check_named_files(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs);

}  // namespace ecmpsim::app

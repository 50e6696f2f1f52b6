// Flags that name files, tagged with what the command does with each: reads
// it, writes it, or both (a sweep's checkpoint). One check before any
// command's work then refuses an output that names one of the command's
// inputs (or another of its outputs), whatever the command, so no command
// can destroy what it reads (issue 47, D1/D2). A flag registered without its
// role escapes the check: tests/cli/file_flags_test.cpp walks every file flag
// of every command this table lists, and lists every flag whose help says
// FILE, so a new one is seen.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
class Validator;
}  // namespace CLI

namespace ecmpsim::cli {

enum class FileRole {
  Input,       // read
  InputList,   // read, a comma-separated list of files (--flows)
  Output,      // written; '' is refused ('-' is standard output)
  Checkpoint,  // written as the run goes and read when it resumes (--checkpoint): may be the Resume file
  Resume,      // read, and written on when no Checkpoint is named (--resume)
};

// The check that tags an option with its role; an Output's or a
// Checkpoint's also refuses an empty name (D13: `--out ''`).
CLI::Validator file_role(FileRole role);

// Before a parsed command's body: every output it names (given, or its
// default) is none of the files its input flags name, by device and inode
// (links and other spellings of a path included), nor another output, and can
// be written (sim/base/output_file.h, check_output). InputError naming the
// file, the flag and the input's flag.
void check_file_flags(const CLI::App& sub);

// The file flags of every command, for tests: its name, the flag (a
// positional's name), its role, and whether it is required.
struct FileFlag {
  std::string command, flag;
  FileRole role;
  bool positional = false, required = false;
};
std::vector<FileFlag> file_flags();

}  // namespace ecmpsim::cli

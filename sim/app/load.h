// Loading a command's config, for every front door (sim/cli, python/): the
// default config, a file or TOML text with the limits that apply once it is
// read, a catalogue experiment's config compiled in, and the files a loaded
// config read (what no output of the command may replace).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/base/limits.h"
#include "sim/config/spec.h"

namespace ecmpsim {
struct PublishedExperiment;  // sim/report/published.h
}

namespace ecmpsim::app {

// configs/paper16.toml here, else the shipped copy beside the sources.
std::string default_config_path();
// The config at `path` (default_config_path() when empty) with these limits.
Spec load_spec(const std::string& path, const Limits& limits);
// A config given as TOML text (the Python module's load()), `name` standing
// for its file in messages, with the same checks.
Spec load_spec_text(std::string_view text, const std::string& name, const Limits& limits);
// A catalogue experiment's config (sim/report/published.h), compiled in
// (sim/CMakeLists.txt), with these limits.
Spec published_spec(const PublishedExperiment& e, const Limits& limits);

// The files a loaded config read: itself, its topology file, its route tables;
// `extra` (files named by options, a comma-separated list each) appended.
std::vector<std::string> spec_inputs(const Spec& spec, std::initializer_list<std::string> extra = {});

// Before a long command's work: whether an output at `out_path` could be
// written without replacing one of `inputs` (sim/base/output_file.h's
// check_output); empty or "-" is standard output.
void check_out(const std::string& out_path, const std::vector<std::string>& inputs);

}  // namespace ecmpsim::app

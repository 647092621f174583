// `mapsim merge` combines results databases (the shards of a sweep); `mapsim upgrade` migrates
// a database of an older schema.

#include <fmt/format.h>

#include "cli/Cli.hpp"
#include "cli/Interrupt.hpp"
#include "experiments/Merge.hpp"
#include "experiments/Store.hpp"
#include "support/Error.hpp"

namespace mapsim::cli {

int run_merge(const std::vector<std::string>& args) {
  CommandLine line("merge", "OUT IN...",
                   "Merges results databases IN... into OUT (created if missing): new runs are\n"
                   "inserted, identical ones counted, and every run whose results differ from\n"
                   "OUT's under the same key is reported as a conflict (OUT keeps its own).\n"
                   "Exits 1 if there is a conflict or the integrity check fails.");
  line.options.add_options()("out", po::value<std::string>()->required(), "output database")(
      "in", po::value<std::vector<std::string>>()->required(), "input databases");
  line.positional.add("out", 1).add("in", -1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  std::vector<std::filesystem::path> inputs;
  for (const auto& in : (*vm)["in"].as<std::vector<std::string>>()) inputs.emplace_back(in);
  const std::filesystem::path output = (*vm)["out"].as<std::string>();
  const InterruptGuard guard;
  exp::MergeReport report;
  try {
    report = exp::merge(output, inputs, &interrupted());
  } catch (const Cancelled&) {
    fmt::print(stderr, "mapsim merge: interrupted: nothing written ({} was not created)\n",
               output.string());
    return 130;
  }
  fmt::print(
      "merged {} databases into {}: {} runs inserted, {} identical, {} replaced (done "
      "over failed), {} kept (done over failed), {} unfinished skipped, {} mappings "
      "inserted\n",
      report.inputs, output.string(), report.inserted, report.identical, report.replaced,
      report.kept, report.unfinished, report.mappings_inserted);
  for (const auto& conflict : report.conflicts) {
    fmt::print("conflict: {} {} ({}) from {}: {} differ\n", conflict.key.substr(0, 12),
               conflict.name, conflict.key, conflict.input, fmt::join(conflict.columns, ", "));
  }
  fmt::print("integrity check: {}\n", report.integrity);
  if (report.interrupted) {
    fmt::print(stderr,
               "mapsim merge: interrupted: the first {} of {} inputs are merged into {}; run the "
               "same command again to merge the rest\n",
               report.inputs, inputs.size(), output.string());
    return 130;
  }
  if (!report.conflicts.empty()) {
    fmt::print(stderr,
               "mapsim merge: error: {} conflicting runs: the same configuration gave different "
               "results (nondeterminism, or a modified database); {} keeps its own\n",
               report.conflicts.size(), output.string());
    return 1;
  }
  return report.integrity == "ok" ? 0 : 1;
}

int run_upgrade(const std::vector<std::string>& args) {
  CommandLine line("upgrade", "DB",
                   "Migrates a results database written by an older mapsim to this mapsim's\n"
                   "schema, keeping a copy of the original as DB.bak.");
  line.options.add_options()("db", po::value<std::string>()->required(), "results database");
  line.positional.add("db", 1);
  const auto vm = parse(line, args);
  if (!vm) return 0;
  const std::filesystem::path path = (*vm)["db"].as<std::string>();
  const auto found = exp::Store::upgrade(path);
  if (found == exp::schema::kVersion) {
    fmt::print("{} is at schema version {} already\n", path.string(), found);
  } else {
    fmt::print("{}: schema version {} -> {} (the original is kept as {}.bak)\n", path.string(),
               found, exp::schema::kVersion, path.string());
  }
  return 0;
}

}  // namespace mapsim::cli

// Sweep expansion: counts for cross, zip, exclude and where, runs without replay, names, the
// stability of run, mapping and context keys (a calibration's envelope in them only when not 0),
// shards and configuration rows.

#include "experiments/Sweep.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Digest.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::exp {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr double kTolerance = 1e-12;

Sweep expand_text(std::string_view text, std::string_view extra_where = {},
                  const fs::path& base = {}, std::string_view file = "sweep.yaml") {
  return expand(parse_config(text, file, base), extra_where);
}

/// The message of the InputError expanding `text` throws, or "(no error)".
std::string expand_error(std::string_view text, std::string_view extra_where = {}) {
  try {
    (void)expand_text(text, extra_where);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> names(const Sweep& sweep) {
  std::vector<std::string> result;
  for (const auto& run : sweep.runs) result.push_back(run.name);
  return result;
}

// 2 workloads x 3 machines x 2 mappers x 2 seeds = 24 runs (one model, one of everything else).
const std::string kCross =
    "workloads: [npb:lu:S:4, \"stencil2d:S:16:iterations=2\"]\n"
    "machines: [torus:4x4, mesh:4x4, \"torus:2x2:cores=4\"]\n"
    "mappers: [in-order, greedy]\n"
    "seeds: [0, 1]\n";

// One run: every key test varies one thing of it.
const std::string kSingle =
    "workloads: [npb:lu:S:4]\n"
    "machines: [torus:4x4]\n"
    "mappers: [scotch]\n"
    "models: [packet]\n";

/// kSingle with `from` replaced by `to`.
std::string changed(std::string_view from, std::string_view to) {
  auto text = kSingle;
  const auto at = text.find(from);
  if (at == std::string::npos) {
    ADD_FAILURE() << "'" << from << "' is not in the config";
    return text;
  }
  text.replace(at, from.size(), to);
  return text;
}

/// kSingle with more lines.
std::string plus(std::string_view lines) {
  return kSingle + std::string(lines) + "\n";
}

Run only_run(std::string_view text) {
  auto sweep = expand_text(text);
  EXPECT_EQ(sweep.runs.size(), 1U) << text;
  return sweep.runs.at(0);
}

std::size_t column(std::string_view name) {
  const auto columns = schema::config_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == name) return i;
  }
  ADD_FAILURE() << "no configuration column " << name;
  return 0;
}

const schema::Value& cell(const schema::Row& row, std::string_view name) {
  return row.at(column(name));
}

bool is_null(const schema::Row& row, std::string_view name) {
  return std::holds_alternative<std::monostate>(cell(row, name));
}

std::string text(const schema::Row& row, std::string_view name) {
  const auto* value = std::get_if<std::string>(&cell(row, name));
  if (value == nullptr) {
    ADD_FAILURE() << name << " is not TEXT";
    return {};
  }
  return *value;
}

std::int64_t integer(const schema::Row& row, std::string_view name) {
  const auto* value = std::get_if<std::int64_t>(&cell(row, name));
  if (value == nullptr) {
    ADD_FAILURE() << name << " is not INTEGER";
    return -1;
  }
  return *value;
}

double real(const schema::Row& row, std::string_view name) {
  const auto* value = std::get_if<double>(&cell(row, name));
  if (value == nullptr) {
    ADD_FAILURE() << name << " is not REAL";
    return -1;
  }
  return *value;
}

/// Every effective value of a run, spelled independently of labels and positions.
std::string identity(const Sweep& sweep, const Run& run) {
  const auto& model = sweep.model(run);
  return sweep.workload(run).spec + "|" + sweep.machine(run).topology + "|" +
         sweep.machine(run).overrides + "|" + sweep.mapper(run).name + "|" +
         sweep.mapper(run).params + "|" + std::to_string(run.seed) + "|" +
         std::string(sweep.model_name(run)) + "|" + std::to_string(model.options.packet_bytes) +
         "|" + std::to_string(model.options.cut_through) + "|" +
         std::to_string(run.eager_threshold) + "|" + std::to_string(run.compute_scale) + "|" +
         std::to_string(run.repeat);
}

void generate_archive(const fs::path& dir) {
  traces::write_generated_trace(
      [] {
        traces::GeneratorOptions o;
        o.kernel = "lu";
        o.ranks = 4;
        o.iterations = 1;
        return o;
      }(),
      dir);
}

// ---- counts -------------------------------------------------------------------------------------

TEST(SweepCounts, CrossProduct) {
  const auto sweep = expand_text(kCross);
  EXPECT_EQ(sweep.runs.size(), 24U);
  EXPECT_EQ(sweep.combinations, 24U);
  EXPECT_EQ(sweep.excluded, 0U);
  EXPECT_EQ(sweep.filtered, 0U);
  EXPECT_EQ(sweep.merged, 0U);
  EXPECT_EQ(sweep.inputs.size(), 2U);
  EXPECT_EQ(sweep.machines.size(), 3U);
  // Crossed in axis order, the last varying fastest: run i is workload i / 12, machine
  // (i / 4) % 3, mapper (i / 2) % 2, seed i % 2.
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) {
    const auto& run = sweep.runs[i];
    EXPECT_EQ(run.workload, i / 12) << i;
    EXPECT_EQ(run.machine, (i / 4) % 3) << i;
    EXPECT_EQ(run.mapper, (i / 2) % 2) << i;
    EXPECT_EQ(run.seed, static_cast<std::int64_t>(i % 2)) << i;
    EXPECT_EQ(run.model, 0U);
    EXPECT_EQ(run.repeat, 0);
    EXPECT_TRUE(run.replays);
  }
  std::set<std::string> keys;
  for (const auto& run : sweep.runs) keys.insert(run.key);
  EXPECT_EQ(keys.size(), 24U);
}

TEST(SweepCounts, ZipAdvancesAxesTogether) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4, \"stencil2d:S:16:iterations=2\", npb:cg:S:8]\n"
      "machines: [torus:4x4, mesh:4x4, \"torus:2x2:cores=4\"]\n"
      "mappers: [in-order, greedy]\n"
      "zip: [[workload, machine]]\n");
  // 3 (workload, machine) pairs x 2 mappers, not 3 x 3 x 2.
  EXPECT_EQ(sweep.combinations, 6U);
  ASSERT_EQ(sweep.runs.size(), 6U);
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) {
    EXPECT_EQ(sweep.runs[i].workload, i / 2) << i;
    EXPECT_EQ(sweep.runs[i].machine, i / 2) << i;
    EXPECT_EQ(sweep.runs[i].mapper, i % 2) << i;
  }
}

TEST(SweepCounts, ZipGroupStandsAtItsFirstAxis) {
  // seed zipped with machine advances at the machine's place, outside the mapper loop:
  // (torus, 5, in-order), (torus, 5, greedy), (mesh, 7, in-order), (mesh, 7, greedy).
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\n"
      "machines: [torus:4x4, mesh:4x4]\n"
      "mappers: [in-order, greedy]\n"
      "seeds: [5, 7]\n"
      "zip: [[seed, machine]]\n");
  ASSERT_EQ(sweep.runs.size(), 4U);
  const std::vector<std::size_t> machines{0, 0, 1, 1};
  const std::vector<std::int64_t> seeds{5, 5, 7, 7};
  const std::vector<std::size_t> mappers{0, 1, 0, 1};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(sweep.runs[i].machine, machines[i]) << i;
    EXPECT_EQ(sweep.runs[i].seed, seeds[i]) << i;
    EXPECT_EQ(sweep.runs[i].mapper, mappers[i]) << i;
  }
}

TEST(SweepCounts, ZipOfMapperSeedAndRepeat) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
      "mappers: [in-order, greedy, random]\n"
      "seeds: [1, 2, 3]\nrepeats: 3\n"
      "zip: [[mapper, seeds, repeats]]\n");
  ASSERT_EQ(sweep.runs.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(sweep.runs[i].mapper, i);
    EXPECT_EQ(sweep.runs[i].seed, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(sweep.runs[i].repeat, static_cast<int>(i));
  }
}

TEST(SweepCounts, ExcludeSingleCondition) {
  const auto sweep = expand_text(kCross + "exclude: [{mapper: greedy}]\n");
  EXPECT_EQ(sweep.combinations, 24U);
  EXPECT_EQ(sweep.excluded, 12U);
  EXPECT_EQ(sweep.runs.size(), 12U);
  for (const auto& run : sweep.runs) EXPECT_EQ(sweep.mapper(run).name, "in-order");
}

TEST(SweepCounts, ExcludeConditionsOfOneEntryMustAllMatch) {
  // greedy on mesh:4x4: 2 workloads x 2 seeds = 4 combinations.
  const auto sweep = expand_text(kCross + "exclude: [{mapper: greedy, machine: mesh:4x4}]\n");
  EXPECT_EQ(sweep.excluded, 4U);
  EXPECT_EQ(sweep.runs.size(), 20U);
  for (const auto& run : sweep.runs) {
    EXPECT_FALSE(sweep.mapper(run).name == "greedy" && sweep.machine(run).topology == "mesh:4x4");
  }
}

TEST(SweepCounts, ExcludeListOfValues) {
  const auto sweep =
      expand_text(kCross + "exclude: [{machine: [mesh:4x4, \"torus:2x2:cores=4\"]}]\n");
  EXPECT_EQ(sweep.excluded, 16U);
  EXPECT_EQ(sweep.runs.size(), 8U);
  for (const auto& run : sweep.runs) EXPECT_EQ(sweep.machine(run).topology, "torus:4x4");
}

TEST(SweepCounts, ExcludeEntriesAreAlternatives) {
  // greedy (12) or seed 1 (12), both (6): 18 excluded, in-order with seed 0 stays.
  const auto sweep = expand_text(kCross + "exclude: [{mapper: greedy}, {seed: 1}]\n");
  EXPECT_EQ(sweep.excluded, 18U);
  EXPECT_EQ(sweep.runs.size(), 6U);
  for (const auto& run : sweep.runs) {
    EXPECT_EQ(sweep.mapper(run).name, "in-order");
    EXPECT_EQ(run.seed, 0);
  }
}

TEST(SweepCounts, ExcludeMatchesLabelsAndSpecs) {
  const std::string config =
      "workloads: [{generate: npb:lu:S:4, label: lu}, npb:cg:S:8]\n"
      "machines: [{topology: torus:4x4, label: t}, mesh:4x4]\n"
      "mappers: [{name: scotch, params: {runs: [1, 2]}}, greedy]\n"
      "models: [flow, {name: packet, packet-size: [1024, 2048]}]\n";
  // 2 x 2 x 3 x 3 = 36 combinations.
  EXPECT_EQ(expand_text(config + "exclude: [{workload: lu}]").excluded, 18U);
  EXPECT_EQ(expand_text(config + "exclude: [{workload: npb:lu:S:4}]").excluded, 18U);
  EXPECT_EQ(expand_text(config + "exclude: [{machine: t}]").excluded, 18U);
  EXPECT_EQ(expand_text(config + "exclude: [{machine: torus:4x4}]").excluded, 18U);
  // A mapper by name (both scotch values) or by label (one of them).
  EXPECT_EQ(expand_text(config + "exclude: [{mapper: scotch}]").excluded, 24U);
  EXPECT_EQ(expand_text(config + "exclude: [{mapper: \"scotch[runs=2]\"}]").excluded, 12U);
  // A model likewise.
  EXPECT_EQ(expand_text(config + "exclude: [{model: packet}]").excluded, 24U);
  EXPECT_EQ(expand_text(config + "exclude: [{model: \"packet[packet-size=1024]\"}]").excluded, 12U);
  // A value that matches nothing would exclude nothing: an error (Config_test has the messages).
  EXPECT_THROW((void)expand_text(config + "exclude: [{mapper: random}]"), InputError);
}

TEST(SweepCounts, ExcludeNumericAxes) {
  // 2 eager thresholds x 2 compute scales x 2 repeats = 8 combinations.
  const auto config = plus(
      "mpi: {eager-threshold: [0, 1024]}\n"
      "sim: {compute-scale: [0, 0.5]}\n"
      "repeats: 2");
  EXPECT_EQ(expand_text(config).runs.size(), 8U);
  EXPECT_EQ(expand_text(config + "exclude: [{eager-threshold: 1024}]").excluded, 4U);
  // Numbers compare as numbers: 0.50 is 0.5.
  EXPECT_EQ(expand_text(config + "exclude: [{compute-scale: 0.50}]").excluded, 4U);
  EXPECT_EQ(expand_text(config + "exclude: [{repeat: 1}]").excluded, 4U);
  EXPECT_EQ(expand_text(config + "exclude: [{compute_scale: 0.5, repeats: 0}]").excluded, 2U);
  const auto sweep = expand_text(config + "exclude: [{eager_threshold: [0, 1024], repeat: 0}]");
  EXPECT_EQ(sweep.excluded, 4U);
  for (const auto& run : sweep.runs) EXPECT_EQ(run.repeat, 1);
}

TEST(SweepErrors, ExcludeValueOfTheWrongType) {
  // Checked when the config is read, at the value: "exclude: [{seed: " is 17 characters.
  EXPECT_THAT(expand_error(plus("exclude: [{seed: abc}]")),
              AllOf(StartsWith("sweep.yaml:5:18: exclude[0].seed"), HasSubstr("'abc'")));
  EXPECT_THAT(expand_error(plus("exclude: [{compute-scale: half}]")),
              AllOf(StartsWith("sweep.yaml:5:27: exclude[0].compute-scale"), HasSubstr("'half'")));
}

TEST(SweepCounts, WhereOverConfigurationColumns) {
  const std::string config =
      "workloads: [npb:lu:S:4, \"stencil2d:S:16:iterations=2\", npb:cg:S:32]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy, random]\n";
  // 4, 16 and 32 ranks: the 32-rank workload's three runs go.
  const auto small = expand_text(config + "where: \"ranks <= 16\"\n");
  EXPECT_EQ(small.combinations, 9U);
  EXPECT_EQ(small.filtered, 3U);
  EXPECT_EQ(small.runs.size(), 6U);
  for (const auto& run : small.runs) EXPECT_NE(small.workload(run).spec, "npb:cg:S:32");

  const auto two = expand_text(config + "where: \"mapper IN ('in-order','greedy')\"\n");
  EXPECT_EQ(two.filtered, 3U);
  for (const auto& run : two.runs) EXPECT_NE(two.mapper(run).name, "random");

  // The run name is a column too.
  const auto one = expand_text(config + "where: \"name = 'npb:cg:S:32/torus:4x4/greedy/flow'\"\n");
  ASSERT_EQ(one.runs.size(), 1U);
  EXPECT_EQ(one.runs[0].name, "npb:cg:S:32/torus:4x4/greedy/flow");
  EXPECT_EQ(expand_text(config + "where: \"name LIKE 'npb:%'\"\n").runs.size(), 6U);
}

TEST(SweepCounts, ExtraWhereIsAndedWithTheConfigs) {
  const std::string config =
      "workloads: [npb:lu:S:4, \"stencil2d:S:16:iterations=2\", npb:cg:S:32]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy, random]\n"
      "where: \"ranks <= 16\"\n";
  const auto sweep = expand_text(config, "mapper <> 'random' AND seed = 0");
  // (4 or 16 ranks) and (in-order or greedy): 2 x 2.
  EXPECT_EQ(sweep.runs.size(), 4U);
  EXPECT_EQ(sweep.filtered, 5U);
  // Alone, the command line's condition keeps 6.
  const auto alone = expand_text(
      "workloads: [npb:lu:S:4, \"stencil2d:S:16:iterations=2\", npb:cg:S:32]\n"
      "machines: [torus:4x4]\nmappers: [in-order, greedy, random]\n",
      "mapper <> 'random'");
  EXPECT_EQ(alone.runs.size(), 6U);
}

TEST(SweepErrors, TooManyCombinationsAreRefusedBeforeAnythingIsMade) {
  // A sweep was expanded in memory whatever its size: 1.2e8 combinations took 11 GB and 55 s
  // in --dry-run and died with a bare "out of memory". They are counted first; above the limit
  // the count and the axes are named. Here 10 workloads x 10 seeds x 1000 repeats x (a zip of
  // 2 machines and 2 mappers) = 200000 combinations, refused under a limit of 199999 and made
  // under a limit of 200000 in the Slurm check's dry form (where 0: nothing kept).
  std::string workloads;
  for (int r = 4; r < 14; ++r)
    workloads += fmt::format("{}stencil2d:S:{}", r == 4 ? "" : ", ", r * r);
  std::string seeds;
  for (int s = 0; s < 10; ++s) seeds += fmt::format("{}{}", s == 0 ? "" : ", ", s);
  const auto config = fmt::format(
      "workloads: [{}]\nmachines: [torus:16x16, mesh:16x16]\nmappers: [in-order, greedy]\n"
      "seeds: [{}]\nrepeats: 1000\nzip: [[machine, mapper]]\n",
      workloads, seeds);
  try {
    (void)expand(parse_config(config, "big.yaml", {}), {}, 199'999);
    ADD_FAILURE() << "expanded";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "big.yaml: the sweep crosses 200000 combinations (workload 10 x machine+mapper 2 x "
              "model 1 x eager-threshold 1 x compute-scale 1 x seed 10 x repeat 1000), more "
              "than the 199999 mapsim expands; narrow an axis, zip axes that vary together, or "
              "split the config (`mapsim run --max-combinations` raises the limit)");
  }
  const auto made = expand(parse_config(config, "big.yaml", {}), "ranks < 0", 200'000);
  EXPECT_EQ(made.combinations, 200'000U);
  EXPECT_EQ(made.filtered, 200'000U);
  EXPECT_TRUE(made.runs.empty());
  // The default limit.
  EXPECT_EQ(kMaxCombinations, 1'000'000U);
}

TEST(SweepErrors, LinkSettingsOfAClassTheMachineLacks) {
  // They applied to nothing, silently, although `simulate --link` refuses them.
  EXPECT_EQ(expand_error(changed("machines: [torus:4x4]",
                                 "machines: [{topology: torus:4x4, links: {th3-switch: "
                                 "{bandwidth: 1}}}]")),
            "sweep.yaml:2:42: machines[0].links.th3-switch: torus:4x4 has no th3-switch links; "
            "its link classes: grid, intra-node");
  EXPECT_NO_THROW((void)expand_text(
      changed("machines: [torus:4x4]",
              "machines: [{topology: torus:4x4, links: {intra-node: {bandwidth: 50}}}]")));
}

TEST(SweepKeys, NegativeZeroComputeScaleIsZero) {
  // -0.0 and 0 gave two run keys for one configuration ("compute-scale: -0").
  EXPECT_EQ(only_run(plus("sim: {compute-scale: -0.0}")).key,
            only_run(plus("sim: {compute-scale: 0}")).key);
  const auto both = expand_text(plus("sim: {compute-scale: [0, -0.0]}"));
  EXPECT_EQ(both.runs.size(), 1U);
  EXPECT_EQ(both.merged, 1U);
}

TEST(SweepErrors, BadWhereNamesItsOrigin) {
  EXPECT_THAT(expand_error(plus("where: \"colour = 1\"")),
              AllOf(StartsWith("sweep.yaml:5:8: where 'colour = 1': "),
                    HasSubstr("no such column: colour"), HasSubstr("columns: workload,")));
  EXPECT_THAT(expand_error(kSingle, "colour = 1"),
              AllOf(StartsWith("--where 'colour = 1': "), HasSubstr("no such column")));
  EXPECT_THAT(expand_error(kSingle, "ranks <="), StartsWith("--where 'ranks <=': "));
}

// ---- runs without replay ------------------------------------------------------------------------

TEST(SweepCounts, MatrixWorkloadRunsWithoutReplay) {
  const testing::TempDir dir;
  dir.write("m.csv", "src,dst,messages,bytes\n0,1,2,100\n1,0,2,100\n");
  const std::string config =
      "workloads: [{matrix: m.csv}]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy]\n"
      "models: [flow, packet]\n"
      "sim: {compute-scale: [0, 1]}\n"
      "seeds: [0, 1]\n";
  const auto sweep = expand_text(config, {}, dir.path());
  // 2 mappers x 2 models x 2 compute scales x 2 seeds = 16; models and compute scales collapse.
  EXPECT_EQ(sweep.combinations, 16U);
  EXPECT_EQ(sweep.merged, 12U);
  ASSERT_EQ(sweep.runs.size(), 4U);
  for (const auto& run : sweep.runs) {
    EXPECT_FALSE(run.replays);
    EXPECT_EQ(sweep.model_name(run), kStaticModel);
    EXPECT_EQ(run.eager_threshold, 0);
    EXPECT_NEAR(run.compute_scale, 0.0, kTolerance);
  }
  EXPECT_EQ(sweep.runs[0].name, "m.csv/torus:4x4/in-order/static/compute=-/seed=0");
  EXPECT_EQ(sweep.runs[3].name, "m.csv/torus:4x4/greedy/static/compute=-/seed=1");

  const auto row = config_row(sweep, sweep.runs[0]);
  EXPECT_EQ(text(row, "workload_kind"), "matrix");
  EXPECT_EQ(text(row, "workload_spec"), "m.csv");
  EXPECT_EQ(text(row, "workload_digest"), file_digest(dir.path() / "m.csv"));
  EXPECT_EQ(integer(row, "ranks"), 2);  // ranks 0 and 1
  EXPECT_TRUE(is_null(row, "kernel"));
  EXPECT_TRUE(is_null(row, "collectives"));
  EXPECT_EQ(text(row, "model"), "static");
  EXPECT_EQ(text(row, "model_label"), "static");
  for (const auto* name :
       {"packet_size", "cut_through", "eager_threshold", "compute_scale", "whole_run"}) {
    EXPECT_TRUE(is_null(row, name)) << name;
  }

  // A matrix is given as it is: matrix.collectives does not change its keys.
  const auto p2p = expand_text(config + "matrix: {collectives: false}\n", {}, dir.path());
  ASSERT_EQ(p2p.runs.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(p2p.runs[i].key, sweep.runs[i].key);
}

TEST(SweepCounts, StaticModelIgnoresReplaySettings) {
  // static: one run for both eager thresholds; flow: two.
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [in-order]\n"
      "models: [static, flow]\nmpi: {eager-threshold: [0, 65536]}\n");
  EXPECT_EQ(sweep.combinations, 4U);
  EXPECT_EQ(sweep.merged, 1U);
  ASSERT_EQ(sweep.runs.size(), 3U);
  EXPECT_FALSE(sweep.runs[0].replays);
  EXPECT_EQ(sweep.runs[0].name, "npb:lu:S:4/torus:4x4/in-order/static/eager=-");
  EXPECT_TRUE(sweep.runs[1].replays);
  EXPECT_EQ(sweep.runs[1].name, "npb:lu:S:4/torus:4x4/in-order/flow/eager=0");
  EXPECT_EQ(sweep.runs[2].name, "npb:lu:S:4/torus:4x4/in-order/flow/eager=65536");
  // whole-run and compute-scale do not make a static run another run either.
  const auto plain = only_run(changed("models: [packet]", "models: [static]"));
  const auto settings = only_run(changed("models: [packet]", "models: [static]") +
                                 "sim: {whole-run: true, compute-scale: 0}\n"
                                 "mpi: {eager-threshold: 1}\n");
  EXPECT_EQ(settings.key, plain.key);
}

TEST(SweepCounts, WhereSeesNullForRunsWithoutReplay) {
  const std::string config =
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [in-order]\n"
      "models: [static, flow, analytic]\n";
  const auto sweep = expand_text(config + "where: \"eager_threshold IS NULL\"\n");
  ASSERT_EQ(sweep.runs.size(), 1U);
  EXPECT_EQ(sweep.model_name(sweep.runs[0]), "static");
  EXPECT_EQ(expand_text(config + "where: \"model <> 'static'\"\n").runs.size(), 2U);
  EXPECT_EQ(expand_text(config + "where: \"compute_scale = 1\"\n").runs.size(), 2U);
}

// ---- names --------------------------------------------------------------------------------------

TEST(SweepNames, DefaultNamesListTheAxesThatVary) {
  const auto cross = expand_text(kCross);
  EXPECT_EQ(cross.runs[0].name, "npb:lu:S:4/torus:4x4/in-order/flow/seed=0");
  EXPECT_EQ(cross.runs[3].name, "npb:lu:S:4/torus:4x4/greedy/flow/seed=1");
  EXPECT_EQ(cross.runs[23].name,
            "stencil2d:S:16:iterations=2/torus:2x2:cores=4/greedy/flow/seed=1");
  const auto all = expand_text(
      "workloads: [{generate: npb:lu:S:4, label: lu}]\nmachines: [{topology: torus:4x4, label: "
      "t}]\n"
      "mappers: [{name: scotch, params: {runs: 2}}]\n"
      "models: [{name: packet, packet-size: 1024}]\n"
      "mpi: {eager-threshold: [0, 1024]}\nsim: {compute-scale: [0.5, 1]}\n"
      "seeds: [3, 4]\nrepeats: 2\n");
  ASSERT_EQ(all.runs.size(), 16U);
  EXPECT_EQ(all.runs[0].name,
            "lu/t/scotch[runs=2]/packet[packet-size=1024]/eager=0/compute=0.5/seed=3/repeat=0");
  EXPECT_EQ(all.runs[15].name,
            "lu/t/scotch[runs=2]/packet[packet-size=1024]/eager=1024/compute=1/seed=4/repeat=1");
}

TEST(SweepNames, CustomTemplate) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [in-order, greedy]\n"
      "models: [flow, static]\n"
      "name: \"{mapper}+{model}+{eager-threshold}+{compute-scale}+{seed}+{repeat}+{workload}"
      "+{machine}\"\n");
  EXPECT_THAT(names(sweep), ::testing::ElementsAre("in-order+flow+65536+1+0+0+npb:lu:S:4+torus:4x4",
                                                   "in-order+static+-+-+0+0+npb:lu:S:4+torus:4x4",
                                                   "greedy+flow+65536+1+0+0+npb:lu:S:4+torus:4x4",
                                                   "greedy+static+-+-+0+0+npb:lu:S:4+torus:4x4"));
}

TEST(SweepErrors, TwoRunsWithOneNameNameTheTemplate) {
  EXPECT_THAT(expand_error("workloads: [npb:lu:S:4]\nmachines: [torus:4x4, mesh:4x4]\n"
                           "mappers: [in-order]\nname: \"{workload}\"\n"),
              AllOf(StartsWith("sweep.yaml:4:7: name: "),
                    HasSubstr("two different runs get the name 'npb:lu:S:4'"),
                    HasSubstr("template '{workload}'")));
}

TEST(SweepNames, MergedRunsKeepTheFirstName) {
  // The two static runs are one run: no name clash, and the first one's name stays.
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [in-order]\n"
      "models: [{name: static, label: first}, {name: static, label: second}]\n"
      "name: \"{workload}\"\n");
  ASSERT_EQ(sweep.runs.size(), 1U);
  EXPECT_EQ(sweep.merged, 1U);
  EXPECT_EQ(sweep.runs[0].name, "npb:lu:S:4");
  EXPECT_EQ(sweep.runs[0].model, 0U);
}

// ---- keys ---------------------------------------------------------------------------------------

bool is_lower_hex(std::string_view key) {
  return key.size() == 64 && std::all_of(key.begin(), key.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

TEST(SweepKeys, KeysAreDigestsOfTheCanonicalConfiguration) {
  const auto sweep = expand_text(kCross);
  for (const auto& run : sweep.runs) {
    EXPECT_TRUE(is_lower_hex(run.key)) << run.key;
    EXPECT_TRUE(is_lower_hex(run.mapping_key)) << run.mapping_key;
    EXPECT_TRUE(is_lower_hex(run.context_key)) << run.context_key;
    EXPECT_EQ(run.key, sha256(canonical_config(sweep, run)));
    EXPECT_NE(run.key, run.mapping_key);
    EXPECT_NE(run.key, run.context_key);
  }
  // Every effective value is a line of the configuration, defaults filled in.
  const auto single = expand_text(kSingle);
  ASSERT_EQ(single.runs.size(), 1U);
  const auto config = canonical_config(single, single.runs[0]);
  for (const auto* line :
       {"results-version: 5\n", "workload: generated ", "topology: torus:4x4\n", "mapper: scotch\n",
        "params: imbalance=0,runs=4,strategy=quality\n", "seed: 0\n", "model: packet\n",
        "packet-size: 4096\n", "eager-threshold: 65536\n", "compute-scale: 1\n", "repeat: 0\n"}) {
    EXPECT_THAT(config, HasSubstr(line));
  }
}

TEST(SweepKeys, UnchangedWhenAxesGrowReorderOrRelabel) {
  const auto before = expand_text(
      "workloads: [npb:lu:S:4, npb:cg:S:8]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy]\n"
      "models: [flow]\n");
  // A value more on every axis, every list in another order, labels everywhere, another file.
  const auto after = expand_text(
      "workloads:\n"
      "  - \"stencil2d:S:16:iterations=2\"\n"
      "  - {generate: npb:cg:S:8, label: cg}\n"
      "  - {generate: npb:lu:S:4, label: lu}\n"
      "machines: [mesh:4x4, {topology: torus:4x4, label: t}]\n"
      "mappers: [random, {name: greedy, label: g}, in-order]\n"
      "models: [packet, {name: flow, label: f}]\n"
      "mpi: {eager-threshold: [1024, 65536]}\n"
      "sim: {compute-scale: [1, 0]}\n"
      "seeds: [5, 0]\n"
      "repeats: 2\n"
      "name: \"{workload}-{machine}-{mapper}-{model}-{eager-threshold}-{compute-scale}-{seed}-"
      "{repeat}\"\n",
      {}, "/nowhere", "elsewhere/other.yaml");
  ASSERT_EQ(before.runs.size(), 4U);
  EXPECT_EQ(after.runs.size(), 3U * 2 * 3 * 2 * 2 * 2 * 2 * 2);
  std::map<std::string, const exp::Run*> by_identity;
  for (const auto& run : after.runs) by_identity.emplace(identity(after, run), &run);
  for (const auto& run : before.runs) {
    const auto it = by_identity.find(identity(before, run));
    ASSERT_NE(it, by_identity.end()) << identity(before, run);
    EXPECT_EQ(it->second->key, run.key) << run.name;
    EXPECT_EQ(it->second->mapping_key, run.mapping_key) << run.name;
    EXPECT_EQ(it->second->context_key, run.context_key) << run.name;
    EXPECT_NE(it->second->name, run.name);  // names may change; keys do not
  }
}

TEST(SweepKeys, AllocationsAndClusterFilesCountByContent) {
  const testing::TempDir dir;
  const std::string conf =
      "SwitchName=s1 Nodes=cn[1-4]\nSwitchName=s2 Nodes=cn[5-8]\nSwitchName=top Switches=s[1-2]\n";
  fs::create_directories(dir.path() / "a");
  fs::create_directories(dir.path() / "b");
  dir.write("a/topology.conf", conf);
  dir.write("b/cluster.conf", conf);
  dir.write("c.conf", conf + "# one byte more changes the machine's content\n");
  dir.write("job.txt", "# the job's nodes\nnode[00-03]\n7\n");
  dir.write("hosts", "h[01-16]\n");
  const auto key_of = [&](const std::string& machine) {
    const auto sweep = expand_text("workloads: [npb:lu:S:4]\nmachines: [\"" + machine +
                                       "\"]\nmappers: [in-order]\nmodels: [flow]\n",
                                   {}, dir.path());
    EXPECT_EQ(sweep.runs.size(), 1U) << machine;
    return sweep.runs.empty() ? std::string() : sweep.runs[0].key;
  };
  // An allocation is the nodes, however given: ids, host names, a file (relative to the config).
  const auto listed = key_of("torus:4x4:allocation=0-3,7");
  EXPECT_EQ(key_of("torus:4x4:allocation=node[00-03],node07"), listed);
  EXPECT_EQ(key_of("torus:4x4:allocation=@job.txt"), listed);
  // Host names name the same nodes differently: the same run.
  EXPECT_EQ(key_of("torus:4x4:hosts=hosts:allocation=h[01-04],h08"), listed);
  EXPECT_NE(key_of("torus:4x4:allocation=0-4,7"), listed);
  EXPECT_NE(key_of("torus:4x4"), listed);
  // A Slurm machine is its file's content, wherever the file is.
  const auto cluster = key_of("slurm:a/topology.conf");
  EXPECT_EQ(key_of("slurm:b/cluster.conf"), cluster);
  EXPECT_EQ(key_of("slurm:" + (dir.path() / "a/topology.conf").string()), cluster);
  EXPECT_NE(key_of("slurm:c.conf"), cluster);
  EXPECT_NE(key_of("slurm:a/topology.conf:routing=ecmp"), cluster);
  // Today's kinds name their routing; minimal is the default.
  EXPECT_NE(key_of("dragonfly:4,2,2,2:routing=ugal"), key_of("dragonfly:4,2,2,2"));
  EXPECT_EQ(key_of("fattree:2;4,4;1,2;1,2:routing=dmodk"), key_of("fattree:2;4,4;1,2;1,2"));
}

TEST(SweepKeys, ShuffledListsGiveTheSameKeys) {
  const auto one = expand_text(kCross);
  const auto other = expand_text(
      "seeds: [1, 0]\n"
      "mappers: [greedy, in-order]\n"
      "machines: [\"torus:2x2:cores=4\", torus:4x4, mesh:4x4]\n"
      "workloads: [\"stencil2d:S:16:iterations=2\", npb:lu:S:4]\n");
  std::set<std::string> a;
  std::set<std::string> b;
  for (const auto& run : one.runs) a.insert(run.key);
  for (const auto& run : other.runs) b.insert(run.key);
  EXPECT_EQ(a.size(), 24U);
  EXPECT_EQ(a, b);
  EXPECT_NE(one.runs[0].key, other.runs[0].key);  // in another order
}

TEST(SweepKeys, UnchangedWhenTheConfigAndItsInputsMove) {
  const testing::TempDir dir;
  for (const auto* place : {"a", "b"}) fs::create_directories(dir.path() / place);
  generate_archive(dir.path() / "a" / "lu");
  fs::copy(dir.path() / "a" / "lu", dir.path() / "b" / "lu", fs::copy_options::recursive);
  const std::string csv = "src,dst,messages,bytes\n0,1,2,100\n1,0,2,100\n";
  dir.write("a/m.csv", csv);
  dir.write("b/m.csv", csv);
  const std::string config =
      "workloads: [{trace: lu}, {matrix: m.csv}]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy]\n";
  const auto a = expand_text(config, {}, dir.path() / "a", (dir.path() / "a/sweep.yaml").string());
  const auto b = expand_text(config, {}, dir.path() / "b", "other.yaml");
  ASSERT_EQ(a.runs.size(), 4U);
  ASSERT_EQ(b.runs.size(), 4U);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(a.runs[i].key, b.runs[i].key) << a.runs[i].name;
    EXPECT_EQ(a.runs[i].mapping_key, b.runs[i].mapping_key);
    EXPECT_EQ(a.runs[i].context_key, b.runs[i].context_key);
  }
  // The archive's ranks come from its definitions.
  EXPECT_EQ(integer(config_row(a, a.runs[0]), "ranks"), 4);
  // One byte more in b's matrix: its runs are new runs, the trace's are not.
  dir.write("b/m.csv", csv + "# changed\n");
  const auto changed_b = expand_text(config, {}, dir.path() / "b", "other.yaml");
  EXPECT_EQ(changed_b.runs[0].key, a.runs[0].key);
  EXPECT_NE(changed_b.runs[2].key, a.runs[2].key);
  EXPECT_NE(changed_b.runs[2].mapping_key, a.runs[2].mapping_key);
}

TEST(SweepKeys, UnchangedByDefaultsLabelsAndWhatIsNotRun) {
  const auto base = only_run(kSingle);
  const std::vector<std::string> same{
      changed("models: [packet]",
              "models: [{name: packet, packet-size: 4096, store-and-forward: false}]"),
      changed("mappers: [scotch]",
              "mappers: [{name: scotch, params: {runs: 4, strategy: quality, imbalance: 0}}]"),
      plus("mpi: {eager-threshold: 65536}"),
      plus("mpi: {collectives: mpich}"),  // MPICH's algorithms: the keys of old configs stand
      plus("sim: {compute-scale: 1, whole-run: false}"),
      plus("matrix: {collectives: true}"),
      plus("seeds: [0]\nrepeats: 1"),
      changed("workloads: [npb:lu:S:4]", "workloads: [{generate: npb:lu:S:4, label: lu}]"),
      changed("machines: [torus:4x4]", "machines: [{topology: torus:4x4, label: small}]"),
      changed("machines: [torus:4x4]", "machines: [\"torus:4x4:cores=1\"]"),
      changed("mappers: [scotch]", "mappers: [{name: scotch, label: s}]"),
      changed("models: [packet]", "models: [{name: packet, label: p}]"),
      // The defaults given as overrides.
      changed("machines: [torus:4x4]",
              "machines: [{topology: torus:4x4, links: {grid: {bandwidth: 25, latency: 100}}}]"),
      plus("store: {links: true}\nrun: {time-limit: 5}"),
      plus("name: \"{workload}-{mapper}\""),
      // LU class S runs itmax = 50 SSOR iterations unless told otherwise (NPB 3.4).
      changed("workloads: [npb:lu:S:4]", "workloads: [\"npb:lu:S:4:iterations=50\"]"),
  };
  for (const auto& text : same) {
    const auto run = only_run(text);
    EXPECT_EQ(run.key, base.key) << text;
    EXPECT_EQ(run.mapping_key, base.mapping_key) << text;
    EXPECT_EQ(run.context_key, base.context_key) << text;
  }
  // Two spellings of one generated workload.
  EXPECT_EQ(
      only_run(
          changed("workloads: [npb:lu:S:4]", "workloads: [{generate: npb:lu:S:4, iterations: 2}]"))
          .key,
      only_run(changed("workloads: [npb:lu:S:4]", "workloads: [\"npb:lu:S:4:iterations=2\"]")).key);
}

// The key of kSingle as mapsim computed it before collective algorithms could be chosen (issue 24,
// item 4; `mapsim run --dry-run` of main at the time): MPICH's algorithms, the default, given or
// not, leave every existing key as it was.
// The key of kSingle under results version 5; under version 4 it was d511972efe8c..., under
// version 3 095a096e7d8f..., under version 2 40b931c43991..., under version 1 2fcea9977694...,
// and the configuration text differs by the version line only.
constexpr const char* kSingleKey = "74297e74ef93";

TEST(SweepKeys, OnlyTheResultsVersionChangedTheKeys) {
  const auto single = expand_text(kSingle);
  const auto text = canonical_config(single, single.runs[0]);
  const auto at = text.find("results-version: 5\n");
  ASSERT_NE(at, std::string::npos);
  for (const auto& [version, key] : {std::pair{"results-version: 4", "d511972efe8c"},
                                     std::pair{"results-version: 3", "095a096e7d8f"},
                                     std::pair{"results-version: 2", "40b931c43991"},
                                     std::pair{"results-version: 1", "2fcea9977694"}}) {
    auto earlier = text;
    earlier.replace(at, 18, version);
    EXPECT_THAT(sha256(earlier), StartsWith(key)) << version;
  }
}

TEST(SweepKeys, DefaultCollectivesKeepTheKeysOfEarlierVersions) {
  EXPECT_THAT(only_run(kSingle).key, StartsWith(kSingleKey));
  EXPECT_THAT(only_run(plus("mpi: {collectives: mpich}")).key, StartsWith(kSingleKey));
  EXPECT_THAT(canonical_config(expand_text(plus("mpi: {collectives: ompi}")),
                               expand_text(plus("mpi: {collectives: ompi}")).runs[0]),
              HasSubstr("collectives: ompi\n"));
}

// Nodes of several sockets: the inter-socket channel's parameters are in the key (they change
// the replay), and the overheads' inter-socket costs too; without sockets neither is.
TEST(SweepKeys, SocketsPutTheInterSocketChannelInTheKey) {
  const auto sockets = expand_text(changed("torus:4x4", "torus:4x4:cores=2:sockets=2") +
                                   "mpi: {overheads: typical}\n");
  const auto text = canonical_config(sockets, sockets.runs[0]);
  EXPECT_THAT(text, HasSubstr("intra-node:20000000000:2.0000000000000002e-07,inter-socket:"
                              "12000000000:4.0000000000000003e-07\n"));
  EXPECT_THAT(text, HasSubstr("overheads: typical\n"));
  const auto tuned = expand_text(changed("torus:4x4", "torus:4x4:cores=2:sockets=2") +
                                 "mpi: {overheads: \"typical,inter-socket.o_s=300\"}\n");
  EXPECT_THAT(canonical_config(tuned, tuned.runs[0]), HasSubstr("inter-socket.o_s=300,"));
  const auto plain = expand_text(changed("torus:4x4", "torus:4x4:cores=2") +
                                 "mpi: {overheads: \"typical,inter-socket.o_s=300\"}\n");
  const auto plain_text = canonical_config(plain, plain.runs[0]);
  EXPECT_THAT(plain_text, Not(HasSubstr("inter-socket")));
  EXPECT_THAT(plain_text, HasSubstr("overheads: typical\n"));
}

// No overheads, given or not, leave every existing key as it was; others are in the key of the
// replayed runs only (a static run does not replay).
TEST(SweepKeys, NoOverheadsKeepTheKeysOfEarlierVersions) {
  EXPECT_THAT(only_run(plus("mpi: {overheads: none}")).key, StartsWith(kSingleKey));
  EXPECT_THAT(only_run(plus("mpi: {overheads: \"typical,network.o_s=0,network.o_r=0,"
                            "network.g=0,intra-node.o_s=0,intra-node.o_r=0,intra-node.g=0\"}"))
                  .key,
              StartsWith(kSingleKey));
  const auto typical = expand_text(plus("mpi: {overheads: typical}"));
  EXPECT_THAT(canonical_config(typical, typical.runs[0]), HasSubstr("overheads: typical\n"));
  const auto tuned = expand_text(plus("mpi: {overheads: \"typical,network.o_s=600\"}"));
  EXPECT_THAT(canonical_config(tuned, tuned.runs[0]),
              HasSubstr("overheads: intra-node.o_s=100,intra-node.o_r=100,intra-node.g=50,"
                        "network.o_s=600,network.o_r=400,network.g=100\n"));
  const auto static_text = changed("models: [packet]", "models: [static]");
  EXPECT_EQ(only_run(static_text + "mpi: {overheads: typical}\n").key, only_run(static_text).key);
}

TEST(SweepKeys, BadOverheadsAreNamedAtTheirLine) {
  for (const auto* bad : {"mpi: {overheads: fast}", "mpi: {overheads: \"network.o_s=-1\"}",
                          "mpi: {overheads: \"socket.o_s=1\"}"}) {
    try {
      (void)expand_text(plus(bad));
      ADD_FAILURE() << "no error: " << bad;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr("mpi.overheads")) << bad;
      EXPECT_THAT(e.what(), HasSubstr(":5:")) << bad;  // the line of the value
    }
  }
}

// Size factors and reverse traffic are model options: in the key only when given (factors of 1
// and reverse-traffic false are as none), canonical whatever the order of the boundaries.
TEST(SweepKeys, FlowLevelCorrectionsAreModelOptions) {
  const auto flow = only_run(changed("models: [packet]", "models: [flow]"));
  for (const auto* same :
       {"models: [{name: flow, bw-factor: 1}]", "models: [{name: flow, lat-factor: \"0:1;100:1\"}]",
        "models: [{name: flow, reverse-traffic: false}]"}) {
    EXPECT_EQ(only_run(changed("models: [packet]", same)).key, flow.key) << same;
  }
  const auto text = changed("models: [packet]",
                            "models: [{name: flow, bw-factor: \"65536:0.95;0:0.8\", "
                            "lat-factor: 2, reverse-traffic: true}]");
  const auto sweep = expand_text(text);
  const auto canonical = canonical_config(sweep, sweep.runs[0]);
  EXPECT_THAT(canonical, HasSubstr("bw-factor: 0:0.8;65536:0.95\nlat-factor: 2\n"
                                   "reverse-traffic: true\n"));
  EXPECT_EQ(only_run(changed("models: [packet]",
                             "models: [{name: flow, bw-factor: \"0:0.8;65536:0.95\", "
                             "lat-factor: 2, reverse-traffic: true}]"))
                .key,
            sweep.runs[0].key);
  EXPECT_EQ(sweep.model(sweep.runs[0]).options.reverse_traffic, true);
  EXPECT_EQ(sweep.model(sweep.runs[0]).options.latency_factor(8), 2);
  // Each option on the models that take it only, and bad factors at their line.
  for (const auto& [bad, expected] : std::vector<std::pair<std::string, std::string>>{
           {"models: [{name: packet, bw-factor: 2}]", "flow and analytic models only"},
           {"models: [{name: analytic, reverse-traffic: true}]", "flow model only"},
           {"models: [{name: flow, packet-size: 1024}]", "packet model only"},
           {"models: [{name: flow, bw-factor: \"0:0\"}]", "must be positive"},
           {"models: [{name: flow, lat-factor: \"x:1\"}]", "'x' is not an integer"}}) {
    try {
      (void)expand_text(changed("models: [packet]", bad));
      ADD_FAILURE() << "no error: " << bad;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(expected)) << bad;
      EXPECT_THAT(e.what(), HasSubstr(":4:")) << bad;  // the models line
    }
  }
}

// mpi.calibration fills what the config does not give: the overheads unless mpi.overheads, each
// model entry's flow-level options unless the entry gives them; a relative file is found beside
// the config; the run key holds the effective values, not the calibration's name.
TEST(SweepKeys, CalibrationFillsWhatTheConfigDoesNotGive) {
  const auto flow = changed("models: [packet]", "models: [flow]");
  const auto smpi = expand_text(flow + "mpi: {calibration: smpi}\n");
  const auto canonical = canonical_config(smpi, smpi.runs[0]);
  EXPECT_THAT(canonical, HasSubstr("bw-factor: 0:0.812084;257:0.338112;"));
  EXPECT_THAT(canonical, HasSubstr("lat-factor: 0:2.01467;"));
  EXPECT_THAT(canonical, HasSubstr("reverse-traffic: true\nweight-s: 8775\nenvelope: 16\n"));
  EXPECT_THAT(canonical, Not(HasSubstr("overheads")));
  EXPECT_THAT(canonical, Not(HasSubstr("smpi")));
  // none is no calibration; the packet model takes only smpi's envelope (no overheads in it).
  EXPECT_EQ(only_run(flow + "mpi: {calibration: none}\n").key, only_run(flow).key);
  const auto packet = expand_text(plus("mpi: {calibration: smpi}"));
  const auto packet_canonical = canonical_config(packet, packet.runs[0]);
  const auto bare = expand_text(kSingle);
  auto without_envelope = packet_canonical;
  const auto at = without_envelope.find("envelope: 16\n");
  ASSERT_NE(at, std::string::npos) << packet_canonical;
  without_envelope.erase(at, std::string("envelope: 16\n").size());
  EXPECT_EQ(without_envelope, canonical_config(bare, bare.runs[0]));
  // An entry's own option and mpi.overheads win.
  const auto own =
      expand_text(changed("models: [packet]", "models: [{name: flow, reverse-traffic: false}]") +
                  "mpi: {calibration: smpi}\n");
  EXPECT_THAT(canonical_config(own, own.runs[0]), Not(HasSubstr("reverse-traffic")));
  EXPECT_THAT(canonical_config(own, own.runs[0]), HasSubstr("weight-s: 8775\n"));

  const mapsim::testing::TempDir dir;
  fs::create_directories(dir.path() / "cal");
  (void)dir.write("cal/machine.cal", "overheads: typical\nlat-factor: 3\n");
  const auto from_file = expand_text(flow + "mpi: {calibration: cal/machine.cal}\n", {}, dir.path(),
                                     (dir.path() / "sweep.yaml").string());
  const auto file_canonical = canonical_config(from_file, from_file.runs[0]);
  EXPECT_THAT(file_canonical, HasSubstr("lat-factor: 3\n"));
  EXPECT_THAT(file_canonical, HasSubstr("overheads: typical\n"));
  const auto overridden =
      expand_text(flow + "mpi: {calibration: cal/machine.cal, overheads: none}\n", {}, dir.path(),
                  (dir.path() / "sweep.yaml").string());
  EXPECT_THAT(canonical_config(overridden, overridden.runs[0]), Not(HasSubstr("overheads")));
  // A missing file or a bad line is an error at the value.
  const auto missing = expand_error(flow + "mpi: {calibration: nowhere.cal}\n");
  EXPECT_THAT(missing, HasSubstr("mpi.calibration"));
  EXPECT_THAT(missing, HasSubstr("nowhere.cal"));
  (void)dir.write("bad.cal", "lat-factor: 3\nspeed: 2\n");
  try {
    (void)expand_text(flow + "mpi: {calibration: bad.cal}\n", {}, dir.path(),
                      (dir.path() / "sweep.yaml").string());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.cal:2: unknown key 'speed'"));
    EXPECT_THAT(e.what(), HasSubstr("mpi.calibration"));
  }
}

// A calibration's envelope is a model option of every replaying model: in the run key as
// "envelope: N" when not 0 (so envelope 0 keeps the key of no calibration), in a replay-search
// mapping's key as "search-envelope: N"; a static run, which replays nothing, keeps its key.
TEST(SweepKeys, CalibrationEnvelopeIsInTheKeyWhenNotZero) {
  const mapsim::testing::TempDir dir;
  (void)dir.write("e16.cal", "envelope: 16\n");
  (void)dir.write("e0.cal", "envelope: 0\n");
  (void)dir.write("e4096.cal", "# bigger\nenvelope: 4096\n");
  const auto in_dir = [&](const std::string& text) {
    return expand_text(text, {}, dir.path(), (dir.path() / "sweep.yaml").string());
  };
  const auto flow = changed("models: [packet]", "models: [flow]");
  for (const auto& text : {flow, kSingle}) {
    SCOPED_TRACE(text);
    const auto bare = in_dir(text);
    const auto sixteen = in_dir(text + "mpi: {calibration: e16.cal}\n");
    const auto zero = in_dir(text + "mpi: {calibration: e0.cal}\n");
    ASSERT_EQ(sixteen.runs.size(), 1U);
    const auto canonical = canonical_config(sixteen, sixteen.runs[0]);
    EXPECT_THAT(canonical, HasSubstr("\nenvelope: 16\n"));
    EXPECT_THAT(canonical, Not(HasSubstr("e16.cal")));
    EXPECT_EQ(sixteen.model(sixteen.runs[0]).options.envelope, 16);
    EXPECT_NE(sixteen.runs[0].key, bare.runs[0].key);
    EXPECT_NE(sixteen.runs[0].context_key, bare.runs[0].context_key);
    // The key holds the value: another envelope is another run.
    const auto bigger = in_dir(text + "mpi: {calibration: e4096.cal}\n");
    EXPECT_THAT(canonical_config(bigger, bigger.runs[0]), HasSubstr("\nenvelope: 4096\n"));
    EXPECT_NE(bigger.runs[0].key, sixteen.runs[0].key);
    // Envelope 0: no line, the key of no calibration.
    EXPECT_THAT(canonical_config(zero, zero.runs[0]), Not(HasSubstr("envelope")));
    EXPECT_EQ(canonical_config(zero, zero.runs[0]), canonical_config(bare, bare.runs[0]));
    EXPECT_EQ(zero.runs[0].key, bare.runs[0].key);
    EXPECT_EQ(zero.runs[0].mapping_key, bare.runs[0].mapping_key);
    EXPECT_EQ(zero.runs[0].context_key, bare.runs[0].context_key);
  }
  // replay-search searches with the envelope: its mapping key holds it; in-order's does not.
  const auto search = changed("mappers: [scotch]", "mappers: [replay-search]");
  const auto searched = in_dir(search + "mpi: {calibration: e16.cal}\n");
  EXPECT_THAT(canonical_config(searched, searched.runs[0]), HasSubstr("search-envelope: 16\n"));
  EXPECT_NE(searched.runs[0].mapping_key, in_dir(search).runs[0].mapping_key);
  EXPECT_EQ(in_dir(search + "mpi: {calibration: e0.cal}\n").runs[0].mapping_key,
            in_dir(search).runs[0].mapping_key);
  const auto ordered = changed("mappers: [scotch]", "mappers: [in-order]");
  const auto in_order = in_dir(ordered + "mpi: {calibration: e16.cal}\n");
  EXPECT_THAT(canonical_config(in_order, in_order.runs[0]), Not(HasSubstr("search-envelope")));
  EXPECT_EQ(in_order.runs[0].mapping_key, in_dir(ordered).runs[0].mapping_key);
  // A static run replays nothing: the envelope is no part of its key.
  const auto static_text = changed("models: [packet]", "models: [static]");
  const auto static_run = in_dir(static_text + "mpi: {calibration: e16.cal}\n");
  EXPECT_THAT(canonical_config(static_run, static_run.runs[0]), Not(HasSubstr("envelope")));
  EXPECT_EQ(static_run.runs[0].key, in_dir(static_text).runs[0].key);
}

// A machine's link energies other than the defaults enter the mapping key of a replaying mapper
// (replay-search under objective=energy weighs its replays by them: a mapping found under one
// set of energies is not reused under another), not a static mapper's.
TEST(SweepKeys, LinkEnergiesEnterTheMappingKeyOfAReplayingMapper) {
  const std::string sleeping =
      "machines:\n  - topology: torus:4x4\n    links:\n"
      "      grid: {pj-per-bit: 5, idle-w: 0, busy-w: 4}\n";
  const auto with = [&](const std::string& mapper, bool sleep) {
    auto text = changed("mappers: [scotch]", "mappers: [" + mapper + "]");
    if (sleep) {
      const auto at = text.find("machines: [torus:4x4]\n");
      text.replace(at, std::string("machines: [torus:4x4]\n").size(), sleeping);
    }
    return expand_text(text);
  };
  const auto searched = with("replay-search", true);
  EXPECT_THAT(canonical_config(searched, searched.runs[0]),
              HasSubstr("search-link-energy: grid:5:0:4\n"));
  EXPECT_NE(searched.runs[0].mapping_key, with("replay-search", false).runs[0].mapping_key);
  EXPECT_THAT(canonical_config(with("replay-search", false), with("replay-search", false).runs[0]),
              Not(HasSubstr("search-link-energy")));
  // A static mapper's mapping does not depend on the links' power: the same mapping key.
  const auto scotch = with("scotch", true);
  EXPECT_THAT(canonical_config(scotch, scotch.runs[0]), Not(HasSubstr("search-link-energy")));
  EXPECT_EQ(scotch.runs[0].mapping_key, with("scotch", false).runs[0].mapping_key);
  EXPECT_NE(scotch.runs[0].key, with("scotch", false).runs[0].key);  // its energies differ
}

// An energy objective weighs the traffic by the links' energy per bit: a machine's link
// energies other than the defaults enter its mapping key (a mapping found under one set of
// energies is not reused under another); under the defaults its keys are what they were, and a
// mapper of another objective keeps one mapping key.
TEST(SweepKeys, LinkEnergiesEnterTheMappingKeyOfAnEnergyObjective) {
  const std::string cheap =
      "machines:\n  - topology: torus:4x4\n    links:\n"
      "      grid: {pj-per-bit: 1, idle-w: 0.5, busy-w: 1}\n";
  const auto with = [&](const std::string& mapper, bool energies) {
    auto text = changed("mappers: [scotch]", "mappers: [" + mapper + "]");
    if (energies) {
      const auto at = text.find("machines: [torus:4x4]\n");
      text.replace(at, std::string("machines: [torus:4x4]\n").size(), cheap);
    }
    return expand_text(text);
  };
  for (const char* mapper : {"{name: best, params: {objective: energy}}",
                             "{name: best, params: {objective: time+energy}}",
                             "{name: bokhari, params: {objective: energy}}",
                             "{name: sampling, params: {objective: energy}}"}) {
    SCOPED_TRACE(mapper);
    const auto given = with(mapper, true);
    const auto defaults = with(mapper, false);
    EXPECT_THAT(canonical_config(given, given.runs[0]),
                HasSubstr("mapping-link-energy: grid:1:0.5:1\n"));
    EXPECT_THAT(canonical_config(defaults, defaults.runs[0]), Not(HasSubstr("mapping-link")));
    EXPECT_NE(given.runs[0].mapping_key, defaults.runs[0].mapping_key);
  }
  // replay-search's default portfolio holds best:objective=energy: its key had the energies
  // (search-link-energy) and gains the line that its portfolio now weighs them; one without an
  // energy mapper in its portfolio does not.
  const auto search = with("replay-search", true);
  EXPECT_THAT(canonical_config(search, search.runs[0]),
              AllOf(HasSubstr("mapping-link-energy: grid:1:0.5:1\n"),
                    HasSubstr("search-link-energy: grid:1:0.5:1\n")));
  const auto plain = with("{name: replay-search, params: {portfolio: \"in-order,best\"}}", true);
  EXPECT_THAT(canonical_config(plain, plain.runs[0]), Not(HasSubstr("mapping-link-energy")));
  const auto hops = with("{name: best, params: {objective: hop-bytes}}", true);
  EXPECT_THAT(canonical_config(hops, hops.runs[0]), Not(HasSubstr("mapping-link-energy")));
  EXPECT_EQ(hops.runs[0].mapping_key,
            with("{name: best, params: {objective: hop-bytes}}", false).runs[0].mapping_key);
}

TEST(SweepKeys, BadCollectivesAreNamedAtTheirLine) {
  try {
    (void)expand_text(plus("mpi: {collectives: \"ompi,alltoall=brook\"}"));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("mpi.collectives"), HasSubstr("'brook'"),
                                HasSubstr("did you mean 'bruck'")));
  }
}

TEST(SweepKeys, ChangeWithEveryEffectiveValue) {
  enum class Mapping : std::uint8_t { Same, Changes };
  enum class Context : std::uint8_t { Same, Changes };
  struct Case {
    std::string text;
    Mapping mapping;
    Context context;
  };
  const std::vector<Case> cases{
      // The mapping: mapper, parameters, seed.
      {changed("mappers: [scotch]", "mappers: [{name: scotch, params: {runs: 8}}]"),
       Mapping::Changes, Context::Same},
      {changed("mappers: [scotch]", "mappers: [{name: scotch, params: {strategy: speed}}]"),
       Mapping::Changes, Context::Same},
      {changed("mappers: [scotch]", "mappers: [greedy]"), Mapping::Changes, Context::Same},
      {plus("seeds: [1]"), Mapping::Changes, Context::Same},
      // The replay: model, its options, MPI and sim settings, links.
      {changed("models: [packet]", "models: [{name: packet, packet-size: 1024}]"), Mapping::Same,
       Context::Changes},
      {changed("models: [packet]", "models: [{name: packet, store-and-forward: true}]"),
       Mapping::Same, Context::Changes},
      {changed("models: [packet]", "models: [flow]"), Mapping::Same, Context::Changes},
      {changed("models: [packet]", "models: [analytic]"), Mapping::Same, Context::Changes},
      {changed("models: [packet]", "models: [static]"), Mapping::Same, Context::Changes},
      {plus("mpi: {eager-threshold: 1024}"), Mapping::Same, Context::Changes},
      {plus("mpi: {overheads: typical}"), Mapping::Same, Context::Changes},
      {changed("models: [packet]", "models: [{name: flow, bw-factor: \"0:0.8;65536:0.95\"}]"),
       Mapping::Same, Context::Changes},
      {changed("models: [packet]", "models: [{name: flow, lat-factor: 2}]"), Mapping::Same,
       Context::Changes},
      {changed("models: [packet]", "models: [{name: flow, reverse-traffic: true}]"), Mapping::Same,
       Context::Changes},
      {plus("sim: {compute-scale: 0}"), Mapping::Same, Context::Changes},
      {plus("sim: {whole-run: true}"), Mapping::Same, Context::Changes},
      {changed("machines: [torus:4x4]",
               "machines: [{topology: torus:4x4, links: {grid: {bandwidth: 10}}}]"),
       Mapping::Same, Context::Changes},
      {changed("machines: [torus:4x4]",
               "machines: [{topology: torus:4x4, links: {grid: {latency: 50}}}]"),
       Mapping::Same, Context::Changes},
      {changed("machines: [torus:4x4]",
               "machines: [{topology: torus:4x4, links: {intra-node: {latency: 300}}}]"),
       Mapping::Same, Context::Changes},
      // What mappers see: the matrix, the workload, the machine.
      {plus("matrix: {collectives: false}"), Mapping::Changes, Context::Changes},
      // The collectives' algorithms change the matrix and the replay.
      {plus("mpi: {collectives: ompi}"), Mapping::Changes, Context::Changes},
      {plus("mpi: {collectives: \"mpich,alltoall=bruck\"}"), Mapping::Changes, Context::Changes},
      {changed("workloads: [npb:lu:S:4]", "workloads: [\"npb:lu:S:4:iterations=2\"]"),
       Mapping::Changes, Context::Changes},
      {changed("workloads: [npb:lu:S:4]", "workloads: [npb:lu:S:8]"), Mapping::Changes,
       Context::Changes},
      {changed("workloads: [npb:lu:S:4]", "workloads: [npb:lu:W:4]"), Mapping::Changes,
       Context::Changes},
      {changed("machines: [torus:4x4]", "machines: [mesh:4x4]"), Mapping::Changes,
       Context::Changes},
      {changed("machines: [torus:4x4]", "machines: [\"torus:4x4:cores=2\"]"), Mapping::Changes,
       Context::Changes},
  };
  const auto base = only_run(kSingle);
  std::set<std::string> keys{base.key};
  for (const auto& c : cases) {
    const auto run = only_run(c.text);
    EXPECT_NE(run.key, base.key) << c.text;
    EXPECT_EQ(run.mapping_key == base.mapping_key, c.mapping == Mapping::Same) << c.text;
    EXPECT_EQ(run.context_key == base.context_key, c.context == Context::Same) << c.text;
    keys.insert(run.key);
  }
  EXPECT_EQ(keys.size(), cases.size() + 1);  // every change makes a key of its own
}

TEST(SweepKeys, RunsDifferingOnlyInModelShareTheMapping) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [scotch]\n"
      "models: [flow, packet, analytic, static]\n");
  ASSERT_EQ(sweep.runs.size(), 4U);
  std::set<std::string> contexts;
  for (const auto& run : sweep.runs) {
    EXPECT_EQ(run.mapping_key, sweep.runs[0].mapping_key);
    contexts.insert(run.context_key);
  }
  EXPECT_EQ(contexts.size(), 4U);
}

// replay-search judges mappings by replaying the workload under the run's links and MPI
// settings, so its mapping depends on them and their change makes a new mapping key; a mapper
// that maps from the matrix alone (in-order) keeps its mapping. The run's context changes for
// both.
TEST(SweepKeys, ReplayingMappersKeyTheirMappingOnTheReplaySettings) {
  // best replays (through the same oracle) with objective=critical-latency only.
  const std::pair<const char*, bool> mappers[] = {
      {"in-order", false},
      {"replay-search", true},
      {"{name: best, params: {objective: latency}}", false},
      {"{name: best, params: {objective: critical-latency}}", true}};
  for (const auto& [mapper, replays] : mappers) {
    SCOPED_TRACE(mapper);
    const auto text = changed("mappers: [scotch]", fmt::format("mappers: [{}]", mapper));
    const auto base = only_run(text);
    const auto to = [&](std::string_view from, std::string_view with) {
      auto changed_text = text;
      changed_text.replace(changed_text.find(from), from.size(), with);
      return only_run(changed_text);
    };
    for (const auto& run :
         {to("machines: [torus:4x4]",
             "machines: [{topology: torus:4x4, links: {grid: {bandwidth: 10}}}]"),
          to("machines: [torus:4x4]",
             "machines: [{topology: torus:4x4, links: {intra-node: {latency: 300}}}]"),
          only_run(text + "mpi: {eager-threshold: 1024}\n")}) {
      EXPECT_NE(run.key, base.key);
      EXPECT_NE(run.context_key, base.context_key);
      EXPECT_EQ(run.mapping_key != base.mapping_key, replays) << run.name;
    }
    // The defaults given are no change.
    const auto same = to("machines: [torus:4x4]",
                         "machines: [{topology: torus:4x4, links: {grid: {bandwidth: 25, "
                         "latency: 100}}}]");
    EXPECT_EQ(same.mapping_key, base.mapping_key);
    EXPECT_EQ(same.key, base.key);
  }
}

// A static run of replay-search scores its mapping without replaying it, but the search itself
// replays the workload (Runner.cpp builds its oracle from the run's MPI and sim settings whatever
// the run's model), so the settings its replays use belong in its mapping key there too.
TEST(SweepKeys, StaticRunsOfReplayingMappersKeyTheirMappingOnTheReplaySettings) {
  const std::string text =
      "workloads: [npb:lu:S:4]\n"
      "machines: [torus:4x4]\n"
      "mappers: [replay-search]\n"
      "models: [static]\n";
  const auto base = only_run(text);
  ASSERT_FALSE(base.replays);
  for (const auto* lines : {"mpi: {overheads: typical}", "sim: {whole-run: true}"}) {
    EXPECT_NE(only_run(text + lines + "\n").mapping_key, base.mapping_key) << lines;
  }
}

TEST(SweepKeys, RunsDifferingOnlyInMapperOrSeedShareTheContext) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
      "mappers: [in-order, greedy, {name: scotch, params: {runs: [1, 2]}}]\nseeds: [0, 1]\n");
  ASSERT_EQ(sweep.runs.size(), 8U);
  std::set<std::string> mappings;
  for (const auto& run : sweep.runs) {
    EXPECT_EQ(run.context_key, sweep.runs[0].context_key);
    mappings.insert(run.mapping_key);
  }
  EXPECT_EQ(mappings.size(), 8U);
}

TEST(SweepKeys, RepeatsShareMappingAndContext) {
  const auto sweep = expand_text(plus("repeats: 3"));
  ASSERT_EQ(sweep.runs.size(), 3U);
  EXPECT_EQ(sweep.runs[0].key, only_run(kSingle).key);  // repeat 0 is the run without repeats
  std::set<std::string> keys;
  for (const auto& run : sweep.runs) {
    EXPECT_EQ(run.mapping_key, sweep.runs[0].mapping_key);
    EXPECT_EQ(run.context_key, sweep.runs[0].context_key);
    keys.insert(run.key);
  }
  EXPECT_EQ(keys.size(), 3U);
}

// ---- shards -------------------------------------------------------------------------------------

TEST(SweepShard, EveryRunIsInExactlyOneShard) {
  const auto sweep = expand_text(kCross + "models: [flow, packet]\n");
  ASSERT_EQ(sweep.runs.size(), 48U);
  for (const int count : {1, 2, 3, 4, 7}) {
    std::vector<std::size_t> sizes(static_cast<std::size_t>(count), 0);
    for (const auto& run : sweep.runs) {
      int shards = 0;
      for (int index = 1; index <= count; ++index) {
        if (in_shard(run, index, count)) {
          ++shards;
          ++sizes[static_cast<std::size_t>(index - 1)];
          // The documented rule: the mapping key's first 15 hex digits modulo the count.
          EXPECT_EQ(std::stoull(run.mapping_key.substr(0, 15), nullptr, 16) %
                        static_cast<unsigned long long>(count),
                    static_cast<unsigned long long>(index - 1));
        }
      }
      EXPECT_EQ(shards, 1) << run.name << " in " << count << " shards";
    }
    if (count == 1) {
      EXPECT_EQ(sizes[0], sweep.runs.size());
    }
    if (count == 2) {  // 24 mappings over 2 shards: both get some
      EXPECT_GT(sizes[0], 0U);
      EXPECT_GT(sizes[1], 0U);
    }
  }
}

TEST(SweepShard, RunsSharingAMappingShareTheShard) {
  const auto sweep = expand_text(kCross + "models: [flow, packet, static]\n");
  std::map<std::string, std::vector<const exp::Run*>> by_mapping;
  for (const auto& run : sweep.runs) by_mapping[run.mapping_key].push_back(&run);
  EXPECT_EQ(by_mapping.size(), 24U);
  for (const int count : {2, 3, 5}) {
    for (const auto& [mapping, runs] : by_mapping) {
      ASSERT_EQ(runs.size(), 3U);
      for (int index = 1; index <= count; ++index) {
        EXPECT_EQ(in_shard(*runs[0], index, count), in_shard(*runs[1], index, count));
        EXPECT_EQ(in_shard(*runs[0], index, count), in_shard(*runs[2], index, count));
      }
    }
  }
}

// ---- configuration rows -------------------------------------------------------------------------

TEST(SweepRow, ConfigRowMatchesTheRun) {
  const auto sweep = expand_text(
      "workloads: [npb:lu:S:4]\n"
      "machines: [{topology: \"torus:2x2:cores=4\", links: {grid: {bandwidth: 10, latency: 20}}}]\n"
      "mappers: [{name: scotch, params: {runs: 8}}]\n"
      "models: [{name: packet, packet-size: 1024, store-and-forward: true}, flow]\n"
      "mpi: {eager-threshold: 1024}\n"
      "sim: {compute-scale: 0.5, whole-run: true}\n"
      "seeds: [5]\n"
      "repeats: 2\n");
  ASSERT_EQ(sweep.runs.size(), 4U);
  const auto row = config_row(sweep, sweep.runs[1]);  // packet, repeat 1
  ASSERT_EQ(row.size(), schema::config_columns().size());
  EXPECT_EQ(text(row, "workload"), "npb:lu:S:4");
  EXPECT_EQ(text(row, "workload_kind"), "generated");
  EXPECT_EQ(text(row, "workload_spec"), "npb:lu:S:4");
  EXPECT_EQ(text(row, "workload_digest"), sweep.inputs[0].digest);
  EXPECT_TRUE(is_lower_hex(text(row, "workload_digest")));
  EXPECT_EQ(text(row, "kernel"), "lu");
  EXPECT_EQ(text(row, "class"), "S");
  EXPECT_EQ(integer(row, "ranks"), 4);
  EXPECT_EQ(integer(row, "collectives"), 1);
  EXPECT_EQ(text(row, "machine"), "torus:2x2:cores=4[grid:10:20]");
  EXPECT_EQ(text(row, "topology"), "torus:2x2:cores=4");
  EXPECT_EQ(text(row, "topology_kind"), "torus");
  EXPECT_EQ(integer(row, "nodes"), 4);
  EXPECT_EQ(integer(row, "cores"), 4);
  EXPECT_EQ(text(row, "links"), "grid:10:20");
  EXPECT_EQ(text(row, "mapper"), "scotch");
  EXPECT_EQ(text(row, "mapper_label"), "scotch[runs=8]");
  EXPECT_EQ(text(row, "params"), "imbalance=0,runs=8,strategy=quality");
  EXPECT_EQ(integer(row, "seed"), 5);
  EXPECT_EQ(text(row, "model"), "packet");
  EXPECT_EQ(text(row, "model_label"), "packet[packet-size=1024,store-and-forward=true]");
  EXPECT_EQ(integer(row, "packet_size"), 1024);
  EXPECT_EQ(integer(row, "cut_through"), 0);  // store-and-forward
  EXPECT_EQ(integer(row, "eager_threshold"), 1024);
  EXPECT_NEAR(real(row, "compute_scale"), 0.5, kTolerance);
  EXPECT_EQ(integer(row, "whole_run"), 1);
  EXPECT_EQ(integer(row, "repeat"), 1);

  // flow has no packet options.
  const auto flow = config_row(sweep, sweep.runs[2]);
  EXPECT_EQ(text(flow, "model"), "flow");
  EXPECT_TRUE(is_null(flow, "packet_size"));
  EXPECT_TRUE(is_null(flow, "cut_through"));
  EXPECT_EQ(integer(flow, "eager_threshold"), 1024);
  EXPECT_EQ(integer(flow, "repeat"), 0);
}

TEST(Sweep, TheDemoConfigExpands) {
  // demo.yaml: 6 workloads x 4 machines x 12 mappers = 288 runs.
  const auto sweep = expand(parse_config(demo_config_text(), kDemoConfigName, {}));
  EXPECT_EQ(sweep.runs.size(), 288U);
  EXPECT_EQ(sweep.merged, 0U);
  std::set<std::string> names_seen;
  for (const auto& run : sweep.runs) names_seen.insert(run.name);
  EXPECT_EQ(names_seen.size(), 288U);
}

TEST(Sweep, EveryBundledConfigExpandsToTheRunsItsHeaderStates) {
  // Each file in experiments/configs names its run count in its header comment ("N runs").
  const std::filesystem::path dir =
      std::filesystem::path(MAPSIM_SOURCE_DIR) / "experiments/configs";
  std::size_t configs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    ++configs;
    const auto sweep = expand(load_config(entry.path()));
    std::ifstream in(entry.path());
    std::string header;
    for (std::string line; std::getline(in, line) && line.starts_with("#");) header += line + " ";
    EXPECT_THAT(header, HasSubstr(std::to_string(sweep.runs.size()) + " runs"))
        << entry.path() << " expands to " << sweep.runs.size() << " runs";
    EXPECT_EQ(sweep.merged, 0U) << entry.path();
  }
  EXPECT_GE(configs, 4U);
}

}  // namespace
}  // namespace mapsim::exp

// The shipped configs (experiments/configs/*.yaml): every one parses and expands, with and
// without its quick variant, into as many runs as its axes give; the quick variants of the seed
// papers' configs run to completion (slow: a few minutes).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "experiments/Config.hpp"
#include "experiments/Sweep.hpp"
#include "tests/experiments/SweepTestSupport.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

namespace fs = std::filesystem;

const fs::path kConfigs = fs::path(MAPSIM_SOURCE_DIR) / "experiments" / "configs";

/// The configs that reproduce the seed papers' experiments, and the experiment on today's
/// machines (dragonfly, fat-tree): each with a quick variant that must run without a failure.
constexpr std::array<std::string_view, 4> kSeedConfigs{"ohtma-tianhe3.yaml", "haec-thesis.yaml",
                                                       "bhatele-tori.yaml", "todays-machines.yaml"};

/// The only `where` conditions the expected counts below know how to evaluate: none, and "the
/// ranks fill the machine" (one rank per core of every node).
constexpr std::string_view kRanksFillTheMachine = "ranks = nodes * cores";

std::vector<fs::path> config_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kConfigs)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool matches(const std::vector<std::string>& values, std::string_view label,
             std::string_view spec) {
  return std::any_of(values.begin(), values.end(),
                     [&](const std::string& v) { return v == label || v == spec; });
}

/// Whether an exclude entry drops the combination (the axes the shipped configs exclude by).
bool excluded(const SweepConfig& config, std::size_t w, std::size_t m, std::size_t p,
              std::size_t o) {
  for (const auto& exclusion : config.exclusions) {
    bool all = true;
    for (const auto& c : exclusion.conditions) {
      switch (c.axis) {
        case Axis::Workload:
          all = all && matches(c.values, config.workloads[w].label, config.workloads[w].spec);
          break;
        case Axis::Machine:
          all = all && matches(c.values, config.machines[m].label, config.machines[m].topology);
          break;
        case Axis::Mapper:
          all = all && matches(c.values, config.mappers[p].label, config.mappers[p].name);
          break;
        case Axis::Model:
          all = all && matches(c.values, config.models[o].label, config.models[o].name);
          break;
        default:
          ADD_FAILURE() << config.file << ": this test does not evaluate exclusions by "
                        << name(c.axis);
      }
    }
    if (all) return true;
  }
  return false;
}

/// The runs a config's axes give, counted without the sweep's expansion: the workload x machine
/// pairs the `where` condition keeps, times mappers and models not excluded, each replaying model
/// times the eager thresholds, compute scales and repeats (a `static` run has none of these
/// settings, so they collapse into one), times the seeds.
std::size_t expected_runs(const Sweep& sweep) {
  const auto& config = sweep.config;
  EXPECT_TRUE(config.zips.empty()) << config.file << ": this test does not count zipped axes";
  EXPECT_TRUE(config.where.empty() || config.where == kRanksFillTheMachine)
      << config.file << ": this test cannot evaluate the condition " << config.where;
  const auto replay_settings =
      config.eager_thresholds.size() * config.compute_scales.size() * config.size(Axis::Repeat);
  std::size_t runs = 0;
  for (std::size_t w = 0; w < config.workloads.size(); ++w) {
    for (std::size_t m = 0; m < config.machines.size(); ++m) {
      const auto& machine = *sweep.machines[m];
      const auto slots = static_cast<std::size_t>(machine.node_count()) *
                         static_cast<std::size_t>(machine.cores_per_node());
      if (!config.where.empty() && static_cast<std::size_t>(sweep.inputs[w].ranks) != slots)
        continue;
      for (std::size_t p = 0; p < config.mappers.size(); ++p) {
        for (std::size_t o = 0; o < config.models.size(); ++o) {
          if (excluded(config, w, m, p, o)) continue;
          runs += config.models[o].name == kStaticModel ? 1 : replay_settings;
        }
      }
    }
  }
  return runs * config.seeds.size();
}

TEST(SeedConfigs, TheSeedConfigsAreShipped) {
  for (const auto name : kSeedConfigs) EXPECT_TRUE(fs::exists(kConfigs / name)) << name;
}

TEST(SeedConfigs, EveryConfigExpandsIntoTheRunsOfItsAxes) {
  const auto files = config_files();
  ASSERT_FALSE(files.empty()) << kConfigs;
  for (const auto& file : files) {
    SCOPED_TRACE(file.filename().string());
    const auto full = expand(load_config(file));
    EXPECT_FALSE(full.runs.empty());
    EXPECT_EQ(full.runs.size(), expected_runs(full));
    if (!full.config.has_quick) continue;
    const auto quick = expand(load_config(file, true));
    EXPECT_TRUE(quick.config.quick);
    EXPECT_FALSE(quick.runs.empty());
    EXPECT_EQ(quick.runs.size(), expected_runs(quick));
    EXPECT_LT(quick.runs.size(), full.runs.size()) << "the quick variant is the smaller one";
  }
}

TEST(SeedConfigs, SeedConfigsHaveAQuickVariantAndStoreLinks) {
  for (const auto name : kSeedConfigs) {
    SCOPED_TRACE(name);
    const auto config = load_config(kConfigs / name);
    EXPECT_TRUE(config.has_quick);
    EXPECT_TRUE(config.store_links) << "the heat maps need the per-link loads";
    ASSERT_EQ(config.compute_scales.size(), 1U);
    EXPECT_EQ(config.compute_scales[0], 0.0) << "communication time only";
  }
}

TEST(SeedConfigs, QuickVariantsRunToCompletion) {
  for (const auto name : kSeedConfigs) {
    SCOPED_TRACE(name);
    const mapsim::testing::TempDir dir;
    const auto database = dir.path() / "quick.db";
    const auto sweep = expand(load_config(kConfigs / name, true));
    const auto report = testing::run(sweep, database, 2);
    EXPECT_EQ(report.runs, sweep.runs.size());
    EXPECT_EQ(report.done, sweep.runs.size());
    EXPECT_EQ(report.failed, 0U);
    EXPECT_EQ(testing::count(database, "SELECT COUNT(*) FROM runs WHERE status = 'done'"),
              static_cast<std::int64_t>(sweep.runs.size()));
    // Every mapper of the quick variant has stored runs.
    std::set<std::string> expected;
    for (const auto& mapper : sweep.config.mappers) expected.insert(mapper.label);
    std::set<std::string> stored;
    for (const auto& row : testing::select_all(
             database, "SELECT DISTINCT mapper_label FROM runs WHERE status = 'done'"))
      stored.insert(std::get<std::string>(row.at(0)));
    EXPECT_EQ(stored, expected);
    EXPECT_GT(testing::count(database, "SELECT COUNT(*) FROM links"), 0) << "store: {links: true}";
  }
}

}  // namespace
}  // namespace mapsim::exp

// Experiment configs: every section and form, the defaults, and every error with its position.

#include "experiments/Config.hpp"

#include <cmath>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

constexpr double kTolerance = 1e-12;
/// Link parameters are products of decimal inputs and 1e9 or 1e-9: equal to a few ulps.
constexpr double kRelativeTolerance = 1e-12;

constexpr std::string_view kFile = "sweep.yaml";

// Three lines: line 1 workloads, line 2 machines, line 3 mappers; tests add line 4 on.
const std::string kBase =
    "workloads: [npb:lu:S:4]\n"
    "machines: [torus:4x4]\n"
    "mappers: [in-order]\n";

SweepConfig parse(std::string_view text, const fs::path& base = {}) {
  return parse_config(text, kFile, base);
}

/// The base config with `line4` (and any further lines) appended.
std::string with_base(std::string_view line4) {
  return kBase + std::string(line4) + "\n";
}

/// The message of the InputError parsing `text` (its quick variant with `quick`) throws, or
/// "(no error)".
std::string error_of_quick(std::string_view text, bool quick) {
  try {
    (void)parse_config(text, kFile, {}, quick);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// The message of the InputError parsing `text` throws, or "(no error)".
std::string error_of(std::string_view text, const fs::path& base = {}) {
  try {
    (void)parse(text, base);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// The start of an error message: "sweep.yaml:LINE:COLUMN: PATH".
std::string at(int line, int column, std::string_view path) {
  return std::string(kFile) + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
         std::string(path);
}

void expect_default_links(const topo::LinkTable& links) {
  const topo::LinkTable defaults;
  for (const auto& info : topo::link_classes()) {
    EXPECT_EQ(links[info.id].bandwidth, defaults[info.id].bandwidth) << info.name;
    EXPECT_EQ(links[info.id].latency, defaults[info.id].latency) << info.name;
  }
}

// ---- valid configs ------------------------------------------------------------------------------

TEST(Config, MinimalConfigGetsTheDocumentedDefaults) {
  const auto config = parse(kBase);
  EXPECT_EQ(config.file, "sweep.yaml");

  ASSERT_EQ(config.workloads.size(), 1U);
  const auto& w = config.workloads[0];
  EXPECT_EQ(w.kind, WorkloadKind::Generated);
  EXPECT_EQ(w.spec, "npb:lu:S:4");
  EXPECT_EQ(w.label, "npb:lu:S:4");
  EXPECT_EQ(w.generator.kernel, "lu");
  EXPECT_EQ(w.generator.problem_class, 'S');
  EXPECT_EQ(w.generator.ranks, 4);
  EXPECT_FALSE(w.generator.iterations.has_value());
  // "workloads: [" is 12 characters: the value starts in column 13.
  EXPECT_EQ(w.origin.str(), "sweep.yaml:1:13");

  ASSERT_EQ(config.machines.size(), 1U);
  EXPECT_EQ(config.machines[0].topology, "torus:4x4");
  EXPECT_EQ(config.machines[0].label, "torus:4x4");
  EXPECT_EQ(config.machines[0].overrides, "");
  expect_default_links(config.machines[0].links);
  EXPECT_EQ(config.machines[0].origin.str(), "sweep.yaml:2:12");

  ASSERT_EQ(config.mappers.size(), 1U);
  EXPECT_EQ(config.mappers[0].name, "in-order");
  EXPECT_EQ(config.mappers[0].label, "in-order");
  EXPECT_TRUE(config.mappers[0].given.empty());
  EXPECT_EQ(config.mappers[0].params, "");  // in-order has no parameters
  EXPECT_EQ(config.mappers[0].origin.str(), "sweep.yaml:3:11");

  // models [flow], the simulator's eager threshold and compute scale, seeds [0], one repeat.
  ASSERT_EQ(config.models.size(), 1U);
  EXPECT_EQ(config.models[0].name, "flow");
  EXPECT_EQ(config.models[0].label, "flow");
  const sim::ModelOptions model_defaults;
  EXPECT_EQ(config.models[0].options.packet_bytes, model_defaults.packet_bytes);
  EXPECT_EQ(config.models[0].options.cut_through, model_defaults.cut_through);
  const sim::SimConfig sim_defaults;
  EXPECT_EQ(config.eager_thresholds, std::vector<std::int64_t>{sim_defaults.eager_threshold});
  ASSERT_EQ(config.compute_scales.size(), 1U);
  EXPECT_NEAR(config.compute_scales[0], sim_defaults.compute_scale, kTolerance);
  EXPECT_NEAR(config.compute_scales[0], 1.0, kTolerance);
  EXPECT_EQ(config.seeds, std::vector<std::int64_t>{0});
  EXPECT_EQ(config.repeats, 1);
  EXPECT_TRUE(config.collectives);
  EXPECT_FALSE(config.whole_run);
  EXPECT_FALSE(config.store_links);
  EXPECT_NEAR(config.time_limit, 0.0, kTolerance);
  EXPECT_TRUE(config.zips.empty());
  EXPECT_TRUE(config.exclusions.empty());
  EXPECT_EQ(config.where, "");
  EXPECT_EQ(config.name_template, "");
  for (int a = 0; a < kAxisCount; ++a) EXPECT_EQ(config.size(static_cast<Axis>(a)), 1U) << a;
}

TEST(Config, AxisAndKindNames) {
  const std::vector<std::string_view> expected{"workload", "machine",         "mapper",
                                               "model",    "eager-threshold", "compute-scale",
                                               "seed",     "repeat"};
  for (int a = 0; a < kAxisCount; ++a)
    EXPECT_EQ(name(static_cast<Axis>(a)), expected[static_cast<std::size_t>(a)]);
  EXPECT_EQ(name(WorkloadKind::Generated), "generated");
  EXPECT_EQ(name(WorkloadKind::Trace), "trace");
  EXPECT_EQ(name(WorkloadKind::Matrix), "matrix");
  EXPECT_EQ((Origin{"a.yaml", 3, 7}.str()), "a.yaml:3:7");
}

TEST(Config, EverySection) {
  const testing::TempDir dir;
  fs::create_directories(dir.path() / "traces" / "lu");
  dir.write("m.csv", "src,dst,messages,bytes\n0,1,1,8\n");
  const std::string text =
      "workloads:\n"                                                                       // 1
      "  - npb:cg:S:8:iterations=2\n"                                                      // 2
      "  - {generate: \"npb:lu:S:4\", iterations: 3, label: lu3}\n"                        // 3
      "  - {generate: \"stencil2d:S:16\", message-bytes: 512}\n"                           // 4
      "  - {trace: traces/lu}\n"                                                           // 5
      "  - {matrix: m.csv, label: tiny}\n"                                                 // 6
      "machines:\n"                                                                        // 7
      "  - torus:4x4\n"                                                                    // 8
      "  - {topology: \"tianhe3:2x2:nodes=16\", label: th3,\n"                             // 9
      "     links: {th3-switch: {bandwidth: 12.5, latency: 20}}}\n"                        // 10
      "mappers:\n"                                                                         // 11
      "  - in-order\n"                                                                     // 12
      "  - {name: scotch, params: {runs: [1, 8], strategy: [speed, quality]}}\n"           // 13
      "  - {name: greedy, params: {weight: messages}, label: greedy-msg}\n"                // 14
      "models:\n"                                                                          // 15
      "  - flow\n"                                                                         // 16
      "  - {name: packet, packet-size: [1024, 4096], store-and-forward: [false, true]}\n"  // 17
      "  - {name: analytic, label: fast}\n"                                                // 18
      "  - static\n"                                                                       // 19
      "mpi: {eager-threshold: [0, 65536]}\n"                                               // 20
      "sim: {compute-scale: [0, 0.5], whole-run: true}\n"                                  // 21
      "matrix: {collectives: false}\n"                                                     // 22
      "seeds: [3, 1]\n"                                                                    // 23
      "repeats: 2\n"                                                                       // 24
      "zip: [[compute-scale, seed]]\n"                                                     // 25
      "exclude:\n"                                                                         // 26
      "  - {mapper: scotch, machine: th3}\n"                                               // 27
      "  - {seeds: [1, 3], model: static}\n"                                               // 28
      "where: \"ranks <= 16\"\n"                                                           // 29
      "name: \"{workload}/{machine}/{mapper}/{model}/{seed}/{repeat}\"\n"                  // 30
      "store: {links: true}\n"                                                             // 31
      "run: {time-limit: 600}\n";                                                          // 32
  const auto config = parse(text, dir.path());

  ASSERT_EQ(config.workloads.size(), 5U);
  const auto& w = config.workloads;
  EXPECT_EQ(w[0].kind, WorkloadKind::Generated);
  EXPECT_EQ(w[0].spec, "npb:cg:S:8:iterations=2");
  EXPECT_EQ(w[0].label, "npb:cg:S:8:iterations=2");
  EXPECT_EQ(w[0].generator.iterations, 2);
  EXPECT_EQ(w[0].origin.str(), "sweep.yaml:2:5");
  // The map's iterations go into the canonical spec.
  EXPECT_EQ(w[1].spec, "npb:lu:S:4:iterations=3");
  EXPECT_EQ(w[1].label, "lu3");
  EXPECT_EQ(w[1].generator.iterations, 3);
  EXPECT_EQ(w[1].origin.str(), "sweep.yaml:3:5");
  EXPECT_EQ(w[2].spec, "stencil2d:S:16:message-bytes=512");
  EXPECT_EQ(w[2].label, "stencil2d:S:16:message-bytes=512");
  EXPECT_EQ(w[2].generator.message_bytes, 512);
  EXPECT_EQ(w[3].kind, WorkloadKind::Trace);
  EXPECT_EQ(w[3].spec, "traces/lu");  // the path as written
  EXPECT_EQ(w[3].path, dir.path() / "traces/lu");
  EXPECT_EQ(w[3].label, "lu");
  EXPECT_EQ(w[4].kind, WorkloadKind::Matrix);
  EXPECT_EQ(w[4].spec, "m.csv");
  EXPECT_EQ(w[4].path, dir.path() / "m.csv");
  EXPECT_EQ(w[4].label, "tiny");

  ASSERT_EQ(config.machines.size(), 2U);
  const auto& th3 = config.machines[1];
  EXPECT_EQ(th3.topology, "tianhe3:2x2:nodes=16");
  EXPECT_EQ(th3.label, "th3");
  EXPECT_EQ(th3.origin.line, 9);
  // 12.5 GB/s and 20 ns; every other class keeps its default.
  const auto& sw = th3.links[topo::LinkClass::Th3Switch];
  EXPECT_NEAR(sw.bandwidth, 12.5e9, 12.5e9 * kRelativeTolerance);
  EXPECT_NEAR(sw.latency, 20e-9, 20e-9 * kRelativeTolerance);
  const topo::LinkTable defaults;
  for (const auto& info : topo::link_classes()) {
    if (info.id == topo::LinkClass::Th3Switch) continue;
    EXPECT_EQ(th3.links[info.id].bandwidth, defaults[info.id].bandwidth) << info.name;
    EXPECT_EQ(th3.links[info.id].latency, defaults[info.id].latency) << info.name;
  }
  EXPECT_EQ(th3.overrides, "th3-switch:12.5:20");

  // scotch's lists are crossed within the entry, the last key varying fastest; params lists every
  // parameter with its default filled in.
  ASSERT_EQ(config.mappers.size(), 6U);
  const std::vector<std::string> labels{"in-order",
                                        "scotch[runs=1,strategy=speed]",
                                        "scotch[runs=1,strategy=quality]",
                                        "scotch[runs=8,strategy=speed]",
                                        "scotch[runs=8,strategy=quality]",
                                        "greedy-msg"};
  const std::vector<std::string> params{"",
                                        "imbalance=0,runs=1,strategy=speed",
                                        "imbalance=0,runs=1,strategy=quality",
                                        "imbalance=0,runs=8,strategy=speed",
                                        "imbalance=0,runs=8,strategy=quality",
                                        "weight=messages"};
  for (std::size_t i = 0; i < labels.size(); ++i) {
    EXPECT_EQ(config.mappers[i].label, labels[i]) << i;
    EXPECT_EQ(config.mappers[i].params, params[i]) << i;
  }
  EXPECT_EQ(config.mappers[1].name, "scotch");
  EXPECT_EQ(config.mappers[4].given, (map::ParamList{{"runs", "8"}, {"strategy", "quality"}}));
  EXPECT_EQ(config.mappers[4].origin.line, 13);
  EXPECT_EQ(config.mappers[5].name, "greedy");
  EXPECT_EQ(config.mappers[5].given, (map::ParamList{{"weight", "messages"}}));

  ASSERT_EQ(config.models.size(), 7U);
  EXPECT_EQ(config.models[0].label, "flow");
  struct Packet {
    std::string label;
    std::int64_t bytes;
    bool cut_through;
  };
  const std::vector<Packet> packets{
      {"packet[packet-size=1024,store-and-forward=false]", 1024, true},
      {"packet[packet-size=1024,store-and-forward=true]", 1024, false},
      {"packet[packet-size=4096,store-and-forward=false]", 4096, true},
      {"packet[packet-size=4096,store-and-forward=true]", 4096, false},
  };
  for (std::size_t i = 0; i < packets.size(); ++i) {
    const auto& m = config.models[i + 1];
    EXPECT_EQ(m.name, "packet");
    EXPECT_EQ(m.label, packets[i].label);
    EXPECT_EQ(m.options.packet_bytes, packets[i].bytes) << m.label;
    EXPECT_EQ(m.options.cut_through, packets[i].cut_through) << m.label;
  }
  EXPECT_EQ(config.models[5].name, "analytic");
  EXPECT_EQ(config.models[5].label, "fast");
  EXPECT_EQ(config.models[6].name, kStaticModel);
  EXPECT_EQ(config.models[6].label, "static");

  EXPECT_EQ(config.eager_thresholds, (std::vector<std::int64_t>{0, 65536}));
  ASSERT_EQ(config.compute_scales.size(), 2U);
  EXPECT_NEAR(config.compute_scales[0], 0.0, kTolerance);
  EXPECT_NEAR(config.compute_scales[1], 0.5, kTolerance);
  EXPECT_TRUE(config.whole_run);
  EXPECT_FALSE(config.collectives);
  EXPECT_EQ(config.seeds, (std::vector<std::int64_t>{3, 1}));  // in the order given
  EXPECT_EQ(config.repeats, 2);
  EXPECT_EQ(config.zips, (std::vector<std::vector<Axis>>{{Axis::ComputeScale, Axis::Seed}}));
  EXPECT_EQ(config.zip_origin.str(), "sweep.yaml:25:6");

  ASSERT_EQ(config.exclusions.size(), 2U);
  const auto& first = config.exclusions[0].conditions;
  ASSERT_EQ(first.size(), 2U);
  EXPECT_EQ(first[0].axis, Axis::Mapper);
  EXPECT_EQ(first[0].values, std::vector<std::string>{"scotch"});
  EXPECT_EQ(first[1].axis, Axis::Machine);
  EXPECT_EQ(first[1].values, std::vector<std::string>{"th3"});
  EXPECT_EQ(config.exclusions[0].origin.str(), "sweep.yaml:27:5");
  const auto& second = config.exclusions[1].conditions;
  ASSERT_EQ(second.size(), 2U);
  EXPECT_EQ(second[0].axis, Axis::Seed);  // "seeds": the plural names the axis too
  EXPECT_EQ(second[0].integers, (std::vector<std::int64_t>{1, 3}));  // parsed once, here
  EXPECT_EQ(second[1].axis, Axis::Model);
  EXPECT_EQ(second[1].values, std::vector<std::string>{"static"});

  EXPECT_EQ(config.where, "ranks <= 16");
  EXPECT_EQ(config.where_origin.str(), "sweep.yaml:29:8");
  EXPECT_EQ(config.name_template, "{workload}/{machine}/{mapper}/{model}/{seed}/{repeat}");
  EXPECT_EQ(config.name_origin.str(), "sweep.yaml:30:7");
  EXPECT_TRUE(config.store_links);
  EXPECT_NEAR(config.time_limit, 600.0, kTolerance);

  EXPECT_EQ(config.size(Axis::Workload), 5U);
  EXPECT_EQ(config.size(Axis::Machine), 2U);
  EXPECT_EQ(config.size(Axis::Mapper), 6U);
  EXPECT_EQ(config.size(Axis::Model), 7U);
  EXPECT_EQ(config.size(Axis::EagerThreshold), 2U);
  EXPECT_EQ(config.size(Axis::ComputeScale), 2U);
  EXPECT_EQ(config.size(Axis::Seed), 2U);
  EXPECT_EQ(config.size(Axis::Repeat), 2U);
}

TEST(Config, ScalarAndMapFormsAgree) {
  const auto scalar = parse(with_base("models: [packet]"));
  const auto map = parse(
      "workloads: [{generate: npb:lu:S:4}]\n"
      "machines: [{topology: torus:4x4}]\n"
      "mappers: [{name: in-order}]\n"
      "models: [{name: packet}]\n");
  EXPECT_EQ(map.workloads[0].spec, scalar.workloads[0].spec);
  EXPECT_EQ(map.workloads[0].label, scalar.workloads[0].label);
  EXPECT_EQ(map.machines[0].topology, scalar.machines[0].topology);
  EXPECT_EQ(map.machines[0].label, scalar.machines[0].label);
  EXPECT_EQ(map.mappers[0].label, scalar.mappers[0].label);
  EXPECT_EQ(map.mappers[0].params, scalar.mappers[0].params);
  EXPECT_EQ(map.models[0].label, "packet");
  EXPECT_EQ(map.models[0].options.packet_bytes, scalar.models[0].options.packet_bytes);
  EXPECT_EQ(map.models[0].options.cut_through, scalar.models[0].options.cut_through);
}

TEST(Config, SingleValuesCountAsListsOfOne) {
  const auto config = parse(
      "workloads: npb:lu:S:4\n"
      "machines: torus:4x4\n"
      "mappers: greedy\n"
      "models: analytic\n"
      "mpi: {eager-threshold: 1024}\n"
      "sim: {compute-scale: 0.25}\n"
      "seeds: 7\n");
  EXPECT_EQ(config.workloads.size(), 1U);
  EXPECT_EQ(config.machines.size(), 1U);
  EXPECT_EQ(config.mappers[0].name, "greedy");
  EXPECT_EQ(config.models[0].name, "analytic");
  EXPECT_EQ(config.eager_thresholds, std::vector<std::int64_t>{1024});
  ASSERT_EQ(config.compute_scales.size(), 1U);
  EXPECT_NEAR(config.compute_scales[0], 0.25, kTolerance);
  EXPECT_EQ(config.seeds, std::vector<std::int64_t>{7});
}

TEST(Config, GeneratorOverridesInTheMapGiveTheCanonicalSpec) {
  const auto config = parse(
      "workloads:\n"
      "  - {generate: npb:lu:S:4, iterations: 2}\n"
      "  - {generate: \"stencil3d:S:8\", message-bytes: 64, iterations: 5}\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order]\n");
  EXPECT_EQ(config.workloads[0].spec, "npb:lu:S:4:iterations=2");
  EXPECT_EQ(config.workloads[0].label, "npb:lu:S:4:iterations=2");
  EXPECT_EQ(config.workloads[1].spec, "stencil3d:S:8:iterations=5:message-bytes=64");
}

TEST(Config, MapperParamsWithOneValue) {
  const auto config = parse(
      "workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
      "mappers: [{name: scotch, params: {runs: 8}}, scotch, {name: greedy, label: g}]\n");
  ASSERT_EQ(config.mappers.size(), 3U);
  EXPECT_EQ(config.mappers[0].label, "scotch[runs=8]");
  EXPECT_EQ(config.mappers[0].given, (map::ParamList{{"runs", "8"}}));
  EXPECT_EQ(config.mappers[0].params, "imbalance=0,runs=8,strategy=quality");
  // Without params: the label is the name, params are the defaults (runs=4).
  EXPECT_EQ(config.mappers[1].label, "scotch");
  EXPECT_EQ(config.mappers[1].params, "imbalance=0,runs=4,strategy=quality");
  EXPECT_EQ(config.mappers[2].label, "g");
  EXPECT_EQ(config.mappers[2].params, "weight=bytes");
}

TEST(Config, LinkOverridesInGigabytesPerSecondAndNanoseconds) {
  const auto config = parse(
      "workloads: [npb:lu:S:4]\n"
      "machines:\n"
      "  - {topology: torus:4x4, links: {grid: {bandwidth: 10, latency: 20},"
      " intra-node: {bandwidth: 40}}}\n"
      "  - {topology: torus:4x4, label: same, links: {grid: {bandwidth: 25, latency: 100}}}\n"
      "mappers: [in-order]\n");
  const auto& changed = config.machines[0];
  EXPECT_NEAR(changed.links[topo::LinkClass::Grid].bandwidth, 10e9, 10e9 * kRelativeTolerance);
  EXPECT_NEAR(changed.links[topo::LinkClass::Grid].latency, 20e-9, 20e-9 * kRelativeTolerance);
  EXPECT_NEAR(changed.links[topo::LinkClass::IntraNode].bandwidth, 40e9, 40e9 * kRelativeTolerance);
  // intra-node keeps its default latency: 200 ns.
  EXPECT_NEAR(changed.links[topo::LinkClass::IntraNode].latency, 200e-9,
              200e-9 * kRelativeTolerance);
  // Overridden classes in link-class order, CLASS:GBPS:NS.
  EXPECT_THAT(changed.overrides, StartsWith("grid:10:20,intra-node:40:"));
  EXPECT_THAT(changed.label, StartsWith("torus:4x4[grid:10:20,intra-node:40:"));
  // The defaults (25 GB/s, 100 ns) given again are no override.
  EXPECT_EQ(config.machines[1].overrides, "");
  expect_default_links(config.machines[1].links);
}

TEST(Config, LinkOverridesAreListedAsWritten) {
  // 50 ns and the untouched 100 ns of a grid link override are 50 and 100 in the links column
  // and the label (the schema's CLASS:GBPS:NS), not 50.00000000000001 and 100.00000000000001.
  const auto config = parse(
      "workloads: [npb:lu:S:4]\n"
      "machines:\n"
      "  - {topology: torus:4x4, links: {grid: {bandwidth: 10, latency: 50}}}\n"
      "  - {topology: mesh:4x4, links: {grid: {bandwidth: 10}, intra-node: {latency: 300}}}\n"
      "mappers: [in-order]\n");
  EXPECT_EQ(config.machines[0].overrides, "grid:10:50");
  EXPECT_EQ(config.machines[0].label, "torus:4x4[grid:10:50]");
  EXPECT_EQ(config.machines[1].overrides, "grid:10:100,intra-node:20:300");
}

TEST(Config, LabelsOfFileWorkloads) {
  const testing::TempDir dir;
  fs::create_directories(dir.path() / "run1");
  dir.write("run1/traces.otf2", "");
  fs::create_directories(dir.path() / "run2");
  fs::create_directories(dir.path() / "run3");
  fs::create_directories(dir.path() / "data");
  dir.write("data/m.csv", "src,dst,messages,bytes\n");
  const auto absolute = (dir.path() / "run3").string();
  const auto config = parse(
      "workloads:\n"
      "  - {trace: run1/traces.otf2}\n"
      "  - {trace: run2/}\n"
      "  - {matrix: data/m.csv}\n"
      "  - {trace: \"" +
          absolute +
          "\"}\n"
          "machines: [torus:4x4]\n"
          "mappers: [in-order]\n",
      dir.path());
  ASSERT_EQ(config.workloads.size(), 4U);
  // An anchor file is named after its directory; a directory or matrix after itself.
  EXPECT_EQ(config.workloads[0].label, "run1");
  EXPECT_EQ(config.workloads[1].label, "run2");
  EXPECT_EQ(config.workloads[2].label, "m.csv");
  EXPECT_EQ(config.workloads[3].label, "run3");
  // Relative paths resolve against the base; absolute ones stay.
  EXPECT_EQ(config.workloads[0].path, dir.path() / "run1/traces.otf2");
  EXPECT_EQ(config.workloads[2].path, dir.path() / "data/m.csv");
  EXPECT_EQ(config.workloads[3].path, fs::path(absolute));
  EXPECT_EQ(config.workloads[3].spec, absolute);
}

TEST(Config, LoadConfigResolvesPathsAgainstTheConfigsFolder) {
  const testing::TempDir dir;
  fs::create_directories(dir.path() / "sweeps");
  fs::create_directories(dir.path() / "traces" / "lu");
  const auto file = dir.write("sweeps/sweep.yaml",
                              "workloads: [{trace: ../traces/lu}]\n"
                              "machines: [torus:4x4]\n"
                              "mappers: [in-order]\n");
  const auto config = load_config(file);
  EXPECT_EQ(config.file, file.string());
  ASSERT_EQ(config.workloads.size(), 1U);
  EXPECT_TRUE(fs::equivalent(config.workloads[0].path, dir.path() / "traces" / "lu"));
  EXPECT_EQ(config.workloads[0].label, "lu");
  // Parsed against a folder where ../traces/lu does not exist, the same text fails.
  EXPECT_THAT(error_of("workloads: [{trace: ../traces/lu}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n",
                       dir.path() / "sweeps" / "deeper"),
              AllOf(StartsWith(at(1, 21, "workloads[0].trace")), HasSubstr("does not exist")));
}

TEST(Config, LoadConfigErrorsNameTheFile) {
  const testing::TempDir dir;
  const auto missing = dir.path() / "nothere.yaml";
  try {
    (void)load_config(missing);
    ADD_FAILURE() << "no error for a missing config";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr(missing.string()));
  }
  const auto file = dir.write("bad.yaml", with_base("seeds: [-1]"));
  try {
    (void)load_config(file);
    ADD_FAILURE() << "no error for a negative seed";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), StartsWith(file.string() + ":4:9: seeds"));
  }
}

TEST(Config, LoadConfigSaysWhatIsWrongWithTheFile) {
  // A directory read as an empty file: "the config is empty".
  const testing::TempDir dir;
  try {
    (void)load_config(dir.path());
    ADD_FAILURE() << "no error for a directory";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "config '" + dir.path().string() + "' is a directory, not a file");
  }
}

TEST(Config, TheDemoConfigParses) {
  const auto config = parse_config(demo_config_text(), kDemoConfigName, {});
  // demo.yaml: six NPB workloads on four machines with twelve mappers, flow, compute-scale 0.
  EXPECT_EQ(config.workloads.size(), 6U);
  EXPECT_EQ(config.machines.size(), 4U);
  EXPECT_EQ(config.mappers.size(), 12U);
  ASSERT_EQ(config.models.size(), 1U);
  EXPECT_EQ(config.models[0].name, "flow");
  ASSERT_EQ(config.compute_scales.size(), 1U);
  EXPECT_NEAR(config.compute_scales[0], 0.0, kTolerance);
}

// ---- errors: YAML and structure -----------------------------------------------------------------

TEST(ConfigErrors, YamlSyntaxNamesLineAndColumn) {
  // The second ']' in column 11 closes nothing.
  EXPECT_THAT(error_of(with_base("seeds: [1]]")),
              AllOf(StartsWith(std::string(kFile) + ":4:11: YAML syntax"), HasSubstr("flow end")));
  // A second ':' in a plain value (column 9).
  EXPECT_THAT(error_of(with_base("where: a: b")),
              StartsWith(std::string(kFile) + ":4:9: YAML syntax"));
  // A tab in the indentation: yaml-cpp speaks of the structure; the error names the tab's line.
  EXPECT_THAT(error_of(with_base("seeds:\n\t- 1")),
              AllOf(StartsWith(std::string(kFile) + ":5:"),
                    HasSubstr("(line 5 is indented with a tab: YAML indents with spaces)")));
  EXPECT_THAT(error_of(with_base("seeds: [1]]")), Not(HasSubstr("tab")));
}

TEST(ConfigErrors, TextThatIsNotUtf8) {
  // Bytes that are not UTF-8 were stored as they were: `results --format json` then printed
  // invalid JSON. They are refused where they stand (the column counts characters).
  EXPECT_EQ(error_of(with_base("name: \"{workload}/\xe9t\xe9\"")),
            std::string(kFile) + ":4:19: config: byte 0xe9 is not UTF-8: a config is UTF-8 text");
  EXPECT_THAT(error_of(with_base("name: \"\xc3\xa9t\xc3\xa9/{workload}/\xff\"")),
              StartsWith(std::string(kFile) + ":4:23: config: byte 0xff is not UTF-8"));
  // An overlong form, a UTF-16 surrogate, a truncated sequence at the end, a NUL byte.
  EXPECT_THAT(error_of(with_base("# \xc0\xaf")), StartsWith(std::string(kFile) + ":4:3:"));
  EXPECT_THAT(error_of(with_base("# \xed\xa0\x80")), StartsWith(std::string(kFile) + ":4:3:"));
  EXPECT_THAT(error_of(kBase + "# \xe2\x82"), StartsWith(std::string(kFile) + ":4:3:"));
  EXPECT_THAT(error_of(kBase + std::string("#\0", 2)),
              StartsWith(std::string(kFile) + ":4:2: config: byte 0x00 is not text"));
  EXPECT_THAT(error_of("\xff\xfew\0o\0"), HasSubstr("UTF-16"));
  // UTF-8 is fine, a byte-order mark included.
  EXPECT_NO_THROW(
      (void)parse(with_base("name: \"{workload}/\xc3\xa9t\xc3\xa9/\xf0\x9f\x9a\x80\"")));
  EXPECT_NO_THROW((void)parse("\xef\xbb\xbf" + kBase));
}

TEST(ConfigErrors, ASecondYamlDocumentIsRefusedAtItsMarker) {
  // Everything after `---` was ignored, an invalid key in it included.
  EXPECT_EQ(error_of(kBase + "---\nbogus: 1\n"),
            std::string(kFile) +
                ":4:1: config: a second YAML document starts here ('---'); a config is one "
                "document (merge the two, or remove the marker)");
  EXPECT_THAT(error_of(kBase + "--- # more\n\n\nseeds: [1]\n"), StartsWith(at(4, 1, "config")));
  EXPECT_THAT(error_of(kBase + "---\n"), StartsWith(at(4, 1, "config")));
  EXPECT_THAT(error_of("---\n" + kBase + "...\n---\nseeds: [2]\n"), StartsWith(at(6, 1, "config")));
  // One document, with its markers, is fine.
  EXPECT_NO_THROW((void)parse("---\n" + kBase + "...\n"));
}

TEST(ConfigErrors, ATokenNoValueStartsWithIsASyntaxErrorNotAHang) {
  // yaml-cpp 0.7 reads an empty document at a top-level ',' again and again, allocating each time:
  // the config names the token instead (found by the sweep_config fuzz target).
  EXPECT_EQ(
      error_of("&h,"),
      std::string(kFile) + ":1:3: YAML syntax: unexpected ',' (a value cannot start with it)");
  EXPECT_EQ(error_of(","), std::string(kFile) +
                               ":1:1: YAML syntax: unexpected ',' (a value cannot start with it)");
  EXPECT_THAT(error_of("# The sweep\n&a ,\nworkloads: [npb:lu:S:4]\n"),
              StartsWith(std::string(kFile) + ":2:4: YAML syntax: unexpected ','"));
}

TEST(Config, NegativeZeroIsZero) {
  EXPECT_EQ(std::signbit(parse(with_base("sim: {compute-scale: [-0.0]}")).compute_scales.at(0)),
            false);
  EXPECT_EQ(std::signbit(parse(with_base("run: {time-limit: -0}")).time_limit), false);
}

TEST(ConfigErrors, EmptyConfigNamesLineAndColumn) {
  for (const auto* text : {"", "\n\n", "# only a comment\n"}) {
    EXPECT_THAT(error_of(text),
                AllOf(StartsWith(std::string(kFile) + ":1:1: "), HasSubstr("the config is empty")))
        << text;
  }
}

TEST(ConfigErrors, ConfigMustBeAMap) {
  EXPECT_THAT(error_of("[npb:lu:S:4]\n"),
              AllOf(StartsWith(at(1, 1, "config")), HasSubstr("expected a map, got a list")));
}

TEST(ConfigErrors, MissingRequiredSection) {
  EXPECT_THAT(error_of("machines: [torus:4x4]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(1, 1, "workloads")), HasSubstr("the section is missing")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(1, 1, "machines")), HasSubstr("the section is missing")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"),
              AllOf(StartsWith(at(1, 1, "mappers")), HasSubstr("the section is missing")));
}

TEST(ConfigErrors, UnknownTopLevelKeyListsTheSections) {
  EXPECT_THAT(error_of(with_base("colour: red")),
              AllOf(StartsWith(at(4, 1, "config")), HasSubstr("unknown key 'colour'"),
                    HasSubstr("valid: workloads, machines, mappers, models, mpi, sim, matrix, "
                              "seeds, repeats, zip, exclude, where, name, store, run")));
}

TEST(ConfigErrors, UnknownKeyInsideEveryMap) {
  struct Case {
    std::string text;
    int line;
    int column;
    std::string path;
    std::string key;
  };
  const std::vector<Case> cases{
      // "workloads: [{generate: npb:lu:S:4, " is 35 characters.
      {"workloads: [{generate: npb:lu:S:4, colour: 1}]\nmachines: [torus:4x4]\n"
       "mappers: [in-order]\n",
       1, 36, "workloads[0]", "colour"},
      {"workloads: [npb:lu:S:4]\nmachines: [{topology: torus:4x4, speed: 1}]\n"
       "mappers: [in-order]\n",
       2, 34, "machines[0]", "speed"},
      {"workloads: [npb:lu:S:4]\nmachines: [{topology: torus:4x4, links: {grid: {bandwidth: 1, "
       "jitter: 2}}}]\nmappers: [in-order]\n",
       2, 63, "machines[0].links.grid", "jitter"},
      {"workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [{name: scotch, colour: 1}]\n", 3,
       26, "mappers[0]", "colour"},
      {with_base("models: [{name: flow, speed: 1}]"), 4, 23, "models[0]", "speed"},
      {with_base("mpi: {eager: 1}"), 4, 7, "mpi", "eager"},
      {with_base("sim: {scale: 1}"), 4, 7, "sim", "scale"},
      {with_base("matrix: {p2p: true}"), 4, 10, "matrix", "p2p"},
      {with_base("store: {link: true}"), 4, 9, "store", "link"},
      {with_base("run: {timeout: 1}"), 4, 7, "run", "timeout"},
  };
  for (const auto& c : cases) {
    EXPECT_THAT(error_of(c.text), AllOf(StartsWith(at(c.line, c.column, c.path)),
                                        HasSubstr("unknown key '" + c.key + "' (valid: ")))
        << c.text;
  }
}

TEST(ConfigErrors, KeyGivenTwice) {
  EXPECT_THAT(error_of(with_base("mappers: [greedy]")),
              AllOf(StartsWith(at(4, 1, "config")), HasSubstr("key 'mappers' is given twice")));
  EXPECT_THAT(
      error_of("workloads: [{generate: npb:lu:S:4, generate: npb:cg:S:4}]\n"
               "machines: [torus:4x4]\nmappers: [in-order]\n"),
      AllOf(StartsWith(at(1, 36, "workloads[0]")), HasSubstr("key 'generate' is given twice")));
  EXPECT_THAT(error_of(with_base("sim: {compute-scale: 1, compute-scale: 0}")),
              AllOf(StartsWith(at(4, 25, "sim")), HasSubstr("key 'compute-scale' is given twice")));
}

TEST(ConfigErrors, MissingValueNamesTheKeysLine) {
  // Nothing after "workloads:" on line 1, nor after "mpi:" on the last line: the error belongs on
  // the key's line, not on the next line or after the end of the file.
  EXPECT_THAT(
      error_of("workloads:\nmachines: [torus:4x4]\nmappers: [in-order]\n"),
      AllOf(StartsWith(std::string(kFile) + ":1:"), HasSubstr("workloads: the key has no value")));
  EXPECT_THAT(error_of(with_base("mpi:")), AllOf(StartsWith(std::string(kFile) + ":4:"),
                                                 HasSubstr("mpi: the key has no value")));
}

TEST(ConfigErrors, EmptyList) {
  EXPECT_THAT(error_of(with_base("seeds: []")),
              AllOf(StartsWith(at(4, 8, "seeds")), HasSubstr("the list is empty")));
}

// ---- errors: types and ranges -------------------------------------------------------------------

TEST(ConfigErrors, MapWhereAListOrValueBelongs) {
  EXPECT_THAT(
      error_of(with_base("seeds: {a: 1}")),
      AllOf(StartsWith(at(4, 8, "seeds")), HasSubstr("expected a value or a list, got a map")));
  EXPECT_THAT(
      error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: {name: greedy}\n"),
      AllOf(StartsWith(at(3, 10, "mappers")), HasSubstr("expected a value or a list, got a map")));
  EXPECT_THAT(
      error_of(with_base("where: {a: 1}")),
      AllOf(StartsWith(at(4, 8, "where")), HasSubstr("expected a single value, got a map")));
  EXPECT_THAT(
      error_of(with_base("repeats: [1, 2]")),
      AllOf(StartsWith(at(4, 10, "repeats")), HasSubstr("expected a single value, got a list")));
  EXPECT_THAT(error_of(with_base("mpi: [1024]")),
              AllOf(StartsWith(at(4, 6, "mpi")), HasSubstr("expected a map, got a list")));
  // "mappers: [{name: scotch, params: " is 33 characters.
  EXPECT_THAT(
      error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
               "mappers: [{name: scotch, params: [runs]}]\n"),
      AllOf(StartsWith(at(3, 34, "mappers[0].params")), HasSubstr("expected a map, got a list")));
}

TEST(ConfigErrors, TextWhereANumberBelongs) {
  EXPECT_THAT(
      error_of(with_base("mpi: {eager-threshold: lots}")),
      AllOf(StartsWith(at(4, 24, "mpi.eager-threshold")), HasSubstr("'lots' is not an integer")));
  EXPECT_THAT(error_of(with_base("sim: {compute-scale: fast}")),
              AllOf(StartsWith(at(4, 22, "sim.compute-scale")),
                    HasSubstr("'fast' is not a finite number")));
  EXPECT_THAT(error_of(with_base("seeds: [1, one]")),
              AllOf(StartsWith(at(4, 12, "seeds")), HasSubstr("'one' is not an integer")));
  EXPECT_THAT(error_of(with_base("repeats: two")),
              AllOf(StartsWith(at(4, 10, "repeats")), HasSubstr("'two' is not an integer")));
  EXPECT_THAT(error_of(with_base("run: {time-limit: soon}")),
              AllOf(StartsWith(at(4, 19, "run.time-limit")), HasSubstr("not a finite number")));
  // "workloads: [{generate: npb:lu:S:4, iterations: " is 47 characters.
  EXPECT_THAT(error_of("workloads: [{generate: npb:lu:S:4, iterations: lots}]\n"
                       "machines: [torus:4x4]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(1, 48, "workloads[0].iterations")),
                    HasSubstr("'lots' is not an integer")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\n"
                       "machines: [{topology: torus:4x4, links: {grid: {latency: slow}}}]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 58, "machines[0].links.grid.latency")),
                    HasSubstr("not a finite number")));
}

TEST(ConfigErrors, NotABoolean) {
  EXPECT_THAT(
      error_of(with_base("sim: {whole-run: maybe}")),
      AllOf(StartsWith(at(4, 18, "sim.whole-run")), HasSubstr("'maybe' is not true or false")));
  EXPECT_THAT(
      error_of(with_base("matrix: {collectives: 2}")),
      AllOf(StartsWith(at(4, 23, "matrix.collectives")), HasSubstr("'2' is not true or false")));
  EXPECT_THAT(error_of(with_base("store: {links: all}")),
              AllOf(StartsWith(at(4, 16, "store.links")), HasSubstr("'all' is not true or false")));
  EXPECT_THAT(error_of(with_base("models: [{name: packet, store-and-forward: sometimes}]")),
              AllOf(StartsWith(at(4, 44, "models[0].store-and-forward")),
                    HasSubstr("'sometimes' is not true or false")));
}

TEST(ConfigErrors, NumbersOutOfRange) {
  EXPECT_THAT(error_of(with_base("seeds: [-1]")),
              AllOf(StartsWith(at(4, 9, "seeds")), HasSubstr("-1 is out of range")));
  EXPECT_THAT(error_of(with_base("repeats: 0")),
              AllOf(StartsWith(at(4, 10, "repeats")), HasSubstr("0 is out of range")));
  EXPECT_THAT(error_of(with_base("mpi: {eager-threshold: -1}")),
              AllOf(StartsWith(at(4, 24, "mpi.eager-threshold")), HasSubstr("-1 is out of range")));
  EXPECT_THAT(error_of(with_base("sim: {compute-scale: [1, -0.5]}")),
              AllOf(StartsWith(at(4, 26, "sim.compute-scale")), HasSubstr("-0.5 is out of range")));
  EXPECT_THAT(error_of(with_base("run: {time-limit: -1}")),
              AllOf(StartsWith(at(4, 19, "run.time-limit")), HasSubstr("-1 is out of range")));
  EXPECT_THAT(
      error_of(with_base("models: [{name: packet, packet-size: 0}]")),
      AllOf(StartsWith(at(4, 38, "models[0].packet-size")), HasSubstr("0 is out of range")));
  EXPECT_THAT(
      error_of("workloads: [{generate: npb:lu:S:4, iterations: 0}]\n"
               "machines: [torus:4x4]\nmappers: [in-order]\n"),
      AllOf(StartsWith(at(1, 48, "workloads[0].iterations")), HasSubstr("0 is out of range")));
  // A bandwidth must be positive.
  EXPECT_THAT(
      error_of("workloads: [npb:lu:S:4]\n"
               "machines: [{topology: torus:4x4, links: {grid: {bandwidth: 0}}}]\n"
               "mappers: [in-order]\n"),
      AllOf(StartsWith(at(2, 60, "machines[0].links.grid.bandwidth")), HasSubstr("out of range")));
}

// A link's energy: busy power below idle says which value is the class's default (not given);
// a value past a double's range says the parameter's own range, not the double's.
TEST(ConfigErrors, LinkEnergiesNameDefaultsAndTheirRange) {
  const auto machine = [](const std::string& links) {
    return "workloads: [npb:lu:S:4]\nmachines: [{topology: haec:2x2x2, links: {" + links +
           "}}]\nmappers: [in-order]\n";
  };
  const auto idle = error_of(machine("haec-optical: {idle-w: 2}"));
  EXPECT_THAT(idle, AllOf(HasSubstr("machines[0].links.haec-optical"),
                          HasSubstr("busy power of link class 'haec-optical' is 1 W, below its "
                                    "idle power 2 W"),
                          HasSubstr("(busy-w not given: the class's default)")));
  // Both powers given: no default to name.
  EXPECT_THAT(error_of(machine("haec-optical: {busy-w: 0.25}")),
              HasSubstr("is 0.25 W, below its idle power 0.5 W (a link's power rises with its "
                        "load: idle + (busy - idle) x utilisation) (idle-w not given: the class's "
                        "default)"));
  EXPECT_THAT(error_of(machine("haec-optical: {pj-per-bit: 1, idle-w: 2, busy-w: 1}")),
              AllOf(HasSubstr("below its idle power 2 W"), Not(HasSubstr("not given"))));
  EXPECT_THAT(error_of(machine("haec-optical: {pj-per-bit: 1e400}")),
              AllOf(HasSubstr("machines[0].links.haec-optical.pj-per-bit"),
                    HasSubstr("1e400 is out of range [0, 1e+06]"), Not(HasSubstr("1.79769e+308"))));
}

// ---- errors: values -----------------------------------------------------------------------------

TEST(ConfigErrors, UnknownMapperNamesLineAndColumn) {
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\nmappers: [inorder]\n"),
              AllOf(StartsWith(at(3, 11, "mappers[0]")), HasSubstr("unknown mapper 'inorder'"),
                    HasSubstr("in-order")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order, {name: inorder}]\n"),
              AllOf(StartsWith(at(3, 28, "mappers[1]")), HasSubstr("unknown mapper 'inorder'")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [{params: {runs: 1}}]\n"),
              AllOf(StartsWith(at(3, 11, "mappers[0]")), HasSubstr("a mapper needs name")));
}

TEST(ConfigErrors, UnknownMapperParameter) {
  EXPECT_THAT(
      error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
               "mappers: [{name: scotch, params: {rounds: 3}}]\n"),
      AllOf(StartsWith(at(3, 34, "mappers[0].params")), HasSubstr("unknown parameter 'rounds'"),
            HasSubstr("strategy, imbalance, runs")));
  // in-order has no parameters at all.
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [{name: in-order, params: {runs: 3}}]\n"),
              AllOf(StartsWith(at(3, 36, "mappers[0].params")), HasSubstr("'runs'")));
}

TEST(ConfigErrors, BadMapperParameterValue) {
  // One bad element of a list fails the entry.
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [{name: scotch, params: {runs: [1, x]}}]\n"),
              AllOf(StartsWith(at(3, 34, "mappers[0].params")), HasSubstr("parameter 'runs'"),
                    HasSubstr("'x' is not an integer")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [{name: greedy, params: {weight: hops}}]\n"),
              AllOf(StartsWith(at(3, 34, "mappers[0].params")), HasSubstr("'hops'")));
}

TEST(ConfigErrors, UnknownModel) {
  EXPECT_THAT(error_of(with_base("models: [fluid]")),
              AllOf(StartsWith(at(4, 10, "models[0]")), HasSubstr("unknown model 'fluid'"),
                    HasSubstr("valid: analytic, flow, packet, static")));
  EXPECT_THAT(error_of(with_base("models: [flow, {name: fluid}]")),
              AllOf(StartsWith(at(4, 23, "models[1]")), HasSubstr("unknown model 'fluid'")));
  EXPECT_THAT(error_of(with_base("models: [{label: x}]")),
              AllOf(StartsWith(at(4, 10, "models[0]")), HasSubstr("a model needs name")));
}

TEST(ConfigErrors, PacketOptionsOnANonPacketModel) {
  EXPECT_THAT(error_of(with_base("models: [{name: flow, packet-size: 1024}]")),
              AllOf(StartsWith(at(4, 23, "models[0].packet-size")),
                    HasSubstr("applies to the packet model only, not to flow")));
  EXPECT_THAT(
      error_of(with_base("models: [{name: static, store-and-forward: true}]")),
      AllOf(StartsWith(at(4, 25, "models[0].store-and-forward")), HasSubstr("not to static")));
}

TEST(ConfigErrors, UnknownLinkClass) {
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\n"
                       "machines: [{topology: torus:4x4, links: {warp: {bandwidth: 1}}}]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 42, "machines[0].links")), HasSubstr("unknown key 'warp'"),
                    HasSubstr("grid, haec-optical, haec-wireless, th3-node, th3-cross, th3-switch, "
                              "intra-node")));
}

TEST(ConfigErrors, BadTopologySpec) {
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4y4]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 12, "machines[0]")), HasSubstr("topology spec 'torus:4y4'")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [{topology: ring:8}]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 23, "machines[0]")), HasSubstr("'ring:8'")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [{label: big}]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 12, "machines[0]")), HasSubstr("a machine needs topology")));
}

TEST(ConfigErrors, BadGeneratorSpec) {
  const auto with_workload = [](std::string_view workloads) {
    return "workloads: [" + std::string(workloads) +
           "]\nmachines: [torus:4x4]\nmappers: [in-order]\n";
  };
  EXPECT_THAT(error_of(with_workload("npb:xx:S:4")),
              AllOf(StartsWith(at(1, 13, "workloads[0]")), HasSubstr("generator spec 'npb:xx:S:4'"),
                    HasSubstr("unknown NPB kernel 'xx'")));
  EXPECT_THAT(error_of(with_workload("npb:lu:Q:4")),
              AllOf(StartsWith(at(1, 13, "workloads[0]")), HasSubstr("unknown problem class 'Q'")));
  EXPECT_THAT(error_of(with_workload("npb:cg:S:3")),
              AllOf(StartsWith(at(1, 13, "workloads[0]")), HasSubstr("generator spec 'npb:cg:S:3'"),
                    HasSubstr("cg class S cannot run on 3 ranks")));
  // In the map form the error points at the spec: "workloads: [{generate: " is 23 characters.
  EXPECT_THAT(error_of(with_workload("{generate: npb:cg:S:3}")),
              AllOf(StartsWith(at(1, 24, "workloads[0].generate")),
                    HasSubstr("cg class S cannot run on 3 ranks")));
  // A map override invalid for the kernel: EP has no iteration count.
  EXPECT_THAT(error_of(with_workload("{generate: npb:ep:S:4, iterations: 2}")),
              AllOf(StartsWith(at(1, 24, "workloads[0].generate")),
                    HasSubstr("ep has no iteration count to override")));
  // A path given as a plain value is not a spec.
  EXPECT_THAT(error_of(with_workload("traces/lu.otf2")),
              AllOf(StartsWith(at(1, 13, "workloads[0]")), HasSubstr("is not a generator spec"),
                    HasSubstr("{trace: PATH}")));
}

TEST(ConfigErrors, IterationsGivenTwice) {
  // "workloads: [{generate: \"npb:lu:S:4:iterations=2\", iterations: " is 62 characters.
  EXPECT_THAT(
      error_of("workloads: [{generate: \"npb:lu:S:4:iterations=2\", iterations: 3}]\n"
               "machines: [torus:4x4]\nmappers: [in-order]\n"),
      AllOf(StartsWith(at(1, 63, "workloads[0].iterations")),
            HasSubstr("iterations is already given in the spec 'npb:lu:S:4:iterations=2'")));
  EXPECT_THAT(
      error_of("workloads: [{generate: \"stencil2d:S:16:message-bytes=8\", message-bytes: 9}]\n"
               "machines: [torus:4x4]\nmappers: [in-order]\n"),
      AllOf(StartsWith(at(1, 73, "workloads[0].message-bytes")),
            HasSubstr("message-bytes is already given in the spec")));
}

TEST(ConfigErrors, IterationsOnAFileWorkload) {
  const testing::TempDir dir;
  fs::create_directories(dir.path() / "tr");
  dir.write("m.csv", "src,dst,messages,bytes\n");
  // "workloads: [{trace: tr, iterations: " is 36 characters.
  EXPECT_THAT(error_of("workloads: [{trace: tr, iterations: 3}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n",
                       dir.path()),
              AllOf(StartsWith(at(1, 37, "workloads[0]")),
                    HasSubstr("apply to generated workloads, not to a trace")));
  EXPECT_THAT(error_of("workloads: [{matrix: m.csv, message-bytes: 3}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n",
                       dir.path()),
              AllOf(StartsWith(at(1, 44, "workloads[0]")), HasSubstr("not to a matrix")));
}

TEST(ConfigErrors, WorkloadMapNeedsExactlyOneSource) {
  const testing::TempDir dir;
  fs::create_directories(dir.path() / "tr");
  EXPECT_THAT(error_of("workloads: [{trace: tr, generate: npb:lu:S:4}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n",
                       dir.path()),
              AllOf(StartsWith(at(1, 25, "workloads[0].generate")),
                    HasSubstr("a workload is one of generate, trace or matrix; 'trace' is already "
                              "given")));
  EXPECT_THAT(error_of("workloads: [{label: x}]\nmachines: [torus:4x4]\nmappers: [in-order]\n"),
              AllOf(StartsWith(at(1, 13, "workloads[0]")),
                    HasSubstr("a workload needs one of generate: SPEC, trace: PATH or matrix")));
}

TEST(ConfigErrors, MissingTraceOrMatrixFile) {
  const testing::TempDir dir;
  EXPECT_THAT(error_of("workloads: [{trace: nothere}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n",
                       dir.path()),
              AllOf(StartsWith(at(1, 21, "workloads[0].trace")),
                    HasSubstr("trace '" + (dir.path() / "nothere").string() + "' does not exist")));
  EXPECT_THAT(
      error_of("workloads: [{matrix: nothere.csv}]\nmachines: [torus:4x4]\n"
               "mappers: [in-order]\n",
               dir.path()),
      AllOf(StartsWith(at(1, 22, "workloads[0].matrix")),
            HasSubstr("matrix '" + (dir.path() / "nothere.csv").string() + "' does not exist")));
  EXPECT_THAT(error_of("workloads: [{trace: \"\"}]\nmachines: [torus:4x4]\nmappers: [in-order]\n",
                       dir.path()),
              AllOf(StartsWith(at(1, 21, "workloads[0].trace")), HasSubstr("the path is empty")));
}

TEST(ConfigErrors, DuplicateLabels) {
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4, {generate: npb:lu:S:4}]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(1, 25, "workloads[1]")),
                    HasSubstr("label 'npb:lu:S:4' is already used by workloads[0] at line 1")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4, torus:4x4]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 23, "machines[1]")),
                    HasSubstr("label 'torus:4x4' is already used by machines[0]")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [greedy, in-order, greedy]\n"),
              AllOf(StartsWith(at(3, 29, "mappers[2]")),
                    HasSubstr("label 'greedy' is already used by mappers[0]")));
  EXPECT_THAT(error_of(with_base("models: [flow, flow]")),
              AllOf(StartsWith(at(4, 16, "models[1]")),
                    HasSubstr("label 'flow' is already used by models[0] at line 4")));
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [{name: greedy, label: \"\"}]\n"),
              AllOf(StartsWith(at(3, 33, "mappers[0].label")), HasSubstr("the label is empty")));
}

TEST(ConfigErrors, DuplicateLabelOfAMapEntryNamesTheEntry) {
  // The position is the entry's '{', as for workloads above, not the topology or name inside.
  // "machines: [torus:4x4, " is 22 characters.
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\n"
                       "machines: [torus:4x4, {topology: mesh:4x4, label: torus:4x4}]\n"
                       "mappers: [in-order]\n"),
              AllOf(StartsWith(at(2, 23, "machines[1]")), HasSubstr("label 'torus:4x4'")));
  // "mappers: [greedy, " is 18 characters.
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [greedy, {name: random, label: greedy}]\n"),
              AllOf(StartsWith(at(3, 19, "mappers[1]")), HasSubstr("label 'greedy'")));
  // "models: [flow, " is 15 characters.
  EXPECT_THAT(error_of(with_base("models: [flow, {name: analytic, label: flow}]")),
              AllOf(StartsWith(at(4, 16, "models[1]")), HasSubstr("label 'flow'")));
}

TEST(ConfigErrors, LabelOnAnEntryThatMakesSeveralValues) {
  EXPECT_THAT(
      error_of("workloads: [npb:lu:S:4]\nmachines: [torus:4x4]\n"
               "mappers: [{name: scotch, params: {runs: [1, 8]}, label: s}]\n"),
      AllOf(StartsWith(at(3, 11, "mappers[0].label")), HasSubstr("a label names one mapper")));
  EXPECT_THAT(
      error_of(with_base("models: [{name: packet, packet-size: [1, 2], label: p}]")),
      AllOf(StartsWith(at(4, 10, "models[0].label")), HasSubstr("a label names one model")));
}

TEST(Config, EntryOriginsAreWhereTheEntriesStart) {
  // Every value's origin is where its entry starts; "  - {" puts the '{' in column 5.
  const auto config = parse(
      "workloads:\n"
      "  - {generate: npb:lu:S:4}\n"
      "machines:\n"
      "  - {topology: torus:4x4}\n"
      "mappers:\n"
      "  - {name: greedy}\n"
      "models:\n"
      "  - {name: packet}\n");
  EXPECT_EQ(config.workloads[0].origin.str(), "sweep.yaml:2:5");
  EXPECT_EQ(config.machines[0].origin.str(), "sweep.yaml:4:5");
  EXPECT_EQ(config.mappers[0].origin.str(), "sweep.yaml:6:5");
  EXPECT_EQ(config.models[0].origin.str(), "sweep.yaml:8:5");
}

// ---- errors: zip, exclude, name, where ----------------------------------------------------------

TEST(ConfigErrors, ZipUnknownAxis) {
  EXPECT_THAT(error_of(with_base("zip: [[workload, colour]]")),
              AllOf(StartsWith(at(4, 18, "zip[0]")), HasSubstr("unknown axis 'colour'"),
                    HasSubstr("valid: workload, machine, mapper, model, eager-threshold, "
                              "compute-scale, seed, repeat")));
}

TEST(ConfigErrors, ZipAxisInTwoGroups) {
  EXPECT_THAT(error_of(with_base("zip: [[workload, machine], [mapper, machine]]")),
              AllOf(StartsWith(at(4, 37, "zip[1]")),
                    HasSubstr("axis 'machine' is already in a zip group")));
  // Twice in one group, also by its plural.
  EXPECT_THAT(error_of(with_base("zip: [[seed, seeds]]")),
              AllOf(StartsWith(at(4, 14, "zip[0]")), HasSubstr("axis 'seed' is listed twice")));
}

TEST(ConfigErrors, ZipGroupOfOne) {
  EXPECT_THAT(
      error_of(with_base("zip: [[workload]]")),
      AllOf(StartsWith(at(4, 7, "zip[0]")), HasSubstr("a zip group is a list of two or more")));
  // A flat list is a list of single axes, not a group.
  EXPECT_THAT(
      error_of(with_base("zip: [workload, machine]")),
      AllOf(StartsWith(at(4, 7, "zip[0]")), HasSubstr("a zip group is a list of two or more")));
}

TEST(ConfigErrors, ZipUnequalLengths) {
  EXPECT_THAT(error_of("workloads: [npb:lu:S:4, npb:cg:S:4]\nmachines: [torus:4x4]\n"
                       "mappers: [in-order]\nzip: [[workload, machine]]\n"),
              AllOf(StartsWith(at(4, 6, "zip[0]")), HasSubstr("workload has 2, machine has 1")));
  // Lengths count the values an entry makes: scotch's runs list is two mappers.
  EXPECT_NO_THROW(
      (void)parse("workloads: [npb:lu:S:4, npb:cg:S:4]\nmachines: [torus:4x4]\n"
                  "mappers: [{name: scotch, params: {runs: [1, 2]}}]\n"
                  "zip: [[workload, mapper]]\n"));
  EXPECT_THAT(error_of(with_base("seeds: [1, 2, 3]\nrepeats: 2\nzip: [[seed, repeat]]")),
              AllOf(StartsWith(at(6, 6, "zip[0]")), HasSubstr("seed has 3, repeat has 2")));
}

TEST(ConfigErrors, ExcludeUnknownAxis) {
  EXPECT_THAT(error_of(with_base("exclude: [{colour: red}]")),
              AllOf(StartsWith(at(4, 12, "exclude[0]")), HasSubstr("unknown axis 'colour'")));
}

TEST(ConfigErrors, ExcludeValueThatMatchesNothing) {
  // `exclude: [{mapper: grredy}]` excluded nothing and the sweep ran everything.
  const std::string config =
      "workloads: [{generate: npb:lu:S:4, label: lu}]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy, {name: scotch, params: {runs: [1, 2]}}]\n"
      "seeds: [0, 1]\n"
      "mpi: {eager-threshold: [1024]}\n";
  EXPECT_THAT(error_of(config + "exclude: [{mapper: grredy}]\n"),
              AllOf(StartsWith(std::string(kFile) + ":6:20: exclude[0].mapper: 'grredy' matches "
                                                    "no mapper of the sweep"),
                    HasSubstr("mappers: in-order, greedy, scotch[runs=1], scotch, scotch[runs=2]"),
                    HasSubstr("did you mean 'greedy'?")));
  // The second value of a list, at its own column.
  EXPECT_THAT(error_of(config + "exclude: [{workload: [lu, cg]}]\n"),
              StartsWith(std::string(kFile) + ":6:27: exclude[0].workload: 'cg' matches no "
                                              "workload"));
  EXPECT_THAT(error_of(config + "exclude: [{machine: mesh:4x4}]\n"),
              HasSubstr("'mesh:4x4' matches no machine"));
  EXPECT_THAT(error_of(config + "exclude: [{model: packet}]\n"),
              AllOf(HasSubstr("'packet' matches no model"), HasSubstr("models: flow")));
  // Numeric axes: values the axis does not have.
  EXPECT_THAT(error_of(config + "exclude: [{seed: 2}]\n"),
              AllOf(HasSubstr("exclude[0].seed: '2' matches no seed"), HasSubstr("seeds: 0, 1")));
  EXPECT_THAT(error_of(config + "exclude: [{eager-threshold: 65536}]\n"),
              HasSubstr("'65536' matches no eager-threshold"));
  EXPECT_THAT(error_of(config + "exclude: [{compute-scale: 0.5}]\n"),
              AllOf(HasSubstr("'0.5' matches no compute-scale"), HasSubstr("compute-scales: 1")));
  EXPECT_THAT(error_of(config + "exclude: [{repeat: 1}]\n"),
              AllOf(HasSubstr("'1' matches no repeat"), HasSubstr("repeats: 0")));
  // Labels, specs, names and parameterised labels all match.
  EXPECT_NO_THROW((void)parse(config +
                              "exclude: [{workload: [lu, \"npb:lu:S:4\"], mapper: [scotch, "
                              "\"scotch[runs=2]\"], seed: 1, model: flow, eager-threshold: "
                              "1024, compute-scale: 1, repeat: 0, machine: torus:4x4}]\n"));
}

TEST(ConfigErrors, ExcludeKnowsTheValuesOfBothVariants) {
  // One exclude serves the file and its quick variant: a value of either variant's axes is known
  // in both, and one of neither is an error in both.
  const std::string config =
      "workloads: [npb:lu:S:16]\n"
      "machines: [torus:4x4, {topology: mesh:4x4, label: small}]\n"
      "mappers: [in-order, scotch]\n"
      "seeds: [0, 1]\n"
      "quick:\n"
      "  workloads: [{generate: npb:lu:S:4, label: tiny}]\n"
      "  mappers: [in-order, greedy]\n"
      "  seeds: [5]\n"
      "  models: [{name: packet, label: pkt}]\n";
  for (const bool quick : {false, true}) {
    for (const auto* exclude :
         {"{mapper: greedy}", "{mapper: scotch}", "{workload: tiny}", "{workload: npb:lu:S:16}",
          "{seed: 5}", "{seed: 1}", "{model: pkt}", "{model: flow}", "{machine: small}"}) {
      EXPECT_NO_THROW((void)parse_config(config + "exclude: [" + exclude + "]\n", kFile, {}, quick))
          << exclude << (quick ? " --quick" : "");
    }
    EXPECT_THAT(error_of_quick(config + "exclude: [{mapper: grredy}]\n", quick),
                HasSubstr("did you mean 'greedy'?"));
  }
}

TEST(Config, SectionsAfterTheQuickMapAreRead) {
  // A top-level section after `quick:` was copied over the quick map when it was set aside
  // (YAML::Node's assignment writes through): "quick: expected a map, got a list".
  const std::string config =
      "workloads: [npb:lu:S:16]\n"
      "machines: [torus:4x4]\n"
      "mappers: [in-order, greedy]\n"
      "quick:\n"
      "  mappers: [in-order]\n"
      "seeds: [0, 1]\n"
      "repeats: 2\n";
  const auto full = parse_config(config, kFile, {}, false);
  EXPECT_EQ(full.mappers.size(), 2U);
  EXPECT_EQ(full.seeds, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(full.repeats, 2);
  const auto quick = parse_config(config, kFile, {}, true);
  EXPECT_EQ(quick.mappers.size(), 1U);
  EXPECT_EQ(quick.seeds, (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(quick.repeats, 2);
}

TEST(ConfigErrors, ExcludeEmptyOrNotAMap) {
  EXPECT_THAT(error_of(with_base("exclude: [{}]")),
              AllOf(StartsWith(at(4, 11, "exclude[0]")), HasSubstr("the map is empty")));
  EXPECT_THAT(error_of(with_base("exclude: [{mapper: greedy}, mapper]")),
              AllOf(StartsWith(at(4, 29, "exclude[1]")), HasSubstr("expected a map")));
  EXPECT_THAT(error_of(with_base("exclude: [{mapper: []}]")),
              AllOf(StartsWith(at(4, 20, "exclude[0].mapper")), HasSubstr("the list is empty")));
}

TEST(ConfigErrors, NameTemplate) {
  EXPECT_THAT(error_of(with_base("name: \"{workload}/{colour}\"")),
              AllOf(StartsWith(at(4, 7, "name")), HasSubstr("unknown placeholder {colour}"),
                    HasSubstr("{workload}, {machine}, {mapper}, {model}, {eager-threshold}, "
                              "{compute-scale}, {seed}, {repeat}")));
  // "{workload}/" is 11 characters: the unclosed brace is at position 11.
  EXPECT_THAT(error_of(with_base("name: \"{workload}/{seed\"")),
              AllOf(StartsWith(at(4, 7, "name")), HasSubstr("'{' at position 11 is not closed")));
  EXPECT_THAT(error_of(with_base("name: \"\"")),
              AllOf(StartsWith(at(4, 7, "name")), HasSubstr("the template is empty")));
}

TEST(ConfigErrors, EmptyWhere) {
  EXPECT_THAT(error_of(with_base("where: \"\"")),
              AllOf(StartsWith(at(4, 8, "where")), HasSubstr("the condition is empty")));
}

// ---- the quick variant --------------------------------------------------------------------------

// kBase plus a quick variant (lines 4-6) that replaces the workloads and adds a seeds axis.
const std::string kWithQuick = with_base(
    "quick:\n"
    "  workloads: [npb:cg:S:4, npb:lu:S:4:iterations=1]\n"
    "  seeds: [3]");

TEST(ConfigQuick, WithoutQuickTheQuickMapIsIgnored) {
  const auto config = parse(kWithQuick);
  EXPECT_TRUE(config.has_quick);
  EXPECT_FALSE(config.quick);
  ASSERT_EQ(config.workloads.size(), 1U);
  EXPECT_EQ(config.workloads[0].spec, "npb:lu:S:4");
  // The default seeds, not the quick variant's.
  EXPECT_EQ(config.seeds, std::vector<std::int64_t>{0});
}

TEST(ConfigQuick, QuickReplacesTheSectionsItNames) {
  const auto config = parse_config(kWithQuick, kFile, {}, true);
  EXPECT_TRUE(config.has_quick);
  EXPECT_TRUE(config.quick);
  // workloads and seeds come from quick (a section the file does not have is added); machines
  // and mappers stay the file's.
  ASSERT_EQ(config.workloads.size(), 2U);
  EXPECT_EQ(config.workloads[0].spec, "npb:cg:S:4");
  EXPECT_EQ(config.workloads[0].origin.line, 5);
  EXPECT_EQ(config.seeds, std::vector<std::int64_t>{3});
  ASSERT_EQ(config.machines.size(), 1U);
  EXPECT_EQ(config.machines[0].topology, "torus:4x4");
  ASSERT_EQ(config.mappers.size(), 1U);
  EXPECT_EQ(config.mappers[0].name, "in-order");
}

TEST(ConfigQuick, ConfigsWithoutQuickHaveNone) {
  const auto config = parse(kBase);
  EXPECT_FALSE(config.has_quick);
  EXPECT_FALSE(config.quick);
  try {
    (void)parse_config(kBase, kFile, {}, true);
    ADD_FAILURE() << "no error for --quick without a quick variant";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(),
                AllOf(StartsWith(std::string(kFile) + ": "), HasSubstr("has no quick variant")));
  }
}

TEST(ConfigQuickErrors, UnknownKeyInQuickNamesItLikeATopLevelOne) {
  // Line 5, column 3: the misspelt key; an error with and without --quick.
  const auto text = with_base("quick:\n  mapper: [greedy]");
  for (const bool quick : {false, true}) {
    try {
      (void)parse_config(text, kFile, {}, quick);
      ADD_FAILURE() << "no error for quick.mapper";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(),
                  AllOf(StartsWith(at(5, 3, "quick.mapper")), HasSubstr("unknown key 'mapper'"),
                        HasSubstr("valid: workloads, machines, mappers, models, mpi, "
                                  "sim, matrix, seeds, repeats, zip, exclude, where, "
                                  "name, store, run)")));
    }
  }
  // quick inside quick is no section either.
  EXPECT_THAT(error_of(with_base("quick:\n  quick: {seeds: [1]}")),
              AllOf(StartsWith(at(5, 3, "quick.quick")), HasSubstr("unknown key 'quick'")));
}

TEST(ConfigQuickErrors, QuickMustBeAMapAndItsValuesAreChecked) {
  EXPECT_THAT(error_of(with_base("quick: [workloads]")),
              AllOf(StartsWith(at(4, 8, "quick")), HasSubstr("expected a map")));
  // A bad value inside quick is found where it stands (line 5, column 10) when it is used.
  const auto text = with_base("quick:\n  seeds: [-1]");
  EXPECT_NO_THROW((void)parse(text));
  try {
    (void)parse_config(text, kFile, {}, true);
    ADD_FAILURE() << "no error for a negative seed in quick";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), StartsWith(at(5, 11, "seeds")));
  }
}

TEST(ConfigQuick, LoadConfigReadsTheQuickVariant) {
  const testing::TempDir dir;
  const auto file = dir.write("q.yaml", kWithQuick);
  EXPECT_EQ(load_config(file).workloads.size(), 1U);
  EXPECT_EQ(load_config(file, true).workloads.size(), 2U);
  const auto plain = dir.write("plain.yaml", kBase);
  try {
    (void)load_config(plain, true);
    ADD_FAILURE() << "no error for --quick without a quick variant";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr(plain.string()), HasSubstr("no quick variant")));
  }
}

}  // namespace
}  // namespace mapsim::exp

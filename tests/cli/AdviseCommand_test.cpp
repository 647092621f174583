// `mapsim advise`: its table, JSON and launcher files on small real traces, checked against
// `simulate` and `map` run separately (times, hop-bytes, network energies); the verdict's rules;
// every bad input.

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/cli/SmallSweep.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::run_mapsim;
using testing::sh;
using testing::TempDir;

const fs::path kTraces = fs::path(MAPSIM_TEST_DATA_DIR) / "npb";

/// A JSON object's `"key": value` pairs (strings unquoted), in a flat text.
using Fields = std::map<std::string, std::string>;

Fields fields_of(const std::string& text) {
  // By hand: GCC 12 warns inside std::regex under the sanitizers.
  Fields fields;
  std::size_t at = 0;
  while ((at = text.find('"', at)) != std::string::npos) {
    const auto key_end = text.find('"', at + 1);
    if (key_end == std::string::npos) break;
    const auto key = text.substr(at + 1, key_end - at - 1);
    if (text.compare(key_end + 1, 2, ": ") != 0) {
      at = key_end + 1;
      continue;
    }
    auto begin = key_end + 3;
    std::size_t end = 0;
    if (text[begin] == '"') {
      end = text.find('"', begin + 1);
      fields[key] = text.substr(begin + 1, end - begin - 1);
      ++end;
    } else {
      end = text.find_first_of(",}\n", begin);
      fields[key] = text.substr(begin, end - begin);
    }
    at = end;
  }
  return fields;
}

struct Advice {
  Fields settings;
  std::vector<Fields> rows;
};

Advice parse(const std::string& json) {
  Advice advice;
  const auto results = json.find("\"results\"");
  EXPECT_NE(results, std::string::npos) << json;
  advice.settings = fields_of(json.substr(0, results));
  std::size_t at = results;
  while ((at = json.find('{', at)) != std::string::npos) {
    const auto end = json.find('}', at);
    advice.rows.push_back(fields_of(json.substr(at, end - at)));
    at = end;
  }
  return advice;
}

/// The makespan `simulate` reports for `mapping` (a file, or in-order if empty).
std::string replayed(const fs::path& trace, const std::string& machine, const fs::path& mapping,
                     const std::string& extra) {
  const auto r = run_mapsim("simulate --trace " + sh(trace) + " --topology " + machine +
                            (mapping.empty() ? std::string() : " --mapping " + sh(mapping)) +
                            " --format json " + extra);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return fields_of(r.out)["makespan_ps"];
}

TEST(AdviseCommand, ItsNumbersAreWhatSimulateAndMapMeasure) {
  for (const std::string& trace : std::vector<std::string>{"lu.S.8", "cg.S.8", "mg.S.8"}) {
    SCOPED_TRACE(trace);
    const TempDir dir;
    const auto rankfile = dir.path() / "advised" / "ranks.txt";
    const std::string machine = "torus:2x2x2";
    const auto r = run_mapsim("advise " + sh(kTraces / trace) + " --topology " + machine +
                              " --format json --out " + sh(rankfile));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto advice = parse(r.out);
    ASSERT_GE(advice.rows.size(), 2U);
    EXPECT_EQ(advice.rows[0]["mapper"], "in-order");
    EXPECT_EQ(std::stoul(advice.settings["distinct_mappings"]), advice.rows.size());

    // The default portfolio: 15 mappers with in-order, and a halo grid's two tile layouts.
    EXPECT_EQ(advice.settings["mappers"], "17");
    if (trace == "lu.S.8") {
      std::string labels;
      for (auto& f : advice.rows) labels += f["mapper"] + "," + f["same_as"] + ",";
      EXPECT_THAT(labels, HasSubstr("mxovlp:layers=tile:pattern=dominant,"));
      EXPECT_THAT(labels, HasSubstr("mxovlp:layers=tile-fold:pattern=dominant,"));
    }
    // In-order's replays and the recommended mapping's file, replayed by `simulate`.
    EXPECT_EQ(advice.rows[0]["comm_ps"],
              replayed(kTraces / trace, machine, {}, "--compute-scale 0"));
    EXPECT_EQ(advice.rows[0]["whole_run_ps"], replayed(kTraces / trace, machine, {}, ""));
    // The communication share: in-order's communication replayed alone / its whole run.
    EXPECT_NEAR(std::stod(advice.settings["comm_share"]),
                std::stod(advice.rows[0]["comm_ps"]) / std::stod(advice.rows[0]["whole_run_ps"]),
                1e-12);
    const auto recommended = advice.settings["recommended"];
    const auto row = std::find_if(advice.rows.begin(), advice.rows.end(),
                                  [&](Fields& f) { return f["mapper"] == recommended; });
    ASSERT_NE(row, advice.rows.end());
    EXPECT_EQ((*row)["comm_ps"], replayed(kTraces / trace, machine, rankfile, "--compute-scale 0"));
    EXPECT_EQ((*row)["whole_run_ps"], replayed(kTraces / trace, machine, rankfile, ""));
    EXPECT_THAT(testing::read_file(rankfile), HasSubstr("rank 0=node"));  // an Open MPI rankfile

    // The rule: the shortest communication, unless nothing beats in-order by 0.1 %.
    double fastest = 1;
    for (auto& f : advice.rows) fastest = std::min(fastest, std::stod(f["comm_vs_in_order"]));
    EXPECT_EQ(recommended == "in-order", fastest >= 0.999);
    if (recommended != "in-order") {
      EXPECT_DOUBLE_EQ(std::stod((*row)["comm_vs_in_order"]), fastest);
      EXPECT_DOUBLE_EQ(std::stod(advice.settings["flow_vs_in_order"]), fastest);
    }
    // The static choice: the lowest hop-bytes, as `map` computes them.
    auto lowest = advice.rows[0];
    for (auto& f : advice.rows) {
      if (std::stoull(f["hop_bytes"]) < std::stoull(lowest["hop_bytes"])) lowest = f;
    }
    EXPECT_EQ(advice.settings["static_choice"], lowest["mapper"]);
    const auto map = run_mapsim("map --trace " + sh(kTraces / trace) + " --topology " + machine +
                                " --mapper " + lowest["mapper"] + " --format json");
    EXPECT_EQ(fields_of(map.out)["hop_bytes"], lowest["hop_bytes"]);
    // The headroom: the placement bound as `simulate --bound` replays it, below every row.
    const auto bounded = run_mapsim("simulate --trace " + sh(kTraces / trace) + " --topology " +
                                    machine + " --compute-scale 0 --bound --format json");
    ASSERT_EQ(bounded.exit_code, 0) << bounded.err;
    const auto bound = advice.settings["comm_bound_ps"];
    EXPECT_EQ(bound, fields_of(bounded.out)["placement_bound_ps"]);
    for (auto& f : advice.rows) EXPECT_LE(std::stoll(bound), std::stoll(f["comm_ps"]));
    EXPECT_DOUBLE_EQ(std::stod(advice.settings["comm_vs_bound"]),
                     std::stod((*row)["comm_ps"]) / std::stod(bound));
    // Whole-run replays for in-order and the 2 fastest others, no more.
    const auto whole = std::count_if(advice.rows.begin(), advice.rows.end(),
                                     [](Fields& f) { return f["whole_run_ps"] != "null"; });
    EXPECT_EQ(static_cast<std::size_t>(whole), std::min<std::size_t>(3, advice.rows.size()));
  }
}

TEST(AdviseCommand, ItsEnergiesAreWhatSimulateMeasures) {
  const TempDir dir;
  const auto rankfile = dir.path() / "ranks.txt";
  const std::string machine = "haec:2x2x2";  // optical and wireless links: energies differ
  const auto trace = kTraces / "mg.S.8";
  const auto r = run_mapsim("advise " + sh(trace) + " --topology " + machine +
                            " --format json --out " + sh(rankfile));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto advice = parse(r.out);
  ASSERT_GE(advice.rows.size(), 2U);
  // In-order's and the recommended mapping's energy: simulate's of the communication replay.
  const auto energy_of = [&](const fs::path& mapping) {
    const auto s = run_mapsim("simulate --trace " + sh(trace) + " --topology " + machine +
                              (mapping.empty() ? std::string() : " --mapping " + sh(mapping)) +
                              " --compute-scale 0 --format json");
    EXPECT_EQ(s.exit_code, 0) << s.err;
    return std::stod(fields_of(s.out)["energy_j"]);
  };
  const double in_order = std::stod(advice.rows[0]["comm_energy_j"]);
  EXPECT_GT(in_order, 0);
  EXPECT_NEAR(in_order, energy_of({}), 1e-9 * in_order);
  EXPECT_DOUBLE_EQ(std::stod(advice.rows[0]["comm_energy_vs_in_order"]), 1.0);
  const auto recommended = advice.settings["recommended"];
  const auto row = std::find_if(advice.rows.begin(), advice.rows.end(),
                                [&](Fields& f) { return f["mapper"] == recommended; });
  ASSERT_NE(row, advice.rows.end());
  const double chosen = std::stod((*row)["comm_energy_j"]);
  EXPECT_NEAR(chosen, energy_of(rankfile), 1e-9 * chosen);
  EXPECT_NEAR(std::stod(advice.settings["energy_vs_in_order"]), chosen / in_order, 1e-12);
  // The most frugal: the least energy of every row (the first on ties), its ratio to in-order;
  // the recommended mapping if it spends as much to a relative 1e-9.
  auto frugal = advice.rows[0];
  std::set<std::string> energies;
  for (auto& f : advice.rows) {
    energies.insert(f["comm_energy_j"]);
    EXPECT_NEAR(std::stod(f["comm_energy_vs_in_order"]), std::stod(f["comm_energy_j"]) / in_order,
                1e-12);
    if (std::stod(f["comm_energy_j"]) < std::stod(frugal["comm_energy_j"])) frugal = f;
  }
  EXPECT_GT(energies.size(), 1U);  // the mappings do differ in energy here
  if (std::stod(frugal["comm_energy_j"]) >= chosen * (1 - 1e-9)) frugal = *row;
  EXPECT_EQ(advice.settings["frugal"], frugal["mapper"]);
  EXPECT_NEAR(std::stod(advice.settings["frugal_energy_vs_in_order"]),
              std::stod(frugal["comm_energy_j"]) / in_order, 1e-12);

  // The text names the same mapping.
  const auto text = run_mapsim("advise " + sh(trace) + " --topology " + machine);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("energy         "));
  EXPECT_THAT(text.out, ::testing::AnyOf(HasSubstr("most frugal is " + frugal["mapper"]),
                                         HasSubstr("no mapping spends less")));
}

// BT on a 4x4x4 torus: scotch maps as bisection does up to rank order on a node, and its energy
// differs from the recommended bisection's by floating-point noise (5e-17 J of 0.42 J, the same
// replay time): no "most frugal" mapping is named for that, the recommended one counts as it.
TEST(AdviseCommand, EnergiesWithinNoiseOfTheRecommendedOnesAreTheSame) {
  const std::string command =
      "advise npb:bt:A:64:iterations=3 --topology torus:4x4x4 --overheads typical --mapper "
      "in-order,bisection,scotch,random";
  const auto text = run_mapsim(command);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("recommended    bisection"));
  EXPECT_THAT(text.out, Not(HasSubstr("most frugal")));
  EXPECT_THAT(text.out, HasSubstr("; no mapping spends less"));
  const auto json = run_mapsim(command + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto advice = parse(json.out);
  EXPECT_EQ(advice.settings["frugal"], advice.settings["recommended"]);
}

// --link and --link-energy as simulate takes them: every replay runs on those links and spends
// those energies (in-order's row is simulate's under the same options), the energy objective
// weighs them, and the settings and the text say them.
TEST(AdviseCommand, TakesLinkAndLinkEnergyAsSimulateDoes) {
  const std::string machine = "haec:2x2x2";
  const auto trace = kTraces / "mg.S.8";
  const std::string links = " --link haec-wireless:10:500 --link-energy haec-wireless:1:0.5:2";
  const std::string base = "advise " + sh(trace) + " --topology " + machine +
                           " --mapper in-order,greedy,best:objective=energy";
  const auto r = run_mapsim(base + " --format json" + links);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto advice = parse(r.out);
  ASSERT_GE(advice.rows.size(), 2U);
  const auto s = run_mapsim("simulate --trace " + sh(trace) + " --topology " + machine +
                            " --compute-scale 0 --format json" + links);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  auto simulated = fields_of(s.out);
  EXPECT_EQ(advice.rows[0]["comm_ps"], simulated["makespan_ps"]);
  const double in_order = std::stod(advice.rows[0]["comm_energy_j"]);
  EXPECT_NEAR(in_order, std::stod(simulated["energy_j"]), 1e-9 * in_order);
  // Without the options: other times and energies.
  auto plain = parse(run_mapsim(base + " --format json").out);
  ASSERT_FALSE(plain.rows.empty());
  EXPECT_NE(plain.rows[0]["comm_ps"], advice.rows[0]["comm_ps"]);
  EXPECT_NE(plain.rows[0]["comm_energy_j"], advice.rows[0]["comm_energy_j"]);
  EXPECT_EQ(advice.settings["link_overrides"], "haec-wireless:10:500");
  EXPECT_EQ(advice.settings["link_energy_overrides"], "haec-wireless:1:0.5:2");
  EXPECT_EQ(advice.settings["link_haec-wireless_pj_per_bit"], "1");
  EXPECT_EQ(advice.settings["link_haec-wireless_idle_w"], "0.5");
  EXPECT_EQ(advice.settings["link_haec-wireless_busy_w"], "2");
  EXPECT_EQ(plain.settings["link_energy_overrides"], "");
  EXPECT_EQ(plain.settings["link_haec-wireless_pj_per_bit"], "20");
  const auto text = run_mapsim(base + links);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("\ncosts          links haec-wireless:10:500; link energy "
                                  "haec-wireless:1:0.5:2\n"));
  // A class the machine lacks is refused, naming the option.
  const auto absent = run_mapsim(base + " --link-energy grid:1:0:1");
  EXPECT_EQ(absent.exit_code, 1);
  EXPECT_THAT(absent.err, HasSubstr("--link-energy 'grid:1:0:1'"));
}

TEST(AdviseCommand, PrintsATableAndAVerdict) {
  const auto r = run_mapsim("advise " + sh(kTraces / "lu.S.8") +
                            " --topology torus:2x2x2 --mapper in-order,greedy,random");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& line :
       std::vector<std::string>{"trace          ", "machine        torus:2x2x2 (8 nodes x 1 cores)",
                                "portfolio      3 mappers, 3 distinct mappings", "in-order ",
                                "greedy ", "random ", "recommended    ", "communication  ",
                                "headroom       no placement communicates faster than ",
                                "models         ", "energy         ", "static metric  "}) {
    EXPECT_THAT(r.out, HasSubstr(line));
  }
}

// What the replays charge beyond the links is said when not the defaults: a calibration by name,
// factors of many steps by their count.
TEST(AdviseCommand, SaysWhatTheReplaysCharge) {
  const std::string base =
      "advise " + sh(kTraces / "lu.S.8") + " --topology torus:2x2x2 --mapper in-order,greedy";
  const auto plain = run_mapsim(base);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, Not(HasSubstr("costs ")));
  const auto r = run_mapsim(base + " --calibration smpi --overheads typical");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\ncosts          calibration smpi: overheads typical; bw-factor "
                               "of 9 steps; lat-factor of 9 steps; reverse traffic; weight-S 8775 "
                               "B; envelope 16 B\n"));
  const auto j = run_mapsim(base + " --calibration smpi --format json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  auto s = parse(j.out).settings;
  EXPECT_EQ(s["weight_s_bytes"], "8775");
  EXPECT_EQ(s["envelope_bytes"], "16");
}

TEST(AdviseCommand, TakesMappersWithParametersAndKeepsInOrderFirst) {
  // LU's 4x2 process grid on the 2x2x2 torus: its halo grid, found behind the collectives,
  // tiles the two planes, folded; plain mxovlp finds no exact grid and falls back to mht.
  const TempDir dir;
  const auto trace = kTraces / "lu.S.8";
  const std::string machine = "torus:2x2x2";
  const std::string tiles = "mxovlp:layers=tile-fold:pattern=dominant";
  const auto r = run_mapsim("advise " + sh(trace) + " --topology " + machine +
                            " --format json --mapper greedy," + tiles + ",in-order,mxovlp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto advice = parse(r.out);
  EXPECT_EQ(advice.settings["mappers"], "4");
  ASSERT_FALSE(advice.rows.empty());
  EXPECT_EQ(advice.rows[0]["mapper"], "in-order");  // listed third, ratios are to it
  const auto row_of = [&](const std::string& label) {
    return std::find_if(advice.rows.begin(), advice.rows.end(),
                        [&](Fields& f) { return f["mapper"] == label; });
  };
  const auto tiled = row_of(tiles);
  const auto plain = row_of("mxovlp");
  ASSERT_NE(tiled, advice.rows.end());
  ASSERT_NE(plain, advice.rows.end());
  // The item's parameters reached the mapper: its row is what `map` and `simulate` measure of
  // mxovlp with them, and not plain mxovlp's mapping.
  const auto file = dir.path() / "tiles.map";
  const auto map = run_mapsim("map --trace " + sh(trace) + " --topology " + machine +
                              " --mapper mxovlp --param layers=tile-fold --param pattern=dominant" +
                              " --format json --out " + sh(file));
  ASSERT_EQ(map.exit_code, 0) << map.err;
  EXPECT_EQ((*tiled)["hop_bytes"], fields_of(map.out)["hop_bytes"]);
  EXPECT_EQ((*tiled)["comm_ps"], replayed(trace, machine, file, "--compute-scale 0"));
  EXPECT_NE((*tiled)["hop_bytes"], (*plain)["hop_bytes"]);

  // The text table's columns stay aligned under a long name.
  const auto text =
      run_mapsim("advise " + sh(trace) + " --topology " + machine + " --mapper greedy," + tiles);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const auto header = text.out.find("\nmapping ");
  ASSERT_NE(header, std::string::npos) << text.out;
  const auto header_end = text.out.find('\n', header + 1);
  const auto column = text.out.find("hop-bytes", header) - header - 1 + 8;  // its last letter
  std::size_t rows = 0;
  for (std::size_t at = header_end + 1; text.out.compare(at, 1, "(") != 0 && at < text.out.size();
       at = text.out.find('\n', at) + 1) {
    const auto line = text.out.substr(at, text.out.find('\n', at) - at);
    ASSERT_GT(line.size(), column) << line;
    EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(line[column]))) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 3U);  // in-order, greedy and the tiles
  EXPECT_THAT(text.out, HasSubstr("\n" + tiles + " "));
}

TEST(AdviseCommand, SearchesWithItsOwnReplaysInTheLoop) {
  // replay-search judges its candidates by the replays advise reports (communication only, flow,
  // with the overheads given): its row is what `simulate` measures of its choice under those
  // settings, and no row is faster.
  const auto trace = kTraces / "cg.S.8";
  const std::string machine = "torus:2x2x2";
  const std::string costs = " --overheads typical";
  const std::string search = "replay-search:evaluations=20";
  for (const std::string& how :
       {std::string(" --search=evaluations=20"), std::string(" --mapper greedy,scan," + search)}) {
    SCOPED_TRACE(how);
    const auto r = run_mapsim("advise " + sh(trace) + " --topology " + machine + costs +
                              " --format json" + how);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // Its model and compute scale, not given, are advise's ranking's, and it says so.
    EXPECT_THAT(r.err, HasSubstr("replay-search: minimising the flow makespan of communication "
                                 "only (model=flow from advise's ranking, compute-scale=0 from "
                                 "advise's ranking, not given as parameters)"));
    auto advice = parse(r.out);
    EXPECT_EQ(advice.settings["refused"], "");
    const auto searched = std::find_if(advice.rows.begin(), advice.rows.end(), [&](Fields& f) {
      return f["mapper"] == search || f["same_as"].find(search) != std::string::npos;
    });
    ASSERT_NE(searched, advice.rows.end()) << r.out;
    const auto s = run_mapsim("simulate --trace " + sh(trace) + " --topology " + machine + costs +
                              " --compute-scale 0 --format json --mapper replay-search" +
                              " --param evaluations=20");
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_EQ((*searched)["comm_ps"], fields_of(s.out)["makespan_ps"]);
    for (auto& row : advice.rows) {
      EXPECT_LE(std::stoll((*searched)["comm_ps"]), std::stoll(row["comm_ps"])) << row["mapper"];
    }
  }
  // A search that cannot run here (train= cuts generated workloads only) is named with its
  // reason; the other mappings are advised on as without it.
  const auto failed =
      run_mapsim("advise " + sh(trace) + " --topology " + machine + " --search=train=1");
  ASSERT_EQ(failed.exit_code, 0) << failed.err;
  EXPECT_THAT(failed.out, HasSubstr("; could not search: replay-search:train=1\n"));
  EXPECT_THAT(failed.out, Not(HasSubstr("refused the machine")));
  EXPECT_THAT(failed.err, HasSubstr("warning: replay-search:train=1: "));
  EXPECT_THAT(failed.err, HasSubstr("train=1 cannot apply: " + (trace / "traces.otf2").string() +
                                    " is an OTF2 trace"));
  EXPECT_THAT(failed.out, HasSubstr("\nrecommended    "));
}

// The models agree with in-order recommended when no model sees the challenger 0.1 % faster;
// with a winner, when another model sees it faster too and none sees it 0.1 % slower. A tie is
// no disagreement: on a fat-tree the analytic model, without contention, ties where hops are
// alike, while flow and packet see the gain (CG class W); the verdict line says when they
// disagree.
TEST(AdviseCommand, ModelsAgreeUnlessAGainIsFlowsAloneOrAnotherModelSeesALoss) {
  bool seen_tie = false;
  for (const auto& [trace, machine] : std::vector<std::pair<std::string, std::string>>{
           {sh(kTraces / "lu.S.8"), "torus:2x2x2"},
           {sh(kTraces / "cg.S.8"), "torus:2x2x2"},
           {sh(kTraces / "mg.S.8"), "'fattree:2;4,2;1,2;1,1'"},
           {"npb:cg:W:16:iterations=2", "'fattree:2;4,4;1,2;1,2'"}}) {
    SCOPED_TRACE(trace + " on " + machine);
    const auto r = run_mapsim("advise " + trace + " --topology " + machine + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto s = parse(r.out).settings;
    int gains = 0;
    int losses = 0;
    for (const char* model : {"analytic", "flow", "packet"}) {
      const double ratio = std::stod(s[std::string(model) + "_vs_in_order"]);
      gains += ratio < 0.999 ? 1 : 0;
      losses += ratio > 1.001 ? 1 : 0;
    }
    const bool agree = s["recommended"] == "in-order" ? gains == 0 : gains >= 2 && losses == 0;
    EXPECT_EQ(s["models_agree"], agree ? "yes" : "no");
    EXPECT_EQ(s["verdict"].find("the models disagree") != std::string::npos,
              !agree && s["recommended"] != "in-order")
        << s["verdict"];
    seen_tie = seen_tie || (agree && s["recommended"] != "in-order" &&
                            std::abs(std::stod(s["analytic_vs_in_order"]) - 1) <= 0.001);
  }
  EXPECT_TRUE(seen_tie);  // the fat-tree case: analytic ties, flow and packet gain, they agree
  const auto text = run_mapsim(
      "advise npb:cg:W:16:iterations=2 --topology "
      "'fattree:2;4,4;1,2;1,2'");
  EXPECT_THAT(text.out,
              HasSubstr("the gain is in contention, which the analytic model leaves out"));
}

TEST(AdviseCommand, RecommendsInOrderWhenNothingElseBeatsIt) {
  // in-order alone, and in-order with a mapper that gives the same mapping on this machine.
  for (const std::string& mappers : std::vector<std::string>{"in-order", "in-order,contiguous"}) {
    const auto r = run_mapsim("advise " + sh(kTraces / "lu.S.8") +
                              " --topology torus:2x2x2 --format json --mapper " + mappers);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto advice = parse(r.out);
    EXPECT_EQ(advice.settings["recommended"], "in-order");
    EXPECT_EQ(advice.rows.size(), 1U);
    EXPECT_THAT(advice.settings["verdict"], HasSubstr("in-order: no mapping shortens"));
  }
}

// A job on the nodes of one leaf switch: every placement replays alike, and the verdict says so
// rather than naming one of them the best.
TEST(AdviseCommand, SaysWhenEveryMappingReplaysAlike) {
  const auto r = run_mapsim(
      "advise npb:cg:S:4 --topology 'fattree:2;4,2;1,2;1,1:allocation=0-3' "
      "--format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto advice = parse(r.out);
  ASSERT_GE(advice.rows.size(), 2U);
  for (auto& row : advice.rows) EXPECT_EQ(row["comm_ps"], advice.rows[0]["comm_ps"]);
  EXPECT_EQ(advice.settings["recommended"], "in-order");
  EXPECT_THAT(advice.settings["verdict"],
              HasSubstr("in-order: every mapping's communication replays in "));
  EXPECT_THAT(advice.settings["verdict"], Not(HasSubstr("the best")));
}

TEST(AdviseCommand, WritesEveryLauncherFormatThatReadsBack) {
  const TempDir dir;
  for (const std::string& format :
       std::vector<std::string>{"rankfile", "slurm", "mpich", "hostlist", "plain"}) {
    SCOPED_TRACE(format);
    const auto file = dir.path() / ("m." + format);
    const auto r = run_mapsim("advise " + sh(kTraces / "cg.S.8") +
                              " --topology torus:2x2x2 --mapper in-order,greedy --out " + sh(file) +
                              " --mapping-format " + format);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("wrote          " + file.string() + " (" + format + ")"));
    // Read back as the mapping it is: `map --mapping` evaluates it.
    const auto back = run_mapsim("map --trace " + sh(kTraces / "cg.S.8") +
                                 " --topology torus:2x2x2 --mapping " + sh(file));
    EXPECT_EQ(back.exit_code, 0) << back.err;
  }
}

TEST(AdviseCommand, RefusesBadInputClearly) {
  const auto lu = sh(kTraces / "lu.S.8");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"advise " + lu + " --topology torus:2x2x2 --format csv", "--format csv"},
      {"advise " + lu + " --topology torus:2x2x2 --candidates 0", "--candidates"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper gredy", "gredy"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper greedy,mxovlp:layers=tiles",
       "--mapper item 'mxovlp:layers=tiles'"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper greedy:weight", "key=value"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper greedy,,scotch", "an empty mapper name"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper greedy,scotch,greedy",
       "'greedy' is named twice"},
      {"advise " + lu + " --topology torus:2x2x2 --mapper greedy,all", "'all' stands alone"},
      {"advise " + lu + " --topology torus:2x2x2 --search=evaluations", "key=value"},
      {"advise " + lu + " --topology torus:2x2x2 --search=evaluations=many",
       "--search item 'replay-search:evaluations=many'"},
      {"advise " + lu + " --topology torus:2x2x2 --search=portfolio=greedy,replay-search",
       "cannot contain replay-search"},
      {"advise " + lu + " --topology torus:2x2x2 --search --mapper greedy,replay-search",
       "'replay-search' is named in --mapper as well"},
      {"advise " + lu + " --topology torus:2x2", "8 ranks do not fit on torus:2x2"},
      {"advise " + lu + " --topology torus:2x2x2 --mapping-format xml", "xml"},
      {"advise " + lu + " --topology torus:2x2x2 --seed -1", "--seed"},
      {"advise " + lu + " --topology torus:2x2x2 --envelope 2000000", "--envelope"},
      {"advise /nonexistent/trace --topology torus:2x2x2", "/nonexistent/trace"},
      {"advise " + lu, "--topology"},
  };
  for (const auto& [command, named] : cases) {
    SCOPED_TRACE(command);
    const auto r = run_mapsim(command);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_THAT(r.err, HasSubstr(named));
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

}  // namespace
}  // namespace mapsim

// `mapsim report` end to end: a database of a real tiny sweep drawn by gnuplot, and its bad input.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Sqlite.hpp"
#include "tests/support/RunMapsim.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_file;
using testing::run_mapsim;
using testing::TempDir;

// 2 workloads (4 and 16 ranks: a scaling chart) x 1 machine x 3 mappers x 2 models = 12 runs,
// replaying communication only: well under a second.
constexpr const char* kSweep = R"(workloads:
  - npb:lu:S:4:iterations=1
  - npb:lu:S:16:iterations=1
machines: [torus:4x4]
mappers: [in-order, random, greedy]
models: [flow, static]
sim: {compute-scale: 0}
)";

constexpr unsigned char kPngSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/// The sweep's database, made once for all tests.
class ReportCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() /
                        ("mapsim-report-command-" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    std::ofstream(*dir_ / "sweep.yaml") << kSweep;
    const auto run = run_mapsim("run sweep.yaml --db results.db --store-links", *dir_);
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  static std::string db() { return fmt::format("'{}'", (*dir_ / "results.db").string()); }

  static fs::path* dir_;
};
fs::path* ReportCommand::dir_ = nullptr;

/// The chart names a report printed: its lines "DIR/NAME.svg".
std::vector<std::string> chart_names(const std::string& out) {
  std::vector<std::string> names;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.ends_with(".svg")) names.push_back(fs::path(line).stem().string());
  }
  return names;
}

bool any_starts_with(const std::vector<std::string>& names, const std::string& prefix) {
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& n) { return n.starts_with(prefix); });
}

TEST_F(ReportCommand, DrawsEveryChartAsSvgPngCsvAndScript) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto result = run_mapsim(fmt::format("report {} --out '{}'", db(), out.string()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto names = chart_names(result.out);
  EXPECT_THAT(result.out, HasSubstr(fmt::format("report: {} charts in", names.size())));
  // flow and static: bars and scaling each (two rank counts); flow only: agreement (static has
  // no times); the summary; heat maps of the stored links; each workload's matrix.
  for (const auto* kind : {"bars-torus_4x4-flow", "bars-torus_4x4-static", "scaling-", "agreement-",
                           "summary-agreement", "heatmap-", "matrix-npb_lu_s_4"})
    EXPECT_TRUE(any_starts_with(names, kind)) << kind << " in\n" << result.out;
  const auto index_md = read_file(out / "index.md");
  const auto index_html = read_file(out / "index.html");
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    for (const auto* extension : {".svg", ".png", ".csv", ".gp"})
      EXPECT_TRUE(fs::is_regular_file(out / (name + extension))) << extension;
    // The SVG is a whole XML document (gnuplot finished it) naming the mappers as series.
    auto svg = read_file(out / (name + ".svg"));
    EXPECT_TRUE(svg.starts_with("<?xml")) << svg.substr(0, 80);
    EXPECT_THAT(svg, HasSubstr("<svg"));
    while (!svg.empty() && std::isspace(static_cast<unsigned char>(svg.back()))) svg.pop_back();
    EXPECT_TRUE(svg.ends_with("</svg>"));
    if (!name.starts_with("heatmap-") && !name.starts_with("summary-") &&
        !name.starts_with("matrix-")) {
      for (const auto* mapper : {"in-order", "random", "greedy"})
        EXPECT_THAT(svg, HasSubstr(mapper));
    }
    const auto png = read_file(out / (name + ".png"));
    ASSERT_GE(png.size(), sizeof kPngSignature);
    EXPECT_TRUE(
        std::equal(std::begin(kPngSignature), std::end(kPngSignature), png.begin(),
                   [](unsigned char a, char b) { return a == static_cast<unsigned char>(b); }));
    const auto csv = read_file(out / (name + ".csv"));
    EXPECT_GT(csv.find('\n'), 0U);  // a header line
    EXPECT_THAT(index_md, HasSubstr(fmt::format("({}.svg)", name)));
    EXPECT_THAT(index_html, HasSubstr(fmt::format("<img src=\"{}.svg\"", name)));
    EXPECT_THAT(index_md, HasSubstr(fmt::format("gnuplot {}.gp", name)));
  }
  for (const auto* index : {&index_md, &index_html}) {
    EXPECT_THAT(*index, HasSubstr("mapsim report"));
    EXPECT_THAT(*index, HasSubstr("--out"));
    EXPECT_THAT(*index, HasSubstr("results.db"));
  }
  // The index opens with the findings: a row per context, the static model's chosen by
  // hop-bytes; the default heat maps say how they were chosen.
  EXPECT_LT(index_md.find("## Findings"), index_md.find("## Charts"));
  const auto found = read_file(out / "findings-mappers.csv");
  EXPECT_THAT(found, HasSubstr("npb:lu:S:4:iterations=1,torus:4x4,\"flow (eager 65536 B"));
  EXPECT_THAT(found, HasSubstr("- (static only: chosen by hop-bytes)"));
  EXPECT_THAT(index_md, HasSubstr("Chosen by default: of the runs with stored links"));
  // The bars of the flow model hold greedy's ratios for both workloads.
  const auto bars = read_file(out / "bars-torus_4x4-flow_eager_65536_b_compute_x0.csv");
  EXPECT_THAT(bars, HasSubstr("npb:lu:S:4:iterations=1,4,greedy,"));
  EXPECT_THAT(bars, HasSubstr("npb:lu:S:16:iterations=1,16,greedy,"));
}

TEST_F(ReportCommand, ASecondReportReplacesTheFirstAndKeepsOtherFiles) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto all = run_mapsim(fmt::format("report {} --out '{}'", db(), out.string()));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  std::ofstream(out / "notes.txt") << "mine\n";
  // The 4-rank workload alone has no scaling chart: the first report's scaling files go, the
  // user's file and the charts both reports draw stay.
  const auto some =
      run_mapsim(fmt::format("report {} --where 'ranks = 4' --out '{}'", db(), out.string()));
  ASSERT_EQ(some.exit_code, 0) << some.err;
  for (const auto& entry : fs::directory_iterator(out)) {
    EXPECT_FALSE(entry.path().filename().string().starts_with("scaling-")) << entry.path();
  }
  for (const auto& name : chart_names(some.out))
    EXPECT_TRUE(fs::is_regular_file(out / (name + ".svg"))) << name;
  EXPECT_EQ(read_file(out / "notes.txt"), "mine\n");
}

TEST_F(ReportCommand, ARedrawDeletesOnlyWhatTheEarlierReportWrote) {
  // Once a directory held a report, the next one there deleted every *.csv *.gp *.svg *.png
  // *.dat it did not write itself, the user's own figures and data included, and exited 0.
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto all = run_mapsim(fmt::format("report {} --out '{}'", db(), out.string()));
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const std::vector<std::string> mine{"figure.png", "figure.svg", "data.csv",
                                      "fit.gp",     "points.dat", "scaling-by-hand.csv"};
  for (const auto& name : mine) std::ofstream(out / name) << "mine: " << name << "\n";
  const auto some =
      run_mapsim(fmt::format("report {} --where 'ranks = 4' --out '{}'", db(), out.string()));
  ASSERT_EQ(some.exit_code, 0) << some.err;
  for (const auto& name : mine) EXPECT_EQ(read_file(out / name), "mine: " + name + "\n") << name;
  // The earlier report's scaling charts are gone (the new one draws none).
  ASSERT_TRUE(any_starts_with(chart_names(all.out), "scaling-")) << all.out;
  for (const auto& name : chart_names(all.out)) {
    if (name.starts_with("scaling-")) {
      EXPECT_FALSE(fs::exists(out / (name + ".svg"))) << name;
    }
  }
}

TEST_F(ReportCommand, ImagesCutShortByAFullDiskAreAnError) {
  // gnuplot exits 0 when a write fails half-way: under a file size limit (here 40 KiB, above the
  // database's 32 KiB -shm file, below the largest images) the report used to claim success with
  // images cut short. It must fail, say what happened, and write nothing.
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto r = testing::run_mapsim_with_file_limit(
      40, fmt::format("report {} --out '{}'", db(), out.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("gnuplot drew an incomplete"));
  EXPECT_THAT(r.err, HasSubstr("the file size limit of this process (ulimit -f) is 40960 bytes"));
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(temp.path()));
}

/// A stand-in for gnuplot in `dir` that runs `body` (a shell script's lines).
fs::path fake_gnuplot(const fs::path& dir, const std::string& body) {
  const auto path = dir / "fake-gnuplot";
  std::ofstream(path) << "#!/bin/sh\n" << body;
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
  return path;
}

TEST_F(ReportCommand, AGnuplotThatNeverAnswersIsStopped) {
  // `report` waited forever for a --gnuplot program that never answered.
  const TempDir temp;
  const auto out = temp.path() / "report";
  // One that waits for input it never gets (it gets /dev/null as stdin: its read ends at once),
  // one that hangs on --version, one that hangs on the charts.
  const auto reads = fake_gnuplot(temp.path(), "read line\nexit 1\n");
  const auto r1 = run_mapsim(
      fmt::format("report {} --gnuplot '{}' --out '{}'", db(), reads.string(), out.string()));
  EXPECT_EQ(r1.exit_code, 1);
  EXPECT_THAT(r1.err, HasSubstr("'--version' exited 1"));
  const auto hangs = fake_gnuplot(temp.path(), "exec sleep 1000\n");
  const auto r2 =
      run_mapsim(fmt::format("report {} --gnuplot '{}' --gnuplot-timeout 0.5 --out '{}'", db(),
                             hangs.string(), out.string()));
  EXPECT_EQ(r2.exit_code, 1);
  EXPECT_THAT(r2.err, HasSubstr("did not answer `--version` within 0.5 s"));
  const auto draws_nothing = fake_gnuplot(
      temp.path(),
      "if [ \"$1\" = --version ]; then echo 'gnuplot 5.4'; exit 0; fi\nexec sleep 1000\n");
  const auto r3 =
      run_mapsim(fmt::format("report {} --gnuplot '{}' --gnuplot-timeout 0.5 --out '{}'", db(),
                             draws_nothing.string(), out.string()));
  EXPECT_EQ(r3.exit_code, 1);
  EXPECT_THAT(r3.err, HasSubstr("gnuplot drew nothing for 0.5 s on report.gp"));
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ReportCommand, CtrlCWhileDrawingLeavesNothing) {
  // Ctrl-C killed the report while gnuplot drew: its temporary directory stayed beside --out.
  // It stops gnuplot, removes the temporary and exits 130.
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto slow =
      fake_gnuplot(temp.path(), "if [ \"$1\" = --version ]; then exit 0; fi\nexec sleep 600\n");
  const auto pid = testing::spawn_mapsim({"report", (*dir_ / "results.db").string(), "--out",
                                          out.string(), "--gnuplot", slow.string()},
                                         temp.path() / "stdout", temp.path() / "stderr");
  // Drawing has begun once the temporary holds report.gp.
  bool drawing = false;
  for (int i = 0; i < 60'000 && !drawing; ++i) {
    for (const auto& entry : fs::directory_iterator(temp.path())) {
      drawing = drawing || fs::exists(entry.path() / "report.gp");
    }
    if (!drawing) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(drawing);
  ::kill(pid, SIGINT);
  EXPECT_EQ(testing::wait_for(pid, std::chrono::seconds(120)), 130);
  EXPECT_THAT(read_file(temp.path() / "stderr"), HasSubstr("interrupted"));
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(temp.path()))
    left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"fake-gnuplot", "stderr", "stdout"}));
}

TEST_F(ReportCommand, AHeatMapOfAFailedRunSaysItFailed) {
  // It said to rerun with --store-links, which would not help a run that failed.
  const TempDir temp;
  const auto copy = temp.path() / "results.db";
  fs::copy_file(*dir_ / "results.db", copy);
  std::string name;
  {
    exp::sql::Connection db(copy, exp::sql::Connection::Mode::ReadWrite);
    name = db.query_text("SELECT name FROM runs WHERE mapper = 'greedy' LIMIT 1");
    db.execute(
        "UPDATE runs SET status = 'failed', message = 'mapper: no room' WHERE mapper = 'greedy'");
  }
  const auto r = run_mapsim(fmt::format("report '{}' --heatmap '{}' --out '{}'", copy.string(),
                                        name, (temp.path() / "report").string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("failed: mapper: no room: it has no link loads to draw"));
  EXPECT_THAT(r.err, Not(HasSubstr("--store-links")));
}

TEST_F(ReportCommand, WhereFiltersTheRuns) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  // Only the 4-rank workload: one rank count, so no scaling chart.
  const auto result =
      run_mapsim(fmt::format("report {} --where 'ranks = 4' --out '{}'", db(), out.string()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto names = chart_names(result.out);
  EXPECT_TRUE(any_starts_with(names, "bars-")) << result.out;
  EXPECT_FALSE(any_starts_with(names, "scaling-")) << result.out;
  const auto bars = read_file(out / "bars-torus_4x4-flow_eager_65536_b_compute_x0.csv");
  EXPECT_THAT(bars, HasSubstr("npb:lu:S:4:iterations=1"));
  EXPECT_THAT(bars, Not(HasSubstr("npb:lu:S:16")));
  EXPECT_THAT(read_file(out / "index.md"), HasSubstr("ranks = 4"));
  // The matrices of the workloads the condition keeps, no others.
  EXPECT_TRUE(any_starts_with(names, "matrix-npb_lu_s_4_")) << result.out;
  EXPECT_FALSE(any_starts_with(names, "matrix-npb_lu_s_16_")) << result.out;
}

TEST_F(ReportCommand, NoMatricesLeavesTheMatrixHeatMapsOut) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto result =
      run_mapsim(fmt::format("report {} --no-matrices --out '{}'", db(), out.string()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto names = chart_names(result.out);
  EXPECT_TRUE(any_starts_with(names, "bars-")) << result.out;
  EXPECT_FALSE(any_starts_with(names, "matrix-")) << result.out;
}

TEST_F(ReportCommand, MissingGnuplotNamesThePackageAndWritesNothing) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto result = run_mapsim(
      fmt::format("report {} --gnuplot /nonexistent/gnuplot --out '{}'", db(), out.string()));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("gnuplot-nox"));
  EXPECT_THAT(result.err, HasSubstr("/nonexistent/gnuplot"));
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(temp.path()));  // no temporary left either
}

TEST_F(ReportCommand, MissingOutIsACommandLineError) {
  const auto result = run_mapsim(fmt::format("report {}", db()));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_THAT(result.err, HasSubstr("out"));
}

TEST_F(ReportCommand, MissingDatabaseNamesTheFile) {
  const TempDir temp;
  const auto result =
      run_mapsim(fmt::format("report '{}' --out '{}'", (temp.path() / "none.db").string(),
                             (temp.path() / "report").string()));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("none.db"));
  EXPECT_FALSE(fs::exists(temp.path() / "report"));
}

TEST_F(ReportCommand, WhereMatchingNothingSaysSo) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto result =
      run_mapsim(fmt::format("report {} --where 'ranks = 999' --out '{}'", db(), out.string()));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("ranks = 999"));
  EXPECT_THAT(result.err, HasSubstr("no finished runs match"));
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(ReportCommand, UnknownHeatmapRunIsAnError) {
  const TempDir temp;
  const auto out = temp.path() / "report";
  const auto result =
      run_mapsim(fmt::format("report {} --heatmap no-such-run --out '{}'", db(), out.string()));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_THAT(result.err, HasSubstr("no-such-run"));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace mapsim

// Reading results back: result tables, normalisation, output formats, summaries, stored mappings.

#include "experiments/Query.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "experiments/Digest.hpp"
#include "experiments/RankCorrelation.hpp"
#include "experiments/Runner.hpp"
#include "experiments/Schema.hpp"
#include "experiments/Workloads.hpp"
#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "tests/experiments/ReportTestSupport.hpp"
#include "tests/experiments/SweepTestSupport.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::exp {
namespace {

using mapsim::testing::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using namespace mapsim::exp::testing;

constexpr double kTolerance = 1e-12;

/// One workload on two machines, three mappers (in-order listed last), replayed and static:
/// 4 contexts of 3 runs. On mesh:2x2:cores=4 in-order puts all 4 ranks on node 0 (hop-bytes 0).
constexpr std::string_view kQuerySweep = R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:4x4, mesh:2x2:cores=4]
mappers: [random, greedy, in-order]
models: [flow, static]
sim: {compute-scale: 0}
)";

struct Results {
  Sweep sweep;
  std::filesystem::path database;
};

Results run_query_sweep(const TempDir& dir) {
  Results r{make_sweep(dir.path(), kQuerySweep), dir.path() / "r.db"};
  EXPECT_EQ(run(r.sweep, r.database).done, 12U);
  return r;
}

std::vector<ResultTable> query(const std::filesystem::path& database, ResultsQuery q = {}) {
  Store store(database, Store::Access::Read);
  return query_results(store, q);
}

std::string error_of(const std::filesystem::path& database, const ResultsQuery& q) {
  try {
    (void)query(database, q);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string written(const std::vector<ResultTable>& tables, TableFormat format) {
  std::ostringstream out;
  write_results(out, tables, format);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// RFC 4180 records: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      record.push_back(std::exchange(field, {}));
    } else if (c == '\n') {
      record.push_back(std::exchange(field, {}));
      records.push_back(std::exchange(record, {}));
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "an unterminated quoted field";
  EXPECT_TRUE(field.empty() && record.empty()) << "the last record has no newline";
  return records;
}

/// A strict JSON parser, enough to check write_results' output structurally.
struct Json {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<Json> items;
  std::vector<std::pair<std::string, Json>> members;

  [[nodiscard]] const Json* find(std::string_view key) const {
    for (const auto& [k, v] : members) {
      if (k == key) return &v;
    }
    return nullptr;
  }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  Json parse() {
    auto value = parse_value();
    skip_space();
    if (at_ != text_.size()) fail("text after the value");
    return value;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    throw std::runtime_error(fmt::format("JSON: {} at offset {}", what, at_));
  }
  void skip_space() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(fmt::format("expected '{}'", c));
  }
  bool take_word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }
  std::string parse_string() {
    expect('"');
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
      if (c == '\\') {
        if (at_ >= text_.size()) fail("a cut escape");
        c = text_[at_++];
        switch (c) {
          case '"':
          case '\\':
          case '/':
            out += c;
            break;
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'u': {
            if (at_ + 4 > text_.size()) fail("a cut \\u escape");
            out += static_cast<char>(std::stoi(std::string(text_.substr(at_, 4)), nullptr, 16));
            at_ += 4;
            break;
          }
          default:
            fail("an unknown escape");
        }
      } else {
        out += c;
      }
    }
    if (at_ >= text_.size()) fail("an unterminated string");
    ++at_;
    return out;
  }
  Json parse_value() {
    skip_space();
    Json value;
    if (at_ >= text_.size()) fail("a missing value");
    const char c = text_[at_];
    if (c == '{') {
      ++at_;
      value.kind = Json::Kind::Object;
      if (take('}')) return value;
      do {
        skip_space();
        auto key = parse_string();
        expect(':');
        value.members.emplace_back(std::move(key), parse_value());
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      ++at_;
      value.kind = Json::Kind::Array;
      if (take(']')) return value;
      do {
        value.items.push_back(parse_value());
      } while (take(','));
      expect(']');
    } else if (c == '"') {
      value.kind = Json::Kind::String;
      value.text = parse_string();
    } else if (take_word("null")) {
      value.kind = Json::Kind::Null;
    } else if (take_word("true") || take_word("false")) {
      value.kind = Json::Kind::Bool;
      value.boolean = text_[at_ - 1] == 'e' && text_[at_ - 2] == 'u';
    } else {
      const std::string rest(text_.substr(at_, 40));
      std::size_t used = 0;
      try {
        value.number = std::stod(rest, &used);
      } catch (const std::exception&) {
        fail("not a value");
      }
      if (rest[0] != '-' && !std::isdigit(static_cast<unsigned char>(rest[0])))
        fail("not a JSON number");
      value.kind = Json::Kind::Number;
      at_ += used;
    }
    return value;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

// --- query_results ---

TEST(QueryResults, GroupsByContextWithInOrderFirst) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  const auto tables = query(r.database);
  ASSERT_EQ(tables.size(), 4U);
  std::set<std::string> contexts;
  for (const auto& run : r.sweep.runs) contexts.insert(run.context_key);
  std::set<std::string> seen;
  Store store(r.database, Store::Access::Read);
  auto stored = store.connection().prepare(
      "SELECT hop_bytes, makespan_ps * 1e-12 FROM runs WHERE context_key = ? AND mapper = ?");
  for (const auto& table : tables) {
    SCOPED_TRACE(table.title());
    seen.insert(table.context_key);
    EXPECT_EQ(table.metrics, default_metrics());
    EXPECT_EQ(table.workload, "npb:lu:S:4:iterations=1");
    EXPECT_FALSE(table.normalized);
    ASSERT_EQ(table.rows.size(), 3U);
    EXPECT_EQ(table.rows[0].mapper, "in-order");
    EXPECT_EQ(table.rows[1].mapper, "greedy");
    EXPECT_EQ(table.rows[2].mapper, "random");
    const bool replayed = table.model == "flow";
    EXPECT_EQ(table.eager_threshold.has_value(), replayed);
    EXPECT_EQ(table.compute_scale.has_value(), replayed);
    for (const auto& row : table.rows) {
      EXPECT_EQ(row.done, 1);
      EXPECT_EQ(row.failed, 0);
      EXPECT_EQ(row.seed, 0);
      ASSERT_EQ(row.values.size(), table.metrics.size());
      stored.bind(1, table.context_key).bind(2, row.mapper);
      ASSERT_TRUE(stored.step());
      ASSERT_TRUE(row.values[0].has_value());
      EXPECT_EQ(*row.values[0], static_cast<double>(stored.integer(0)));  // hop_bytes
      EXPECT_EQ(row.values[2].has_value(), replayed);                     // makespan_s
      if (replayed) {
        ASSERT_TRUE(row.values[2].has_value());
        EXPECT_NEAR(*row.values[2], stored.real(1), kTolerance);
      }
      stored.reset();
    }
    // The rank correlation is Spearman's rho of hop-bytes and makespan over the mappers.
    if (replayed) {
      std::vector<double> hop_bytes;
      std::vector<double> makespan;
      for (const auto& row : table.rows) {
        hop_bytes.push_back(*row.values[0]);
        makespan.push_back(*row.values[2]);
      }
      const double rho = spearman(hop_bytes, makespan);
      if (table.rank_correlation) {
        EXPECT_NEAR(*table.rank_correlation, rho, kTolerance);
      } else {
        EXPECT_EQ(rho, 0) << "the view has no correlation only for a constant sample";
      }
    } else {
      EXPECT_FALSE(table.rank_correlation.has_value());
    }
  }
  EXPECT_EQ(seen, contexts);
}

TEST(QueryResults, NormalizeDividesByInOrder) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.metrics = {"hop_bytes", "makespan_s", "link_bytes_max", "dilation_avg"};
  const auto raw = query(r.database, q);
  q.normalize = true;
  const auto normalized = query(r.database, q);
  ASSERT_EQ(normalized.size(), raw.size());
  int ratios = 0;
  int undefined = 0;
  for (std::size_t t = 0; t < raw.size(); ++t) {
    SCOPED_TRACE(raw[t].title());
    EXPECT_TRUE(normalized[t].normalized);
    EXPECT_FALSE(normalized[t].baseline_missing);
    ASSERT_EQ(normalized[t].rows.size(), raw[t].rows.size());
    const auto& base = raw[t].rows[0];
    ASSERT_EQ(base.mapper, "in-order");
    for (std::size_t i = 0; i < raw[t].rows.size(); ++i) {
      for (std::size_t m = 0; m < q.metrics.size(); ++m) {
        const auto& value = raw[t].rows[i].values[m];
        const auto& ratio = normalized[t].rows[i].values[m];
        if (!value || !base.values[m] || *base.values[m] == 0) {
          // Nothing to divide, or nothing to divide by (in-order's 0 hop-bytes on one node).
          EXPECT_FALSE(ratio.has_value());
          undefined += value.has_value() ? 1 : 0;
          continue;
        }
        ASSERT_TRUE(ratio.has_value());
        if (i == 0) {
          EXPECT_EQ(*ratio, 1.0);  // in-order against itself: exactly 1
        } else {
          EXPECT_NEAR(*ratio, *value / *base.values[m], kTolerance);
        }
        ++ratios;
      }
    }
  }
  EXPECT_GT(ratios, 0);
  EXPECT_GT(undefined, 0);

  // Without in-order in the selection there is nothing to normalise by.
  q.where = "mapper <> 'in-order'";
  for (const auto& table : query(r.database, q)) {
    EXPECT_TRUE(table.baseline_missing);
    for (const auto& row : table.rows) {
      for (const auto& value : row.values) EXPECT_FALSE(value.has_value());
    }
  }
}

TEST(QueryResults, UnknownMetricListsTheValidOnes) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  for (const auto* metric : {"bogus", "hop_bytes) FROM runs; DROP TABLE runs", "makespan_ps", ""}) {
    ResultsQuery q;
    q.metrics = {"hop_bytes", metric};
    EXPECT_THAT(error_of(r.database, q),
                AllOf(HasSubstr(fmt::format("unknown metric '{}'", metric)),
                      HasSubstr("hop_bytes, hop_messages"), HasSubstr("makespan_s")))
        << metric;
  }
}

TEST(QueryResults, UnknownMetricIsQuotedAsGiven) {
  // The message names the value the user wrote, not the spelling it was rewritten to.
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.metrics = {"makespan-ps"};
  EXPECT_THAT(error_of(r.database, q), HasSubstr("unknown metric 'makespan-ps'"));
}

TEST(QueryResults, AcceptsHyphenatedMetricNames) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.metrics = {"hop-bytes", "makespan-s", "link_bytes_max"};
  const auto hyphenated = query(r.database, q);
  ASSERT_FALSE(hyphenated.empty());
  EXPECT_THAT(hyphenated[0].metrics, ElementsAre("hop_bytes", "makespan_s", "link_bytes_max"));
  q.metrics = {"hop_bytes", "makespan_s", "link_bytes_max"};
  const auto plain = query(r.database, q);
  ASSERT_EQ(plain.size(), hyphenated.size());
  for (std::size_t t = 0; t < plain.size(); ++t) {
    for (std::size_t i = 0; i < plain[t].rows.size(); ++i)
      EXPECT_EQ(hyphenated[t].rows[i].values, plain[t].rows[i].values);
  }
}

// The replay's energy parts are stored columns and metrics too (energy_j = dynamic + static,
// power_w = energy_j / makespan_s), normalised like any other; the normalized view keeps its
// columns.
TEST(QueryResults, TheReplaysEnergyPartsAreMetrics) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.metrics = {"energy_j", "energy-dynamic-j", "energy_static_j", "power_w", "makespan_s"};
  const auto tables = query(r.database, q);
  ASSERT_FALSE(tables.empty());
  int replayed = 0;
  for (const auto& table : tables) {
    EXPECT_THAT(table.metrics, ElementsAre("energy_j", "energy_dynamic_j", "energy_static_j",
                                           "power_w", "makespan_s"));
    for (const auto& row : table.rows) {
      const auto& v = row.values;
      if (!v[0]) continue;  // a static run
      ++replayed;
      ASSERT_TRUE(v[1] && v[2] && v[3] && v[4]);
      EXPECT_NEAR(*v[1] + *v[2], *v[0], 1e-12 * *v[0]);
      EXPECT_NEAR(*v[3], *v[0] / *v[4], 1e-9 * *v[3]);
    }
  }
  EXPECT_GT(replayed, 0);
  q.normalize = true;
  for (const auto& table : query(r.database, q)) {
    for (const auto& row : table.rows) {
      if (row.mapper == "in-order" && row.values[3]) {
        EXPECT_DOUBLE_EQ(*row.values[3], 1.0);
      }
    }
  }
  const auto all = schema::metrics();
  for (const auto* part : {"energy_dynamic_j", "energy_static_j", "power_w"}) {
    EXPECT_NE(std::find(all.begin(), all.end(), part), all.end()) << part;
    const auto view = schema::normalized_metrics();
    EXPECT_EQ(std::find(view.begin(), view.end(), part), view.end()) << part;
  }
}

TEST(QueryResults, WhereSelectsAndABadOneIsQuoted) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.where = "mapper = 'greedy' AND makespan_s > 0";  // a column of the results view
  const auto greedy = query(r.database, q);
  ASSERT_EQ(greedy.size(), 2U);  // the replayed contexts
  for (const auto& table : greedy) {
    EXPECT_EQ(table.model, "flow");
    ASSERT_EQ(table.rows.size(), 1U);
    EXPECT_EQ(table.rows[0].mapper, "greedy");
  }
  q.where = "hop_bytes < 0";
  EXPECT_TRUE(query(r.database, q).empty());
  EXPECT_EQ(written({}, TableFormat::Table), "no finished runs match\n");

  q.contexts = {r.sweep.runs[0].context_key};
  q.where.clear();
  const auto one = query(r.database, q);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].context_key, r.sweep.runs[0].context_key);

  for (const auto* where : {"no_such_column > 1", "hop_bytes >", "1); DROP TABLE runs; --"}) {
    ResultsQuery bad;
    bad.where = where;
    const auto message = error_of(r.database, bad);
    EXPECT_THAT(message, HasSubstr(fmt::format("--where '{}'", where)));
    EXPECT_THAT(message, Not(HasSubstr("(in: ")));  // not the whole generated SQL
  }
  EXPECT_THAT(error_of(r.database, ResultsQuery{"no_such_column > 1", {}, false, {}}),
              HasSubstr("no such column: no_such_column"));
  EXPECT_EQ(count(r.database, "SELECT COUNT(*) FROM runs"), 12);
}

TEST(QueryResults, FailedRunsShowTheirMessage) {
  const TempDir dir;
  const auto sweep = make_sweep(dir.path(), R"(
workloads: [stencil2d:S:16:iterations=1]
machines: [torus:2x2]
mappers: [in-order, greedy]
models: [static]
)");
  const auto database = dir.path() / "r.db";
  EXPECT_EQ(run(sweep, database).failed, 2U);
  const auto tables = query(database);
  ASSERT_EQ(tables.size(), 1U);
  ASSERT_EQ(tables[0].rows.size(), 2U);
  for (const auto& row : tables[0].rows) {
    EXPECT_EQ(row.done, 0);
    EXPECT_EQ(row.failed, 1);
    EXPECT_THAT(row.message, HasSubstr("do not fit"));
    for (const auto& value : row.values) EXPECT_FALSE(value.has_value());
  }
  const auto text = written(tables, TableFormat::Table);
  EXPECT_THAT(text, HasSubstr("failed: mapper 'in-order'"));
  const auto csv = parse_csv(written(tables, TableFormat::Csv));
  ASSERT_EQ(csv.size(), 3U);
  EXPECT_EQ(csv[1][9], "failed");
  EXPECT_EQ(csv[1][10], "");
}

// The MPI settings a run's configuration holds only when not the defaults tell contexts apart
// that differ in them alone (a sweep rerun with other overheads into one database).
TEST(QueryResults, TitlesNameTheMpiSettingsThatAreNotTheDefaults) {
  EXPECT_EQ(mpi_settings_title("model: flow\neager-threshold: 65536\n"), "");
  EXPECT_EQ(mpi_settings_title("collectives: ompi\nmodel: flow\noverheads: typical\n"),
            "collectives ompi, overheads typical");
  // search-overheads is a replaying mapper's, not the run's.
  EXPECT_EQ(mpi_settings_title("search-overheads: typical\nmodel: flow\n"), "");
  EXPECT_EQ(mpi_settings_title("bw-factor: 0:0.9;8192:0.95\nreverse-traffic: true\n"
                               "weight-s: 8775\nenvelope: 16\n"),
            "bw-factor 0:0.9;8192:0.95, reverse-traffic, weight-s 8775, envelope 16");
  // A calibration's nine steps: their count and a digest.
  const std::string steps = "65472:11.6436;15424:3.48845;0:2.01467";
  EXPECT_EQ(mpi_settings_title("lat-factor: " + steps + "\n"),
            "lat-factor of 3 steps #" + sha256(steps).substr(0, 6));

  ResultTable table;
  table.workload = "st2d";
  table.machine = "df";
  table.model = "flow";
  table.eager_threshold = 65536;
  table.compute_scale = 0;
  EXPECT_EQ(table.title(), "st2d on df, flow (eager 65536 B, compute x0)");
  table.mpi = "overheads typical";
  EXPECT_EQ(table.title(), "st2d on df, flow (eager 65536 B, compute x0; overheads typical)");
  table.eager_threshold.reset();
  table.compute_scale.reset();
  EXPECT_EQ(table.title(), "st2d on df, flow (overheads typical)");

  // A sweep run twice into one database, with and without overheads: two tables, told apart.
  const TempDir dir;
  const auto database = dir.path() / "r.db";
  for (const char* mpi : {"", "mpi: {overheads: typical, collectives: ompi}\n"}) {
    const auto sweep = make_sweep(dir.path(), std::string(R"(
workloads: [{generate: npb:lu:S:4, iterations: 1}]
machines: [torus:2x2]
mappers: [in-order]
models: [flow]
)") + mpi);
    EXPECT_EQ(run(sweep, database).done, 1U);
  }
  const auto tables = query(database);
  ASSERT_EQ(tables.size(), 2U);
  std::set<std::string> mpis{tables[0].mpi, tables[1].mpi};
  EXPECT_EQ(mpis, (std::set<std::string>{"", "collectives ompi, overheads typical"}));
  EXPECT_NE(tables[0].title(), tables[1].title());
}

// --- Output formats ---

TEST(WriteResults, CsvHasTheHeaderAndOneRecordPerRow) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  const auto tables = query(r.database);
  const auto records = parse_csv(written(tables, TableFormat::Csv));
  ASSERT_EQ(records.size(), 1U + 12U);
  std::vector<std::string> header{"workload",      "machine", "model",  "eager_threshold",
                                  "compute_scale", "mpi",     "mapper", "params",
                                  "seed",          "status"};
  for (const auto& m : default_metrics()) header.push_back(m);
  EXPECT_EQ(records[0], header);
  std::size_t at = 1;
  for (const auto& table : tables) {
    for (const auto& row : table.rows) {
      const auto& record = records[at++];
      ASSERT_EQ(record.size(), header.size());
      EXPECT_EQ(record[0], table.workload);
      EXPECT_EQ(record[1], table.machine);
      EXPECT_EQ(record[2], table.model);
      EXPECT_EQ(record[5], table.mpi);
      EXPECT_EQ(record[6], row.mapper);
      EXPECT_EQ(record[7], row.params);
      EXPECT_EQ(record[8], std::to_string(row.seed));
      EXPECT_EQ(record[9], "done");
      EXPECT_EQ(record[3].empty(), !table.eager_threshold.has_value());
      for (std::size_t m = 0; m < row.values.size(); ++m) {
        if (row.values[m]) {
          EXPECT_EQ(std::stod(record[10 + m]), *row.values[m]) << header[10 + m];
        } else {
          EXPECT_EQ(record[10 + m], "");
        }
      }
    }
  }
}

TEST(WriteResults, JsonIsWellFormedWithEveryRow) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.normalize = true;
  const auto tables = query(r.database, q);
  const auto json = JsonParser(written(tables, TableFormat::Json)).parse();
  ASSERT_EQ(json.kind, Json::Kind::Array);
  ASSERT_EQ(json.items.size(), 12U);
  std::size_t at = 0;
  for (const auto& table : tables) {
    for (const auto& row : table.rows) {
      const auto& item = json.items[at++];
      ASSERT_EQ(item.kind, Json::Kind::Object);
      std::vector<std::string> keys;
      for (const auto& [key, value] : item.members) keys.push_back(key);
      EXPECT_THAT(
          keys, ElementsAre("workload", "machine", "model", "eager_threshold", "compute_scale",
                            "mpi", "mapper", "params", "seed", "status", "normalized", "metrics"));
      EXPECT_EQ(item.find("mapper")->text, row.mapper);
      EXPECT_EQ(item.find("workload")->text, table.workload);
      EXPECT_EQ(item.find("seed")->number, static_cast<double>(row.seed));
      EXPECT_EQ(item.find("status")->text, "done");
      EXPECT_EQ(item.find("normalized")->kind, Json::Kind::Bool);
      EXPECT_TRUE(item.find("normalized")->boolean);
      EXPECT_EQ(item.find("eager_threshold")->kind,
                table.eager_threshold ? Json::Kind::Number : Json::Kind::Null);
      const auto* metrics = item.find("metrics");
      ASSERT_NE(metrics, nullptr);
      ASSERT_EQ(metrics->members.size(), table.metrics.size());
      for (std::size_t m = 0; m < table.metrics.size(); ++m) {
        EXPECT_EQ(metrics->members[m].first, table.metrics[m]);
        const auto& value = metrics->members[m].second;
        if (row.values[m]) {
          ASSERT_EQ(value.kind, Json::Kind::Number);
          EXPECT_EQ(value.number, *row.values[m]);
        } else {
          EXPECT_EQ(value.kind, Json::Kind::Null);
        }
      }
    }
  }
  EXPECT_EQ(written({}, TableFormat::Json), "[]\n");
  EXPECT_EQ(JsonParser(written({}, TableFormat::Json)).parse().items.size(), 0U);
}

TEST(QueryFormats, JsonStaysUtf8WhateverTheDatabaseHolds) {
  // Bytes that are not UTF-8 (a database written before configs were checked, or altered) made
  // invalid JSON; they print as U+FFFD, and UTF-8 text as it is.
  ResultTable table;
  table.context_key = "c";
  table.workload = "lu\xff\xfe-\xc3\xa9t\xc3\xa9-\xe2\x82";
  table.machine = "torus:4x4";
  table.model = "flow";
  table.metrics = {"hop_bytes"};
  table.rows.push_back({"in-order", "", 0, 1, 0, "", {1.0}});
  const auto json = written({table}, TableFormat::Json);
  EXPECT_THAT(json,
              HasSubstr("\"workload\": \"lu\\ufffd\\ufffd-\xc3\xa9t\xc3\xa9-\\ufffd\\ufffd\""));
  for (std::size_t at = 0; at < json.size();) {
    const auto length = utf8_length(json, at);
    ASSERT_NE(length, 0U) << "byte " << at << " is not UTF-8";
    at += length;
  }
}

/// A hand-made table with awkward text: quotes, commas, a newline, a backslash.
std::vector<ResultTable> awkward_tables() {
  ResultTable table;
  table.context_key = "c";
  table.workload = "my \"big\" run, v2";
  table.machine = "torus:4x4";
  table.model = "flow";
  table.eager_threshold = 65536;
  table.compute_scale = 0.5;
  table.mpi = "collectives ompi, overheads typical,network.o_s=600";
  table.metrics = {"hop_bytes", "makespan_s"};
  ResultRow inorder{"in-order", "", 0, 1, 0, "", {1000.0, 2.5e-6}};
  ResultRow odd{"scotch[a=1,b=2]", "a=1,b=2", 3, 1, 0, "", {750.0, std::nullopt}};
  ResultRow broken{"weird\\mapper\nname", "", 0, 0, 1, "it broke", {std::nullopt, std::nullopt}};
  table.rows = {inorder, odd, broken};
  return {table};
}

TEST(WriteResults, QuotesAndEscapesAwkwardText) {
  const auto tables = awkward_tables();
  const auto records = parse_csv(written(tables, TableFormat::Csv));
  ASSERT_EQ(records.size(), 4U);
  EXPECT_EQ(records[1][0], "my \"big\" run, v2");
  EXPECT_EQ(records[1][3], "65536");
  EXPECT_EQ(records[1][4], "0.5");
  EXPECT_EQ(records[1][5], "collectives ompi, overheads typical,network.o_s=600");
  EXPECT_EQ(records[2][6], "scotch[a=1,b=2]");
  EXPECT_EQ(records[2][7], "a=1,b=2");
  EXPECT_EQ(records[2][8], "3");
  EXPECT_EQ(records[2][10], "750");
  EXPECT_EQ(records[2][11], "");
  EXPECT_EQ(records[3][6], "weird\\mapper\nname");
  EXPECT_EQ(records[3][9], "failed");

  const auto json = JsonParser(written(tables, TableFormat::Json)).parse();
  ASSERT_EQ(json.items.size(), 3U);
  EXPECT_EQ(json.items[0].find("workload")->text, "my \"big\" run, v2");
  EXPECT_EQ(json.items[0].find("compute_scale")->number, 0.5);
  EXPECT_EQ(json.items[0].find("mpi")->text, tables[0].mpi);
  EXPECT_FALSE(json.items[0].find("normalized")->boolean);
  EXPECT_EQ(json.items[2].find("mapper")->text, "weird\\mapper\nname");
  EXPECT_EQ(json.items[2].find("status")->text, "failed");
  EXPECT_EQ(json.items[1].find("metrics")->find("makespan_s")->kind, Json::Kind::Null);
  EXPECT_EQ(json.items[0].find("metrics")->find("makespan_s")->number, 2.5e-6);
}

TEST(WriteResults, TableAndMarkdownShowEveryRow) {
  const auto tables = awkward_tables();
  const auto text = lines_of(written(tables, TableFormat::Table));
  ASSERT_GE(text.size(), 5U);
  EXPECT_EQ(text[0], tables[0].title());
  EXPECT_THAT(text[1], AllOf(HasSubstr("mapper"), HasSubstr("seed"), HasSubstr("hop_bytes"),
                             HasSubstr("makespan_s")));
  EXPECT_THAT(text[2], AllOf(HasSubstr("in-order"), HasSubstr("1000"), HasSubstr("2.5e-06")));
  EXPECT_THAT(text[3], AllOf(HasSubstr("scotch[a=1,b=2]"), HasSubstr("750"), HasSubstr("-")));
  EXPECT_THAT(written(tables, TableFormat::Table), HasSubstr("failed: it broke"));

  const auto markdown = lines_of(written(tables, TableFormat::Markdown));
  ASSERT_GE(markdown.size(), 6U);
  EXPECT_EQ(markdown[0], "### " + tables[0].title());
  EXPECT_EQ(markdown[1], "");
  EXPECT_EQ(markdown[2], "| mapper | seed | hop_bytes | makespan_s |");
  EXPECT_EQ(markdown[3], "|---|---|---:|---:|");
  EXPECT_EQ(markdown[4], "| in-order | 0 | 1000 | 2.5e-06 |");
  EXPECT_EQ(markdown[5], "| scotch[a=1,b=2] | 3 | 750 | - |");

  auto normalized = tables;
  normalized[0].normalized = true;
  normalized[0].rank_correlation = -0.25;
  const auto note = written(normalized, TableFormat::Table);
  EXPECT_THAT(note, AllOf(HasSubstr("values relative to in-order"),
                          HasSubstr("rank correlation of hop-bytes and makespan: -0.25"),
                          HasSubstr("1000.000")));
  normalized[0].baseline_missing = true;
  EXPECT_THAT(written(normalized, TableFormat::Markdown),
              HasSubstr("no in-order run here to normalise by"));
}

TEST(WriteResults, FormatNamesAndTitles) {
  EXPECT_EQ(table_format_from_name("table"), TableFormat::Table);
  EXPECT_EQ(table_format_from_name("csv"), TableFormat::Csv);
  EXPECT_EQ(table_format_from_name("json"), TableFormat::Json);
  EXPECT_EQ(table_format_from_name("markdown"), TableFormat::Markdown);
  for (const auto* bad : {"xml", "CSV", ""}) {
    try {
      (void)table_format_from_name(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), AllOf(HasSubstr(fmt::format("'{}'", bad)),
                                  HasSubstr("table, csv, json, markdown")));
    }
  }
  ResultTable table;
  table.workload = "lu:W:64";
  table.machine = "torus:4x4x4";
  table.model = "flow";
  EXPECT_EQ(table.title(), "lu:W:64 on torus:4x4x4, flow");
  table.eager_threshold = 65536;
  table.compute_scale = 0;
  EXPECT_EQ(table.title(), "lu:W:64 on torus:4x4x4, flow (eager 65536 B, compute x0)");
}

// --- Summary ---

std::vector<std::vector<std::string>> summary_words(const std::vector<ResultTable>& tables) {
  std::ostringstream out;
  write_summary(out, tables);
  std::vector<std::vector<std::string>> words;
  for (const auto& line : lines_of(out.str())) {
    std::istringstream in(line);
    words.emplace_back();
    for (std::string word; in >> word;) words.back().push_back(word);
  }
  return words;
}

TEST(WriteSummary, NamesTheBestMapperByEachMeasure) {
  ResultTable table;
  table.workload = "lu";
  table.machine = "torus";
  table.model = "flow";
  table.metrics = {"hop_bytes", "makespan_s"};
  table.normalized = true;
  table.rank_correlation = 0.5;
  table.rows = {{"in-order", "", 0, 1, 0, "", {1.0, 1.0}},
                {"greedy", "", 0, 1, 0, "", {0.5, 0.9}},
                {"random", "", 0, 1, 0, "", {1.2, 0.8}},
                {"broken", "", 0, 0, 1, "x", {std::nullopt, std::nullopt}}};
  ResultTable no_baseline = table;
  no_baseline.machine = "mesh";
  no_baseline.baseline_missing = true;
  no_baseline.rank_correlation.reset();
  ResultTable nothing = table;
  nothing.machine = "haec";
  nothing.rank_correlation.reset();
  nothing.rows = {{"broken", "", 0, 0, 1, "x", {std::nullopt, std::nullopt}}};

  const auto words = summary_words({table, no_baseline, nothing});
  ASSERT_EQ(words.size(), 4U);
  EXPECT_THAT(words[0], ElementsAre("workload", "machine", "model", "mappers", "lowest",
                                    "hop-bytes", "shortest", "makespan", "rho"));
  EXPECT_THAT(words[1], ElementsAre("lu", "torus", "flow", "4", "greedy", "0.500", "random",
                                    "0.800", "+0.50"));
  // Without in-order the best is named but there is no ratio to give.
  EXPECT_THAT(words[2], ElementsAre("lu", "mesh", "flow", "4", "greedy", "random", "-"));
  EXPECT_THAT(words[3], ElementsAre("lu", "haec", "flow", "1", "-", "-", "-"));
}

TEST(WriteSummary, OfAStoredSweep) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  ResultsQuery q;
  q.metrics = {"hop_bytes", "makespan_s"};
  q.normalize = true;
  q.where = "model = 'flow' AND machine = 'torus:4x4'";
  const auto tables = query(r.database, q);
  ASSERT_EQ(tables.size(), 1U);
  const auto best = [&](std::size_t m) {
    const ResultRow* winner = nullptr;
    for (const auto& row : tables[0].rows) {
      if (row.values[m] && (winner == nullptr || *row.values[m] < *winner->values[m]))
        winner = &row;
    }
    return winner;
  };
  const auto words = summary_words(tables);
  ASSERT_EQ(words.size(), 2U);
  ASSERT_GE(words[1].size(), 8U);
  EXPECT_EQ(words[1][3], "3");
  EXPECT_EQ(words[1][4], best(0)->mapper);
  EXPECT_EQ(words[1][5], fmt::format("{:.3f}", *best(0)->values[0]));
  EXPECT_EQ(words[1][6], best(1)->mapper);
  EXPECT_EQ(words[1][7], fmt::format("{:.3f}", *best(1)->values[1]));
}

TEST(QueryResults, RankCorrelationTreatsNearTiesAsTies) {
  // in-order 100000 hop-bytes / 3 s, greedy 100050 (0.05 % more) / 1 s, random 200000 / 2 s.
  const TempDir dir;
  std::vector<HandRun> runs;
  for (const auto& [mapper, hops, time] :
       {std::tuple("in-order", 100000.0, 3.0), std::tuple("greedy", 100050.0, 1.0),
        std::tuple("random", 200000.0, 2.0)}) {
    runs.push_back(hand_run("npb:mg:W:16", "torus:4x4", mapper, 16));
    runs.back().hop_bytes = hops;
    runs.back().makespan_s = time;
  }
  add_runs(dir.path() / "r.db", runs);
  Store store(dir.path() / "r.db", Store::Access::Read);
  ResultsQuery q;
  q.metrics = {"hop_bytes", "makespan_s"};
  // Exact: ranks (1, 2, 3) against (3, 1, 2), rho = 1 - 6 * 6 / 24 = -0.5, as the view.
  q.tie_tolerance = 0;
  auto tables = query_results(store, q);
  ASSERT_EQ(tables.size(), 1U);
  ASSERT_TRUE(tables[0].rank_correlation);
  EXPECT_NEAR(*tables[0].rank_correlation, -0.5, kTolerance);
  EXPECT_EQ(tables[0].pairs, 3U);
  EXPECT_EQ(tables[0].tied_pairs, 0U);
  // Within 0.1 % (the default): hop-bytes ranks (1.5, 1.5, 3), rho 0 (hand-solved in
  // ReportAgreement.NearTiesWithinTheToleranceAreTies), one pair tied.
  q.tie_tolerance = kDefaultTieTolerance;
  tables = query_results(store, q);
  ASSERT_TRUE(tables[0].rank_correlation);
  EXPECT_NEAR(*tables[0].rank_correlation, 0, kTolerance);
  EXPECT_EQ(tables[0].tied_pairs, 1U);
  std::ostringstream table;
  write_results(table, tables, TableFormat::Table);
  EXPECT_THAT(table.str(), HasSubstr("rank correlation of hop-bytes and makespan: +0.00 (1 of 3 "
                                     "pairs tied: within 0.1 %)"));
  // Within 60 %: every pair tied (see that test), so no rank correlation to read.
  q.tie_tolerance = 0.6;
  tables = query_results(store, q);
  EXPECT_EQ(tables[0].tied_pairs, 3U);
  EXPECT_TRUE(tables[0].mostly_tied());
  table.str("");
  write_results(table, tables, TableFormat::Table);
  EXPECT_THAT(table.str(), HasSubstr("hop-bytes and makespan mostly tied (3 of 3 pairs within "
                                     "60 %): no rank correlation to read"));
  EXPECT_THAT(table.str(), Not(HasSubstr("rank correlation of")));
  q.normalize = true;
  std::ostringstream summary;
  write_summary(summary, query_results(store, q));
  EXPECT_THAT(summary.str(), HasSubstr("mostly tied"));
}

// --- Stored mappings ---

TEST(FindRunMapping, ByNameOrKeyPrefixGivesTheMappersMapping) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  Store store(r.database, Store::Access::Read);
  std::vector<std::string> keys;
  for (const auto& run : r.sweep.runs) keys.push_back(run.key);
  for (const auto& run : r.sweep.runs) {
    SCOPED_TRACE(run.name);
    const auto by_name = find_run_mapping(store, run.name);
    EXPECT_EQ(by_name.key, run.key);
    EXPECT_EQ(by_name.name, run.name);
    EXPECT_EQ(by_name.topology, r.sweep.machine(run).topology);
    // The shortest unique prefix of 6 or more digits finds it too.
    std::size_t length = 6;
    while (std::count_if(keys.begin(), keys.end(), [&](const std::string& k) {
             return k.compare(0, length, run.key, 0, length) == 0;
           }) > 1) {
      ++length;
    }
    const auto by_prefix = find_run_mapping(store, run.key.substr(0, length));
    EXPECT_EQ(by_prefix.key, run.key);
    EXPECT_EQ(by_prefix.mapping, by_name.mapping);
    EXPECT_EQ(find_run_mapping(store, run.key).mapping, by_name.mapping);
    // What the mapper computes for this run.
    const auto matrix = load(r.sweep.workload(run), r.sweep.config.collectives).matrix;
    const auto expected =
        map::make_mapper(r.sweep.mapper(run).name)
            ->map(matrix, *r.sweep.machines[run.machine], static_cast<map::Seed>(run.seed));
    EXPECT_EQ(by_name.mapping, expected);
  }
}

TEST(FindRunMapping, UnknownAmbiguousOrUnmappedRunsAreErrors) {
  const TempDir dir;
  const auto r = run_query_sweep(dir);
  {
    Store store(r.database, Store::Access::Write);
    std::vector<RunIdentity> runs;
    for (int i = 0; i < 7; ++i) runs.push_back(fake_identity(fmt::format("abcdef{:02}", i)));
    runs.push_back(fake_identity("fedcba00"));
    const auto me = this_process("test");
    ASSERT_EQ(store.claim(runs, me, false), std::vector<bool>(8, true));
    RunRecord record;
    record.key = "fedcba00";
    record.message = "mapper 'x': too big";
    ASSERT_TRUE(store.commit(record, me));
  }
  Store store(r.database, Store::Access::Read);
  const auto error = [&](std::string_view run) {
    try {
      (void)find_run_mapping(store, run);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(error("abcdef0"), AllOf(HasSubstr("'abcdef0' matches several runs"),
                                      HasSubstr("abcdef00 (run-abcdef00)"),
                                      HasSubstr("abcdef04 (run-abcdef04)"), HasSubstr(", ...")));
  EXPECT_THAT(error("abcdef00"),
              AllOf(HasSubstr("run-abcdef00"), HasSubstr("no stored mapping (status running)")));
  EXPECT_THAT(error("run-fedcba00"),
              HasSubstr("no stored mapping (status failed: mapper 'x': too big)"));
  // Fewer than 6 digits are no key prefix.
  const auto prefix = r.sweep.runs[0].key.substr(0, 5);
  EXPECT_THAT(error(prefix), AllOf(HasSubstr(fmt::format("'{}': no run", prefix)),
                                   HasSubstr(r.database.string())));
  EXPECT_THAT(error("no such run"), HasSubstr("'no such run': no run"));
  EXPECT_THAT(error(""), HasSubstr("no run"));
}

}  // namespace
}  // namespace mapsim::exp

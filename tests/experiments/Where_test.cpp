// `where` conditions over hand-built configuration rows: comparisons, IN, LIKE, NULL and errors.

#include "experiments/Where.hpp"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::exp {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;

/// A row: the given configuration columns, every other one NULL, then the run name.
schema::Row row(std::vector<std::pair<std::string_view, schema::Value>> values,
                std::string run_name) {
  const auto columns = schema::config_columns();
  schema::Row result(columns.size());
  for (auto& [column, value] : values) {
    bool found = false;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].name == column) {
        result[i] = std::move(value);
        found = true;
      }
    }
    EXPECT_TRUE(found) << "no configuration column " << column;
  }
  result.emplace_back(std::move(run_name));
  return result;
}

/// Four runs: a generated LU on 4 ranks with in-order and flow, a generated CG on 64 ranks with
/// greedy and packet, a matrix (no ranks known, static) with scotch, and a trace whose workload
/// label has a quote in it.
std::vector<schema::Row> rows() {
  using V = schema::Value;
  std::vector<schema::Row> result;
  result.push_back(row({{"workload", V{std::string("npb:lu:S:4")}},
                        {"workload_kind", V{std::string("generated")}},
                        {"ranks", V{std::int64_t{4}}},
                        {"mapper", V{std::string("in-order")}},
                        {"seed", V{std::int64_t{0}}},
                        {"model", V{std::string("flow")}},
                        {"eager_threshold", V{std::int64_t{65536}}},
                        {"compute_scale", V{1.0}}},
                       "lu/torus/in-order/flow"));
  result.push_back(row({{"workload", V{std::string("npb:cg:S:64")}},
                        {"workload_kind", V{std::string("generated")}},
                        {"ranks", V{std::int64_t{64}}},
                        {"mapper", V{std::string("greedy")}},
                        {"seed", V{std::int64_t{3}}},
                        {"model", V{std::string("packet")}},
                        {"packet_size", V{std::int64_t{1024}}},
                        {"eager_threshold", V{std::int64_t{0}}},
                        {"compute_scale", V{0.5}}},
                       "cg/torus/greedy/packet"));
  result.push_back(row({{"workload", V{std::string("m.csv")}},
                        {"workload_kind", V{std::string("matrix")}},
                        {"mapper", V{std::string("scotch")}},
                        {"seed", V{std::int64_t{1}}},
                        {"model", V{std::string("static")}}},
                       "m.csv/torus/scotch/static"));
  result.push_back(row({{"workload", V{std::string("it's")}},
                        {"workload_kind", V{std::string("trace")}},
                        {"ranks", V{std::int64_t{16}}},
                        {"mapper", V{std::string("scotch")}},
                        {"seed", V{std::int64_t{0}}},
                        {"model", V{std::string("flow")}},
                        {"compute_scale", V{0.0}}},
                       "its/torus/scotch/flow"));
  return result;
}

std::vector<bool> holds(std::string_view expression) {
  const auto all = rows();
  return where_holds(expression, all, "test");
}

std::string error_of(std::string_view expression, std::string_view origin = "sweep.yaml:9:8") {
  const auto all = rows();
  try {
    (void)where_holds(expression, all, origin);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

using Holds = std::vector<bool>;

TEST(Where, Comparisons) {
  EXPECT_EQ(holds("ranks <= 16"), (Holds{true, false, false, true}));
  EXPECT_EQ(holds("ranks > 4"), (Holds{false, true, false, true}));
  EXPECT_EQ(holds("seed = 0"), (Holds{true, false, false, true}));
  EXPECT_EQ(holds("mapper = 'scotch'"), (Holds{false, false, true, true}));
  EXPECT_EQ(holds("mapper <> 'scotch'"), (Holds{true, true, false, false}));
  // REAL columns compare with integers and decimals alike.
  EXPECT_EQ(holds("compute_scale < 1"), (Holds{false, true, false, true}));
  EXPECT_EQ(holds("compute_scale = 0.5"), (Holds{false, true, false, false}));
}

TEST(Where, BooleanOperators) {
  EXPECT_EQ(holds("mapper = 'scotch' AND seed > 0"), (Holds{false, false, true, false}));
  EXPECT_EQ(holds("model = 'packet' OR workload_kind = 'matrix'"),
            (Holds{false, true, true, false}));
  EXPECT_EQ(holds("NOT (model = 'flow' AND seed = 0)"), (Holds{false, true, true, false}));
  EXPECT_EQ(holds("1"), (Holds{true, true, true, true}));
  EXPECT_EQ(holds("0"), (Holds{false, false, false, false}));
}

TEST(Where, InAndLike) {
  EXPECT_EQ(holds("mapper IN ('in-order', 'greedy')"), (Holds{true, true, false, false}));
  EXPECT_EQ(holds("mapper NOT IN ('in-order', 'greedy')"), (Holds{false, false, true, true}));
  EXPECT_EQ(holds("workload LIKE 'npb:%'"), (Holds{true, true, false, false}));
  // LIKE ignores ASCII case; _ is one character.
  EXPECT_EQ(holds("workload LIKE 'NPB:__:S:%'"), (Holds{true, true, false, false}));
  EXPECT_EQ(holds("workload = 'it''s'"), (Holds{false, false, false, true}));
}

TEST(Where, NullIsNeitherTrueNorFalse) {
  // The matrix run has no ranks: neither ranks <= 16 nor its negation holds for it.
  EXPECT_EQ(holds("ranks <= 16"), (Holds{true, false, false, true}));
  EXPECT_EQ(holds("NOT (ranks <= 16)"), (Holds{false, true, false, false}));
  EXPECT_EQ(holds("ranks IS NULL"), (Holds{false, false, true, false}));
  EXPECT_EQ(holds("packet_size IS NOT NULL"), (Holds{false, true, false, false}));
  EXPECT_EQ(holds("eager_threshold IS NULL"), (Holds{false, false, true, true}));
  EXPECT_EQ(holds("coalesce(packet_size, 0) = 0"), (Holds{true, false, true, true}));
  // A column never given is NULL in every row.
  EXPECT_EQ(holds("topology IS NULL"), (Holds{true, true, true, true}));
}

TEST(Where, TheRunNameIsTheLastColumn) {
  EXPECT_EQ(holds("name = 'cg/torus/greedy/packet'"), (Holds{false, true, false, false}));
  EXPECT_EQ(holds("name LIKE '%/flow'"), (Holds{true, false, false, true}));
}

TEST(Where, NoRowsNothingHolds) {
  EXPECT_TRUE(where_holds("ranks > 0", {}, "test").empty());
}

TEST(WhereErrors, UnknownColumnNamesOriginExpressionAndColumns) {
  std::string columns;
  for (const auto& c : schema::config_columns()) columns += std::string(c.name) + ", ";
  columns += "name";
  EXPECT_THAT(error_of("colour = 'red'"),
              AllOf(StartsWith("sweep.yaml:9:8: where 'colour = 'red'': "),
                    HasSubstr("no such column: colour"), EndsWith("; columns: " + columns)));
  // The expression is checked even without rows.
  EXPECT_THROW((void)where_holds("colour = 1", {}, "--where"), InputError);
}

TEST(WhereErrors, SyntaxError) {
  EXPECT_THAT(error_of("ranks <= ", "--where"),
              AllOf(StartsWith("--where 'ranks <= ': "), HasSubstr("syntax error")));
  EXPECT_THAT(error_of("mapper = 'greedy"),
              AllOf(StartsWith("sweep.yaml:9:8: where 'mapper = 'greedy': "),
                    HasSubstr("the string at position 10 is not closed")));
}

TEST(WhereErrors, OneExpressionOnly) {
  EXPECT_THAT(error_of("1; DROP TABLE candidates"),
              StartsWith("sweep.yaml:9:8: where '1; DROP TABLE candidates': "));
  // Closing the parenthesis around the expression does not let a second statement through.
  EXPECT_THAT(error_of("1); DROP TABLE candidates; SELECT (1"),
              AllOf(StartsWith("sweep.yaml:9:8: where '1); DROP TABLE candidates; SELECT (1': "),
                    HasSubstr("')' at position 2 closes a parenthesis it did not open")));
  // Nor does a comment hiding the rest of the query.
  EXPECT_THAT(error_of("1) ORDER BY row; --"),
              StartsWith("sweep.yaml:9:8: where '1) ORDER BY row; --': "));
  // And the rows are still there for the next condition.
  EXPECT_EQ(holds("1"), (Holds{true, true, true, true}));
}

TEST(WhereErrors, NothingEndsTheExpressionEarly) {
  // The expression was spliced into the query as "WHERE (EXPR)": "1) GROUP BY mapper --" made
  // a query of another shape (a config's where dropped runs silently, `results` printed a wrong
  // table and exited 0), and "1) GROUP BY (mapper" balanced its parentheses to the same end.
  for (const char* spliced : {"1) GROUP BY mapper --", "1) GROUP BY (mapper", "1) OR (1",
                              "ranks > 0) /* */ ORDER BY (row"}) {
    EXPECT_THAT(error_of(spliced),
                AllOf(StartsWith(fmt::format("sweep.yaml:9:8: where '{}': ", spliced)),
                      HasSubstr("closes a parenthesis it did not open")))
        << spliced;
  }
  EXPECT_THAT(error_of("(ranks > 0"), HasSubstr("'(' at position 1 is not closed"));
  EXPECT_THAT(error_of("ranks > 0 /* why"), HasSubstr("the comment at position 11 is not closed"));
  EXPECT_THAT(error_of("\"ranks > 0"), HasSubstr("the quoted name at position 1 is not closed"));
  EXPECT_THAT(error_of("-- nothing"), HasSubstr("the condition is empty"));
  EXPECT_THAT(error_of("ranks > 0; "), HasSubstr("';' at position 10"));
}

TEST(Where, ATrailingCommentIsPartOfTheCondition) {
  // It failed with "incomplete input": the comment hid the closing parenthesis.
  EXPECT_EQ(holds("ranks <= 16 -- the small ones"), (Holds{true, false, false, true}));
  EXPECT_EQ(holds("ranks <= 16 /* small */ AND mapper = 'in-order' -- first"),
            (Holds{true, false, false, false}));
  // Parentheses, semicolons and comment marks inside strings and quoted names are text.
  EXPECT_EQ(holds("workload = ')' OR name = '; --' OR \"mapper\" = 'scotch'"),
            (Holds{false, false, true, true}));
  EXPECT_EQ(holds("(ranks <= 16) AND (seed = 0 OR (mapper = 'scotch'))"),
            (Holds{true, false, false, true}));
}

}  // namespace
}  // namespace mapsim::exp

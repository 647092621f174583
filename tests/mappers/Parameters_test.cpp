#include "mappers/Parameters.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mappers/Mapper.hpp"
#include "support/Error.hpp"

namespace mapsim::map {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr ParamSpec kSpecs[] = {
    {"loops", ParamType::Integer, "10", "iterations", 1, 100},
    {"rate", ParamType::Real, "0.5", "probability", 0, 1},
    {"verbose", ParamType::Boolean, "false", "talk"},
    {"layers", ParamType::Choice, "best", "how", 0, 0, "stack|fold|best"},
    {"grid", ParamType::Text, "", "shape"},
};

std::string error_of(const ParamList& given) {
  try {
    (void)parse_params("mapper 'test'", kSpecs, given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string make_mapper_error(std::string_view name, const ParamList& given) {
  try {
    (void)make_mapper(name, given);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Parameters, DefaultsApplyWhenNothingIsGiven) {
  const auto values = parse_params("mapper 'test'", kSpecs, {});
  EXPECT_EQ(values.integer("loops"), 10);
  EXPECT_DOUBLE_EQ(values.real("rate"), 0.5);
  EXPECT_FALSE(values.flag("verbose"));
  EXPECT_EQ(values.text("layers"), "best");
  EXPECT_EQ(values.text("grid"), "");
  EXPECT_EQ(values.describe(), "grid= layers=best loops=10 rate=0.5 verbose=false");
}

TEST(Parameters, GivenValuesOverrideDefaults) {
  const auto values = parse_params(
      "mapper 'test'", kSpecs,
      {{"loops", "42"}, {"rate", "1"}, {"verbose", "yes"}, {"layers", "fold"}, {"grid", "9x8"}});
  EXPECT_EQ(values.integer("loops"), 42);
  EXPECT_DOUBLE_EQ(values.real("rate"), 1.0);
  EXPECT_TRUE(values.flag("verbose"));
  EXPECT_EQ(values.text("layers"), "fold");
  EXPECT_EQ(values.text("grid"), "9x8");
}

TEST(Parameters, RejectsUnknownKeyListingValidOnes) {
  EXPECT_THAT(error_of({{"loop", "3"}}),
              HasSubstr("mapper 'test': unknown parameter 'loop'; valid: loops, rate, verbose, "
                        "layers, grid"));
}

TEST(Parameters, RejectsRepeatedKey) {
  EXPECT_THAT(error_of({{"loops", "3"}, {"loops", "4"}}),
              HasSubstr("parameter 'loops' is given twice"));
}

TEST(Parameters, RejectsIntegerOutOfRangeOrMalformed) {
  EXPECT_THAT(error_of({{"loops", "0"}}),
              HasSubstr("parameter 'loops': 0 is out of range [1, 100]"));
  EXPECT_THAT(error_of({{"loops", "ten"}}), HasSubstr("'ten' is not an integer"));
}

TEST(Parameters, RejectsRealOutOfRange) {
  // Above and below in the same words, with the range; past a double's range too.
  EXPECT_THAT(error_of({{"rate", "1.5"}}),
              HasSubstr("parameter 'rate': 1.5 is out of range [0, 1]"));
  EXPECT_THAT(error_of({{"rate", "-0.5"}}),
              HasSubstr("parameter 'rate': -0.5 is out of range [0, 1]"));
  EXPECT_THAT(error_of({{"rate", "1e400"}}),
              HasSubstr("parameter 'rate': 1e400 is out of range [0, 1]"));
  EXPECT_THAT(error_of({{"rate", "inf"}}), HasSubstr("'inf' is not a finite number"));
}

TEST(Parameters, AMisspelledChoiceGetsASuggestion) {
  EXPECT_THAT(error_of({{"layers", "fodl"}}), HasSubstr("did you mean 'fold'?"));
  EXPECT_THAT(make_mapper_error("best", {{"objective", "enrgy"}}),
              HasSubstr("'enrgy' is not one of hop-bytes, congestion"));
  EXPECT_THAT(make_mapper_error("best", {{"objective", "enrgy"}}),
              HasSubstr("did you mean 'energy'?"));
}

TEST(Parameters, RejectsBadBooleanAndChoice) {
  EXPECT_THAT(error_of({{"verbose", "maybe"}}), HasSubstr("'maybe' is not a boolean"));
  EXPECT_THAT(error_of({{"layers", "pile"}}),
              HasSubstr("parameter 'layers': 'pile' is not one of stack, fold, best"));
}

TEST(Parameters, SplitsKeyValue) {
  EXPECT_EQ(split_param("a=b=c", "--param"), (std::pair<std::string, std::string>{"a", "b=c"}));
  EXPECT_THROW((void)split_param("novalue", "--param"), InputError);
  EXPECT_THROW((void)split_param("=3", "--param"), InputError);
}

TEST(Parameters, UndeclaredKeyIsABug) {
  const auto values = parse_params("mapper 'test'", kSpecs, {});
  EXPECT_THROW((void)values.integer("nope"), InternalError);
  EXPECT_THROW((void)values.real("loops"), InternalError);  // wrong type
}

TEST(Parameters, EveryRegisteredDefaultIsValid) {
  for (const auto& info : mapper_infos()) {
    EXPECT_NO_THROW((void)make_mapper(info.name)) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(info.description.find('\n'), std::string_view::npos) << info.name;
  }
}

TEST(Parameters, UnknownMapperListsValidNames) {
  try {
    (void)make_mapper("gredy");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown mapper 'gredy'; valid: in-order, round-robin"));
  }
}

TEST(Parameters, MapperRejectsUnknownParameter) {
  try {
    (void)make_mapper("greedy", {{"wieght", "bytes"}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("mapper 'greedy': unknown parameter 'wieght'; valid: weight"));
  }
  EXPECT_THROW((void)make_mapper("in-order", {{"x", "1"}}), InputError);
}

TEST(Parameters, AMapperItemNamesTheMapperAndItsParameters) {
  const auto bare = parse_mapper_item(" greedy ", "--mapper");
  EXPECT_EQ(bare.name, "greedy");
  EXPECT_TRUE(bare.params.empty());
  EXPECT_EQ(bare.label, "greedy");
  const auto item = parse_mapper_item("mxovlp:layers=tile-fold:pattern=dominant", "--mapper");
  EXPECT_EQ(item.name, "mxovlp");
  EXPECT_EQ(item.params, (ParamList{{"layers", "tile-fold"}, {"pattern", "dominant"}}));
  EXPECT_EQ(item.label, "mxovlp:layers=tile-fold:pattern=dominant");
  // A value may hold '=' (only the first splits key from value).
  EXPECT_EQ(parse_mapper_item("best:objective=latency", "x").params,
            (ParamList{{"objective", "latency"}}));
}

TEST(Parameters, ABadMapperItemIsNamedWithWhereItCameFrom) {
  const auto error_of_item = [](std::string_view item) {
    try {
      (void)parse_mapper_item(item, "--mapper");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_THAT(error_of_item("  "), HasSubstr("--mapper: an empty item"));
  EXPECT_THAT(error_of_item("gredy"),
              AllOf(HasSubstr("--mapper item 'gredy'"), HasSubstr("unknown mapper 'gredy'")));
  EXPECT_THAT(error_of_item("mxovlp:layers=tiles"),
              AllOf(HasSubstr("--mapper item 'mxovlp:layers=tiles'"), HasSubstr("'tiles'")));
  EXPECT_THAT(error_of_item("greedy:wieght=bytes"),
              AllOf(HasSubstr("item 'greedy:wieght=bytes'"), HasSubstr("'wieght'")));
  EXPECT_THAT(error_of_item("greedy:weight"),
              AllOf(HasSubstr("item 'greedy:weight'"), HasSubstr("not of the form key=value")));
  EXPECT_THAT(error_of_item("greedy:weight=bytes:weight=messages"), HasSubstr("'weight'"));
}

}  // namespace
}  // namespace mapsim::map

// Slurm hostlist expressions: expansion as Slurm's hostlist.c reads them, compression back, and
// every malformed expression rejected with the place and the expression in the message.

#include "support/Hostlist.hpp"

#include <algorithm>
#include <random>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim {
namespace {

using ::testing::HasSubstr;
using Names = std::vector<std::string>;

Names expand(std::string_view expression) {
  return expand_hostlist(expression, "test");
}

std::string error_of(std::string_view expression) {
  try {
    (void)expand_hostlist(expression, "hosts.txt:3");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Hostlist, PlainNamesAndCommas) {
  EXPECT_EQ(expand("a1"), Names{"a1"});
  EXPECT_EQ(expand("a1,b7,c"), (Names{"a1", "b7", "c"}));
}

TEST(Hostlist, RangesAndSingleNumbers) {
  EXPECT_EQ(expand("nid[1-3]"), (Names{"nid1", "nid2", "nid3"}));
  // Listed order is kept: a range, then single numbers, as written.
  EXPECT_EQ(expand("n[7,1-2,5]"), (Names{"n7", "n1", "n2", "n5"}));
  EXPECT_EQ(expand("n[4-4]"), Names{"n4"});
}

TEST(Hostlist, ZeroPaddingFollowsTheLowBound) {
  // "[0001-0004,0007]": four digits each (the brief's example).
  EXPECT_EQ(expand("nid[0001-0004,0007]"),
            (Names{"nid0001", "nid0002", "nid0003", "nid0004", "nid0007"}));
  // "[08-10]" keeps two digits; "[8-10]" has none to keep, so 10 is simply longer.
  EXPECT_EQ(expand("n[08-10]"), (Names{"n08", "n09", "n10"}));
  EXPECT_EQ(expand("n[8-10]"), (Names{"n8", "n9", "n10"}));
  // The width is the low bound's as written, as in Slurm (range->width = strlen(lo)).
  EXPECT_EQ(expand("n[001-2]"), (Names{"n001", "n002"}));
}

TEST(Hostlist, SeveralBracketGroupsExpandToTheirProductLastFastest) {
  EXPECT_EQ(expand("rack[1-2]-node[01-02]"),
            (Names{"rack1-node01", "rack1-node02", "rack2-node01", "rack2-node02"}));
  EXPECT_EQ(expand("a[1-2]b[3,5]c[7]"), (Names{"a1b3c7", "a1b5c7", "a2b3c7", "a2b5c7"}));
  // A literal after the last group is a suffix.
  EXPECT_EQ(expand("n[1-2]-ib"), (Names{"n1-ib", "n2-ib"}));
}

TEST(Hostlist, CommasInsideBracketsDoNotSplitItems) {
  EXPECT_EQ(expand("a[1,3],b[2-3],c"), (Names{"a1", "a3", "b2", "b3", "c"}));
}

TEST(Hostlist, Errors) {
  // Each message names the place and quotes the expression.
  const auto check = [](std::string_view expression, std::string_view what) {
    const auto message = error_of(expression);
    EXPECT_THAT(message, HasSubstr("hosts.txt:3")) << expression;
    EXPECT_THAT(message, HasSubstr(fmt::format("'{}'", expression))) << expression;
    EXPECT_THAT(message, HasSubstr(what)) << expression;
  };
  check("", "it is empty");
  check("a,,b", "empty name");
  check("a,", "empty name");
  check(",a", "empty name");
  check("n[1-2", "not closed");
  check("n[1-", "not closed");  // the last item is expanded whatever its brackets
  check("n[1[2]]", "not closed by ']' (brackets do not nest)");
  check("n1]", "a ']' has no '['");
  check("a],b", "a ']' has no '['");
  check("n[]", "'[]' is empty");
  check("n[3-1]", "the range '3-1' ends below its start");
  check("n[a-b]", "'a-b', which is not a number N or a range N-M");
  check("n[1,,2]", "'', which is not a number");
  check("n[1-]", "'1-', which is not a number");
  check("n[-1]", "'-1', which is not a number");
  check("n[1-2-3]", "'1-2-3', which is not a number");
  check("n[0-99999999]", "has more than 4194304 names");
  check("n[0-2047]x[0-2048]", "more than 4194304 names");  // the product of its groups
  // Few enough names, but long ones: 10^6 names of 206 characters would take 206 MB.
  check(std::string(200, 'n') + "[000-999]x[0-999]", "its names would take more than 64 MiB");
  check("a,b," + std::string(100, 'n') + "[000-999]x[000-999]", "more than 64 MiB");
  // and over the items together: 40 items of 10^4 names of 200 characters (80 MB).
  std::string items;
  for (int k = 0; k < 40; ++k) items += fmt::format("{}{}[0000-9999],", std::string(194, 'n'), k);
  items.pop_back();
  check(items, "more than 64 MiB");
}

TEST(Hostlist, CompressMergesTrailingNumbersOfOneWidth) {
  EXPECT_EQ(compress_hostlist(Names{"nid0001", "nid0002", "nid0003", "nid0007"}),
            "nid[0001-0003,0007]");
  EXPECT_EQ(compress_hostlist(Names{"b2", "a1", "a3", "a2"}), "a[1-3],b2");
  // One name of a prefix stays as it is; a name without a number too.
  EXPECT_EQ(compress_hostlist(Names{"x5", "login"}), "login,x5");
  // n9 and n10 have different widths: two items (n[9-10] would read back the same, but a width
  // is what an item has in common).
  EXPECT_EQ(compress_hostlist(Names{"n9", "n8", "n10"}), "n[8-9],n10");
  EXPECT_EQ(compress_hostlist(Names{"n1", "n1"}), "n1");
  EXPECT_EQ(compress_hostlist(Names{}), "");
}

TEST(Hostlist, CompressRoundTripsThroughExpand) {
  const std::vector<Names> cases{
      {"nid0001", "nid0002", "nid0004", "nid0010"},
      {"rack1-node01", "rack1-node02", "rack2-node01"},
      {"a", "b1", "b01", "b001", "c99", "c100", "c101"},
      {"node00", "node63"},
      {"x9", "x10", "x11", "y"},
  };
  for (auto names : cases) {
    auto again = expand(compress_hostlist(names));
    std::sort(names.begin(), names.end());
    std::sort(again.begin(), again.end());
    EXPECT_EQ(again, names);
  }
  // Random subsets of a zero-padded range.
  std::mt19937 random(7);
  for (int round = 0; round < 50; ++round) {
    Names names;
    for (int n = 0; n < 200; ++n) {
      if (random() % 3 == 0) names.push_back(fmt::format("cn{:03}", n));
    }
    if (names.empty()) continue;
    std::shuffle(names.begin(), names.end(), random);
    auto again = expand(compress_hostlist(names));
    std::sort(names.begin(), names.end());
    EXPECT_EQ(again, names) << compress_hostlist(names);
  }
}

}  // namespace
}  // namespace mapsim

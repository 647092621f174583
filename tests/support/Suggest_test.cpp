// Edit distances by hand and the "did you mean" texts built on them.

#include "support/Suggest.hpp"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace mapsim {
namespace {

const std::vector<std::string_view> kCommands{"run",  "results",  "merge",    "upgrade",
                                              "topo", "list",     "generate", "matrix",
                                              "map",  "simulate", "export",   "help"};

TEST(EditDistance, CountsEachEditOnce) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);              // three insertions
  EXPECT_EQ(edit_distance("simulte", "simulate"), 1u);  // one insertion
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);    // k->s, e->i, +g
  EXPECT_EQ(edit_distance("tours", "torus"), 1u);       // one transposition (ur -> ru)
  EXPECT_EQ(edit_distance("fluid", "flow"), 3u);        // u->o, i->w, -d
  EXPECT_EQ(edit_distance("Torus", "torus"), 0u);       // case is ignored
}

TEST(Suggest, OffersTheClosestCandidate) {
  EXPECT_EQ(did_you_mean("simulte", kCommands), "did you mean 'simulate'?");
  EXPECT_EQ(did_you_mean("merg", kCommands), "did you mean 'merge'?");
  EXPECT_EQ(suggest_suffix("topp", kCommands), "; did you mean 'topo'?");
}

TEST(Suggest, OffersEveryCandidateAtTheSmallestDistance) {
  // 'mat' is one deletion from 'map' and 'matrix' is farther: only 'map'.
  EXPECT_EQ(did_you_mean("mat", kCommands), "did you mean 'map'?");
  const std::vector<std::string> models{"analytic", "flow", "packet", "flaw"};
  EXPECT_EQ(did_you_mean("flew", models), "did you mean one of 'flow', 'flaw'?");
}

TEST(Suggest, OffersCandidatesAnAbbreviationBegins) {
  // 'map' is three and four edits from these: too far, but it begins both.
  const std::vector<std::string> options{"matrix", "mapper", "mapping", "seed"};
  EXPECT_EQ(did_you_mean("map", options), "did you mean one of 'mapper', 'mapping'?");
}

TEST(Suggest, OffersNothingFarOrExact) {
  EXPECT_EQ(did_you_mean("frobnicate", kCommands), "");
  EXPECT_EQ(suggest_suffix("frobnicate", kCommands), "");
  EXPECT_EQ(did_you_mean("map", kCommands), "");  // a valid name needs no suggestion
  EXPECT_EQ(did_you_mean("", kCommands), "");
  const std::vector<std::string> models{"analytic", "flow", "packet"};
  EXPECT_EQ(did_you_mean("fluid", models), "");  // 3 edits from 'flow': more than 2
}

TEST(Suggest, FormatsChosenNames) {
  EXPECT_EQ(format_suggestion(std::vector<std::string>{}), "");
  EXPECT_EQ(format_suggestion(std::vector<std::string>{"--mapper"}), "did you mean '--mapper'?");
  EXPECT_EQ(format_suggestion(std::vector<std::string>{"a", "b"}), "did you mean one of 'a', 'b'?");
}

}  // namespace
}  // namespace mapsim

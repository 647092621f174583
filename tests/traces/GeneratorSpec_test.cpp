// Generator specs: parsing, the canonical form, is_generator_spec and every kind of bad spec.

#include "traces/generators/GeneratorSpec.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

/// The message of the InputError parsing `spec` throws, or "(no error)".
std::string error_of(std::string_view spec) {
  try {
    (void)parse_generator_spec(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// What every error starts with: the spec, quoted.
std::string quoted(std::string_view spec) {
  return "generator spec '" + std::string(spec) + "': ";
}

struct Expected {
  std::string spec;
  std::string kernel;
  char problem_class;
  Rank ranks;
  std::optional<std::int64_t> iterations;
  std::optional<std::int64_t> message_bytes;
};

// Every kernel once, in canonical form: NPB kernels with the npb: prefix, mapsim's own without.
// Rank counts are valid ones for class S (LU: 4 = 2 x 2; CG and IS: powers of two; stencils:
// balanced grids).
const std::vector<Expected> kEveryKernel{
    {"npb:lu:S:4", "lu", 'S', 4, {}, {}},
    {"npb:bt:S:4", "bt", 'S', 4, {}, {}},
    {"npb:sp:S:4", "sp", 'S', 4, {}, {}},
    {"npb:cg:S:8", "cg", 'S', 8, {}, {}},
    {"npb:mg:S:4", "mg", 'S', 4, {}, {}},
    {"npb:ft:S:4", "ft", 'S', 4, {}, {}},
    {"npb:is:S:4", "is", 'S', 4, {}, {}},
    {"npb:ep:S:4", "ep", 'S', 4, {}, {}},
    {"sweep3d:S:4", "sweep3d", 'S', 4, {}, {}},
    {"stencil2d:S:16", "stencil2d", 'S', 16, {}, {}},
    {"stencil3d:S:8", "stencil3d", 'S', 8, {}, {}},
    {"npb:lu:A:8:iterations=2", "lu", 'A', 8, 2, {}},
    {"npb:cg:W:16:iterations=1", "cg", 'W', 16, 1, {}},
    {"stencil2d:S:16:message-bytes=0", "stencil2d", 'S', 16, {}, 0},
    {"stencil3d:W:27:iterations=3:message-bytes=4096", "stencil3d", 'W', 27, 3, 4096},
};

TEST(GeneratorSpec, ParsesEveryKernel) {
  for (const auto& e : kEveryKernel) {
    SCOPED_TRACE(e.spec);
    const auto options = parse_generator_spec(e.spec);
    EXPECT_EQ(options.kernel, e.kernel);
    EXPECT_EQ(options.problem_class, e.problem_class);
    EXPECT_EQ(options.ranks, e.ranks);
    EXPECT_EQ(options.iterations, e.iterations);
    EXPECT_EQ(options.message_bytes, e.message_bytes);
  }
}

TEST(GeneratorSpec, CanonicalSpecsFormatBackUnchanged) {
  for (const auto& e : kEveryKernel) {
    EXPECT_EQ(format_generator_spec(parse_generator_spec(e.spec)), e.spec);
  }
}

TEST(GeneratorSpec, FormatThenParseGivesTheOptionsBack) {
  const std::vector<GeneratorOptions> all{
      {.kernel = "lu",
       .problem_class = 'W',
       .ranks = 8,
       .iterations = {},
       .message_bytes = {},
       .deck = {},
       .parameters = {}},
      {.kernel = "ep",
       .problem_class = 'D',
       .ranks = 128,
       .iterations = {},
       .message_bytes = {},
       .deck = {},
       .parameters = {}},
      {.kernel = "sweep3d",
       .problem_class = 'B',
       .ranks = 6,
       .iterations = 7,
       .message_bytes = {},
       .deck = {},
       .parameters = {}},
      {.kernel = "stencil3d",
       .problem_class = 'S',
       .ranks = 8,
       .iterations = 2,
       .message_bytes = 100,
       .deck = {},
       .parameters = {}},
  };
  for (const auto& options : all) {
    const auto spec = format_generator_spec(options);
    SCOPED_TRACE(spec);
    const auto back = parse_generator_spec(spec);
    EXPECT_EQ(back.kernel, options.kernel);
    EXPECT_EQ(back.problem_class, options.problem_class);
    EXPECT_EQ(back.ranks, options.ranks);
    EXPECT_EQ(back.iterations, options.iterations);
    EXPECT_EQ(back.message_bytes, options.message_bytes);
  }
  // The prefix follows the kernel: NPB ones get npb:, the own ones do not.
  EXPECT_EQ(format_generator_spec(all[0]), "npb:lu:W:8");
  EXPECT_EQ(format_generator_spec(all[2]), "sweep3d:B:6:iterations=7");
}

TEST(GeneratorSpec, CanonicalFormWritesIterationsBeforeMessageBytes) {
  const auto options = parse_generator_spec("stencil2d:A:16:message-bytes=64:iterations=5");
  EXPECT_EQ(options.iterations, 5);
  EXPECT_EQ(options.message_bytes, 64);
  EXPECT_EQ(format_generator_spec(options), "stencil2d:A:16:iterations=5:message-bytes=64");
  // Two spellings of one workload have one canonical form.
  EXPECT_EQ(
      format_generator_spec(parse_generator_spec("stencil2d:A:16:iterations=5:message-bytes=64")),
      format_generator_spec(options));
}

TEST(GeneratorSpec, DeckSpecsForSnapAndSweep3d) {
  // snap:DECK:RANKS; the deck goes to options.deck and the class keeps its default.
  const auto sample = parse_generator_spec("snap:sample:4");
  EXPECT_EQ(sample.kernel, "snap");
  EXPECT_EQ(sample.deck, "sample");
  EXPECT_EQ(sample.problem_class, 'S');
  EXPECT_EQ(sample.ranks, 4);
  EXPECT_TRUE(sample.parameters.empty());
  // Other keys are deck parameters, written sorted by key after iterations.
  const auto set = parse_generator_spec("snap:sample:6:npey=3:multiswp=0:iterations=3");
  EXPECT_EQ(set.parameters, (std::map<std::string, std::int64_t>{{"npey", 3}, {"multiswp", 0}}));
  EXPECT_EQ(set.iterations, 3);
  EXPECT_EQ(format_generator_spec(set), "snap:sample:6:iterations=3:multiswp=0:npey=3");
  // sweep3d: a class letter stays a class, anything else names a deck.
  const auto by_class = parse_generator_spec("sweep3d:S:16");
  EXPECT_EQ(by_class.problem_class, 'S');
  EXPECT_TRUE(by_class.deck.empty());
  const auto by_deck = parse_generator_spec("sweep3d:input.50:6");
  EXPECT_EQ(by_deck.deck, "input.50");
  EXPECT_EQ(by_deck.problem_class, 'S');
  EXPECT_EQ(format_generator_spec(by_deck), "sweep3d:input.50:6");
  // The effective spec fills in SNAP's outer count (2 by default).
  EXPECT_EQ(effective_generator_spec(parse_generator_spec("snap:sample:4:multiswp=0")),
            "snap:sample:4:iterations=2:multiswp=0");
}

TEST(GeneratorSpec, DeckSpecsRoundTrip) {
  const std::vector<GeneratorOptions> all{
      {.kernel = "snap",
       .problem_class = 'S',
       .ranks = 4,
       .iterations = {},
       .message_bytes = {},
       .deck = "sample",
       .parameters = {}},
      {.kernel = "snap",
       .problem_class = 'S',
       .ranks = 16,
       .iterations = 1,
       .message_bytes = {},
       .deck = "benchmark",
       .parameters = {{"ng", 2}, {"inners", 1}, {"multiswp", 0}}},
      {.kernel = "snap",
       .problem_class = 'S',
       .ranks = 256,
       .iterations = {},
       .message_bytes = {},
       .deck = "ohtma",
       .parameters = {{"nang", 10}}},
      {.kernel = "sweep3d",
       .problem_class = 'S',
       .ranks = 6,
       .iterations = 2,
       .message_bytes = {},
       .deck = "input.50",
       .parameters = {}},
  };
  for (const auto& options : all) {
    const auto spec = format_generator_spec(options);
    SCOPED_TRACE(spec);
    const auto back = parse_generator_spec(spec);
    EXPECT_EQ(back.kernel, options.kernel);
    EXPECT_EQ(back.problem_class, options.problem_class);
    EXPECT_EQ(back.ranks, options.ranks);
    EXPECT_EQ(back.iterations, options.iterations);
    EXPECT_EQ(back.message_bytes, options.message_bytes);
    EXPECT_EQ(back.deck, options.deck);
    EXPECT_EQ(back.parameters, options.parameters);
    EXPECT_EQ(format_generator_spec(back), spec);
  }
  EXPECT_EQ(format_generator_spec(all[1]),
            "snap:benchmark:16:iterations=1:inners=1:multiswp=0:ng=2");
}

TEST(GeneratorSpecErrors, BadDeckSpecs) {
  EXPECT_THAT(error_of("snap:sampel:4"),
              AllOf(StartsWith(quoted("snap:sampel:4")), HasSubstr("unknown snap deck 'sampel'"),
                    HasSubstr("did you mean 'sample'")));
  EXPECT_THAT(error_of("snap:sample:4:npy=2"),
              AllOf(StartsWith(quoted("snap:sample:4:npy=2")), HasSubstr("unknown parameter 'npy'"),
                    HasSubstr("npey")));
  EXPECT_THAT(error_of("snap:sample:4:npey=two"),
              AllOf(StartsWith(quoted("snap:sample:4:npey=two")), HasSubstr("npey"),
                    HasSubstr("not an integer")));
  EXPECT_THAT(error_of("snap:sample:4:npey=2:npey=2"), HasSubstr("npey given twice"));
  EXPECT_THAT(error_of("snap:sample:4:=2"), HasSubstr("unknown option ''"));
  EXPECT_THAT(error_of("snap:sample:4:npey=3"),
              HasSubstr("npey = 3 does not divide the rank count 4"));
  EXPECT_THAT(error_of("snap:sample"),
              AllOf(StartsWith(quoted("snap:sample")), HasSubstr("expected snap:DECK:RANKS")));
  EXPECT_THAT(error_of("snap::4"), HasSubstr("the deck name is missing"));
  // Deck parameters are no options of the other kernels.
  EXPECT_THAT(error_of("npb:lu:S:4:npey=2"), HasSubstr("unknown option 'npey'"));
  EXPECT_THAT(error_of("stencil2d:S:16:npey=2"), HasSubstr("unknown option 'npey'"));
}

TEST(GeneratorSpec, EffectiveSpecFillsInTheClassIterationCount) {
  // NPB 3.4's class S: LU itmax 50, CG niter 15, MG nit 4, FT niter 6, BT 60 and SP 100 steps;
  // mapsim's own: Sweep3D 12 source iterations, stencils 100 sweeps. EP has no iterations.
  const std::vector<std::pair<std::string, std::string>> cases{
      {"npb:lu:S:4", "npb:lu:S:4:iterations=50"},
      {"npb:cg:S:4", "npb:cg:S:4:iterations=15"},
      {"npb:mg:S:4", "npb:mg:S:4:iterations=4"},
      {"npb:ft:S:4", "npb:ft:S:4:iterations=6"},
      {"npb:bt:S:4", "npb:bt:S:4:iterations=60"},
      {"npb:sp:S:4", "npb:sp:S:4:iterations=100"},
      {"npb:is:S:4", "npb:is:S:4:iterations=10"},
      {"sweep3d:S:4", "sweep3d:S:4:iterations=12"},
      {"stencil2d:S:4:message-bytes=64", "stencil2d:S:4:iterations=100:message-bytes=64"},
      {"npb:ep:S:4", "npb:ep:S:4"},
      {"npb:lu:S:4:iterations=3", "npb:lu:S:4:iterations=3"},
  };
  for (const auto& [spec, effective] : cases)
    EXPECT_EQ(effective_generator_spec(parse_generator_spec(spec)), effective) << spec;
}

TEST(GeneratorSpec, IsGeneratorSpecLooksAtTheHeadOnly) {
  for (const auto* text : {"npb:lu:S:4", "npb:", "npb:nonsense", "sweep3d:S:4", "stencil2d:x",
                           "stencil3d:S:8:iterations=2", "snap:sample:4", "snap:"}) {
    EXPECT_TRUE(is_generator_spec(text)) << text;
  }
  // Paths, NPB kernels without the prefix, heads without a colon, other case.
  for (const auto* text :
       {"", "npb", "lu:S:4", "traces/lu/traces.otf2", "stencil2d", "NPB:lu:S:4", "data/npb:lu:S:4",
        "stencil4d:S:16", "matrix.csv", "snap", "snap.otf2"}) {
    EXPECT_FALSE(is_generator_spec(text)) << text;
  }
}

TEST(GeneratorSpecErrors, UnknownNpbKernelListsTheValidOnes) {
  EXPECT_THAT(error_of("npb:xx:S:4"),
              AllOf(StartsWith(quoted("npb:xx:S:4")), HasSubstr("unknown NPB kernel 'xx'"),
                    HasSubstr("lu, bt, sp, cg, mg, ft, is, ep")));
  // The own generators are not NPB kernels.
  EXPECT_THAT(error_of("npb:sweep3d:S:4"),
              AllOf(StartsWith(quoted("npb:sweep3d:S:4")), HasSubstr("unknown NPB kernel")));
}

TEST(GeneratorSpecErrors, UnknownHeadNamesBothForms) {
  for (const auto* spec : {"lu:S:4", "stencil4d:S:16", "hpl:S:4", ""}) {
    EXPECT_THAT(error_of(spec),
                AllOf(StartsWith(quoted(spec)), HasSubstr("expected npb:KERNEL:CLASS:RANKS"),
                      HasSubstr("sweep3d, stencil2d, stencil3d")))
        << spec;
  }
}

TEST(GeneratorSpecErrors, MissingParts) {
  for (const auto* spec : {"npb", "npb:lu", "npb:lu:S"}) {
    EXPECT_THAT(error_of(spec),
                AllOf(StartsWith(quoted(spec)), HasSubstr("expected npb:KERNEL:CLASS:RANKS")))
        << spec;
  }
  EXPECT_THAT(error_of("stencil2d:S"), AllOf(StartsWith(quoted("stencil2d:S")),
                                             HasSubstr("expected stencil2d:CLASS:RANKS")));
  EXPECT_THAT(error_of("sweep3d"),
              AllOf(StartsWith(quoted("sweep3d")), HasSubstr("expected sweep3d:CLASS:RANKS")));
  // An empty rank count is missing, not zero.
  EXPECT_THAT(error_of("npb:lu:S:"),
              AllOf(StartsWith(quoted("npb:lu:S:")), HasSubstr("rank count is missing")));
}

TEST(GeneratorSpecErrors, BadClass) {
  for (const auto* spec :
       {"npb:lu:Q:4", "npb:lu:s:4", "npb:lu:SS:4", "npb:lu::4", "stencil2d:E:16"}) {
    EXPECT_THAT(error_of(spec), AllOf(StartsWith(quoted(spec)), HasSubstr("unknown problem class"),
                                      HasSubstr("S, W, A, B, C, D")))
        << spec;
  }
}

TEST(GeneratorSpecErrors, RankCountNotANumber) {
  for (const auto* spec : {"npb:lu:S:x", "npb:lu:S:4x", "npb:lu:S:+4", "stencil3d:S:eight"}) {
    EXPECT_THAT(error_of(spec), AllOf(StartsWith(quoted(spec)), HasSubstr("rank count"),
                                      HasSubstr("not an integer")))
        << spec;
  }
  EXPECT_THAT(error_of("npb:lu:S:0"),
              AllOf(StartsWith(quoted("npb:lu:S:0")), HasSubstr("rank count: 0 is out of range")));
  EXPECT_THAT(error_of("npb:ep:S:-2"), AllOf(StartsWith(quoted("npb:ep:S:-2")),
                                             HasSubstr("rank count: -2 is out of range")));
}

TEST(GeneratorSpecErrors, RankCountInvalidForTheKernel) {
  // CG and IS need a power of two; LU class S runs on 1, 2, 4, 6, 8, 9, 12, 16 only (10 = 5 x 2
  // breaks xdim <= 2 ydim). The kernel's own rule is quoted after the spec.
  EXPECT_THAT(error_of("npb:cg:S:3"),
              AllOf(StartsWith(quoted("npb:cg:S:3")), HasSubstr("cg class S cannot run on 3 ranks"),
                    HasSubstr("power of two")));
  EXPECT_THAT(error_of("npb:lu:S:10"), AllOf(StartsWith(quoted("npb:lu:S:10")),
                                             HasSubstr("lu class S cannot run on 10 ranks"),
                                             HasSubstr("valid counts: 1, 2, 4, 6, 8, 9, 12, 16")));
  EXPECT_THAT(error_of("npb:is:S:6"), AllOf(StartsWith(quoted("npb:is:S:6")),
                                            HasSubstr("is class S cannot run on 6 ranks")));
}

TEST(GeneratorSpecErrors, UnknownOption) {
  EXPECT_THAT(error_of("npb:lu:S:4:speed=2"),
              AllOf(StartsWith(quoted("npb:lu:S:4:speed=2")), HasSubstr("unknown option 'speed'"),
                    HasSubstr("valid: iterations, message-bytes")));
}

TEST(GeneratorSpecErrors, OptionWithoutEquals) {
  EXPECT_THAT(error_of("npb:lu:S:4:iterations"),
              AllOf(StartsWith(quoted("npb:lu:S:4:iterations")),
                    HasSubstr("option 'iterations' is not key=value")));
  // A trailing colon is an empty option.
  EXPECT_THAT(error_of("npb:lu:S:4:"),
              AllOf(StartsWith(quoted("npb:lu:S:4:")), HasSubstr("option '' is not key=value")));
}

TEST(GeneratorSpecErrors, OptionGivenTwice) {
  EXPECT_THAT(error_of("npb:lu:S:4:iterations=2:iterations=3"),
              AllOf(StartsWith(quoted("npb:lu:S:4:iterations=2:iterations=3")),
                    HasSubstr("iterations given twice")));
  EXPECT_THAT(error_of("stencil2d:S:16:message-bytes=8:message-bytes=8"),
              AllOf(StartsWith(quoted("stencil2d:S:16:message-bytes=8:message-bytes=8")),
                    HasSubstr("message-bytes given twice")));
}

TEST(GeneratorSpecErrors, OptionValuesOutOfRange) {
  EXPECT_THAT(error_of("npb:lu:S:4:iterations=0"),
              AllOf(StartsWith(quoted("npb:lu:S:4:iterations=0")),
                    HasSubstr("iterations: 0 is out of range")));
  EXPECT_THAT(error_of("npb:lu:S:4:iterations=many"),
              AllOf(StartsWith(quoted("npb:lu:S:4:iterations=many")), HasSubstr("not an integer")));
  EXPECT_THAT(error_of("stencil2d:S:16:message-bytes=-1"),
              AllOf(StartsWith(quoted("stencil2d:S:16:message-bytes=-1")),
                    HasSubstr("message-bytes: -1 is out of range")));
}

TEST(GeneratorSpecErrors, MessageBytesOnANonStencilKernel) {
  for (const auto* spec : {"npb:lu:S:4:message-bytes=64", "sweep3d:S:4:message-bytes=64"}) {
    EXPECT_THAT(error_of(spec), AllOf(StartsWith(quoted(spec)),
                                      HasSubstr("applies to stencil2d and stencil3d only")))
        << spec;
  }
}

TEST(GeneratorSpecErrors, IterationsOnAKernelWithoutThem) {
  // EP has no iteration count to override.
  EXPECT_THAT(error_of("npb:ep:S:4:iterations=2"),
              AllOf(StartsWith(quoted("npb:ep:S:4:iterations=2")),
                    HasSubstr("ep has no iteration count to override")));
}

}  // namespace
}  // namespace mapsim::traces

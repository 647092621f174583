// Calibrations (sim/Calibration.hpp): the presets, the file format with every error, the text
// round trip, what each model takes of one, and weight-S in the flow model solved by hand. The
// envelope key: parsed (0 to kMaxEnvelope bytes), its bad values and repeats named at their line,
// smpi's 16 bytes, kept by the text round trip, and applied to every model (a lone message then
// takes its bytes on the wire under each).

#include "sim/Calibration.hpp"

#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "SimTestSupport.hpp"
#include "TraceBuilder.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"

namespace mapsim::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string error_of(std::string_view text) {
  try {
    (void)sim::parse_calibration(text, "my.cal");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Calibration, NoneIsTheDefaults) {
  EXPECT_EQ(sim::calibration_preset("none", "--calibration"), sim::Calibration{});
  // A file that sets nothing is more likely the wrong file than a way to say none.
  for (const std::string text : {"", "# only a comment\n\n   \n"}) {
    EXPECT_THAT(error_of(text),
                AllOf(HasSubstr("my.cal: the calibration sets nothing"), HasSubstr("give 'none'")))
        << text;
  }
  EXPECT_EQ(sim::parse_calibration("reverse-traffic: false\n", "c.cal"), sim::Calibration{});
}

TEST(Calibration, ADirectoryIsNotACalibrationFile) {
  const TempDir dir;
  try {
    (void)sim::load_calibration(dir.path().string(), "--calibration");
    ADD_FAILURE() << "a directory was read as a calibration";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("--calibration: calibration file '" + dir.path().string() +
                                    "' is a directory, not a file"));
  }
}

TEST(Calibration, SmpiIsSimGridsSmpiModel) {
  const auto smpi = sim::calibration_preset("smpi", "--calibration");
  EXPECT_TRUE(smpi.overheads.none());  // smpi/os, smpi/or default to 0
  EXPECT_TRUE(smpi.reverse_traffic);
  EXPECT_EQ(smpi.weight_s, 8775);
  // SimGrid's steps: a size takes the factor of the largest boundary below it.
  EXPECT_EQ(smpi.bandwidth_factor(0), 1);  // at most every boundary
  EXPECT_EQ(smpi.bandwidth_factor(1), 0.812084);
  EXPECT_EQ(smpi.bandwidth_factor(257), 0.812084);
  EXPECT_EQ(smpi.bandwidth_factor(258), 0.338112);
  EXPECT_EQ(smpi.bandwidth_factor(65473), 0.940694);
  EXPECT_EQ(smpi.latency_factor(100), 2.01467);
  EXPECT_EQ(smpi.latency_factor(1 << 20), 11.6436);
  EXPECT_THAT([] { (void)sim::calibration_preset("tuned", "--calibration"); },
              ::testing::ThrowsMessage<InputError>(
                  AllOf(HasSubstr("--calibration"), HasSubstr("'tuned'"), HasSubstr("smpi"))));
}

TEST(Calibration, FileGivesEveryPartAndReadsBack) {
  const auto c = sim::parse_calibration(
      "# measured on the test machine\n"
      "overheads: typical,network.o_s=600   # a comment after a value\n"
      "  bw-factor :  65536:0.95;0:0.8\n"
      "lat-factor: 2\n"
      "reverse-traffic: true\n"
      "weight-s: 20537\n",
      "my.cal");
  EXPECT_EQ(c.overheads, sim::parse_overheads("typical,network.o_s=600", "x"));
  EXPECT_EQ(c.bandwidth_factor(10), 0.8);
  EXPECT_EQ(c.bandwidth_factor(70000), 0.95);
  EXPECT_EQ(c.latency_factor(0), 2);
  EXPECT_TRUE(c.reverse_traffic);
  EXPECT_EQ(c.weight_s, 20537);
  EXPECT_EQ(sim::parse_calibration(sim::to_text(c), "again.cal"), c);
  const auto smpi = sim::calibration_preset("smpi", "x");
  EXPECT_EQ(sim::parse_calibration(sim::to_text(smpi), "smpi.cal"), smpi);
  EXPECT_EQ(sim::parse_calibration(sim::to_text({}), "none.cal"), sim::Calibration{});
}

TEST(Calibration, EveryBadLineIsNamed) {
  EXPECT_THAT(error_of("overheads typical\n"),
              AllOf(HasSubstr("my.cal:1"), HasSubstr("key: value")));
  EXPECT_THAT(
      error_of("\n\nspeed: 3\n"),
      AllOf(HasSubstr("my.cal:3"), HasSubstr("unknown key 'speed'"), HasSubstr("weight-s")));
  EXPECT_THAT(error_of("lat-factor: 2\nlat-factor: 3\n"),
              AllOf(HasSubstr("my.cal:2"), HasSubstr("given twice")));
  EXPECT_THAT(error_of("reverse-traffic: yes\n"),
              AllOf(HasSubstr("my.cal:1"), HasSubstr("true or false")));
  EXPECT_THAT(error_of("weight-s: -1\n"), AllOf(HasSubstr("my.cal:1"), HasSubstr("-1")));
  EXPECT_THAT(error_of("bw-factor: 0:0\n"), AllOf(HasSubstr("my.cal:1"), HasSubstr("positive")));
  EXPECT_THAT(error_of("overheads: fast\n"), AllOf(HasSubstr("my.cal:1"), HasSubstr("'fast'")));
  EXPECT_THAT(error_of("lat-factor: 1:x\n"), AllOf(HasSubstr("my.cal:1"), HasSubstr("'x'")));
}

TEST(Calibration, LoadReadsFilesAndNamesTheMissingOne) {
  const TempDir dir;
  const auto file = dir.write("m.cal", "lat-factor: 3\n");
  EXPECT_EQ(sim::load_calibration(file.string(), "--calibration").latency_factor(1), 3);
  EXPECT_EQ(sim::load_calibration("smpi", "--calibration").weight_s, 8775);
  const auto missing = (dir.path() / "missing.cal").string();
  EXPECT_THAT([&] { (void)sim::load_calibration(missing, "--calibration"); },
              ::testing::ThrowsMessage<InputError>(
                  AllOf(HasSubstr("--calibration"), HasSubstr(missing), HasSubstr("presets"))));
}

TEST(Calibration, EachModelTakesWhatItModels) {
  const auto smpi = sim::calibration_preset("smpi", "x");
  sim::ModelOptions flow, analytic, packet;
  sim::apply(smpi, "flow", flow);
  sim::apply(smpi, "analytic", analytic);
  sim::apply(smpi, "packet", packet);
  EXPECT_EQ(flow.bandwidth_factor, smpi.bandwidth_factor);
  EXPECT_TRUE(flow.reverse_traffic);
  EXPECT_EQ(flow.weight_s, 8775);
  EXPECT_EQ(analytic.latency_factor, smpi.latency_factor);
  EXPECT_FALSE(analytic.reverse_traffic);
  EXPECT_EQ(analytic.weight_s, 0);
  EXPECT_TRUE(packet.bandwidth_factor.identity());
  EXPECT_TRUE(packet.latency_factor.identity());
  EXPECT_FALSE(packet.reverse_traffic);
  // The envelope under every model, packet included.
  EXPECT_EQ(flow.envelope, 16);
  EXPECT_EQ(analytic.envelope, 16);
  EXPECT_EQ(packet.envelope, 16);
}

TEST(Calibration, EnvelopeIsParsedAndWrittenBack) {
  auto expected = sim::Calibration{};
  expected.envelope = 16;
  EXPECT_EQ(sim::parse_calibration("envelope: 16\n", "my.cal"), expected);
  EXPECT_EQ(sim::parse_calibration("  envelope :0   # none\n", "my.cal"), sim::Calibration{});
  EXPECT_EQ(sim::parse_calibration("envelope: 1048576\n", "my.cal").envelope, sim::kMaxEnvelope);
  EXPECT_EQ(sim::calibration_preset("smpi", "--calibration").envelope, sim::kSmpiEnvelope);
  EXPECT_EQ(sim::kSmpiEnvelope, 16);
  // to_text writes it, 0 included, and reads it back with the other parts.
  EXPECT_THAT(sim::to_text({}), HasSubstr("\nenvelope: 0\n"));
  auto c = sim::parse_calibration("lat-factor: 2\nenvelope: 4096\nweight-s: 100\n", "my.cal");
  EXPECT_EQ(c.envelope, 4096);
  EXPECT_EQ(c.weight_s, 100);
  EXPECT_THAT(sim::to_text(c), HasSubstr("\nenvelope: 4096\n"));
  EXPECT_EQ(sim::parse_calibration(sim::to_text(c), "again.cal"), c);
  EXPECT_EQ(sim::parse_calibration(sim::to_text(expected), "again.cal").envelope, 16);
}

TEST(Calibration, BadEnvelopesAreNamedAtTheirLine) {
  EXPECT_THAT(error_of("envelope: -1\n"),
              AllOf(HasSubstr("my.cal:1"), HasSubstr("envelope"), HasSubstr("-1"),
                    HasSubstr("out of range [0, 1048576]")));
  EXPECT_THAT(
      error_of("# comment\nenvelope: x\n"),
      AllOf(HasSubstr("my.cal:2"), HasSubstr("envelope"), HasSubstr("'x' is not an integer")));
  EXPECT_THAT(error_of("envelope: 16.5\n"),
              AllOf(HasSubstr("my.cal:1"), HasSubstr("'16.5' is not an integer")));
  EXPECT_THAT(error_of("weight-s: 1\n\nenvelope: 2000000\n"),
              AllOf(HasSubstr("my.cal:3"), HasSubstr("envelope"),
                    HasSubstr("2000000 is too large (limit 1048576)")));
  EXPECT_THAT(error_of("envelope: 16\nenvelope: 16\n"),
              AllOf(HasSubstr("my.cal:2"), HasSubstr("'envelope' is given twice")));
  EXPECT_THAT(error_of("envelope:\n"), AllOf(HasSubstr("my.cal:1"), HasSubstr("missing")));
  // An unknown key lists it among the keys.
  EXPECT_THAT(error_of("envelop: 16\n"),
              AllOf(HasSubstr("unknown key 'envelop'"), HasSubstr("weight-s, envelope")));
}

// Every model takes the envelope: a lone 1000-byte message between neighbours (100 ns, 1 GB/s)
// then takes 100 ns + (1000 + 16) B / 1 GB/s under each, packet included (one packet).
TEST(Calibration, EveryModelTakesTheEnvelope) {
  const auto sixteen = sim::parse_calibration("envelope: 16\n", "my.cal");
  TraceBuilder b(2);
  b.send(0, 1, 1000).recv(1, 0, 1000);
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto config = round_config(model);
    sim::apply(sixteen, model, config.model_options);
    EXPECT_EQ(config.model_options.envelope, 16);
    EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 1}, config).makespan, 1116 * kNs);
    // Without it: 100 + 1000 ns.
    sim::apply(sim::Calibration{}, model, config.model_options);
    EXPECT_EQ(config.model_options.envelope, 0);
    EXPECT_EQ(run(b.trace(), "torus:4x4x4", {0, 1}, config).makespan, 1100 * kNs);
  }
}

// weight-S by hand on fattree:2;2,2;1,2;1,1 (hosts 0, 1 under leaf 0, 2, 3 under leaf 1):
// flow A (0 -> 1: two ft-host links) and flow B (2 -> 1: ft-host, two ft-1, ft-host) share the
// link leaf 0 -> host 1. ft-host: 1 GB/s (1 ns per byte), 100 ns; ft-1: 10 GB/s, 100 ns. Both
// 1e6 bytes, eager, sent at 0; A joins at 200 ns, B at 400 ns. Rank 1 forwards a zero-byte
// message to rank 3 when A has arrived (its route back 1 -> 3 takes 400 ns), so rank 3 finishes
// at t_A + 400 ns; rank 1 finishes when B has arrived.
//   Penalties p = route latency + S * sum 1/bw:  A: 200 + 2S,  B: 400 + 2.2S  (ns, S in bytes).
//   200..400 ns: A alone at 1 B/ns: 200 bytes. Then the shared link gives A p_B / (p_A + p_B)
//   and B p_A / (p_A + p_B) of 1 B/ns (their other links are not binding); A finishes at
//   t_A = 400 + (1e6 - 200) (p_A + p_B) / p_B, and B, alone again, at 1e6 + 200 + ... : the link
//   carried 2e6 bytes at 1 B/ns from 200 ns on, so t_B = 2e6 + 200 ns whatever the shares.
//   S = 0: shares 2/3, 1/3: t_A = 400 + 999800 * 1.5 = 1,500,100 ns.
//   S = 100: p_A = 400, p_B = 620: t_A = 400 + 999800 * 1020 / 620.
TEST(Calibration, WeightSChangesSharesWhereLinksDiffer) {
  TraceBuilder b(4);
  constexpr std::int64_t kBytes = 1'000'000;
  b.send(0, 1, kBytes, 0);
  b.send(2, 1, kBytes, 2);
  b.recv(1, 0, kBytes, 0);
  b.send(1, 3, 0, 5);
  b.recv(1, 2, kBytes, 2);
  b.recv(3, 1, 0, 5);
  sim::SimConfig config;
  config.model = "flow";
  config.compute_scale = 0;
  config.eager_threshold = 1 << 30;
  config.links = topo::LinkTable{}
                     .with(topo::LinkClass::FtHost, {1e9, 100e-9})
                     .with(topo::LinkClass::Ft1, {10e9, 100e-9});
  const auto with_s = [&](double s) {
    auto c = config;
    c.model_options.weight_s = s;
    return run(b.trace(), "fattree:2;2,2;1,2;1,1", {0, 1, 2, 3}, c);
  };
  const auto expected_a = [](double p_a, double p_b) {
    return 400.0 + (1e6 - 200) * (p_a + p_b) / p_b;  // ns
  };
  for (const double s : {0.0, 100.0, 1000.0}) {
    SCOPED_TRACE(s);
    const auto r = with_s(s);
    const double t_a = expected_a(200 + 2 * s, 400 + 2.2 * s);
    // Drain times are rounded to the ps at each re-solve: a few ps at most.
    EXPECT_NEAR(static_cast<double>(r.rank_finish[3]), (t_a + 400) * kNs, 5);
    EXPECT_NEAR(static_cast<double>(r.rank_finish[1]), (2e6 + 200) * kNs, 5);
  }
  // S = 0 is exactly the model without weight-S.
  auto plain = config;
  EXPECT_EQ(with_s(0).rank_finish,
            run(b.trace(), "fattree:2;2,2;1,2;1,1", {0, 1, 2, 3}, plain).rank_finish);
}

}  // namespace
}  // namespace mapsim::testing

// Mapping files of mappings that name cores (mappers/MappingFile.hpp, topologies/Mapping.hpp):
// the plain format's optional third column "core" (every rank's or none), the rankfile's slots
// written from the cores and read back as cores when each rank has its own ("C" or "S:C"), and
// files of mappings without cores unchanged.

#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mappers/MappingFile.hpp"
#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using topo::Mapping;

std::string written(const Mapping& mapping, const topo::Topology& machine, MappingFormat format) {
  std::ostringstream out;
  write_mapping(out, mapping, machine, format);
  return out.str();
}

Mapping read_text(const std::string& text, const topo::Topology& machine,
                  std::optional<MappingFormat> format = {}) {
  std::istringstream in(text);
  return read_mapping(in, "m.txt", machine, {}, format);
}

/// The message of reading `text` as a mapping on `machine` ("" if it reads).
std::string read_error(const std::string& text, const topo::Topology& machine) {
  try {
    (void)read_text(text, machine);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::int32_t> as_vector(std::span<const std::int32_t> values) {
  return {values.begin(), values.end()};
}

constexpr const char* kSockets = "mesh:2:cores=4:sockets=2";

// ---- plain -------------------------------------------------------------------------------------

TEST(MappingFileSockets, PlainWritesACoreColumn) {
  const auto machine = topo::make_topology(kSockets);
  const Mapping mapping({0, 0, 1, 1}, {3, 0, 1, 2});
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Plain),
            "# mapsim mapping: 4 ranks on mesh:2:cores=4:sockets=2\n"
            "# rank node core\n"
            "0 0 3\n"
            "1 0 0\n"
            "2 1 1\n"
            "3 1 2\n");
}

TEST(MappingFileSockets, PlainWithCoresRoundTrips) {
  const testing::TempDir dir;
  const auto machine = topo::make_topology("torus:2x2:cores=8:sockets=4");
  const Mapping mapping({3, 0, 3, 3, 1, 0, 2}, {7, 2, 0, 5, 6, 3, 1});
  ASSERT_FALSE(mapping.cores().empty());
  const auto file = dir.path() / "m.txt";
  write_mapping(file, mapping, *machine, MappingFormat::Plain, {{"mapper", "greedy"}});
  EXPECT_EQ(read_mapping(file, *machine), mapping);
  EXPECT_EQ(read_mapping(file, *machine, 7, MappingFormat::Plain), mapping);
  // Through a stream as well.
  EXPECT_EQ(read_text(written(mapping, *machine, MappingFormat::Plain), *machine), mapping);
}

TEST(MappingFileSockets, PlainWithHostNamesAndCoresRoundTrips) {
  const testing::TempDir dir;
  const auto hosts = dir.write("hosts.txt", "cn[01-04]\n");
  const auto machine = topo::make_topology("mesh:4:cores=2:sockets=2:hosts=" + hosts.string());
  const Mapping mapping({2, 2, 0}, {1, 0, 1});
  const auto text = written(mapping, *machine, MappingFormat::Plain);
  EXPECT_THAT(text, HasSubstr("# rank host core\n0 cn03 1\n1 cn03 0\n2 cn01 1\n"));
  EXPECT_EQ(read_text(text, *machine), mapping);
}

TEST(MappingFileSockets, PlainCoresInRankOrderReadAsNone) {
  const auto machine = topo::make_topology(kSockets);
  // Cores 0, 1 on node 0 and 0 on node 1 are the rank order: the mapping names none.
  const auto mapping = read_text("0 0 0\n1 0 1\n2 1 0\n", *machine);
  EXPECT_TRUE(mapping.cores().empty());
  EXPECT_EQ(mapping, Mapping({0, 0, 1}));
}

TEST(MappingFileSockets, PlainWithoutCoresIsWrittenAsBefore) {
  const auto machine = topo::make_topology(kSockets);
  const Mapping mapping({1, 0, 1, 1});
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Plain),
            "# mapsim mapping: 4 ranks on mesh:2:cores=4:sockets=2\n# rank node\n0 1\n1 0\n2 1\n"
            "3 1\n");
  // And on a machine of one socket.
  const auto one = topo::make_topology("mesh:4:cores=2");
  EXPECT_EQ(written(Mapping({3, 0, 3, 1}), *one, MappingFormat::Plain),
            "# mapsim mapping: 4 ranks on mesh:4:cores=2\n# rank node\n0 3\n1 0\n2 3\n3 1\n");
}

TEST(MappingFileSockets, PlainRejectsARankWithoutCore) {
  const auto machine = topo::make_topology(kSockets);
  // Line 3 (rank 1) names no core while the others do.
  EXPECT_THAT(read_error("# rank node core\n0 0 3\n1 0\n2 1 1\n", *machine),
              AllOf(HasSubstr("m.txt"), HasSubstr("line 3"), HasSubstr("rank 1"),
                    HasSubstr("every rank's core or none")));
  // The first line without a core is named, in any order of lines.
  EXPECT_THAT(read_error("2 1\n0 0 3\n1 0 1\n", *machine),
              AllOf(HasSubstr("m.txt"), HasSubstr("line 1"), HasSubstr("rank 2")));
}

TEST(MappingFileSockets, PlainRejectsCoreOutOfRange) {
  const auto machine = topo::make_topology(kSockets);
  EXPECT_THAT(read_error("0 0 0\n1 0 4\n", *machine),
              AllOf(HasSubstr("m.txt:2"), HasSubstr("core of rank 1"), HasSubstr("4")));
  EXPECT_THAT(read_error("0 0 -1\n1 0 1\n", *machine),
              AllOf(HasSubstr("m.txt:1"), HasSubstr("core of rank 0"), HasSubstr("-1")));
  EXPECT_THAT(read_error("0 0 x\n", *machine),
              AllOf(HasSubstr("m.txt:1"), HasSubstr("core of rank 0"), HasSubstr("'x'")));
}

TEST(MappingFileSockets, PlainRejectsTwoRanksOnOneCore) {
  const auto machine = topo::make_topology(kSockets);
  EXPECT_THAT(read_error("0 1 2\n1 0 0\n2 1 2\n", *machine),
              AllOf(HasSubstr("m.txt"), HasSubstr("ranks 0 and 2"), HasSubstr("core 2"),
                    HasSubstr("node1")));
}

TEST(MappingFileSockets, PlainRejectsFourFields) {
  const auto machine = topo::make_topology(kSockets);
  EXPECT_THAT(read_error("0 0 1 2\n", *machine),
              AllOf(HasSubstr("m.txt:1"), HasSubstr("'rank node core'"), HasSubstr("4 field(s)")));
}

// ---- rankfile ----------------------------------------------------------------------------------

TEST(MappingFileSockets, RankfileWritesTheCoresAsSlots) {
  const auto machine = topo::make_topology(kSockets);
  const Mapping mapping({0, 0, 1, 1}, {3, 0, 1, 2});
  EXPECT_EQ(written(mapping, *machine, MappingFormat::Rankfile),
            "rank 0=node0 slot=3\nrank 1=node0 slot=0\nrank 2=node1 slot=1\nrank 3=node1 slot=2\n");
  // Without cores: the rank order, as before.
  EXPECT_EQ(written(Mapping({1, 0, 1}), *machine, MappingFormat::Rankfile),
            "rank 0=node1 slot=0\nrank 1=node0 slot=0\nrank 2=node1 slot=1\n");
}

TEST(MappingFileSockets, RankfileWithCoresRoundTrips) {
  const testing::TempDir dir;
  const auto machine = topo::make_topology("torus:2x2:cores=8:sockets=4");
  const Mapping mapping({3, 0, 3, 3, 1, 0, 2}, {7, 2, 0, 5, 6, 3, 1});
  const auto file = dir.path() / "ranks.txt";
  write_mapping(file, mapping, *machine, MappingFormat::Rankfile);
  EXPECT_EQ(read_mapping(file, *machine), mapping);
  EXPECT_EQ(read_mapping(file, *machine, 7, MappingFormat::Rankfile), mapping);
  // A mapping without cores round-trips too.
  const Mapping plain({3, 0, 3, 3, 1, 0, 2});
  EXPECT_EQ(read_text(written(plain, *machine, MappingFormat::Rankfile), *machine), plain);
}

TEST(MappingFileSockets, RankfileReadsSocketColonCore) {
  const auto machine = topo::make_topology(kSockets);
  // Two cores per socket: S:C is core 2 S + C.
  const auto mapping = read_text(
      "rank 0=node0 slot=1:0\nrank 1=node0 slot=0:1\nrank 2=node0 slot=0:0\nrank 3=node0 "
      "slot=1:1\n",
      *machine);
  EXPECT_EQ(as_vector(mapping.cores()), (std::vector<std::int32_t>{2, 1, 0, 3}));
  EXPECT_EQ(topo::sockets_of(mapping, *machine), (std::vector<std::int32_t>{1, 0, 0, 1}));
  // "C" and "S:C" may mix.
  const auto mixed = read_text("rank 0=node1 slot=1:0\nrank 1=node1 slot=0\n", *machine);
  EXPECT_EQ(as_vector(mixed.cores()), (std::vector<std::int32_t>{2, 0}));
}

TEST(MappingFileSockets, RankfileSlotOneColonZeroIsSocketOneCoreZero) {
  const auto machine = topo::make_topology(kSockets);
  const auto mapping = read_text("rank 0=node0 slot=1:0\n", *machine);
  EXPECT_EQ(as_vector(mapping.cores()), (std::vector<std::int32_t>{2}));
  EXPECT_EQ(topo::sockets_of(mapping, *machine), (std::vector<std::int32_t>{1}));
}

TEST(MappingFileSockets, RankfileRangesReadAsRankOrder) {
  const auto machine = topo::make_topology(kSockets);
  const auto mapping =
      read_text("rank 0=node1 slot=0-3\nrank 1=node0 slot=0-3\nrank 2=node1 slot=0-3\n", *machine);
  EXPECT_TRUE(mapping.cores().empty());
  EXPECT_EQ(mapping, Mapping({1, 0, 1}));
  // Lists and socket ranges too.
  EXPECT_TRUE(
      read_text("rank 0=node0 slot=0,1\nrank 1=node0 slot=1:0-1\n", *machine).cores().empty());
}

TEST(MappingFileSockets, RankfileFallsBackToRankOrderUnlessEveryRankNamesOneCore) {
  const auto machine = topo::make_topology(kSockets);
  // One rank's slot a range, the others single cores.
  const auto partial =
      read_text("rank 0=node0 slot=3\nrank 1=node0 slot=0-1\nrank 2=node0 slot=1\n", *machine);
  EXPECT_EQ(partial, Mapping({0, 0, 0}));
  EXPECT_TRUE(partial.cores().empty());
  // One rank without slot, or bound to any core.
  EXPECT_EQ(read_text("rank 0=node0 slot=3\nrank 1=node0\n", *machine), Mapping({0, 0}));
  EXPECT_EQ(read_text("rank 0=node0 slot=3\nrank 1=node0 slot=*\n", *machine), Mapping({0, 0}));
  EXPECT_EQ(read_text("rank 0=node0 slot=3\nrank 1=node0 slot=1:*\n", *machine), Mapping({0, 0}));
}

// A slot mapsim cannot take as Open MPI would is an error naming the file, the line and the slot,
// not a rank silently left unbound.
TEST(MappingFileSockets, RankfileSlotsTheMachineDoesNotHaveAreErrors) {
  const auto machine = topo::make_topology(kSockets);  // 2 sockets of 2 cores per node
  const auto error = [&](const std::string& text) { return read_error(text, *machine); };
  // Two ranks on one core (core 2 is core 0 of socket 1).
  EXPECT_THAT(error("rank 0=node0 slot=2\nrank 1=node0 slot=1:0\n"),
              AllOf(HasSubstr("both on core 2"), HasSubstr("node0")));
  // A core past the node's four; a socket past its two; a core past the socket's two.
  EXPECT_THAT(error("rank 0=node0 slot=3\nrank 1=node0 slot=4\n"),
              HasSubstr("m.txt:2: slot '4' names core 4, past the node's 4"));
  EXPECT_THAT(error("rank 0=node0 slot=3\nrank 1=node0 slot=2:0\n"),
              HasSubstr(":2: slot '2:0' names socket 2, past the node's 2"));
  EXPECT_THAT(error("rank 0=node0 slot=3\nrank 1=node0 slot=0:2\n"),
              HasSubstr(":2: slot '0:2' names core 2, past the socket's 2"));
  EXPECT_THAT(error("rank 0=node0 slot=0-4\n"), HasSubstr("names core 4, past the node's 4"));
  // Not numbers, negative, empty parts, a range that ends first.
  for (const std::string slot : {"x", ":1", "-1", "1,", "", "1:", "3-1", "0-", "1.5", "0:0:1"}) {
    EXPECT_THAT(error("rank 0=node0 slot=" + slot + "\n"),
                AllOf(HasSubstr(":1: slot '" + slot + "'"), HasSubstr("Open MPI's C, S:C")))
        << slot;
  }
}

TEST(MappingFileSockets, RankfileOnAMachineOfOneSocket) {
  const auto machine = topo::make_topology("mesh:2:cores=4");
  // Plain cores name cores of the one socket.
  EXPECT_EQ(as_vector(read_text("rank 0=node0 slot=3\nrank 1=node0 slot=0\n", *machine).cores()),
            (std::vector<std::int32_t>{3, 0}));
  // 0:C is core C of socket 0; socket 1 does not exist.
  EXPECT_EQ(
      as_vector(read_text("rank 0=node0 slot=0:3\nrank 1=node0 slot=0:0\n", *machine).cores()),
      (std::vector<std::int32_t>{3, 0}));
  EXPECT_THAT(read_error("rank 0=node0 slot=1:0\nrank 1=node0 slot=0:0\n", *machine),
              HasSubstr("m.txt:1: slot '1:0' names socket 1, past the node's 1"));
}

TEST(MappingFileSockets, RankfileErrorsStillNameTheLine) {
  const auto machine = topo::make_topology(kSockets);
  // Node-level errors are unchanged by slots that name cores.
  EXPECT_THAT(read_error("rank 0=node0 slot=0\nrank 0=node1 slot=1\n", *machine),
              AllOf(HasSubstr("m.txt:2"), HasSubstr("rank 0 is mapped twice")));
  EXPECT_THAT(read_error("rank 0=node0 slot=0\nrank 1=node0 slot=1\nrank 2=node0 slot=2\n"
                         "rank 3=node0 slot=3\nrank 4=node0 slot=1:1\n",
                         *machine),
              AllOf(HasSubstr("m.txt:5"), HasSubstr("more than 4 rank(s)")));
  EXPECT_THAT(read_error("rank 0=node0 core=1\n", *machine),
              AllOf(HasSubstr("m.txt:1"), HasSubstr("rank R=HOST slot=S")));
}

}  // namespace
}  // namespace mapsim::map

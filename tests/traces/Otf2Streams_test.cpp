// Otf2Streams: an OTF2 archive read per rank in windows gives exactly read_trace's Trace (events,
// gaps, request numbers, final gaps), whatever the window and the order the ranks are read in,
// and fails on damaged archives with read_trace's error.

#include "traces/Otf2Streams.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/Otf2TestArchive.hpp"
#include "tests/support/TempDir.hpp"
#include "tests/traces/ArchiveCopies.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "traces/TraceReader.hpp"
#include "traces/generators/Generator.hpp"

namespace mapsim::traces {
namespace {

using testing::copy_archive;
using testing::read_trace_error;

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::TempDir;

const fs::path kData = MAPSIM_TEST_DATA_DIR;

/// Every archive under tests/data (its directory, relative to tests/data).
std::vector<std::string> real_traces() {
  std::vector<std::string> traces;
  for (const auto& entry : fs::recursive_directory_iterator(kData)) {
    if (entry.path().extension() == ".otf2") {
      traces.push_back(fs::relative(entry.path().parent_path(), kData).string());
    }
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

/// Reads the ranks round-robin, a window of each in turn, as a replay would.
Trace collect_round_robin(EventStreams& streams, std::size_t window) {
  Trace trace;
  trace.world = streams.world();
  trace.source = streams.source();
  trace.ranks.resize(static_cast<std::size_t>(streams.rank_count()));
  std::vector<bool> ended(trace.ranks.size(), false);
  for (std::size_t open = trace.ranks.size(); open > 0;) {
    for (Rank r = 0; r < streams.rank_count(); ++r) {
      auto& stream = trace.ranks[static_cast<std::size_t>(r)];
      if (ended[static_cast<std::size_t>(r)]) continue;
      const auto before = stream.events.size();
      const auto count = streams.read(r, stream.events, window);
      EXPECT_EQ(stream.events.size() - before, count);
      EXPECT_LE(count, window);
      if (count == 0) {
        ended[static_cast<std::size_t>(r)] = true;
        stream.final_gap = streams.final_gap(r);
        --open;
      }
    }
  }
  trace.communicators = streams.communicators();  // self-like ones are added while reading
  return trace;
}

/// Where `got` first differs from `want` ("" if equal), for a readable failure.
std::string first_difference(const Trace& got, const Trace& want) {
  if (got == want) return "";
  if (got.communicators != want.communicators) {
    return ::testing::PrintToString(got.communicators.size()) + " communicators, want " +
           ::testing::PrintToString(want.communicators.size());
  }
  if (got.world != want.world || got.source != want.source) return "world or source";
  if (got.ranks.size() != want.ranks.size()) return "rank count";
  for (std::size_t r = 0; r < want.ranks.size(); ++r) {
    const auto& a = got.ranks[r].events;
    const auto& b = want.ranks[r].events;
    const auto n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (!(a[i] == b[i])) {
        return "rank " + std::to_string(r) + " event " + std::to_string(i) + ": " +
               std::string(name(a[i].kind)) + " gap " + std::to_string(a[i].gap) + ", want " +
               std::string(name(b[i].kind)) + " gap " + std::to_string(b[i].gap);
      }
    }
    if (a.size() != b.size()) {
      return "rank " + std::to_string(r) + ": " + std::to_string(a.size()) + " events, want " +
             std::to_string(b.size());
    }
    if (got.ranks[r].final_gap != want.ranks[r].final_gap) {
      return "rank " + std::to_string(r) + ": final gap " + std::to_string(got.ranks[r].final_gap) +
             ", want " + std::to_string(want.ranks[r].final_gap);
    }
  }
  return "?";
}

/// Checks both reading orders and the windows 1, 7 and 4096 against read_trace (round-robin with
/// self-like communicators numbered as stored; numbered on first use, the round-robin trace
/// equals read_trace but for that numbering, which ReplayAsTheArchiveInMemory covers).
void expect_streams_equal_read_trace(const fs::path& path) {
  const Trace expected = read_trace(path);
  for (const std::size_t window : {1, 7, 4096}) {
    SCOPED_TRACE(::testing::Message() << "window " << window);
    {
      Otf2Streams streams(path);
      EXPECT_EQ(streams.rank_count(), expected.rank_count());
      EXPECT_EQ(streams.event_count(), std::nullopt);
      EXPECT_EQ(first_difference(collect(streams, window), expected), "") << "rank after rank";
    }
    Otf2Streams streams(path, Otf2Streams::SelfCommunicators::AsStored);
    EXPECT_EQ(first_difference(collect_round_robin(streams, window), expected), "")
        << "round-robin";
  }
}

class RealTraceStreams : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceStreams, EqualReadTrace) {
  const auto path = kData / GetParam();
  std::string error;
  try {
    (void)read_trace(path);
  } catch (const InputError& e) {
    error = e.what();  // an archive of definitions only: the streams must fail alike
  }
  if (!error.empty()) {
    EXPECT_THROW(
        {
          try {
            Otf2Streams streams(path);
            (void)collect(streams);
          } catch (const InputError& e) {
            EXPECT_EQ(e.what(), error);
            throw;
          }
        },
        InputError);
    return;
  }
  expect_streams_equal_read_trace(path);
}

INSTANTIATE_TEST_SUITE_P(TestData, RealTraceStreams, ::testing::ValuesIn(real_traces()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name) {
                             if (std::isalnum(static_cast<unsigned char>(c)) == 0) c = '_';
                           }
                           return name;
                         });

TEST(Otf2Streams, SummaryAfterTheLastStreamEqualsTheReadersSummary) {
  // casita_2 is hybrid: its OpenMP threads' records are read once the MPI streams have ended.
  const auto path = kData / "public/casita_2_jacobi_blame_cpu_015";
  TraceReader reader(path);
  (void)reader.read_trace();
  Otf2Streams streams(path);
  (void)collect_round_robin(streams, 100);
  EXPECT_EQ(streams.summary().records, reader.summary().records);
  EXPECT_EQ(streams.summary().skipped, reader.summary().skipped);
  EXPECT_EQ(streams.summary().events, reader.summary().events);
  EXPECT_EQ(streams.summary().point_to_point, reader.summary().point_to_point);
}

class GeneratedStreams : public ::testing::TestWithParam<GeneratorOptions> {};

TEST_P(GeneratedStreams, EqualReadTrace) {
  const TempDir dir;
  (void)write_generated_trace(GetParam(), dir.path());
  expect_streams_equal_read_trace(dir.path());
}

INSTANTIATE_TEST_SUITE_P(
    Npb, GeneratedStreams,
    ::testing::Values(testing::generator("lu", 'S', 8), testing::generator("bt", 'S', 9),
                      testing::generator("sp", 'S', 4), testing::generator("cg", 'S', 8),
                      testing::generator("mg", 'S', 8), testing::generator("ft", 'S', 4),
                      testing::generator("is", 'S', 4), testing::generator("ep", 'S', 3)),
    [](const auto& param_info) { return param_info.param.kernel; });

TEST(Otf2Streams, IrecvCompletedLaterIsReleasedInItsPostingOrder) {
  // Rank 0: Irecv posted (5 ns of computation before), Send, then the Irecv completed by a
  // Waitall. With a window of 1 the Send, decoded first, must wait behind the Irecv.
  const TempDir dir;
  {
    testing::Otf2TestArchive a(dir.path(), 2);
    auto* w = a.writer(0);
    a.enter(0, 5, "MPI_Irecv");
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, a.at(5), 5);
    a.leave(0, 10, "MPI_Irecv");
    a.send(0, 20, 30, 1, 0, 8);
    a.enter(0, 40, "MPI_Waitall");
    OTF2_EvtWriter_MpiIrecv(w, nullptr, a.at(50), 1, 0, 0, 8, 5);
    a.leave(0, 50, "MPI_Waitall");
    a.send(1, 0, 10, 0, 0, 8);
    a.recv(1, 20, 30, 0, 0, 8);
  }
  Otf2Streams streams(dir.path());
  std::vector<Event> events;
  while (streams.read(0, events, 1) > 0) {
  }
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, EventKind::Irecv);
  EXPECT_EQ(events[0].gap, 5'000);  // ps
  EXPECT_EQ(events[0].peer, 1);
  EXPECT_EQ(events[1].kind, EventKind::Send);
  EXPECT_EQ(events[2].kind, EventKind::Wait);
  EXPECT_EQ(read_trace(dir.path()).ranks[0].events, events);
}

// --- damaged archives: read_trace's error, from the rank that reaches it ------------------------

/// A writable copy of tests/data's archive `name` in `dir`.
std::string streams_error(const fs::path& path, std::size_t window) {
  try {
    Otf2Streams streams(path);
    (void)collect_round_robin(streams, window);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Otf2Streams, TruncatedEventFileFailsAsReadTrace) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  const auto file = lu / "traces" / "3.evt";
  fs::resize_file(file, fs::file_size(file) / 2);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, HasSubstr("traces/3.evt"));
  EXPECT_EQ(streams_error(lu, 7), error);
  EXPECT_EQ(streams_error(lu, 4096), error);
}

TEST(Otf2Streams, MissingEventFileFailsAsReadTrace) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::remove(lu / "traces" / "5.evt");
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/5.evt"), HasSubstr("missing")));
  EXPECT_EQ(streams_error(lu, 7), error);
}

TEST(Otf2Streams, WrongRecordCountFailsAsReadTrace) {
  // Rank 1's file (10768 records) in place of rank 0's (7224 declared): found at its end.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::copy_file(lu / "traces" / "1.evt", lu / "traces" / "0.evt",
                fs::copy_options::overwrite_existing);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/0.evt"), HasSubstr("holds 10768 event records"),
                           HasSubstr("declare 7224")));
  EXPECT_EQ(streams_error(lu, 1), error);
  EXPECT_EQ(streams_error(lu, 4096), error);
}

TEST(Otf2Streams, TimestampGoingBackFailsAsReadTrace) {
  // As DamagedTraces.TimestampGoingBackIsRejected: record 0 of lu.S.8's 0.evt moved after 1.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  const auto file = lu / "traces" / "0.evt";
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_EQ(bytes[18], 5);
  ASSERT_EQ(bytes[42], 5);
  std::uint64_t second = 0;
  std::memcpy(&second, bytes.data() + 43, sizeof second);
  const std::uint64_t later = second + 1000;
  std::memcpy(bytes.data() + 19, &later, sizeof later);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, HasSubstr("goes back in time"));
  EXPECT_EQ(streams_error(lu, 1), error);
}

TEST(Otf2Streams, StreamStaysFailedAfterAnError) {
  // Rank 1's file holds 3 records where the definitions declare 4: found at its end. (Without a
  // self-like communicator, nothing is read before the first read().)
  const TempDir dir;
  {
    testing::Otf2TestArchive a(dir.path(), 2);
    a.send(0, 0, 10, 1, 0, 8);
    a.recv(1, 0, 10, 0, 0, 8);
    a.declare_events(1, 4);
  }
  Otf2Streams streams(dir.path());
  std::vector<Event> events;
  const auto drain = [&](Rank rank) {
    while (streams.read(rank, events, 4096) > 0) {
    }
  };
  EXPECT_THROW(drain(1), InputError);
  EXPECT_THROW(drain(1), InputError);
  EXPECT_NO_THROW(drain(0));  // the other ranks read on
  EXPECT_EQ(events.size(), 1u);
}

}  // namespace
}  // namespace mapsim::traces

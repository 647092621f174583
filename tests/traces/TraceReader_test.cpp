// The OTF2 reader on small hand-built archives: each test writes the records Score-P would write
// for a situation found in real traces and checks the events the reader makes of them.

#include "traces/TraceReader.hpp"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/Otf2TestArchive.hpp"
#include "tests/support/TempDir.hpp"
#include "tests/traces/TraceChecks.hpp"
#include "traces/TraceMatrix.hpp"

namespace mapsim::traces {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::Otf2TestArchive;
using testing::TempDir;

constexpr std::int64_t kPsPerNs = 1000;

Event event(EventKind kind, std::int64_t gap, Rank peer = -1, std::int64_t bytes = 0,
            std::int32_t tag = 0, std::uint32_t request = 0, std::uint16_t comm = 0) {
  Event e;
  e.kind = kind;
  e.gap = gap;
  e.peer = peer;
  e.bytes = bytes;
  e.tag = tag;
  e.request = request;
  e.comm = comm;
  return e;
}

Event wait(std::uint32_t request, std::int64_t gap = 0) {
  return event(EventKind::Wait, gap, -1, 0, 0, request);
}

/// Reads `dir` both ways and checks that they agree before returning the stored trace.
Trace read_checked(const std::filesystem::path& dir) {
  Trace trace = read_trace(dir);
  EXPECT_EQ(read_matrix(dir), point_to_point_matrix(trace));
  EXPECT_THAT(testing::model_violations(trace), IsEmpty());
  return trace;
}

TEST(TraceReader, GapsAreTimeOutsideMpiCallsThatProduceEvents) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2, 1'000'000'000, 1000);  // ns ticks, trace starts at 1000
    a.enter(0, 0, "main");
    a.enter(0, 100, "MPI_Comm_rank");  // 50 ns inside MPI, no event: not computation
    a.leave(0, 150, "MPI_Comm_rank");
    a.send(0, 300, 400, 1, 5, 64);
    OTF2_EvtWriter_ThreadFork(a.writer(0), nullptr, a.at(450), OTF2_PARADIGM_OPENMP, 4);
    a.enter(0, 500, "compute");  // user code between MPI calls is computation
    a.leave(0, 700, "compute");
    a.recv(0, 1000, 1100, 1, 6, 32);
    a.leave(0, 1500, "main");
    a.recv(1, 200, 450, 0, 5, 64);
    a.send(1, 900, 1000, 0, 6, 32);
    a.leave(1, 1200, "main");  // unbalanced (no enter): harmless
  }
  const Trace trace = read_checked(dir.path());
  ASSERT_EQ(trace.rank_count(), 2);
  // Rank 0: 300 ns before the Send minus 50 ns in MPI_Comm_rank = 250 ns; Send left at 400,
  // Recv entered at 1000: 600 ns (the OpenMP fork and "compute" are inside that gap); main left
  // at 1500, Recv at 1100: final gap 400 ns.
  EXPECT_THAT(trace.ranks[0].events, ElementsAre(event(EventKind::Send, 250 * kPsPerNs, 1, 64, 5),
                                                 event(EventKind::Recv, 600 * kPsPerNs, 1, 32, 6)));
  EXPECT_EQ(trace.ranks[0].final_gap, 400 * kPsPerNs);
  // Rank 1: 200 ns, then 900 - 450 = 450 ns, then 1200 - 1000 = 200 ns.
  EXPECT_THAT(trace.ranks[1].events, ElementsAre(event(EventKind::Recv, 200 * kPsPerNs, 0, 64, 5),
                                                 event(EventKind::Send, 450 * kPsPerNs, 0, 32, 6)));
  EXPECT_EQ(trace.ranks[1].final_gap, 200 * kPsPerNs);
}

TEST(TraceReader, ConvertsTscTicksToPicosecondsWithoutOverflowOrDrift) {
  const TempDir dir;
  constexpr std::uint64_t kResolution = 2'000'000'003;  // a TSC at about 2 GHz
  {
    Otf2TestArchive a(dir.path(), 2, kResolution, 5'000'000'000'000'000);
    a.send(0, 3'000'000'000, 3'000'000'100, 1, 0, 8);
    a.recv(0, 3'000'000'100 + 1'234'567'891, 4'300'000'000, 1, 0, 8);
    a.recv(1, 0, 10, 0, 0, 8);
    a.send(1, 20, 30, 0, 0, 8);
  }
  const Trace trace = read_checked(dir.path());
  // 3e9 ticks = 3e21 / 2000000003 ps (3e21 overflows 64 bits) = 1499999997750 ps, rounded down.
  // The second gap is taken from the cumulative time, floor((3e9 + 1234567891) · 1e12 / res) −
  // 1499999997750 = 617283944574 ps, so rounding never accumulates.
  ASSERT_EQ(trace.ranks[0].events.size(), 2u);
  EXPECT_EQ(trace.ranks[0].events[0].gap, 1'499'999'997'750);
  EXPECT_EQ(trace.ranks[0].events[1].gap, 617'283'944'574);
}

TEST(TraceReader, RenumbersReusedRequestIdsPerRank) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    auto* w = a.writer(0);
    for (int round = 0; round < 2; ++round) {  // MPI hands out request 7 again once it completed
      const std::uint64_t t = 100 * static_cast<std::uint64_t>(round);
      a.enter(0, t, "MPI_Isend");
      OTF2_EvtWriter_MpiIsend(w, nullptr, a.at(t), 1, 0, 3, 16, 7);
      a.leave(0, t + 10, "MPI_Isend");
      a.enter(0, t + 20, "MPI_Wait");
      OTF2_EvtWriter_MpiIsendComplete(w, nullptr, a.at(t + 30), 7);
      a.leave(0, t + 30, "MPI_Wait");
    }
    a.enter(0, 300, "MPI_Irecv");
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, a.at(300), 7);
    a.leave(0, 310, "MPI_Irecv");
    a.enter(0, 320, "MPI_Wait");
    OTF2_EvtWriter_MpiIrecv(w, nullptr, a.at(330), 1, 0, 4, 24, 7);
    a.leave(0, 330, "MPI_Wait");
    a.recv(1, 0, 10, 0, 3, 16);
    a.recv(1, 20, 30, 0, 3, 16);
    a.send(1, 40, 50, 0, 4, 24);
  }
  const Trace trace = read_checked(dir.path());
  std::vector<std::pair<EventKind, std::uint32_t>> requests;
  for (const auto& e : trace.ranks[0].events) requests.emplace_back(e.kind, e.request);
  EXPECT_THAT(requests,
              ElementsAre(std::pair{EventKind::Isend, 0u}, std::pair{EventKind::Wait, 0u},
                          std::pair{EventKind::Isend, 1u}, std::pair{EventKind::Wait, 1u},
                          std::pair{EventKind::Irecv, 2u}, std::pair{EventKind::Wait, 2u}));
  EXPECT_THAT(testing::unmatched_messages(trace), IsEmpty());
}

TEST(TraceReader, IrecvSitsWherePostedAndCarriesTheDeliveredMessage) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    auto* w = a.writer(0);
    a.enter(0, 0, "MPI_Irecv");
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, a.at(5), 42);
    a.leave(0, 10, "MPI_Irecv");
    a.send(0, 20, 30, 1, 9, 100);
    a.enter(0, 40, "MPI_Wait");
    // The buffer posted was larger; the record carries the 40 bytes delivered.
    OTF2_EvtWriter_MpiIrecv(w, nullptr, a.at(50), 1, 0, 8, 40, 42);
    a.leave(0, 50, "MPI_Wait");
    a.send(1, 0, 10, 0, 8, 40);
    a.recv(1, 20, 30, 0, 9, 100);
  }
  const Trace trace = read_checked(dir.path());
  EXPECT_THAT(trace.ranks[0].events, ElementsAre(event(EventKind::Irecv, 0, 1, 40, 8, 0),
                                                 event(EventKind::Send, 10 * kPsPerNs, 1, 100, 9),
                                                 wait(0, 10 * kPsPerNs)));
}

TEST(TraceReader, TranslatesSplitCommunicatorRanksToWorldRanks) {
  const TempDir dir;
  OTF2_CommRef row = 0;
  {
    Otf2TestArchive a(dir.path(), 4);
    row = a.comm("", {1, 3});        // unnamed, as Score-P leaves split communicators
    a.send(3, 0, 10, 0, 1, 8, row);  // local rank 0 of {1, 3} is world rank 1
    a.recv(1, 0, 10, 1, 1, 8, row);  // local rank 1 is world rank 3
    for (const int r : {1, 3}) {
      a.collective(r, 20, 30, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, r == 3 ? 16 : 0, 8, 1, row);
    }
  }
  const Trace trace = read_checked(dir.path());
  const Event& send = trace.ranks[3].events.at(0);
  EXPECT_EQ(send.peer, 1);
  EXPECT_EQ(trace.communicators.at(send.comm).members, (std::vector<Rank>{1, 3}));
  EXPECT_EQ(trace.communicators.at(send.comm).name, "Comm 1");
  EXPECT_EQ(trace.ranks[1].events.at(0).peer, 3);
  // The Bcast's root is local rank 1 of {1, 3}: world rank 3, on both ranks.
  EXPECT_EQ(trace.ranks[1].events.at(1).peer, 3);
  EXPECT_EQ(trace.ranks[3].events.at(1).peer, 3);
  EXPECT_EQ(trace.ranks[3].events.at(1).op, CollectiveOp::Bcast);
  EXPECT_EQ(trace.ranks[3].events.at(1).bytes, 16);
  EXPECT_EQ(trace.ranks[3].events.at(1).received, 8);
  EXPECT_EQ(trace.communicators.at(trace.world).name, "MPI_COMM_WORLD");
  EXPECT_EQ(trace.communicators.at(trace.world).members, (std::vector<Rank>{0, 1, 2, 3}));
}

TEST(TraceReader, SelfSendsAndSelfLikeCommunicators) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 3);
    const auto self = a.self_comm("MPI_COMM_SELF");
    a.send(0, 0, 10, 0, 1, 8);  // to itself on MPI_COMM_WORLD
    a.recv(0, 20, 30, 0, 1, 8);
    for (const int r : {1, 2}) {  // rank 0 of MPI_COMM_SELF is the rank itself
      a.send(r, 0, 10, 0, 2, 4, self);
      a.recv(r, 20, 30, 0, 2, 4, self);
    }
  }
  const Trace trace = read_checked(dir.path());
  EXPECT_EQ(trace.ranks[0].events.at(0).peer, 0);
  for (const Rank r : {1, 2}) {
    const Event& send = trace.ranks[static_cast<std::size_t>(r)].events.at(0);
    EXPECT_EQ(send.peer, r);
    EXPECT_EQ(trace.communicators.at(send.comm).members, (std::vector<Rank>{r}));
    EXPECT_THAT(trace.communicators.at(send.comm).name, HasSubstr("MPI_COMM_SELF"));
  }
  EXPECT_NE(trace.ranks[1].events.at(0).comm, trace.ranks[2].events.at(0).comm);
  const auto m = read_matrix(dir.path());
  EXPECT_EQ(m.at(0, 0), (Traffic{1, 8}));
  EXPECT_EQ(m.at(2, 2), (Traffic{1, 4}));
}

TEST(TraceReader, SendrecvBecomesConcurrentIsendAndIrecv) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    for (const int r : {0, 1}) {
      a.enter(r, 10, "MPI_Sendrecv");
      OTF2_EvtWriter_MpiSend(a.writer(r), nullptr, a.at(11), static_cast<uint32_t>(1 - r), 0, 0,
                             512);
      OTF2_EvtWriter_MpiRecv(a.writer(r), nullptr, a.at(19), static_cast<uint32_t>(1 - r), 0, 0,
                             512);
      a.leave(r, 20, "MPI_Sendrecv");
    }
    // A send recorded outside any MPI region (measurement was off around the call) is an
    // ordinary blocking Send, whatever the previous call was; it happens at its timestamp.
    OTF2_EvtWriter_MpiSend(a.writer(0), nullptr, a.at(30), 1, 0, 7, 4);
  }
  const Trace trace = read_checked(dir.path());
  EXPECT_EQ(trace.ranks[0].events.back(), event(EventKind::Send, 10 * kPsPerNs, 1, 4, 7));
  // Blocking Send then Recv on both sides would deadlock a rendezvous replay.
  EXPECT_THAT(trace.ranks[1].events,
              ElementsAre(event(EventKind::Isend, 10 * kPsPerNs, 0, 512, 0, 0),
                          event(EventKind::Irecv, 0, 0, 512, 0, 1), wait(0), wait(1)));
}

TEST(TraceReader, NonBlockingCollectiveBecomesICollectiveAndWait) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    for (const int r : {0, 1}) {
      a.enter(r, 0, "MPI_Iallreduce");
      OTF2_EvtWriter_NonBlockingCollectiveRequest(a.writer(r), nullptr, a.at(5), 3);
      a.leave(r, 10, "MPI_Iallreduce");
      a.enter(r, 30, "MPI_Wait");
      OTF2_EvtWriter_NonBlockingCollectiveComplete(a.writer(r), nullptr, a.at(40),
                                                   OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                                   OTF2_UNDEFINED_UINT32, 16, 16, 3);
      a.leave(r, 40, "MPI_Wait");
    }
  }
  TraceReader reader(dir.path());
  const Trace trace = reader.read_trace();
  Event icollective = event(EventKind::ICollective, 0, -1, 16, 0, 0, trace.world);
  icollective.op = CollectiveOp::Allreduce;
  icollective.received = 16;
  EXPECT_THAT(trace.ranks[0].events, ElementsAre(icollective, wait(0, 20 * kPsPerNs)));
  EXPECT_EQ(reader.summary().count(CollectiveOp::Allreduce), 2u);
  EXPECT_THAT(testing::model_violations(trace), IsEmpty());
}

TEST(TraceReader, TestsCancelsAndUnknownCompletions) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    auto* w = a.writer(0);
    a.enter(0, 0, "MPI_Irecv");
    OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, a.at(0), 1);
    a.leave(0, 10, "MPI_Irecv");
    a.enter(0, 20, "MPI_Test");  // unsuccessful: no event, and 20..30 is not computation
    OTF2_EvtWriter_MpiRequestTest(w, nullptr, a.at(25), 1);
    a.leave(0, 30, "MPI_Test");
    a.enter(0, 40, "MPI_Cancel");
    OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, a.at(45), 1);
    a.leave(0, 50, "MPI_Cancel");
    a.enter(0, 60, "MPI_Wait");  // a completion of a request never posted: counted, ignored
    OTF2_EvtWriter_MpiIsendComplete(w, nullptr, a.at(65), 99);
    a.leave(0, 70, "MPI_Wait");
  }
  TraceReader reader(dir.path());
  const Trace trace = reader.read_trace();
  // Irecv 1 never completed: it keeps no source. Cancel's gap: 10..20 and 30..40 = 20 ns.
  EXPECT_THAT(trace.ranks[0].events,
              ElementsAre(event(EventKind::Irecv, 0, -1, 0, 0, 0),
                          event(EventKind::Cancel, 20 * kPsPerNs, -1, 0, 0, 0)));
  EXPECT_EQ(reader.summary().unknown_requests, 1u);
  EXPECT_EQ(reader.summary().open_requests, 0u);
  EXPECT_THAT(testing::model_violations(trace), IsEmpty());
}

TEST(TraceReader, HybridRanksReadOnlyTheMpiLocationAndCountTheRest) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2, 1'000'000'000, 0, /*threads=*/2);
    for (const int r : {0, 1}) {
      for (const int t : {1, 2}) {  // OpenMP threads: their regions never affect the gaps
        a.enter(r, 0, "!$omp parallel", t);
        OTF2_EvtWriter_ThreadTeamBegin(a.writer(r, t), nullptr, a.at(1), 0);
        OTF2_EvtWriter_ThreadTeamEnd(a.writer(r, t), nullptr, a.at(2), 0);
        a.leave(r, 900, "!$omp parallel", t);
      }
    }
    a.send(0, 100, 110, 1, 0, 8);
    a.recv(1, 100, 120, 0, 0, 8);
  }
  TraceReader reader(dir.path());
  const Trace trace = reader.read_trace();
  const auto& summary = reader.summary();
  EXPECT_EQ(summary.ranks, 2);
  EXPECT_EQ(summary.locations, 6u);
  // Per rank: 3 records on the MPI location, 2 × 4 on the threads (all skipped).
  EXPECT_EQ(summary.records, 2u * (3 + 8));
  EXPECT_EQ(summary.skipped, 2u * 8);
  EXPECT_EQ(trace.ranks[0].events.at(0).gap, 100 * kPsPerNs);
  const auto team = std::find_if(summary.records_by_kind.begin(), summary.records_by_kind.end(),
                                 [](const RecordCount& c) { return c.kind == "ThreadTeamBegin"; });
  ASSERT_NE(team, summary.records_by_kind.end());
  EXPECT_EQ(team->read, 4u);
  EXPECT_EQ(team->skipped, 4u);
}

TEST(TraceReader, LocationWithoutEventsNeedsNoEventFile) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2, 1'000'000'000, 0, /*threads=*/1);
    a.send(0, 0, 10, 1, 0, 8);
    a.recv(1, 0, 10, 0, 0, 8);
  }
  // The OpenMP thread of rank 1 recorded nothing; some tracers then write no file for it.
  std::filesystem::remove(dir.path() / "traces" /
                          fmt::format("{}.evt", Otf2TestArchive::location(1, 1)));
  const Trace trace = read_checked(dir.path());
  EXPECT_EQ(trace.event_count(), 2u);
}

TEST(TraceReader, TraceWithoutMpiLoadsWithEmptyStreams) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2, 1'000'000'000, 0, 1, /*mpi=*/false);
    for (const int r : {0, 1}) {
      a.enter(r, 0, "main");
      a.enter(r, 10, "!$omp parallel", 1);
      a.leave(r, 20, "!$omp parallel", 1);
      a.leave(r, 30, "main");
    }
  }
  TraceReader reader(dir.path());
  const Trace trace = reader.read_trace();
  EXPECT_EQ(trace.rank_count(), 2);  // one per process
  EXPECT_EQ(trace.event_count(), 0u);
  EXPECT_EQ(reader.summary().mpi_events(), 0u);
  EXPECT_EQ(reader.summary().records, 8u);
  EXPECT_EQ(read_matrix(dir.path()), CommMatrix(2));
}

TEST(TraceReader, StreamingDeliversCompletedIrecvsBeforeTheirWaits) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
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
  struct Recorder : EventSink {
    std::vector<Event> events;
    std::int64_t final_gap = -1;
    std::vector<std::size_t> positions;
    void event(Rank rank, const Event& e, std::size_t position) override {
      if (rank != 0) return;
      events.push_back(e);
      positions.push_back(position);
    }
    void end_rank(Rank rank, std::int64_t gap) override {
      if (rank == 0) final_gap = gap;
    }
  } recorder;
  TraceReader reader(dir.path());
  reader.stream(recorder);
  // The Irecv arrives late but with its own gap (5 ns before it was posted), as stored.
  EXPECT_THAT(recorder.events, ElementsAre(event(EventKind::Send, 10 * kPsPerNs, 1, 8, 0),
                                           event(EventKind::Irecv, 5 * kPsPerNs, 1, 8, 0, 0),
                                           wait(0, 10 * kPsPerNs)));
  EXPECT_THAT(recorder.positions, ElementsAre(1, 0, 2));  // the stored order: Irecv, Send, Wait
  EXPECT_EQ(recorder.final_gap, 0);
}

TEST(TraceReader, ReadsAnArchiveOnlyOnce) {
  const TempDir dir;
  { Otf2TestArchive a(dir.path(), 1); }
  TraceReader reader(dir.path());
  (void)reader.read_trace();
  EXPECT_THROW((void)reader.read_trace(), InternalError);
}

TEST(TraceReader, MovedReaderKeepsItsArchive) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.send(0, 0, 10, 1, 0, 8);
    a.recv(1, 0, 10, 0, 0, 8);
  }
  TraceReader first(dir.path());
  TraceReader second(std::move(first));
  first = std::move(second);
  EXPECT_EQ(first.read_trace().event_count(), 2u);
}

// --- bad input: one test each, with a message naming the file ---------------------------------

std::string read_error(const std::filesystem::path& path) {
  try {
    (void)read_trace(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TraceReaderErrors, MissingAnchorFile) {
  const TempDir dir;
  EXPECT_THAT(read_error(dir.path() / "traces.otf2"),
              AllOf(HasSubstr("traces.otf2"), HasSubstr("does not exist")));
}

TEST(TraceReaderErrors, DirectoryThatIsNotAnArchive) {
  const TempDir dir;
  dir.write("notes.txt", "not a trace\n");
  EXPECT_THAT(read_error(dir.path()),
              AllOf(HasSubstr(dir.path().string()), HasSubstr("is not an OTF2 archive")));
}

TEST(TraceReaderErrors, AnchorFileThatIsNotOtf2) {
  const TempDir dir;
  const auto anchor = dir.write("traces.otf2", "garbage\n");
  EXPECT_THAT(read_error(anchor),
              AllOf(HasSubstr(anchor.string()), HasSubstr("not a readable OTF2 anchor file")));
}

// A matrix given where a trace belongs (simulate, advise, export): said to be one, and where a
// matrix goes.
TEST(TraceReaderErrors, CommunicationMatrixIsNotATrace) {
  const TempDir dir;
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"plain.csv", "src,dst,messages,bytes\n0,1,1,8\n"},
           {"ranked.csv", "\xEF\xBB\xBF# ranks=4\nsrc,dst,messages,bytes\n"},
           {"recorded.csv", "# mapsim-record 1\n# ranks=2\n# comm 0 0-1\n"}}) {
    const auto file = dir.write(name, text);
    EXPECT_THAT(read_error(file),
                AllOf(HasSubstr(file.string()), HasSubstr("a communication matrix, not a trace"),
                      HasSubstr("map --matrix")))
        << name;
  }
  // Text that merely starts with a comment is no matrix.
  const auto notes = dir.write("notes.csv", "# my notes\nsrc,dst,messages,bytes\n");
  EXPECT_THAT(read_error(notes), AllOf(HasSubstr("not a readable OTF2 anchor file"),
                                       Not(HasSubstr("communication matrix"))));
}

/// A copy of the real lu.S.8 archive that a test may damage.
std::filesystem::path copy_of_lu(const TempDir& dir) {
  const auto copy = dir.path() / "lu.S.8";
  std::filesystem::copy(std::string(MAPSIM_TEST_DATA_DIR) + "/npb/lu.S.8", copy,
                        std::filesystem::copy_options::recursive);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(copy)) {
    std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
  }
  return copy;
}

TEST(TraceReaderErrors, TruncatedDefinitions) {
  const TempDir dir;
  const auto copy = copy_of_lu(dir);
  std::filesystem::resize_file(copy / "traces.def", 5000);
  EXPECT_THAT(read_error(copy), AllOf(HasSubstr("traces.def"), HasSubstr("global definitions"),
                                      HasSubstr("INVALID_DATA")));
}

TEST(TraceReaderErrors, TruncatedEventFile) {
  const TempDir dir;
  const auto copy = copy_of_lu(dir);
  std::filesystem::resize_file(copy / "traces" / "3.evt", 100'000);
  EXPECT_THAT(read_error(copy), AllOf(HasSubstr("traces/3.evt"), HasSubstr("location 3")));
  EXPECT_THROW((void)read_matrix(copy), InputError);
}

TEST(TraceReaderErrors, MissingEventFile) {
  const TempDir dir;
  const auto copy = copy_of_lu(dir);
  std::filesystem::remove(copy / "traces" / "5.evt");
  EXPECT_THAT(read_error(copy),
              AllOf(HasSubstr("1 of 8 event files are missing"), HasSubstr("traces/5.evt")));
}

TEST(TraceReaderErrors, PeerOutsideItsCommunicator) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.send(0, 0, 10, 9, 0, 8);
  }
  EXPECT_THAT(read_error(dir.path()),
              AllOf(HasSubstr("location 0"), HasSubstr("receiver 9 is not a rank of communicator "
                                                       "MPI_COMM_WORLD")));
}

}  // namespace
}  // namespace mapsim::traces

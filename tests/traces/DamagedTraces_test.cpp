// Damaged OTF2 archives are never read as intact (issue 15): one test per kind of damage the
// fuzzing tour found, then the tour itself, replayed deterministically.
//
// The tour damages copies of small real Score-P traces (lu.S.8, is.S.2, ep.S.5,
// casita_4_mpi_ls_barr) with a fixed seed: flipped bytes, truncated files, zeroed ranges and event
// files swapped in from another archive or another location, in event files, local and global
// definitions and the anchor file. For each case both reading paths (the stored Trace and the
// streamed matrix) must either reject the archive with the same InputError naming one of its
// files, or give a result consistent with the definitions: every location holds the records the
// definitions declare, its compute time fits in the clock range (timestamps are monotone and in
// range), the trace model's invariants hold, the streamed matrix equals the stored trace's, the
// collective matrix is computable and the replay ends.
//
// Undetectable in principle: a damaged byte inside the payload of a valid record (a message size,
// tag or peer, a timestamp that stays between its neighbours, a reference that happens to name
// another defined region or communicator), a local definitions file whose mapping tables or clock
// offsets were damaged into other valid ones, or an event file swapped with one of another
// location of the same run that declares as many records (OTF2 event files do not carry their
// location: the chunk header holds only the record numbers). Such a trace reads; the tour then
// asserts the invariants above only. If the damage moved a message or a collective, the ranks no
// longer agree: the collective matrix or the replay then stops with an InputError (unmatched
// collectives, a deadlock), which no single file can reveal; the tour counts those.
//
// The default run plays kCases cases (a few seconds); the `slow` binary (same source, built with
// MAPSIM_DAMAGE_TOUR_SLOW) plays more with another seed, and damages anchor files too.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "tests/support/Otf2TestArchive.hpp"
#include "tests/support/TempDir.hpp"
#include "tests/traces/ArchiveCopies.hpp"
#include "tests/traces/TraceChecks.hpp"
#include "topologies/TopologySpec.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Otf2Definitions.hpp"
#include "traces/TraceMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

using testing::copy_archive;
using testing::read_trace_error;

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::Otf2TestArchive;
using testing::TempDir;

const std::string kData = std::string(MAPSIM_TEST_DATA_DIR) + "/";

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

// --- one test per defect ------------------------------------------------------------------------

#ifndef MAPSIM_DAMAGE_TOUR_SLOW

/// The same through the streaming path.
std::string matrix_error(const fs::path& path) {
  try {
    (void)read_matrix(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(DamagedTraces, EventFileOfAnotherArchiveIsRejected) {
  // lu.S.12's rank 0 ran 3.6 s after lu.S.8 ended: its first record lies outside lu.S.8's clock.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::copy_file(kData + "npb/lu.S.12/traces/0.evt", lu / "traces" / "0.evt",
                fs::copy_options::overwrite_existing);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/0.evt"), HasSubstr("location 0"),
                           HasSubstr("clock range"), HasSubstr("another trace")));
  EXPECT_EQ(matrix_error(lu), error);
}

TEST(DamagedTraces, AMissingLocalDefinitionFileIsNamed) {
  // Without its local definitions, rank 3's communicators read as unknown: the errors blamed its
  // events (an Irecv from rank -1, collectives it never made) rather than the missing file.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::remove(lu / "traces" / "3.def");
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("1 of 8 local definition files are missing"),
                           HasSubstr((lu / "traces" / "3.def").string())));
  EXPECT_EQ(matrix_error(lu), error);
  // Every one missing: local definitions are optional, and the archive reads as before.
  for (int r = 0; r < 8; ++r) fs::remove(lu / "traces" / fmt::format("{}.def", r));
  EXPECT_THAT(read_trace_error(lu), Not(HasSubstr("local definition")));
}

TEST(DamagedTraces, EventFileWithMoreRecordsThanDeclaredIsRejected) {
  // Rank 1's file (10768 records) in place of rank 0's (7224 declared), same run and clock.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::copy_file(lu / "traces" / "1.evt", lu / "traces" / "0.evt",
                fs::copy_options::overwrite_existing);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/0.evt"), HasSubstr("location 0"),
                           HasSubstr("holds 10768 event records"), HasSubstr("declare 7224")));
  EXPECT_EQ(matrix_error(lu), error);
}

TEST(DamagedTraces, EventFileOfAnotherLocationIsRejected) {
  // Rank 0's file in place of rank 1's: libotf2 corrects its timestamps with rank 1's clock
  // offsets (from 1.def), which puts its first record before the trace's start.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::copy_file(lu / "traces" / "0.evt", lu / "traces" / "1.evt",
                fs::copy_options::overwrite_existing);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/1.evt: location 1"),
                           HasSubstr("before the start of the trace's clock range"),
                           HasSubstr("belongs to another trace")));
  EXPECT_EQ(matrix_error(lu), error);
}

TEST(DamagedTraces, FlippedByteThatEndsTheRecordsEarlyIsRejected) {
  // Found by the tour: one flipped byte of ep.S.5's 4.evt makes libotf2 stop after 26 of the 42
  // records, without an error (the rest of the rank's calls were silently lost before).
  const TempDir dir;
  const auto ep = copy_archive(dir.path(), "npb/ep.S.5");
  const auto file = ep / "traces" / "4.evt";
  auto bytes = read_bytes(file);
  bytes[121] = static_cast<char>(bytes[121] ^ 0x1d);
  write_bytes(file, bytes);
  const auto error = read_trace_error(ep);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/4.evt: location 4"),
                           HasSubstr("holds 26 event records, but the global definitions declare "
                                     "42 for this location: the event file is truncated or "
                                     "damaged")));
  EXPECT_EQ(matrix_error(ep), error);
}

TEST(DamagedTraces, DefinitionsDeclaringMoreEventsThanWrittenAreRejected) {
  // A hand-built archive whose definitions declare one record more than the file holds: the
  // file reads without a libotf2 error, as one cut at a record boundary does.
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.send(0, 0, 10, 1, 0, 8);
    a.recv(1, 0, 10, 0, 0, 8);
    a.declare_events(1, 4);  // it holds 3: Enter, MpiRecv, Leave
  }
  EXPECT_THAT(read_trace_error(dir.path()),
              AllOf(HasSubstr("traces/1.evt: location 1"), HasSubstr("holds 3 event records"),
                    HasSubstr("declare 4")));
  EXPECT_THAT(matrix_error(dir.path()), HasSubstr("holds 3 event records"));
}

TEST(DamagedTraces, TimestampGoingBackIsRejected) {
  // libotf2's writer refuses to go back in time, so the file is edited: lu.S.8's 0.evt starts
  // with its chunk header (18 bytes), a timestamp record (type 5, 8 bytes little-endian) and
  // record 0 at that time; the next timestamp record, at byte 42, gives record 1 its time. The
  // first is set 1000 ticks after that one.
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  const auto file = lu / "traces" / "0.evt";
  auto bytes = read_bytes(file);
  ASSERT_EQ(bytes[18], 5);
  ASSERT_EQ(bytes[42], 5);
  std::uint64_t second = 0;
  std::memcpy(&second, bytes.data() + 43, sizeof second);
  const std::uint64_t later = second + 1000;
  std::memcpy(bytes.data() + 19, &later, sizeof later);
  write_bytes(file, bytes);
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/0.evt: location 0"), HasSubstr("record 1 (Enter)"),
                           HasSubstr("goes back in time, 1000 ticks")));
  EXPECT_EQ(matrix_error(lu), error);
}

TEST(DamagedTraces, TimestampAfterTheClockRangeIsRejected) {
  // The tour's corrupted timestamp: 9.2e6 s in MPI and a makespan of 0 before.
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2, 1'000'000'000, 1000);
    a.send(0, 0, 10, 1, 0, 8);
    a.recv(1, 0, 9'200'000'000'000'000, 0, 0, 8);
    a.set_length(10);
  }
  const auto error = read_trace_error(dir.path());
  EXPECT_THAT(error, AllOf(HasSubstr("traces/1.evt: location 1"), HasSubstr("record 1 (MpiRecv)"),
                           HasSubstr("after the end of the trace's clock range, 10 ticks from "
                                     "1000")));
  EXPECT_EQ(matrix_error(dir.path()), error);
}

TEST(DamagedTraces, TimestampBeforeTheClockRangeIsRejected) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 1, 1'000'000'000, 1000);
    OTF2_EvtWriter_Enter(a.writer(0), nullptr, 999, a.region("main"));
    a.set_length(10);
  }
  EXPECT_THAT(read_trace_error(dir.path()),
              AllOf(HasSubstr("traces/0.evt: location 0"), HasSubstr("record 0 (Enter)"),
                    HasSubstr("timestamp 999"), HasSubstr("before the start")));
}

TEST(DamagedTraces, UndefinedRegionIsRejected) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 1);
    a.enter(0, 0, "main");
    OTF2_EvtWriter_Leave(a.writer(0), nullptr, 10, 77);
  }
  EXPECT_THAT(read_trace_error(dir.path()),
              AllOf(HasSubstr("traces/0.evt: location 0"),
                    HasSubstr("record 1 names region 77, which the global definitions do not "
                              "define")));
}

TEST(DamagedTraces, UndefinedCommunicatorIsRejected) {
  const TempDir dir;
  {
    Otf2TestArchive a(dir.path(), 2);
    a.enter(0, 0, "MPI_Send");
    OTF2_EvtWriter_MpiSend(a.writer(0), nullptr, 0, 1, /*comm=*/42, 0, 8);
    a.leave(0, 10, "MPI_Send");
  }
  const auto error = read_trace_error(dir.path());
  EXPECT_THAT(error, AllOf(HasSubstr("traces/0.evt: location 0"),
                           HasSubstr("record 1 names communicator 42, which the global "
                                     "definitions do not define")));
  EXPECT_EQ(matrix_error(dir.path()), error);
}

TEST(DamagedTraces, EmptyEventFileSaysSo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  write_bytes(lu / "traces" / "3.evt", "");
  EXPECT_THAT(read_trace_error(lu), AllOf(HasSubstr("traces/3.evt: location 3"),
                                          HasSubstr("event file is empty (0 bytes)")));
}

TEST(DamagedTraces, TruncatedEventFileSaysSo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::resize_file(lu / "traces" / "3.evt", 50'001);
  EXPECT_THAT(read_trace_error(lu),
              AllOf(HasSubstr("traces/3.evt: the file is truncated or damaged"),
                    HasSubstr("of the 7216 records the definitions declare")));
}

TEST(DamagedTraces, EmptyLocalDefinitionsSaySo) {
  // Without its mapping tables the location's events would be misread (this one read as 2284
  // trace-model events fewer, without an error).
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  write_bytes(lu / "traces" / "3.def", "");
  const auto error = read_trace_error(lu);
  EXPECT_THAT(error, AllOf(HasSubstr("traces/3.def: location 3"),
                           HasSubstr("local definitions file is empty (0 bytes)")));
  EXPECT_EQ(matrix_error(lu), error);
}

TEST(DamagedTraces, TruncatedLocalDefinitionsSaySo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::resize_file(lu / "traces" / "3.def", 70);
  EXPECT_THAT(read_trace_error(lu),
              AllOf(HasSubstr("traces/3.def: the file is truncated or damaged")));
}

TEST(DamagedTraces, EmptyGlobalDefinitionsSaySo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  write_bytes(lu / "traces.def", "");
  EXPECT_THAT(read_trace_error(lu),
              HasSubstr("traces.def: the archive's global definitions file is empty (0 bytes)"));
}

TEST(DamagedTraces, MissingGlobalDefinitionsSaySo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::remove(lu / "traces.def");
  EXPECT_THAT(read_trace_error(lu),
              HasSubstr("traces.def: the archive's global definitions file does not exist"));
}

TEST(DamagedTraces, TruncatedGlobalDefinitionsSaySo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::resize_file(lu / "traces.def", 5000);
  EXPECT_THAT(read_trace_error(lu), AllOf(HasSubstr("traces.def: the file is truncated or damaged"),
                                          HasSubstr("the anchor file declares")));
}

TEST(DamagedTraces, EventFileThatIsADirectorySaysSo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::remove(lu / "traces" / "3.evt");
  fs::create_directory(lu / "traces" / "3.evt");
  EXPECT_THAT(read_trace_error(lu), HasSubstr("traces/3.evt: location 3: its event file is not a "
                                              "regular file"));
}

/// read_trace_error() as a user whom permissions bind: root reads any file, so as root the archive
/// is read by the mapsim binary run as user nobody (setpriv, util-linux).
std::string read_error_unprivileged(const fs::path& path) {
  if (::geteuid() != 0) return read_trace_error(path);
  const auto command = fmt::format(
      "setpriv --reuid=65534 --regid=65534 --clear-groups {} -q matrix '{}' 2>&1 >/dev/null",
      MAPSIM_BINARY, path.string());
  std::string text;
  if (std::FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
    ::pclose(pipe);
  }
  return text;
}

TEST(DamagedTraces, UnreadableFilesSaySo) {
  const TempDir dir;
  const auto lu = copy_archive(dir.path(), "npb/lu.S.8");
  fs::permissions(lu / "traces" / "3.evt", fs::perms::none);
  EXPECT_THAT(read_error_unprivileged(lu),
              HasSubstr("traces/3.evt: location 3: its event file cannot be "
                        "opened: Permission denied"));
  fs::permissions(lu / "traces" / "3.evt", fs::perms::owner_read);
  fs::permissions(lu / "traces.def", fs::perms::none);
  EXPECT_THAT(read_error_unprivileged(lu),
              HasSubstr("traces.def: the archive's global definitions file "
                        "cannot be opened: Permission denied"));
  fs::permissions(lu / "traces.def", fs::perms::owner_read);
  fs::permissions(lu / "traces.otf2", fs::perms::none);
  EXPECT_THAT(read_error_unprivileged(lu),
              HasSubstr("traces.otf2: the archive's anchor file cannot be "
                        "opened: Permission denied"));
}

#endif  // MAPSIM_DAMAGE_TOUR_SLOW

// --- the tour
// -------------------------------------------------------------------------------------

#ifdef MAPSIM_DAMAGE_TOUR_SLOW
constexpr int kCases = 3000;
constexpr std::uint64_t kSeed = 0x5eed'0015'0002'51c0;
constexpr bool kDamageAnchors = true;
#else
constexpr int kCases = 600;
constexpr std::uint64_t kSeed = 0x5eed'0015'0002'0001;
// A damaged count in an anchor file can make libotf2 allocate and touch gigabytes before it
// fails (12 s for ep.S.5's traces.otf2 with byte 58 flipped): only the slow tour damages anchors.
constexpr bool kDamageAnchors = false;
#endif
// A case taking this long is a hang (the slowest intact read and replay takes well under 1 s).
constexpr auto kHangAfter = std::chrono::seconds(60);

const char* const kTourArchives[] = {"npb/lu.S.8", "npb/is.S.2", "npb/ep.S.5",
                                     "public/casita_4_mpi_ls_barr"};
// Donors of event files from other runs.
const char* const kDonors[] = {"npb/lu.S.8", "npb/is.S.2", "npb/ep.S.5",
                               "public/casita_4_mpi_ls_barr", "npb/lu.S.12"};

/// Portable pseudo-random numbers (std::uniform_int_distribution differs between libraries).
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) { return engine_() % n; }

 private:
  std::mt19937_64 engine_;
};

/// Files of an archive: the anchor, the global definitions, and per location .def and .evt.
std::vector<fs::path> files_of(const fs::path& archive, const char* extension) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(archive / "traces")) {
    if (entry.path().extension() == extension) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// What a crash or hang prints: the case being played (set before each case; async-signal-safe).
char current_case[512] = "";

extern "C" void report_crash(int signal) {
  const char prefix[] = "\ncrashed in damage case: ";
  (void)!::write(2, prefix, sizeof prefix - 1);
  (void)!::write(2, current_case, std::strlen(current_case));
  (void)!::write(2, "\n", 1);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

/// Aborts, naming the case, if a case runs longer than kHangAfter.
class Watchdog {
 public:
  Watchdog()
      : thread_([this] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            const auto seen = cases_;
            if (!wake_.wait_for(lock, kHangAfter, [&] { return done_ || cases_ != seen; })) {
              std::fprintf(stderr, "\nhangs in damage case: %s\n", current_case);
              std::abort();
            }
          }
        }) {}
  ~Watchdog() {
    {
      const std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void next_case() {
    {
      const std::lock_guard lock(mutex_);
      ++cases_;
    }
    wake_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t cases_ = 0;
  bool done_ = false;
  std::thread thread_;
};

struct Damage {
  fs::path file;              // the damaged file
  std::string original;       // its bytes before
  std::string description;    // what was done, for failure messages
  bool foreign_file = false;  // an event file of another run took its place
};

/// Damages one file of `archive` (a working copy) and says how.
Damage damage(const fs::path& archive, const std::vector<fs::path>& donors, Random& random) {
  const auto events = files_of(archive, ".evt");
  const auto locals = files_of(archive, ".def");
  Damage d;
  const auto kind = random.below(100);
  if (kind < 10) {  // swap in an event file of another location or another run
    d.file = events[random.below(events.size())];
    d.original = read_bytes(d.file);
    const auto& donor = donors[random.below(donors.size())];
    const auto donor_files = files_of(donor, ".evt");
    const auto& source = donor_files[random.below(donor_files.size())];
    d.foreign_file = donor.filename() != archive.filename();
    write_bytes(d.file, read_bytes(source));
    d.description = fmt::format("{} replaced by {}", d.file.string(), source.string());
    return d;
  }
  // Which file: event files most, then the global and local definitions, the anchor.
  const auto which = random.below(100);
  if (which < 60 || (which >= 92 && !kDamageAnchors)) {
    d.file = events[random.below(events.size())];
  } else if (which < 80) {
    d.file = archive / "traces.def";
  } else if (which < 92) {
    d.file = locals[random.below(locals.size())];
  } else {
    d.file = archive / "traces.otf2";
  }
  d.original = read_bytes(d.file);
  std::string bytes = d.original;
  const auto size = bytes.size();
  if (kind < 55) {  // flip bits of 1 to 4 bytes
    const auto count = 1 + random.below(4);
    d.description = fmt::format("{}: flipped", d.file.string());
    for (std::uint64_t i = 0; i < count; ++i) {
      const auto at = random.below(size);
      const auto mask = static_cast<char>(1 + random.below(255));
      bytes[at] = static_cast<char>(bytes[at] ^ mask);
      d.description += fmt::format(" byte {} ^ {:#04x}", at, static_cast<unsigned char>(mask));
    }
  } else if (kind < 80) {  // truncate
    const auto length = random.below(size);
    bytes.resize(length);
    d.description = fmt::format("{}: truncated to {} of {} bytes", d.file.string(), length, size);
  } else {  // zero a range of 1 to 64 bytes
    const auto at = random.below(size);
    const auto length = std::min<std::uint64_t>(1 + random.below(64), size - at);
    std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), length, '\0');
    d.description = fmt::format("{}: zeroed bytes {} to {}", d.file.string(), at, at + length);
  }
  write_bytes(d.file, bytes);
  return d;
}

struct Tally {
  int rejected = 0;
  int unchanged = 0;      // read as the intact archive reads
  int changed = 0;        // read differently, consistent with the definitions
  int stopped_later = 0;  // of those, ranks' messages or collectives no longer match
};

/// Plays one damaged archive; `intact` is what the undamaged one reads as.
void play(const fs::path& archive, const Damage& d, const Trace& intact, Tally& tally) {
  SCOPED_TRACE(d.description);
  std::string stored_error;
  std::string streamed_error;
  Trace trace;
  TraceSummary summary;
  try {
    TraceReader reader(archive);
    trace = reader.read_trace();
    summary = reader.summary();
  } catch (const InputError& e) {
    stored_error = e.what();
  }
  CommMatrix streamed(0);
  try {
    streamed = read_matrix(archive);
  } catch (const InputError& e) {
    streamed_error = e.what();
  }
  // Both paths reject, or both read. Their messages may differ: libotf2 sometimes reads
  // uninitialised memory past a damaged chunk (valgrind shows it), so two reads of one damaged
  // file can fail at different records or for different reasons.
  EXPECT_EQ(streamed_error.empty(), stored_error.empty())
      << "the two reading paths disagree: '" << stored_error << "' vs '" << streamed_error << "'";
  if (d.foreign_file) {
    EXPECT_FALSE(stored_error.empty()) << "an event file of another run was read";
  }
  if (!stored_error.empty() || !streamed_error.empty()) {
    ++tally.rejected;
    for (const auto& error : {stored_error, streamed_error}) {
      if (error.empty()) continue;
      // It names a file of the archive.
      const bool names_file = error.find(".evt") != std::string::npos ||
                              error.find(".def") != std::string::npos ||
                              error.find(".otf2") != std::string::npos;
      EXPECT_TRUE(names_file && error.find(archive.string()) != std::string::npos) << error;
    }
    return;
  }

  // Read: consistent with the (possibly damaged, still readable) definitions.
  const Otf2Archive otf2(archive);
  const Otf2Definitions definitions(otf2);
  std::uint64_t declared = 0;
  for (const auto& location : definitions.locations) declared += location.events;
  EXPECT_EQ(summary.records, declared);
  if (definitions.clock.length > 0) {
    const auto length_ps = static_cast<double>(definitions.clock.length) * 1e12 /
                           static_cast<double>(definitions.clock.resolution);
    for (const auto& stream : trace.ranks) {
      std::int64_t compute = stream.final_gap;
      for (const auto& event : stream.events) compute += event.gap;
      EXPECT_LE(static_cast<double>(compute),
                length_ps + static_cast<double>(stream.events.size()) + 1);
    }
  }
  EXPECT_THAT(testing::model_violations(trace), IsEmpty());
  EXPECT_EQ(streamed, point_to_point_matrix(trace));
  if (trace == intact) {
    ++tally.unchanged;
  } else {
    ++tally.changed;
  }
  try {
    (void)matrix_with_collectives(trace);
    const auto topology = topo::make_topology("torus:2x2x2");
    std::vector<topo::NodeId> nodes(static_cast<std::size_t>(trace.rank_count()));
    std::iota(nodes.begin(), nodes.end(), 0);
    sim::SimConfig config;
    config.model = "analytic";
    (void)sim::simulate(trace, *topology, topo::Mapping(nodes), config);
  } catch (const InputError&) {
    ++tally.stopped_later;  // messages or collectives that no longer match (see the top)
  }
}

#ifdef MAPSIM_DAMAGE_TOUR_SLOW
TEST(DamagedTraces, LongTourOfDamagedRealTraces) {
#else
TEST(DamagedTraces, TourOfDamagedRealTraces) {
#endif
  const TempDir dir;
  std::vector<fs::path> archives;
  std::vector<fs::path> donors;
  for (const auto* name : kTourArchives) archives.push_back(copy_archive(dir.path(), name));
  const auto donor_dir = dir.path() / "donors";
  fs::create_directories(donor_dir);
  for (const auto* name : kDonors) donors.push_back(copy_archive(donor_dir, name));
  std::vector<Trace> intact;
  for (const auto& archive : archives) intact.push_back(read_trace(archive));

  std::signal(SIGSEGV, report_crash);
  std::signal(SIGABRT, report_crash);
  std::signal(SIGBUS, report_crash);
  std::signal(SIGFPE, report_crash);
  Watchdog watchdog;
  Random random(kSeed);
  Tally tally;
  for (int i = 0; i < kCases && !::testing::Test::HasFailure(); ++i) {
    const auto a = random.below(archives.size());
    const Damage d = damage(archives[a], donors, random);
    std::snprintf(current_case, sizeof current_case, "case %d: %s", i, d.description.c_str());
    watchdog.next_case();
    play(archives[a], d, intact[a], tally);
    write_bytes(d.file, d.original);  // the next case starts from the intact archive
  }
  std::signal(SIGSEGV, SIG_DFL);
  std::signal(SIGABRT, SIG_DFL);
  std::signal(SIGBUS, SIG_DFL);
  std::signal(SIGFPE, SIG_DFL);
  std::cout << fmt::format(
      "{} damaged archives: {} rejected naming a file, {} read as intact, {} read differently "
      "but consistently (of which {} stop in the collective matrix or the replay: the ranks' "
      "messages or collectives no longer match)\n",
      kCases, tally.rejected, tally.unchanged, tally.changed, tally.stopped_later);
  EXPECT_EQ(tally.rejected + tally.unchanged + tally.changed, kCases);
}

}  // namespace
}  // namespace mapsim::traces

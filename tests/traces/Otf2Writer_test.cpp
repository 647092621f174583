// The OTF2 writer: an archive it writes reads back (through mapsim's reader) as exactly the trace
// the in-memory builder makes of the same calls; its definitions are Score-P's; bad output
// directories fail cleanly; an unfinished archive is removed.

#include "traces/Otf2Writer.hpp"

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/Error.hpp"
#include "tests/support/TempDir.hpp"
#include "tests/traces/GeneratorChecks.hpp"
#include "traces/TraceBuilder.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::TempDir;

Trace without_source(Trace trace) {
  trace.source.clear();
  return trace;
}

TEST(Otf2Writer, ArchiveReadsBackAsTheInMemoryTrace) {
  const TempDir dir;
  std::uint64_t records = 0;
  {
    Otf2Writer writer(dir.path() / "out");
    testing::small_program(writer);
    records = writer.record_count();
    EXPECT_EQ(writer.anchor(), dir.path() / "out" / "traces.otf2");
  }
  TraceBuilder builder("");
  testing::small_program(builder);
  TraceReader reader(dir.path() / "out");
  const Trace read = reader.read_trace();
  EXPECT_EQ(without_source(read), builder.take());
  // Every record is accounted for, and the reader skipped nothing it did not expect: ProgramBegin
  // and ProgramEnd per rank; CommCreate (WORLD, SELF, the split) and CommDestroy (WORLD, SELF).
  EXPECT_EQ(reader.summary().records, records);
  // Records of rank 0, by hand: ProgramBegin/End 2; Init 2 + begin/2 creates/end 4; Irecv 3;
  // Isend 3; Waitall 2 + 2 completions; Bcast 4; split 4 + 1 create; Send 3; Reduce 4;
  // Finalize 2 + begin/2 destroys/end 4 = 40. Rank 1: 2 + 6 + 3 + 3 + 3 + 3 + 4 + 5 + 4 + 6 = 39.
  // Rank 2: 2 + 6 + 4 + 5 + 3 (Recv) + 4 + 6 = 30.
  EXPECT_EQ(records, 40u + 39u + 30u);
}

TEST(Otf2Writer, RefusesToOverwriteAnArchiveUnlessAsked) {
  const TempDir dir;
  {
    Otf2Writer writer(dir.path());
    testing::small_program(writer);
  }
  try {
    Otf2Writer again(dir.path());
    FAIL() << "a second archive in the same directory was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("already holds an OTF2 archive"));
    EXPECT_THAT(e.what(), HasSubstr(dir.path().string()));
  }
  EXPECT_TRUE(fs::exists(dir.path() / "traces.otf2"));  // the old archive is untouched
  {
    Otf2WriterOptions options;
    options.overwrite = true;
    Otf2Writer writer(dir.path(), options);
    testing::small_program(writer);
  }
  EXPECT_EQ(read_trace(dir.path()).rank_count(), 3);
}

TEST(Otf2Writer, RejectsAnOutputPathThatIsAFile) {
  const TempDir dir;
  const auto file = dir.write("plain", "not a directory");
  EXPECT_THROW(Otf2Writer{file}, InputError);
  try {
    Otf2Writer writer(file / "below");
    FAIL() << "a directory below a regular file was accepted";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot create output directory"));
  }
}

TEST(Otf2Writer, RemovesAnUnfinishedArchive) {
  const TempDir dir;
  {
    Otf2Writer writer(dir.path());
    writer.begin_trace(2, {{"MPI_COMM_WORLD", {0, 1}, -1}});
    writer.begin_rank(0);
    writer.init();
    writer.finalize();
    writer.end_rank();
    // Destroyed before rank 1 and end_trace(), as when a generator throws.
  }
  EXPECT_FALSE(fs::exists(dir.path() / "traces.otf2"));
  EXPECT_FALSE(fs::exists(dir.path() / "traces.def"));
  EXPECT_FALSE(fs::exists(dir.path() / "traces"));
}

TEST(Otf2Writer, MovedWriterKeepsWriting) {
  const TempDir dir;
  {
    Otf2Writer first(dir.path());
    Otf2Writer second(std::move(first));
    testing::small_program(second);
  }
  EXPECT_EQ(read_trace(dir.path()).rank_count(), 3);
}

}  // namespace
}  // namespace mapsim::traces

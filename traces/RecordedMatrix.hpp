#pragma once
// Matrices recorded by libmapsim-record (record/Recorder.hpp) inside a running MPI program: a CSV
// matrix of the point-to-point messages whose '#' lines before the header also list the
// communicators and every collective call, which mapsim expands into messages as it does a
// trace's (CollectiveSchedule, the simulator's algorithms). docs/record.md gives the format:
//
//   # mapsim-record 1
//   # ranks=6
//   # comm 0 0-5                                   communicator 0: world ranks by comm rank
//   # comm 1 4 2 0                                 (ranges a-b or single ranks)
//   # calls 0 0 create-handle:-1:0:0 Allreduce:-1:48:48*100 Bcast:2:0:8
//   # calls 1 4 ...                                comm, world rank, then its calls in order:
//   src,dst,messages,bytes                         op:root:sent:received[*times], root a world
//   0,1,10,8000                                    rank or -1, sizes as Score-P counts them
//
// A plain CSV reader (read_matrix_csv) reads the point-to-point part and skips the rest.

#include <filesystem>
#include <istream>
#include <string_view>

#include "traces/CommMatrix.hpp"
#include "traces/TraceReader.hpp"

namespace mapsim::traces {

/// True if the stream's first line is the record header `# mapsim-record` (after an optional
/// UTF-8 byte-order mark); the stream, which must be seekable, is left where it was.
bool is_recorded_matrix(std::istream& in);
/// The same for the file at `path` (false if it cannot be read).
bool is_recorded_matrix(const std::filesystem::path& path);

/// Reads a recorded matrix: the point-to-point messages, and with `options.collectives` the
/// collectives' messages too, expanded exactly as matrix_with_collectives expands a trace with
/// the same calls. Throws InputError naming the file and line for a malformed file: a missing
/// or wrong record header or version, an unknown line kind, a bad communicator (rank out of
/// range, a rank twice, an id twice), a bad call (unknown operation, a root outside the
/// communicator, a negative size, a repeat count below 1, a rank calling on a communicator it
/// is not a member of, calls given twice), members that made different numbers of calls or
/// different operations or roots in one call, and everything read_matrix_csv refuses.
CommMatrix read_recorded_matrix(const std::filesystem::path& path, const MatrixOptions& options);
/// The same from a stream; `name` stands for the file in error messages.
CommMatrix read_recorded_matrix(std::istream& in, std::string_view name,
                                const MatrixOptions& options);

/// The CSV matrix file at `path` as mapsim reads it: a recorded one with its collectives
/// (unless `collectives` is false), else a plain one (read_matrix_csv).
CommMatrix read_matrix_file(const std::filesystem::path& path, bool collectives = true,
                            const CollectiveOptions& algorithms = {});
/// The same from a seekable stream; `name` stands for the file in error messages.
CommMatrix read_matrix_file(std::istream& in, std::string_view name, bool collectives = true,
                            const CollectiveOptions& algorithms = {});

}  // namespace mapsim::traces

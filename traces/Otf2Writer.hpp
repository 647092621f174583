#pragma once
// An MpiCallSink that writes an OTF2 archive the way Score-P 8.4 does (docs/workloads.md §1), so
// that otf2-print, Vampir and mapsim's reader take it for a Score-P trace:
// - definitions: clock properties (1 ns ticks, offset 0), the MPI paradigm, one region per MPI
//   function (role and paradigm as Score-P sets them), a system tree (machine → node), one
//   location group "MPI Rank r" (PROCESS) with one location "Master thread" (CPU_THREAD) per
//   rank, the COMM_LOCATIONS group of the MPI paradigm listing the locations in rank order, one
//   COMM_GROUP per distinct member list, MPI_COMM_WORLD, MPI_COMM_SELF (a COMM_SELF group) and
//   every derived communicator with its parent (flag CREATE_DESTROY_EVENTS);
// - events per location: ProgramBegin; Enter/Leave around every MPI call; MpiSend, MpiRecv,
//   MpiIsend, MpiIrecvRequest inside the call; MpiIsendComplete and MpiIrecv inside the
//   MPI_Wait/MPI_Waitall that completes them, in completion order; MpiCollectiveBegin/End (ranks
//   and roots within the communicator, Score-P's sent/received bytes); MPI_Init creates WORLD and
//   SELF (CommCreate) in a CREATE_HANDLE collective on WORLD, MPI_Comm_split/dup create theirs in
//   a CREATE_HANDLE on the parent, MPI_Finalize destroys WORLD and SELF in a DESTROY_HANDLE;
//   ProgramEnd.
// Time: each rank's clock starts at 0 ns; compute(ns) advances it; every MPI call lasts
// `call_ns` (a nominal software overhead: the real communication time is what replay computes).
//
// The archive is DIR/traces.otf2 (anchor), DIR/traces.def and DIR/traces/ (one .evt and .def per
// rank). Ranks stream to disk one at a time, so memory does not grow with the trace. They stream
// into a temporary directory beside DIR, which end_trace() moves into DIR; a writer destroyed
// before (an exception, an interruption) removes it, and DIR stays as it was.

#include <filesystem>
#include <memory>
#include <string>

#include "traces/MpiCallSink.hpp"

namespace mapsim::traces {

struct Otf2WriterOptions {
  bool overwrite = false;          ///< replace an archive already in the directory
  std::int64_t call_ns = 100;      ///< duration of every MPI call
  std::string program = "mapsim";  ///< the program name (ProgramBegin, machine name)
  std::string description;         ///< the archive's description (e.g. the generator options)
};

class Otf2Writer final : public MpiCallSink {
 public:
  /// Opens the archive in a temporary directory beside DIR (creating DIR's parents if needed).
  /// Throws InputError if DIR is not a directory, its parent is not writable, or DIR already
  /// holds an OTF2 archive and `overwrite` is off.
  explicit Otf2Writer(const std::filesystem::path& dir, Otf2WriterOptions options = {});
  ~Otf2Writer() override;
  Otf2Writer(Otf2Writer&&) noexcept;
  Otf2Writer& operator=(Otf2Writer&&) noexcept;

  /// The anchor file, DIR/traces.otf2.
  [[nodiscard]] std::filesystem::path anchor() const;
  /// Event records written (all locations), as the definitions declare them.
  [[nodiscard]] std::uint64_t record_count() const;

 private:
  struct Impl;

  void on_begin_trace() override;
  void on_begin_rank() override;
  void on_end_rank() override;
  void on_end_trace() override;
  void on_compute(std::int64_t ns) override;
  void on_handle(MpiFunction function, CommId comm, CommId created) override;
  void on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes, CommId comm,
               RequestId request) override;
  void on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) override;
  void on_irecv(const Completion& posted) override;
  void on_wait(MpiFunction function, std::span<const Completion> completed) override;
  void on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                     std::int64_t received) override;

  std::unique_ptr<Impl> impl_;
};

}  // namespace mapsim::traces

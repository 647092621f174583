#pragma once
// The global definitions of an OTF2 archive that the trace model needs, resolved into ranks and
// world-rank communicators (internal to the reader).
//
// How Score-P describes MPI (OTF2 1.2 and later, and what libotf2 3 makes of older archives):
// - the group of type COMM_LOCATIONS with paradigm MPI lists one location per MPI_COMM_WORLD
//   rank: rank i is members[i]; that location carries the rank's MPI events (the other locations
//   of a hybrid rank are OpenMP threads, CUDA streams, metric locations);
// - an MPI communicator's group (type COMM_GROUP) lists indexes into that COMM_LOCATIONS group,
//   i.e. world ranks; ranks in events on the communicator are positions in this list, unless the
//   group has the GLOBAL_MEMBERS flag (then they are world ranks already);
// - a group of type COMM_SELF stands for every self-like communicator: on each rank it holds that
//   rank alone. The reader gives each (communicator, rank) pair that uses one its own
//   Communicator, so that every Communicator lists its world ranks.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "support/Ids.hpp"
#include "traces/Otf2Archive.hpp"
#include "traces/Trace.hpp"

namespace mapsim::traces {

/// The archive's timer: ticks per second, the first tick of the trace, its length in ticks.
struct ClockProperties {
  std::uint64_t resolution = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;

  /// The last tick of the trace (offset + length), or the largest timestamp if the length is 0:
  /// some writers do not record it.
  [[nodiscard]] std::uint64_t end() const {
    if (length == 0 || offset > UINT64_MAX - length) return UINT64_MAX;
    return offset + length;
  }
};

/// What entering a region means for the compute-gap accounting.
enum class RegionClass : std::uint8_t {
  Other,        ///< user code, OpenMP, CUDA, ...: time inside counts as computation
  Mpi,          ///< an MPI call: time inside is not computation
  MpiSendrecv,  ///< MPI_Sendrecv(_replace): its MpiSend + MpiRecv are a concurrent pair
  Undefined,    ///< no such definition: the event file is damaged or of another archive
};

struct Otf2Location {
  std::uint64_t ref = 0;
  std::string name;
  std::uint64_t events = 0;  ///< event records, as the definitions declare
  Rank rank = -1;            ///< the world rank whose MPI events this location carries, or -1
};

/// How a communicator reference in an event translates.
struct CommInfo {
  std::int32_t index = -1;      ///< into Otf2Definitions::communicators; -1: not MPI
  bool self = false;            ///< a COMM_SELF group (the rank alone); `index` names it
  bool global_members = false;  ///< ranks in events are world ranks already
  bool defined = false;         ///< a Comm or InterComm definition of any paradigm has this ref
};

class Otf2Definitions {
 public:
  /// Reads the global definitions of `archive`. Throws InputError for unreadable or inconsistent
  /// definitions (a communicator member that is not a rank, a rank without a location, ...).
  explicit Otf2Definitions(const Otf2Archive& archive);

  ClockProperties clock;
  std::vector<Otf2Location> locations;  ///< in definition order
  Rank ranks = 0;
  std::vector<Communicator> communicators;
  std::uint16_t world = 0;

  [[nodiscard]] RegionClass region(std::uint32_t ref) const {
    return ref < regions_.size() ? regions_[ref] : RegionClass::Undefined;
  }
  [[nodiscard]] RegionClass calling_context(std::uint32_t ref) const {
    return ref < calling_contexts_.size() ? calling_contexts_[ref] : RegionClass::Undefined;
  }
  /// The MPI communicator `ref`, or null if it is not one (see comm_defined()).
  [[nodiscard]] const CommInfo* comm(std::uint64_t ref) const {
    return ref < comms_.size() && comms_[ref].index >= 0 ? &comms_[ref] : nullptr;
  }
  /// Whether a communicator of any paradigm has the reference `ref`.
  [[nodiscard]] bool comm_defined(std::uint64_t ref) const {
    return ref < comms_.size() && comms_[ref].defined;
  }
  /// Whether an MPI communicator has a COMM_SELF group (then events may add Communicators).
  [[nodiscard]] bool has_self_like() const { return !self_names_.empty(); }
  /// The Communicator index of the self-like communicator `ref` on `rank`, created on first use.
  /// Throws InputError past 65536 communicators.
  std::uint16_t self_communicator(std::uint64_t ref, Rank rank);
  /// The communicator index to store in an Event for `info` (self-like ones per rank).
  std::uint16_t event_comm(std::uint64_t ref, const CommInfo& info, Rank rank) {
    return info.self ? self_communicator(ref, rank) : static_cast<std::uint16_t>(info.index);
  }

 private:
  std::vector<RegionClass> regions_;
  std::vector<RegionClass> calling_contexts_;
  std::vector<CommInfo> comms_;
  std::vector<std::string> self_names_;  // names of the self-like communicators
  std::map<std::pair<std::uint64_t, Rank>, std::uint16_t> self_comms_;
  std::string archive_;
};

}  // namespace mapsim::traces

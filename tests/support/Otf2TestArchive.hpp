#pragma once
// Writes small OTF2 archives laid out as Score-P lays them out (MPI paradigm, one location per
// rank in the MPI COMM_LOCATIONS group, MPI_COMM_WORLD as communicator 0, optional OpenMP-style
// thread locations per rank), so that tests can hand-build the cases real traces contain.
// Used by the reader's tests and benchmark only; mapsim's own writer lives in traces/.
//
// Events are written straight through libotf2's event writers, in the order the test calls; the
// definitions are written by close().

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <otf2/otf2.h>

namespace mapsim::testing {

class Otf2TestArchive {
 public:
  /// A new archive DIR/traces.otf2 with `ranks` MPI ranks (or processes, if `mpi` is false) and
  /// `threads` extra thread locations per rank; timestamps in ticks of `resolution` per second
  /// starting at `offset`.
  Otf2TestArchive(const std::filesystem::path& dir, int ranks,
                  std::uint64_t resolution = 1'000'000'000, std::uint64_t offset = 0,
                  int threads = 0, bool mpi = true)
      : ranks_(ranks), threads_(threads), mpi_(mpi), resolution_(resolution), offset_(offset) {
    std::filesystem::create_directories(dir);
    archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (archive_ == nullptr) throw std::runtime_error("cannot create a test archive");
    static const OTF2_FlushCallbacks flush{pre_flush, post_flush};
    OTF2_Archive_SetFlushCallbacks(archive_, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive_);
    OTF2_Archive_SetCreator(archive_, "mapsim test");
    OTF2_Archive_OpenEvtFiles(archive_);
    string("");  // string 0 is empty, as in Score-P traces
    if (mpi_) {
      comms_.push_back({"MPI_COMM_WORLD", {}, false});
      for (int r = 0; r < ranks_; ++r)
        comms_.back().members.push_back(static_cast<std::uint64_t>(r));
    }
  }
  ~Otf2TestArchive() {
    try {
      close();
    } catch (const std::exception&) {  // a test reading the archive will fail instead
    }
  }
  Otf2TestArchive(const Otf2TestArchive&) = delete;
  Otf2TestArchive& operator=(const Otf2TestArchive&) = delete;

  static constexpr OTF2_CommRef kWorld = 0;

  /// The location of rank `r`'s master thread (ref r) or of its thread t >= 1 (ref t·2^32 + r).
  static OTF2_LocationRef location(int rank, int thread = 0) {
    return (static_cast<std::uint64_t>(thread) << 32) + static_cast<std::uint64_t>(rank);
  }
  OTF2_EvtWriter* writer(int rank, int thread = 0) {
    const auto ref = location(rank, thread);
    auto& w = writers_[ref];
    if (w == nullptr) w = OTF2_Archive_GetEvtWriter(archive_, ref);
    return w;
  }

  /// A region, defined on first use; names starting with "MPI_" are MPI regions.
  OTF2_RegionRef region(std::string_view name) {
    const auto it = regions_.find(std::string(name));
    if (it != regions_.end()) return it->second;
    const auto ref = static_cast<OTF2_RegionRef>(regions_.size());
    regions_.emplace(std::string(name), ref);
    return ref;
  }
  /// A communicator of the world ranks `members` (its group lists them, as Score-P does).
  OTF2_CommRef comm(std::string name, std::vector<std::uint64_t> members) {
    comms_.push_back({std::move(name), std::move(members), false});
    return static_cast<OTF2_CommRef>(comms_.size() - 1);
  }
  /// A self-like communicator (group of type COMM_SELF).
  OTF2_CommRef self_comm(std::string name) {
    comms_.push_back({std::move(name), {}, true});
    return static_cast<OTF2_CommRef>(comms_.size() - 1);
  }

  void enter(int rank, std::uint64_t time, std::string_view name, int thread = 0) {
    OTF2_EvtWriter_Enter(writer(rank, thread), nullptr, offset_ + time, region(name));
  }
  void leave(int rank, std::uint64_t time, std::string_view name, int thread = 0) {
    OTF2_EvtWriter_Leave(writer(rank, thread), nullptr, offset_ + time, region(name));
  }
  /// Absolute timestamp of `time` ticks after the trace's start.
  [[nodiscard]] std::uint64_t at(std::uint64_t time) const { return offset_ + time; }

  // One blocking MPI call each: Enter at t0, the MPI record at t0, Leave at t1.
  void send(int rank, std::uint64_t t0, std::uint64_t t1, int peer, int tag, std::uint64_t bytes,
            OTF2_CommRef comm = kWorld) {
    enter(rank, t0, "MPI_Send");
    OTF2_EvtWriter_MpiSend(writer(rank), nullptr, at(t0), static_cast<uint32_t>(peer), comm,
                           static_cast<uint32_t>(tag), bytes);
    leave(rank, t1, "MPI_Send");
  }
  void recv(int rank, std::uint64_t t0, std::uint64_t t1, int peer, int tag, std::uint64_t bytes,
            OTF2_CommRef comm = kWorld) {
    enter(rank, t0, "MPI_Recv");
    OTF2_EvtWriter_MpiRecv(writer(rank), nullptr, at(t1), static_cast<uint32_t>(peer), comm,
                           static_cast<uint32_t>(tag), bytes);
    leave(rank, t1, "MPI_Recv");
  }
  void collective(int rank, std::uint64_t t0, std::uint64_t t1, std::string_view name,
                  OTF2_CollectiveOp op, std::uint64_t sent, std::uint64_t received,
                  uint32_t root = OTF2_UNDEFINED_UINT32, OTF2_CommRef comm = kWorld) {
    enter(rank, t0, name);
    OTF2_EvtWriter_MpiCollectiveBegin(writer(rank), nullptr, at(t0));
    OTF2_EvtWriter_MpiCollectiveEnd(writer(rank), nullptr, at(t1), op, comm, root, sent, received);
    leave(rank, t1, name);
  }

  /// Writes the definitions and closes the archive (also done by the destructor).
  void close() {
    if (archive_ == nullptr) return;
    std::map<OTF2_LocationRef, std::uint64_t> events;
    for (int r = 0; r < ranks_; ++r) {
      for (int t = 0; t <= threads_; ++t) writer(r, t);  // every location gets its file
    }
    for (auto& [ref, w] : writers_) {
      uint64_t count = 0;
      OTF2_EvtWriter_GetNumberOfEvents(w, &count);
      const auto declared = declared_.find(ref);
      events[ref] = declared == declared_.end() ? count : declared->second;
      check(OTF2_Archive_CloseEvtWriter(archive_, w), "closing an event writer");
    }
    check(OTF2_Archive_CloseEvtFiles(archive_), "closing the event files");
    OTF2_Archive_OpenDefFiles(archive_);
    for (const auto& [ref, count] : events) {
      OTF2_Archive_CloseDefWriter(archive_, OTF2_Archive_GetDefWriter(archive_, ref));
    }
    OTF2_Archive_CloseDefFiles(archive_);

    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
    OTF2_GlobalDefWriter_WriteClockProperties(defs, resolution_, offset_, length_,
                                              OTF2_UNDEFINED_TIMESTAMP);
    // Strings first: every name used below.
    const auto machine = string("machine");
    const auto node = string("node");
    const auto master = string("Master thread");
    const auto omp = string("OMP thread");
    const auto mpi_name = string("MPI");
    std::vector<OTF2_StringRef> group_names;
    for (int r = 0; r < ranks_; ++r) group_names.push_back(string("MPI Rank " + std::to_string(r)));
    std::vector<std::pair<OTF2_RegionRef, OTF2_StringRef>> region_names;
    for (const auto& [name, ref] : regions_) region_names.emplace_back(ref, string(name));
    std::vector<OTF2_StringRef> comm_names;
    for (const auto& c : comms_) comm_names.push_back(string(c.name));
    for (std::size_t s = 0; s < strings_.size(); ++s) {
      OTF2_GlobalDefWriter_WriteString(defs, static_cast<OTF2_StringRef>(s), strings_[s].c_str());
    }
    if (mpi_) {
      OTF2_GlobalDefWriter_WriteParadigm(defs, OTF2_PARADIGM_MPI, mpi_name,
                                         OTF2_PARADIGM_CLASS_PROCESS);
    }
    for (const auto& [ref, name] : region_names) {
      const bool is_mpi = strings_[name].rfind("MPI_", 0) == 0;
      OTF2_GlobalDefWriter_WriteRegion(
          defs, ref, name, name, 0, is_mpi ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_CODE,
          is_mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, node, machine,
                                             OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (int r = 0; r < ranks_; ++r) {
      OTF2_GlobalDefWriter_WriteLocationGroup(
          defs, static_cast<OTF2_LocationGroupRef>(r), group_names[static_cast<std::size_t>(r)],
          OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (int r = 0; r < ranks_; ++r) {
      for (int t = 0; t <= threads_; ++t) {
        OTF2_GlobalDefWriter_WriteLocation(defs, location(r, t), t == 0 ? master : omp,
                                           OTF2_LOCATION_TYPE_CPU_THREAD, events[location(r, t)],
                                           static_cast<OTF2_LocationGroupRef>(r));
      }
    }
    if (mpi_) {
      std::vector<std::uint64_t> locations;
      for (int r = 0; r < ranks_; ++r) locations.push_back(location(r));
      OTF2_GlobalDefWriter_WriteGroup(defs, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(locations.size()),
                                      locations.data());
      OTF2_GlobalDefWriter_WriteGroup(defs, 1, 0, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                      OTF2_GROUP_FLAG_NONE, 0, nullptr);
      for (std::size_t c = 0; c < comms_.size(); ++c) {
        OTF2_GroupRef group = 1;
        if (!comms_[c].self) {
          group = static_cast<OTF2_GroupRef>(2 + c);
          OTF2_GlobalDefWriter_WriteGroup(
              defs, group, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
              static_cast<uint32_t>(comms_[c].members.size()), comms_[c].members.data());
        }
        OTF2_GlobalDefWriter_WriteComm(defs, static_cast<OTF2_CommRef>(c), comm_names[c], group,
                                       c == 0 ? OTF2_UNDEFINED_COMM : kWorld, OTF2_COMM_FLAG_NONE);
      }
    }
    const auto closed = OTF2_Archive_Close(archive_);
    archive_ = nullptr;
    check(closed, "closing the archive");
  }

  /// The trace's length in ticks, written into the clock properties.
  void set_length(std::uint64_t length) { length_ = length; }
  /// Declares `count` event records for `location` in the definitions, whatever it holds (to
  /// test how a reader treats a mismatch).
  void declare_events(OTF2_LocationRef location, std::uint64_t count) {
    declared_[location] = count;
  }

 private:
  struct Comm {
    std::string name;
    std::vector<std::uint64_t> members;
    bool self = false;
  };

  static void check(OTF2_ErrorCode code, const char* what) {
    if (code != OTF2_SUCCESS) {
      throw std::runtime_error(std::string("test archive: ") + what + ": " +
                               OTF2_Error_GetName(code));
    }
  }

  static OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
    return OTF2_FLUSH;
  }
  static OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

  OTF2_StringRef string(const std::string& text) {
    const auto it = string_refs_.find(text);
    if (it != string_refs_.end()) return it->second;
    strings_.push_back(text);
    const auto ref = static_cast<OTF2_StringRef>(strings_.size() - 1);
    string_refs_.emplace(text, ref);
    return ref;
  }

  int ranks_;
  int threads_;
  bool mpi_;
  std::uint64_t resolution_;
  std::uint64_t offset_;
  std::uint64_t length_ = 0;
  std::map<OTF2_LocationRef, std::uint64_t> declared_;
  OTF2_Archive* archive_ = nullptr;
  std::map<OTF2_LocationRef, OTF2_EvtWriter*> writers_;
  std::map<std::string, OTF2_RegionRef> regions_;
  std::vector<Comm> comms_;
  std::vector<std::string> strings_;
  std::map<std::string, OTF2_StringRef> string_refs_;
};

}  // namespace mapsim::testing

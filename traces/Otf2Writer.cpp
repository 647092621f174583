#include "traces/Otf2Writer.hpp"

#include <array>
#include <cstdarg>
#include <cstdio>
#include <map>
#include <optional>
#include <system_error>
#include <unordered_map>

#include <fmt/format.h>
#include <otf2/otf2.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"

namespace mapsim::traces {
namespace {

namespace fs = std::filesystem;

constexpr const char* kArchiveName = "traces";
constexpr std::uint64_t kTicksPerSecond = 1'000'000'000;  // 1 tick = 1 ns
constexpr std::uint64_t kEventChunk = 1 << 20;
constexpr std::uint64_t kDefChunk = 4 << 20;

// OTF2 reports details of a failure through a process-wide callback; keep the last message of
// this thread for the exception instead of letting the library print it.
thread_local std::string last_otf2_message;
// The first error OTF2 reported since the archive was opened. OTF2 reports a failed write of a
// buffer (a full disk) only here: the call that triggered the flush still returns success.
thread_local OTF2_ErrorCode first_otf2_error = OTF2_SUCCESS;
thread_local std::string first_otf2_message;

OTF2_ErrorCode remember_otf2_error(void* /*user*/, const char* /*file*/, uint64_t /*line*/,
                                   const char* /*function*/, OTF2_ErrorCode code,
                                   const char* format, va_list args) {
  std::array<char, 512> text{};
  if (format != nullptr) std::vsnprintf(text.data(), text.size(), format, args);
  last_otf2_message = text.data();
  if (first_otf2_error == OTF2_SUCCESS) {
    first_otf2_error = code;
    first_otf2_message = last_otf2_message;
  }
  return code;
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) {
  return 0;
}
OTF2_FlushCallbacks kFlushCallbacks = {pre_flush, post_flush};

/// One MPI function the writer can record: its region name and role.
struct RegionInfo {
  const char* name;
  OTF2_RegionRole role;
};

// Region refs: MpiFunction values first, then Send/Recv/Isend/Irecv, then one per CollectiveOp.
constexpr std::array<RegionInfo, 6> kFunctionRegions{{
    {"MPI_Init", OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Finalize", OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_split", OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Comm_dup", OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Wait", OTF2_REGION_ROLE_FUNCTION},
    {"MPI_Waitall", OTF2_REGION_ROLE_FUNCTION},
}};
enum P2pRegion : OTF2_RegionRef { kSend = 6, kRecv, kIsend, kIrecv, kFirstCollective };
constexpr std::array<const char*, 4> kP2pNames{"MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv"};

struct CollectiveInfo {
  CollectiveOp op;
  OTF2_CollectiveOp otf2;
  const char* name;
  OTF2_RegionRole role;
};
constexpr std::array<CollectiveInfo, 17> kCollectives{{
    {CollectiveOp::Barrier, OTF2_COLLECTIVE_OP_BARRIER, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER},
    {CollectiveOp::Bcast, OTF2_COLLECTIVE_OP_BCAST, "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL},
    {CollectiveOp::Gather, OTF2_COLLECTIVE_OP_GATHER, "MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE},
    {CollectiveOp::Gatherv, OTF2_COLLECTIVE_OP_GATHERV, "MPI_Gatherv",
     OTF2_REGION_ROLE_COLL_ALL2ONE},
    {CollectiveOp::Scatter, OTF2_COLLECTIVE_OP_SCATTER, "MPI_Scatter",
     OTF2_REGION_ROLE_COLL_ONE2ALL},
    {CollectiveOp::Scatterv, OTF2_COLLECTIVE_OP_SCATTERV, "MPI_Scatterv",
     OTF2_REGION_ROLE_COLL_ONE2ALL},
    {CollectiveOp::Allgather, OTF2_COLLECTIVE_OP_ALLGATHER, "MPI_Allgather",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Allgatherv, OTF2_COLLECTIVE_OP_ALLGATHERV, "MPI_Allgatherv",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Alltoall, OTF2_COLLECTIVE_OP_ALLTOALL, "MPI_Alltoall",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Alltoallv, OTF2_COLLECTIVE_OP_ALLTOALLV, "MPI_Alltoallv",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Alltoallw, OTF2_COLLECTIVE_OP_ALLTOALLW, "MPI_Alltoallw",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Allreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, "MPI_Allreduce",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Reduce, OTF2_COLLECTIVE_OP_REDUCE, "MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE},
    {CollectiveOp::ReduceScatter, OTF2_COLLECTIVE_OP_REDUCE_SCATTER, "MPI_Reduce_scatter",
     OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::ReduceScatterBlock, OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
     "MPI_Reduce_scatter_block", OTF2_REGION_ROLE_COLL_ALL2ALL},
    {CollectiveOp::Scan, OTF2_COLLECTIVE_OP_SCAN, "MPI_Scan", OTF2_REGION_ROLE_COLL_OTHER},
    {CollectiveOp::Exscan, OTF2_COLLECTIVE_OP_EXSCAN, "MPI_Exscan", OTF2_REGION_ROLE_COLL_OTHER},
}};

std::size_t collective_index(CollectiveOp op) {
  for (std::size_t i = 0; i < kCollectives.size(); ++i) {
    if (kCollectives[i].op == op) return i;
  }
  MAPSIM_EXPECTS(false, "collective operation without an OTF2 equivalent");
  return 0;
}

/// Strings of the global definitions, numbered in order of first use.
class StringTable {
 public:
  OTF2_StringRef operator()(const std::string& text) {
    const auto [it, fresh] = refs_.try_emplace(text, static_cast<OTF2_StringRef>(texts_.size()));
    if (fresh) texts_.push_back(text);
    return it->second;
  }
  [[nodiscard]] const std::vector<std::string>& texts() const { return texts_; }

 private:
  std::unordered_map<std::string, OTF2_StringRef> refs_;
  std::vector<std::string> texts_;
};

/// Whether `dir` holds (part of) an OTF2 archive.
bool has_archive(const fs::path& dir) {
  std::error_code ignored;
  return fs::exists(dir / "traces.otf2", ignored) || fs::exists(dir / "traces.def", ignored) ||
         fs::exists(dir / kArchiveName, ignored);
}

}  // namespace

struct Otf2Writer::Impl {
  fs::path target;                        // where the archive goes
  std::optional<OutputDirectory> output;  // where OTF2 writes it, moved to `target` when complete
  Otf2WriterOptions options;
  OTF2_Archive* archive = nullptr;
  OTF2_EvtWriter* events = nullptr;
  std::uint64_t now = 0;  // ns on the current rank's clock
  std::uint64_t length = 0;
  std::uint64_t records = 0;
  std::vector<std::uint64_t> records_per_rank;
  CommId self_comm = 0;  // MPI_COMM_SELF's ref: after the program's communicators

  void check(OTF2_ErrorCode code, std::string_view what) const {
    if (code == OTF2_SUCCESS) return;
    throw InputError(fmt::format("writing OTF2 archive '{}': {} failed: {} ({}{}{})",
                                 (target / "traces.otf2").string(), what, OTF2_Error_GetName(code),
                                 OTF2_Error_GetDescription(code),
                                 last_otf2_message.empty() ? "" : ": ", last_otf2_message));
  }

  /// Throws if OTF2 reported an error since the archive was opened, e.g. a buffer it could not
  /// write to disk.
  void check_reported(std::string_view what) const {
    if (first_otf2_error == OTF2_SUCCESS) return;
    throw InputError(fmt::format("writing OTF2 archive '{}': {}: {}{}{}",
                                 (target / "traces.otf2").string(), what,
                                 OTF2_Error_GetDescription(first_otf2_error),
                                 first_otf2_message.empty() ? "" : ": ", first_otf2_message));
  }

  void enter(OTF2_RegionRef region) {
    check(OTF2_EvtWriter_Enter(events, nullptr, now, region), "Enter");
  }
  void leave(OTF2_RegionRef region) {
    now += static_cast<std::uint64_t>(options.call_ns);
    check(OTF2_EvtWriter_Leave(events, nullptr, now, region), "Leave");
  }

  void close_archive() noexcept {
    if (archive == nullptr) return;
    if (events != nullptr) OTF2_Archive_CloseEvtWriter(archive, events);
    events = nullptr;
    OTF2_Archive_Close(archive);
    archive = nullptr;
  }

  void write_definitions(const std::vector<CommSpec>& comms, Rank ranks);
};

Otf2Writer::Otf2Writer(const fs::path& dir, Otf2WriterOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->target = dir;
  impl_->options = std::move(options);
  MAPSIM_EXPECTS(impl_->options.call_ns >= 0, "negative MPI call duration");
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error)) {
    throw InputError(fmt::format("output '{}' exists and is not a directory", dir.string()));
  }
  if (has_archive(dir) && !impl_->options.overwrite) {
    throw InputError(fmt::format(
        "output directory '{}' already holds an OTF2 archive (traces.otf2, traces.def or "
        "traces/); remove it, or replace it (mapsim generate --force)",
        dir.string()));
  }
  // The archive is written beside `dir` and moved into it when complete: an error, a full disk
  // or an interruption leaves `dir` as it was (see OutputDirectory).
  impl_->output.emplace(dir, "OTF2 archive");
  const auto& temporary = impl_->output->path();

  OTF2_Error_RegisterCallback(remember_otf2_error, nullptr);
  last_otf2_message.clear();
  first_otf2_error = OTF2_SUCCESS;
  first_otf2_message.clear();
  impl_->archive =
      OTF2_Archive_Open(temporary.c_str(), kArchiveName, OTF2_FILEMODE_WRITE, kEventChunk,
                        kDefChunk, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (impl_->archive == nullptr) {
    throw InputError(fmt::format("cannot create OTF2 archive in '{}'{}{}", dir.string(),
                                 last_otf2_message.empty() ? "" : ": ", last_otf2_message));
  }
  try {
    impl_->check(OTF2_Archive_SetFlushCallbacks(impl_->archive, &kFlushCallbacks, nullptr),
                 "SetFlushCallbacks");
    impl_->check(OTF2_Archive_SetSerialCollectiveCallbacks(impl_->archive),
                 "SetSerialCollectiveCallbacks");
    impl_->check(OTF2_Archive_SetCreator(impl_->archive, "mapsim generate"), "SetCreator");
    impl_->check(OTF2_Archive_SetMachineName(impl_->archive, impl_->options.program.c_str()),
                 "SetMachineName");
    if (!impl_->options.description.empty()) {
      impl_->check(OTF2_Archive_SetDescription(impl_->archive, impl_->options.description.c_str()),
                   "SetDescription");
    }
    impl_->check(OTF2_Archive_OpenEvtFiles(impl_->archive), "OpenEvtFiles");
  } catch (...) {
    impl_->close_archive();
    throw;
  }
}

Otf2Writer::~Otf2Writer() {
  if (!impl_) return;
  impl_->close_archive();
  // An unfinished archive goes with the temporary directory, in the OutputDirectory's destructor.
}

Otf2Writer::Otf2Writer(Otf2Writer&&) noexcept = default;
Otf2Writer& Otf2Writer::operator=(Otf2Writer&&) noexcept = default;

fs::path Otf2Writer::anchor() const {
  return impl_->target / "traces.otf2";
}

std::uint64_t Otf2Writer::record_count() const {
  return impl_->records;
}

void Otf2Writer::on_begin_trace() {
  impl_->records_per_rank.assign(static_cast<std::size_t>(rank_count()), 0);
  impl_->self_comm = static_cast<CommId>(communicators().size());
}

void Otf2Writer::on_begin_rank() {
  auto& w = *impl_;
  w.events = OTF2_Archive_GetEvtWriter(w.archive, static_cast<OTF2_LocationRef>(current_rank()));
  if (w.events == nullptr) w.check(OTF2_ERROR_MEM_FAULT, "GetEvtWriter");
  w.now = 0;
  // String 0 is the program name (see write_definitions).
  w.check(OTF2_EvtWriter_ProgramBegin(w.events, nullptr, w.now, 0, 0, nullptr), "ProgramBegin");
}

void Otf2Writer::on_end_rank() {
  auto& w = *impl_;
  w.check(OTF2_EvtWriter_ProgramEnd(w.events, nullptr, w.now, 0), "ProgramEnd");
  uint64_t count = 0;
  w.check(OTF2_EvtWriter_GetNumberOfEvents(w.events, &count), "GetNumberOfEvents");
  w.records_per_rank[static_cast<std::size_t>(current_rank())] = count;
  w.records += count;
  w.length = std::max(w.length, w.now);
  OTF2_EvtWriter* events = w.events;
  w.events = nullptr;
  w.check(OTF2_Archive_CloseEvtWriter(w.archive, events), "CloseEvtWriter");
  w.check_reported(fmt::format("rank {}", current_rank()));
}

void Otf2Writer::on_end_trace() {
  auto& w = *impl_;
  w.check(OTF2_Archive_CloseEvtFiles(w.archive), "CloseEvtFiles");
  // Empty local definition files, one per location, as readers expect them.
  w.check(OTF2_Archive_OpenDefFiles(w.archive), "OpenDefFiles");
  for (Rank r = 0; r < rank_count(); ++r) {
    OTF2_DefWriter* defs = OTF2_Archive_GetDefWriter(w.archive, static_cast<OTF2_LocationRef>(r));
    if (defs == nullptr) w.check(OTF2_ERROR_MEM_FAULT, "GetDefWriter");
    w.check(OTF2_Archive_CloseDefWriter(w.archive, defs), "CloseDefWriter");
  }
  w.check(OTF2_Archive_CloseDefFiles(w.archive), "CloseDefFiles");
  w.write_definitions(communicators(), rank_count());
  const auto code = OTF2_Archive_Close(w.archive);
  w.archive = nullptr;
  w.check(code, "Close");
  w.check_reported("closing");
  // Another archive may have appeared while this one was written.
  if (has_archive(w.target) && !w.options.overwrite) {
    throw InputError(
        fmt::format("output directory '{}' already holds an OTF2 archive", w.target.string()));
  }
  w.output->commit();  // replaces traces.otf2, traces.def and traces/ of an old archive
}

void Otf2Writer::Impl::write_definitions(const std::vector<CommSpec>& comms, Rank ranks) {
  OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
  if (defs == nullptr) check(OTF2_ERROR_MEM_FAULT, "GetGlobalDefWriter");

  StringTable strings;
  strings(options.program);  // ref 0: ProgramBegin's name
  const auto empty = strings("");
  const auto mpi = strings("MPI");

  // Groups: 0 = the locations of the MPI ranks, 1 = MPI_COMM_SELF, then one per member list.
  std::map<std::vector<Rank>, OTF2_GroupRef> member_groups;
  for (const auto& comm : comms) member_groups.try_emplace(comm.members, 0);
  OTF2_GroupRef next_group = 2;
  for (auto& [members, ref] : member_groups) ref = next_group++;

  const auto machine = strings(options.program);
  const auto machine_class = strings("machine");
  const auto node = strings("node");
  const auto thread = strings("Master thread");
  std::vector<OTF2_StringRef> rank_names;
  for (Rank r = 0; r < ranks; ++r) rank_names.push_back(strings(fmt::format("MPI Rank {}", r)));
  std::vector<OTF2_StringRef> region_names;
  for (const auto& info : kFunctionRegions) region_names.push_back(strings(info.name));
  for (const auto* name : kP2pNames) region_names.push_back(strings(name));
  for (const auto& info : kCollectives) region_names.push_back(strings(info.name));
  std::vector<OTF2_StringRef> comm_names;
  for (const auto& comm : comms) comm_names.push_back(strings(comm.name));
  const auto self_name = strings("MPI_COMM_SELF");
  const auto template_name = strings("Comm ${id}");

  for (std::size_t i = 0; i < strings.texts().size(); ++i) {
    check(OTF2_GlobalDefWriter_WriteString(defs, static_cast<OTF2_StringRef>(i),
                                           strings.texts()[i].c_str()),
          "WriteString");
  }
  check(OTF2_GlobalDefWriter_WriteClockProperties(defs, kTicksPerSecond, 0, length,
                                                  OTF2_UNDEFINED_TIMESTAMP),
        "WriteClockProperties");
  check(
      OTF2_GlobalDefWriter_WriteParadigm(defs, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS),
      "WriteParadigm");
  OTF2_AttributeValue value;
  value.stringRef = template_name;
  check(OTF2_GlobalDefWriter_WriteParadigmProperty(defs, OTF2_PARADIGM_MPI,
                                                   OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                                   OTF2_TYPE_STRING, value),
        "WriteParadigmProperty");

  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, machine, machine_class,
                                                 OTF2_UNDEFINED_SYSTEM_TREE_NODE),
        "WriteSystemTreeNode");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(defs, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE),
        "WriteSystemTreeNodeDomain");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 1, node, node, 0), "WriteSystemTreeNode");
  check(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(defs, 1,
                                                       OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY),
        "WriteSystemTreeNodeDomain");
  for (Rank r = 0; r < ranks; ++r) {
    check(OTF2_GlobalDefWriter_WriteLocationGroup(
              defs, static_cast<OTF2_LocationGroupRef>(r), rank_names[static_cast<std::size_t>(r)],
              OTF2_LOCATION_GROUP_TYPE_PROCESS, 1, OTF2_UNDEFINED_LOCATION_GROUP),
          "WriteLocationGroup");
  }
  for (Rank r = 0; r < ranks; ++r) {
    check(OTF2_GlobalDefWriter_WriteLocation(
              defs, static_cast<OTF2_LocationRef>(r), thread, OTF2_LOCATION_TYPE_CPU_THREAD,
              records_per_rank[static_cast<std::size_t>(r)], static_cast<OTF2_LocationGroupRef>(r)),
          "WriteLocation");
  }

  OTF2_RegionRef region = 0;
  auto write_region = [&](OTF2_RegionRole role) {
    const auto name = region_names[region];
    check(OTF2_GlobalDefWriter_WriteRegion(defs, region, name, name, empty, role, OTF2_PARADIGM_MPI,
                                           OTF2_REGION_FLAG_NONE, mpi, 0, 0),
          "WriteRegion");
    ++region;
  };
  for (const auto& info : kFunctionRegions) write_region(info.role);
  for (std::size_t i = 0; i < kP2pNames.size(); ++i) write_region(OTF2_REGION_ROLE_POINT2POINT);
  for (const auto& info : kCollectives) write_region(info.role);

  std::vector<uint64_t> members;
  for (Rank r = 0; r < ranks; ++r) members.push_back(static_cast<uint64_t>(r));
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        static_cast<uint32_t>(members.size()), members.data()),
        "WriteGroup");
  check(OTF2_GlobalDefWriter_WriteGroup(defs, 1, empty, OTF2_GROUP_TYPE_COMM_SELF,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 0, nullptr),
        "WriteGroup");
  for (const auto& [list, ref] : member_groups) {
    members.assign(list.begin(), list.end());
    check(OTF2_GlobalDefWriter_WriteGroup(defs, ref, empty, OTF2_GROUP_TYPE_COMM_GROUP,
                                          OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                          static_cast<uint32_t>(members.size()), members.data()),
          "WriteGroup");
  }
  for (std::size_t c = 0; c < comms.size(); ++c) {
    const auto parent =
        comms[c].parent < 0 ? OTF2_UNDEFINED_COMM : static_cast<OTF2_CommRef>(comms[c].parent);
    check(OTF2_GlobalDefWriter_WriteComm(defs, static_cast<OTF2_CommRef>(c), comm_names[c],
                                         member_groups.at(comms[c].members), parent,
                                         OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS),
          "WriteComm");
  }
  check(OTF2_GlobalDefWriter_WriteComm(defs, self_comm, self_name, 1, OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_CREATE_DESTROY_EVENTS),
        "WriteComm");
  check(OTF2_Archive_CloseGlobalDefWriter(archive, defs), "CloseGlobalDefWriter");
}

void Otf2Writer::on_compute(std::int64_t ns) {
  impl_->now += static_cast<std::uint64_t>(ns);
}

void Otf2Writer::on_handle(MpiFunction function, CommId comm, CommId created) {
  auto& w = *impl_;
  const auto region = static_cast<OTF2_RegionRef>(function);
  w.enter(region);
  w.check(OTF2_EvtWriter_MpiCollectiveBegin(w.events, nullptr, w.now), "MpiCollectiveBegin");
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_CREATE_HANDLE;
  if (function == MpiFunction::Init) {
    w.check(OTF2_EvtWriter_CommCreate(w.events, nullptr, w.now, kWorld), "CommCreate");
    w.check(OTF2_EvtWriter_CommCreate(w.events, nullptr, w.now, w.self_comm), "CommCreate");
  } else if (function == MpiFunction::Finalize) {
    op = OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
    w.check(OTF2_EvtWriter_CommDestroy(w.events, nullptr, w.now, kWorld), "CommDestroy");
    w.check(OTF2_EvtWriter_CommDestroy(w.events, nullptr, w.now, w.self_comm), "CommDestroy");
  } else {
    w.check(OTF2_EvtWriter_CommCreate(w.events, nullptr, w.now, created), "CommCreate");
  }
  w.check(OTF2_EvtWriter_MpiCollectiveEnd(w.events, nullptr, w.now, op, comm,
                                          OTF2_COLLECTIVE_ROOT_NONE, 0, 0),
          "MpiCollectiveEnd");
  w.leave(region);
}

void Otf2Writer::on_send(bool blocking, Rank to, std::int32_t tag, std::int64_t bytes, CommId comm,
                         RequestId request) {
  auto& w = *impl_;
  const auto peer = static_cast<uint32_t>(local_rank(comm, to));
  const auto tag32 = static_cast<uint32_t>(tag);
  const auto length = static_cast<uint64_t>(bytes);
  if (blocking) {
    w.enter(kSend);
    w.check(OTF2_EvtWriter_MpiSend(w.events, nullptr, w.now, peer, comm, tag32, length), "MpiSend");
    w.leave(kSend);
  } else {
    // Request ids as Score-P numbers them: from 1.
    w.enter(kIsend);
    w.check(OTF2_EvtWriter_MpiIsend(w.events, nullptr, w.now, peer, comm, tag32, length,
                                    uint64_t{request} + 1),
            "MpiIsend");
    w.leave(kIsend);
  }
}

void Otf2Writer::on_recv(Rank from, std::int32_t tag, std::int64_t bytes, CommId comm) {
  auto& w = *impl_;
  w.enter(kRecv);
  w.check(OTF2_EvtWriter_MpiRecv(w.events, nullptr, w.now,
                                 static_cast<uint32_t>(local_rank(comm, from)), comm,
                                 static_cast<uint32_t>(tag), static_cast<uint64_t>(bytes)),
          "MpiRecv");
  w.leave(kRecv);
}

void Otf2Writer::on_irecv(const Completion& posted) {
  auto& w = *impl_;
  w.enter(kIrecv);
  w.check(OTF2_EvtWriter_MpiIrecvRequest(w.events, nullptr, w.now, uint64_t{posted.request} + 1),
          "MpiIrecvRequest");
  w.leave(kIrecv);
}

void Otf2Writer::on_wait(MpiFunction function, std::span<const Completion> completed) {
  auto& w = *impl_;
  const auto region = static_cast<OTF2_RegionRef>(function);
  w.enter(region);
  for (const auto& c : completed) {
    const uint64_t request = uint64_t{c.request} + 1;
    if (c.receive) {
      w.check(OTF2_EvtWriter_MpiIrecv(
                  w.events, nullptr, w.now, static_cast<uint32_t>(local_rank(c.comm, c.peer)),
                  c.comm, static_cast<uint32_t>(c.tag), static_cast<uint64_t>(c.bytes), request),
              "MpiIrecv");
    } else {
      w.check(OTF2_EvtWriter_MpiIsendComplete(w.events, nullptr, w.now, request),
              "MpiIsendComplete");
    }
  }
  w.leave(region);
}

void Otf2Writer::on_collective(CollectiveOp op, CommId comm, Rank root, std::int64_t sent,
                               std::int64_t received) {
  auto& w = *impl_;
  const auto index = collective_index(op);
  const auto region = static_cast<OTF2_RegionRef>(kFirstCollective + index);
  const auto otf2_root = root < 0 ? uint32_t{OTF2_COLLECTIVE_ROOT_NONE}
                                  : static_cast<uint32_t>(local_rank(comm, root));
  w.enter(region);
  w.check(OTF2_EvtWriter_MpiCollectiveBegin(w.events, nullptr, w.now), "MpiCollectiveBegin");
  w.check(OTF2_EvtWriter_MpiCollectiveEnd(w.events, nullptr, w.now, kCollectives[index].otf2, comm,
                                          otf2_root, static_cast<uint64_t>(sent),
                                          static_cast<uint64_t>(received)),
          "MpiCollectiveEnd");
  w.leave(region);
}

}  // namespace mapsim::traces

#include "traces/Otf2Definitions.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>
#include <otf2/OTF2_GlobalDefReader.h>
#include <otf2/OTF2_GlobalDefReaderCallbacks.h>

#include "support/Error.hpp"

namespace mapsim::traces {
namespace {

// Dense tables indexed by OTF2 references; references past this bound are treated as unknown
// (Score-P numbers definitions densely from 0, so only a corrupt file comes near it).
constexpr std::uint64_t kMaxDenseRef = std::uint64_t{1} << 24;

struct RawRegion {
  OTF2_StringRef name = 0;
  OTF2_Paradigm paradigm = 0;
};
struct RawLocation {
  OTF2_LocationRef ref = 0;
  OTF2_StringRef name = 0;
  OTF2_LocationType type = 0;
  std::uint64_t events = 0;
  OTF2_LocationGroupRef group = 0;
};
struct RawGroup {
  OTF2_GroupType type = 0;
  OTF2_Paradigm paradigm = 0;
  OTF2_GroupFlag flags = 0;
  std::vector<std::uint64_t> members;
};
struct RawComm {
  OTF2_CommRef ref = 0;
  OTF2_StringRef name = 0;
  OTF2_GroupRef group = 0;
};

struct RawDefinitions {
  ClockProperties clock;
  bool has_clock = false;
  std::unordered_map<OTF2_StringRef, std::string> strings;
  std::unordered_map<OTF2_RegionRef, RawRegion> regions;
  std::unordered_map<OTF2_CallingContextRef, OTF2_RegionRef> calling_contexts;
  std::vector<RawLocation> locations;
  std::unordered_map<OTF2_LocationGroupRef, OTF2_LocationGroupType> location_groups;
  std::vector<OTF2_LocationGroupRef> location_group_order;
  std::unordered_map<OTF2_GroupRef, RawGroup> groups;
  std::vector<OTF2_GroupRef> group_order;
  std::vector<RawComm> comms;
  std::vector<OTF2_CommRef> inter_comms;

  [[nodiscard]] std::string_view string(OTF2_StringRef ref) const {
    const auto it = strings.find(ref);
    return it == strings.end() ? std::string_view{} : std::string_view{it->second};
  }
};

RawDefinitions& raw(void* user) {
  return *static_cast<RawDefinitions*>(user);
}

OTF2_CallbackCode on_clock(void* user, uint64_t resolution, uint64_t offset, uint64_t length,
                           uint64_t /*realtime*/) {
  raw(user).clock = {resolution, offset, length};
  raw(user).has_clock = true;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void* user, OTF2_StringRef self, const char* text) {
  raw(user).strings[self] = text != nullptr ? text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_region(void* user, OTF2_RegionRef self, OTF2_StringRef name,
                            OTF2_StringRef /*canonical*/, OTF2_StringRef /*description*/,
                            OTF2_RegionRole /*role*/, OTF2_Paradigm paradigm,
                            OTF2_RegionFlag /*flags*/, OTF2_StringRef /*file*/, uint32_t /*begin*/,
                            uint32_t /*end*/) {
  raw(user).regions[self] = {name, paradigm};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_calling_context(void* user, OTF2_CallingContextRef self, OTF2_RegionRef region,
                                     OTF2_SourceCodeLocationRef /*where*/,
                                     OTF2_CallingContextRef /*parent*/) {
  raw(user).calling_contexts[self] = region;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location_group(void* user, OTF2_LocationGroupRef self, OTF2_StringRef /*name*/,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef /*parent*/,
                                    OTF2_LocationGroupRef /*creator*/) {
  if (raw(user).location_groups.emplace(self, type).second) {
    raw(user).location_group_order.push_back(self);
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void* user, OTF2_LocationRef self, OTF2_StringRef name,
                              OTF2_LocationType type, uint64_t events,
                              OTF2_LocationGroupRef group) {
  raw(user).locations.push_back({self, name, type, events, group});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void* user, OTF2_GroupRef self, OTF2_StringRef /*name*/,
                           OTF2_GroupType type, OTF2_Paradigm paradigm, OTF2_GroupFlag flags,
                           uint32_t count, const uint64_t* members) {
  RawGroup group{type, paradigm, flags, {}};
  if (members != nullptr) group.members.assign(members, members + count);
  if (raw(user).groups.insert_or_assign(self, std::move(group)).second) {
    raw(user).group_order.push_back(self);
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void* user, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                          OTF2_CommRef /*parent*/, OTF2_CommFlag /*flags*/) {
  raw(user).comms.push_back({self, name, group});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_inter_comm(void* user, OTF2_CommRef self, OTF2_StringRef /*name*/,
                                OTF2_GroupRef /*a*/, OTF2_GroupRef /*b*/, OTF2_CommRef /*common*/,
                                OTF2_CommFlag /*flags*/) {
  raw(user).inter_comms.push_back(self);  // not modelled; known, so that events may name it
  return OTF2_CALLBACK_SUCCESS;
}

RegionClass classify(std::string_view name, OTF2_Paradigm paradigm) {
  // Old archives may lack the paradigm; Score-P always names MPI regions after the MPI call.
  if (paradigm != OTF2_PARADIGM_MPI && !name.starts_with("MPI_")) return RegionClass::Other;
  if (name.starts_with("MPI_Sendrecv")) return RegionClass::MpiSendrecv;
  return RegionClass::Mpi;
}

RawDefinitions read_raw(const Otf2Archive& archive) {
  RawDefinitions raw;
  OTF2_Reader* reader = archive.get();
  auto file = archive.anchor();
  file.replace_extension(".def");
  OTF2_GlobalDefReader* defs = OTF2_Reader_GetGlobalDefReader(reader);
  if (defs == nullptr) {
    if (const auto problem = file_problem(file); !problem.empty()) {
      take_otf2_messages();
      throw InputError(
          fmt::format("{}: the archive's global definitions file {}", file.string(), problem));
    }
    archive.check(OTF2_ERROR_FILE_CAN_NOT_OPEN,
                  fmt::format("opening the global definitions {}", file.string()));
  }
  using Callbacks = std::unique_ptr<OTF2_GlobalDefReaderCallbacks,
                                    decltype(&OTF2_GlobalDefReaderCallbacks_Delete)>;
  const Callbacks callbacks(OTF2_GlobalDefReaderCallbacks_New(),
                            &OTF2_GlobalDefReaderCallbacks_Delete);
  auto* cb = callbacks.get();
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, on_region);
  OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, on_calling_context);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, on_location_group);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
  OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, on_inter_comm);
  archive.check(OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, cb, &raw),
                "registering definition callbacks");
  uint64_t read = 0;
  const auto status = OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read);
  OTF2_Reader_CloseGlobalDefReader(reader, defs);
  uint64_t declared = 0;
  const bool counted = OTF2_Reader_GetNumberOfGlobalDefinitions(reader, &declared) == OTF2_SUCCESS;
  const auto of_declared =
      counted ? fmt::format(" of the {} the anchor file declares", declared) : std::string();
  archive.check(status, fmt::format("reading the global definitions {}: the file is truncated or "
                                    "damaged (it fails after {} definitions{})",
                                    file.string(), read, of_declared));
  // A file cut at a record or chunk boundary reads without complaint.
  if (counted && read != declared) {
    throw InputError(fmt::format(
        "{}: holds {} global definitions, but the anchor file declares {}: the file is {}",
        file.string(), read, declared,
        read < declared ? "truncated or damaged" : "damaged or belongs to another archive"));
  }
  take_otf2_messages();
  return raw;
}

}  // namespace

Otf2Definitions::Otf2Definitions(const Otf2Archive& archive) : archive_(archive.anchor()) {
  const RawDefinitions raw = read_raw(archive);
  const auto fail = [&](const std::string& what) {
    throw InputError(fmt::format("{}: {}", archive_, what));
  };
  if (!raw.has_clock || raw.clock.resolution == 0) {
    fail("the definitions have no clock properties (timer resolution); the archive is incomplete");
  }
  clock = raw.clock;

  for (const auto& [ref, region] : raw.regions) {
    if (ref >= kMaxDenseRef) continue;
    if (ref >= regions_.size()) regions_.resize(ref + 1, RegionClass::Undefined);
    regions_[ref] = classify(raw.string(region.name), region.paradigm);
  }
  for (const auto& [ref, region] : raw.calling_contexts) {
    if (ref >= kMaxDenseRef) continue;
    if (ref >= calling_contexts_.size()) {
      calling_contexts_.resize(ref + 1, RegionClass::Undefined);
    }
    const auto of_region = region < regions_.size() ? regions_[region] : RegionClass::Undefined;
    calling_contexts_[ref] = of_region == RegionClass::Undefined ? RegionClass::Other : of_region;
  }

  // Ranks: the MPI COMM_LOCATIONS group, else (a trace without MPI) one per process.
  const RawGroup* world_locations = nullptr;
  for (const auto ref : raw.group_order) {
    const auto& group = raw.groups.at(ref);
    if (group.type == OTF2_GROUP_TYPE_COMM_LOCATIONS && group.paradigm == OTF2_PARADIGM_MPI) {
      world_locations = &group;
      break;
    }
  }
  std::unordered_map<OTF2_LocationRef, Rank> rank_of;
  if (world_locations != nullptr) {
    for (std::size_t i = 0; i < world_locations->members.size(); ++i) {
      if (!rank_of.emplace(world_locations->members[i], static_cast<Rank>(i)).second) {
        fail(fmt::format("location {} is listed twice among the MPI ranks",
                         world_locations->members[i]));
      }
    }
    ranks = static_cast<Rank>(world_locations->members.size());
  } else {
    for (const auto group : raw.location_group_order) {
      if (raw.location_groups.at(group) != OTF2_LOCATION_GROUP_TYPE_PROCESS) continue;
      for (const auto& location : raw.locations) {
        if (location.group == group && location.type == OTF2_LOCATION_TYPE_CPU_THREAD) {
          rank_of.emplace(location.ref, ranks);
          break;
        }
      }
      ++ranks;
    }
  }
  for (const auto& location : raw.locations) {
    const auto it = rank_of.find(location.ref);
    locations.push_back({location.ref, std::string(raw.string(location.name)), location.events,
                         it == rank_of.end() ? -1 : it->second});
  }
  for (const auto& [location, rank] : rank_of) {
    const auto ref = location;  // a copy: lambdas cannot capture structured bindings in clang 14
    if (std::none_of(locations.begin(), locations.end(),
                     [&](const Otf2Location& l) { return l.ref == ref; })) {
      fail(fmt::format("MPI rank {} runs on location {}, which is not defined", rank, location));
    }
  }

  // Every communicator reference events may name; then those of the MPI paradigm, with their
  // members as world ranks.
  const auto define_comm = [&](OTF2_CommRef ref) {
    if (ref >= kMaxDenseRef) return;
    if (ref >= comms_.size()) comms_.resize(ref + 1);
    comms_[ref].defined = true;
  };
  for (const auto& comm : raw.comms) define_comm(comm.ref);
  for (const auto ref : raw.inter_comms) define_comm(ref);
  std::int32_t named_world = -1;
  for (const auto& comm : raw.comms) {
    const auto group_it = raw.groups.find(comm.group);
    if (group_it == raw.groups.end() || comm.ref >= kMaxDenseRef) continue;
    const RawGroup& group = group_it->second;
    if (group.paradigm != OTF2_PARADIGM_MPI) continue;
    CommInfo info;
    info.defined = true;
    auto name = std::string(raw.string(comm.name));
    if (name.empty()) name = fmt::format("Comm {}", comm.ref);
    if (comm.ref >= comms_.size()) comms_.resize(comm.ref + 1);
    if (group.type == OTF2_GROUP_TYPE_COMM_SELF) {
      comms_[comm.ref] = {static_cast<std::int32_t>(self_names_.size()), true, false, true};
      self_names_.push_back(name);
      continue;
    }
    Communicator communicator{name, {}};
    if (group.type == OTF2_GROUP_TYPE_COMM_GROUP) {
      info.global_members = (group.flags & OTF2_GROUP_FLAG_GLOBAL_MEMBERS) != 0;
      if (info.global_members) {
        communicator.members.resize(static_cast<std::size_t>(ranks));
        std::iota(communicator.members.begin(), communicator.members.end(), 0);
      } else {
        for (const auto member : group.members) {
          if (member >= static_cast<std::uint64_t>(ranks)) {
            fail(fmt::format("communicator '{}' lists rank {}, but the trace has {} ranks", name,
                             member, ranks));
          }
          communicator.members.push_back(static_cast<Rank>(member));
        }
      }
    } else {
      continue;
    }
    if (communicators.size() >= std::numeric_limits<std::uint16_t>::max()) {
      fail("more than 65535 MPI communicators");
    }
    info.index = static_cast<std::int32_t>(communicators.size());
    if (name == "MPI_COMM_WORLD") named_world = info.index;
    comms_[comm.ref] = info;
    communicators.push_back(std::move(communicator));
  }

  // MPI_COMM_WORLD: by name, else the first communicator of every rank in order (old Score-P
  // leaves communicators unnamed), else one made up so that Trace::world is always valid.
  std::vector<Rank> all(static_cast<std::size_t>(ranks));
  std::iota(all.begin(), all.end(), 0);
  if (named_world >= 0 && communicators[static_cast<std::size_t>(named_world)].members == all) {
    world = static_cast<std::uint16_t>(named_world);
    return;
  }
  for (std::size_t i = 0; i < communicators.size(); ++i) {
    if (communicators[i].members == all && !all.empty()) {
      world = static_cast<std::uint16_t>(i);
      return;
    }
  }
  world = static_cast<std::uint16_t>(communicators.size());
  communicators.push_back({"MPI_COMM_WORLD", all});
}

std::uint16_t Otf2Definitions::self_communicator(std::uint64_t ref, Rank rank) {
  const auto [it, fresh] = self_comms_.try_emplace({ref, rank}, std::uint16_t{0});
  if (fresh) {
    if (communicators.size() >= std::numeric_limits<std::uint16_t>::max()) {
      throw InputError(fmt::format("{}: more than 65535 MPI communicators", archive_));
    }
    it->second = static_cast<std::uint16_t>(communicators.size());
    const auto& base = self_names_[static_cast<std::size_t>(comms_[ref].index)];
    communicators.push_back({fmt::format("{} (rank {})", base, rank), {rank}});
  }
  return it->second;
}

}  // namespace mapsim::traces

#include "mappers/MappingFile.hpp"

#include <algorithm>
#include <fstream>
#include <span>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "support/Suggest.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

struct FormatName {
  MappingFormat format;
  std::string_view name;
};
constexpr FormatName kFormats[] = {{MappingFormat::Plain, "plain"},
                                   {MappingFormat::Rankfile, "rankfile"},
                                   {MappingFormat::Hostlist, "hostlist"},
                                   {MappingFormat::Slurm, "slurm"},
                                   {MappingFormat::Mpich, "mpich"}};

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r')) ++at;
    if (at == line.size()) break;
    const std::size_t start = at;
    while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r') ++at;
    out.push_back(line.substr(start, at - start));
  }
  return out;
}

constexpr std::string_view kHeader = "# mapsim mapping: ";
constexpr std::string_view kMpichNote = "# mapsim: ";

/// Checks the header line "# mapsim mapping: N ranks on SPEC" against the machine and the rank
/// count wanted; other comment lines pass.
void check_header(std::string_view line, std::string_view where, const topo::Topology& topology,
                  std::optional<Rank> ranks) {
  if (!line.starts_with(kHeader)) return;
  const auto rest = line.substr(kHeader.size());
  const auto on = rest.find(" ranks on ");
  if (on == std::string_view::npos) return;
  auto spec = rest.substr(on + 10);
  while (!spec.empty() && (spec.back() == '\r' || spec.back() == ' ')) spec.remove_suffix(1);
  const auto canonical = [](std::string_view text) {
    try {
      return topo::to_string(topo::parse_topology_spec(text));
    } catch (const InputError&) {
      return std::string(text);  // not a spec this version knows: compared as written
    }
  };
  if (canonical(spec) != canonical(topology.spec())) {
    throw InputError(fmt::format(
        "{}: the mapping was made for the machine {}, not for {} (map the ranks again for it)",
        where, spec, topology.spec()));
  }
  if (ranks) {
    const auto made_for = rest.substr(0, on);
    if (made_for != fmt::format("{}", *ranks)) {
      throw InputError(
          fmt::format("{}: the mapping was made for {} ranks on {}, but {} ranks are to be placed",
                      where, made_for, spec, *ranks));
    }
  }
}

/// A line of a mapping file: its number, its text without comment, and the whole line.
struct Line {
  int number = 0;
  std::string_view text;
  std::string_view raw;
  std::string where;  // "FILE:LINE", for messages
};

/// Ranks placed one by one, with every check a mapping file needs.
class Placement {
 public:
  Placement(const topo::Topology& topology, std::optional<Rank> ranks, std::string_view name)
      : topology_(topology),
        ranks_(ranks),
        name_(name),
        load_(static_cast<std::size_t>(topology.node_count()), 0),
        // Without an expected count, no more ranks than the machine has cores can be placed:
        // larger rank numbers are errors, not tables to grow.
        max_rank_(
            (ranks ? *ranks
                   : static_cast<std::int64_t>(topology.node_count()) * topology.cores_per_node()) -
            1) {}

  [[nodiscard]] std::int64_t max_rank() const { return max_rank_; }
  [[nodiscard]] const topo::Topology& topology() const { return topology_; }

  std::int64_t parse_rank(std::string_view text, std::string_view where) const {
    return parse_integer(text, fmt::format("{}: rank", where), 0, max_rank_);
  }
  topo::NodeId parse_node(std::string_view text, std::string_view where, std::int64_t rank) const {
    return topology_.node_named(text, fmt::format("{}: rank {}", where, rank));
  }

  /// The core `text` names on a node: 0 .. cores per node - 1.
  std::int32_t parse_core(std::string_view text, std::string_view where, std::int64_t rank) const {
    return static_cast<std::int32_t>(parse_integer(
        text, fmt::format("{}: core of rank {}", where, rank), 0, topology_.cores_per_node() - 1));
  }

  /// `core`: the rank's core on the node, if the line names one (-1: none).
  void place(std::int64_t rank, topo::NodeId node, std::string_view where, int number,
             std::int32_t core = -1) {
    const auto r = static_cast<std::size_t>(rank);
    if (r >= node_of_rank_.size()) {
      node_of_rank_.resize(r + 1, -1);
      line_of_rank_.resize(r + 1, 0);
      core_of_rank_.resize(r + 1, -1);
    }
    core_of_rank_[r] = core;
    if (node_of_rank_[r] != -1) {
      throw InputError(fmt::format("{}: rank {} is mapped twice (first on line {})", where, rank,
                                   line_of_rank_[r]));
    }
    if (!topology_.allocated(node)) {
      throw InputError(fmt::format("{}: rank {} is on node {} ({}), outside the allocation of {}",
                                   where, rank, node, topology_.host_name(node), topology_.spec()));
    }
    if (++load_[static_cast<std::size_t>(node)] > topology_.cores_per_node()) {
      throw InputError(
          fmt::format("{}: node {} would hold more than {} rank(s) ({} has {} "
                      "core(s) per node)",
                      where, node_label(node), topology_.cores_per_node(), topology_.spec(),
                      topology_.cores_per_node()));
    }
    node_of_rank_[r] = node;
    line_of_rank_[r] = number;
  }

  /// How finish() takes the cores lines name: all or none (plain: a rank without one is an
  /// error), or only if every rank names one (rankfile: a rank bound to several cores or to none
  /// leaves every rank in the rank order). Two ranks on one core are an error either way.
  enum class Cores : std::uint8_t { AllOrNone, IfComplete };

  topo::Mapping finish(Cores cores = Cores::AllOrNone) {
    const auto expected = static_cast<std::size_t>(ranks_ ? *ranks_ : node_of_rank_.size());
    node_of_rank_.resize(expected, -1);
    core_of_rank_.resize(expected, -1);
    for (std::size_t r = 0; r < expected; ++r) {
      if (node_of_rank_[r] == -1) {
        throw InputError(
            fmt::format("{}: rank {} is missing (the mapping must place ranks 0 to {})", name_, r,
                        expected - 1));
      }
    }
    if (expected == 0) throw InputError(fmt::format("{}: the mapping is empty", name_));
    const auto named = static_cast<std::size_t>(
        std::count_if(core_of_rank_.begin(), core_of_rank_.end(), [](auto c) { return c >= 0; }));
    if (named == 0) return topo::Mapping(std::move(node_of_rank_));
    if (named < expected) {
      if (cores == Cores::IfComplete) return topo::Mapping(std::move(node_of_rank_));
      const auto r = static_cast<std::size_t>(
          std::find(core_of_rank_.begin(), core_of_rank_.end(), -1) - core_of_rank_.begin());
      throw InputError(
          fmt::format("{}: line {} names no core for rank {}, but other lines name "
                      "cores (give every rank's core or none)",
                      name_, line_of_rank_[r], r));
    }
    topo::Mapping mapping(std::move(node_of_rank_), std::move(core_of_rank_));
    try {
      validate(mapping, topology_);
    } catch (const InputError& e) {
      throw e.within(std::string(name_));
    }
    return mapping;
  }

 private:
  [[nodiscard]] std::string node_label(topo::NodeId node) const {
    return topology_.host_names().is_default()
               ? fmt::format("{}", node)
               : fmt::format("{} ({})", topology_.host_name(node), node);
  }

  const topo::Topology& topology_;
  std::optional<Rank> ranks_;
  std::string_view name_;
  std::vector<topo::NodeId> node_of_rank_;
  std::vector<int> line_of_rank_;
  std::vector<std::int32_t> core_of_rank_;  // -1: the line names none
  std::vector<std::int64_t> load_;
  std::int64_t max_rank_;
};

bool mpich_list(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789,- \t") == std::string_view::npos &&
         (text.find(',') != std::string_view::npos || text.find('-') != std::string_view::npos ||
          fields(text).size() == 1);
}

MappingFormat detect(std::span<const Line> lines) {
  // The note mapsim writes above an MPICH rank order says what follows, bad items included.
  for (const auto& line : lines) {
    if (line.raw.starts_with(kMpichNote)) return MappingFormat::Mpich;
  }
  for (const auto& line : lines) {
    const auto parts = fields(line.text);
    if (parts.empty()) continue;
    if (parts[0] == "rank") return MappingFormat::Rankfile;
    if (parts.size() >= 2) return MappingFormat::Plain;
    if (mpich_list(parts[0]) && parts[0].find_first_not_of("0123456789") != std::string_view::npos)
      return MappingFormat::Mpich;
    // One field: a host name (never all digits) or a single rank of an mpich order.
    return parts[0].find_first_not_of("0123456789") == std::string_view::npos
               ? MappingFormat::Mpich
               : MappingFormat::Hostlist;
  }
  return MappingFormat::Plain;
}

void read_plain(std::span<const Line> lines, Placement& placement) {
  for (const auto& line : lines) {
    const auto parts = fields(line.text);
    if (parts.empty()) continue;
    const auto& where = line.where;
    if (parts.size() != 2 && parts.size() != 3) {
      throw InputError(
          fmt::format("{}: expected 'rank node' or 'rank node core', got {} field(s) "
                      "'{}'",
                      where, parts.size(), line.text));
    }
    const auto rank = placement.parse_rank(parts[0], where);
    placement.place(rank, placement.parse_node(parts[1], where, rank), where, line.number,
                    parts.size() == 3 ? placement.parse_core(parts[2], where, rank) : -1);
  }
}

/// The core a rankfile slot names: "C" (a core of the node) or "S:C" (core C of socket S); -1
/// for Open MPI's forms that bind a rank to several cores (a range "A-B", a list "A,B", "S:A-B",
/// "*"), which leave it unbound. Throws InputError, naming `where`, for anything else and for a
/// socket or core the machine's nodes do not have.
std::int32_t slot_core(std::string_view slot, const topo::Topology& topology,
                       std::string_view where) {
  const auto fail = [&](std::string_view why) {
    throw InputError(fmt::format(
        "{}: slot '{}' {} (Open MPI's C, S:C, a range A-B, a list A,B or *; {} has {} socket(s) "
        "of {} core(s) per node)",
        where, slot, why, topology.spec(), topology.sockets_per_node(),
        topology.cores_per_socket()));
  };
  // A socket's or core's number, below `count` (the node's or, after "S:", the socket's).
  const auto number = [&](std::string_view text, std::int64_t count, std::string_view what,
                          std::string_view whose) {
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string_view::npos) {
      fail(fmt::format("has '{}' where a {} number belongs", text, what));
    }
    const auto n = std::stoll(std::string(text));
    if (n >= count) fail(fmt::format("names {} {}, past the {}'s {}", what, n, whose, count));
    return n;
  };
  // Each item: [S:]C, [S:]A-B or [S:]*; one item of one core names that core.
  std::int64_t core = -1;
  std::size_t items = 0;
  for (std::size_t at = 0; at <= slot.size(); ++items) {
    auto end = slot.find(',', at);
    if (end == std::string_view::npos) end = slot.size();
    auto item = slot.substr(at, end - at);
    at = end + 1;
    std::int64_t first_core = 0;  // of the socket named, or of the node
    std::int64_t cores = topology.cores_per_node();
    std::string_view whose = "node";
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
      const auto socket =
          number(item.substr(0, colon), topology.sockets_per_node(), "socket", "node");
      first_core = socket * topology.cores_per_socket();
      cores = topology.cores_per_socket();
      whose = "socket";
      item = item.substr(colon + 1);
    }
    if (item == "*") {
      core = -1;
      continue;
    }
    if (const auto dash = item.find('-'); dash != std::string_view::npos) {
      const auto low = number(item.substr(0, dash), cores, "core", whose);
      if (number(item.substr(dash + 1), cores, "core", whose) < low) {
        fail("is a range that ends first");
      }
      core = -1;
      continue;
    }
    core = first_core + number(item, cores, "core", whose);
  }
  return items == 1 ? static_cast<std::int32_t>(core) : -1;
}

void read_rankfile(std::span<const Line> lines, Placement& placement) {
  for (const auto& line : lines) {
    const auto parts = fields(line.text);
    if (parts.empty()) continue;
    const auto& where = line.where;
    const auto eq = parts.size() >= 2 ? parts[1].find('=') : std::string_view::npos;
    if (parts[0] != "rank" || eq == std::string_view::npos || parts.size() > 3 ||
        (parts.size() == 3 && !parts[2].starts_with("slot="))) {
      throw InputError(
          fmt::format("{}: expected an Open MPI rankfile line 'rank R=HOST slot=S', got '{}'",
                      where, line.text));
    }
    const auto rank = placement.parse_rank(parts[1].substr(0, eq), where);
    const auto host = parts[1].substr(eq + 1);
    if (host.starts_with('+')) {
      throw InputError(
          fmt::format("{}: relative host '{}' (Open MPI's +nN) is not read; name the "
                      "host",
                      where, host));
    }
    placement.place(
        rank, placement.parse_node(host, where, rank), where, line.number,
        parts.size() == 3 ? slot_core(parts[2].substr(5), placement.topology(), where) : -1);
  }
}

void read_hostlist(std::span<const Line> lines, Placement& placement) {
  std::int64_t rank = 0;
  for (const auto& line : lines) {
    const auto parts = fields(line.text);
    if (parts.empty()) continue;
    const auto& where = line.where;
    if (parts.size() != 1) {
      throw InputError(
          fmt::format("{}: expected one host name per line (line r for rank r), got "
                      "'{}'",
                      where, line.text));
    }
    if (rank > placement.max_rank()) {
      throw InputError(fmt::format("{}: names a host for rank {}, past the last rank {}", where,
                                   rank, placement.max_rank()));
    }
    placement.place(rank, placement.parse_node(parts[0], where, rank), where, line.number);
    ++rank;
  }
}

/// The nodes and ranks per node of an MPICH_RANK_ORDER file: its "# mapsim:" note, else the
/// allocation (or the machine) in natural order with cores_per_node ranks each.
void read_mpich(std::span<const Line> lines, const topo::Topology& topology, Placement& placement) {
  std::vector<topo::NodeId> nodes;
  std::int64_t per_node = topology.cores_per_node();
  for (const auto& line : lines) {
    if (!line.raw.starts_with(kMpichNote)) continue;
    const auto& where = line.where;
    for (const auto part : fields(line.raw.substr(kMpichNote.size()))) {
      if (part.starts_with("nodes=")) {
        for (const auto& host : expand_hostlist(part.substr(6), where)) {
          nodes.push_back(topology.node_named(host, fmt::format("{}: nodes", where)));
        }
      } else if (part.starts_with("ranks-per-node=")) {
        per_node = parse_integer(part.substr(15), fmt::format("{}: ranks-per-node", where), 1,
                                 topology.cores_per_node());
      }
    }
  }
  if (nodes.empty()) {
    const auto allocation = topology.allocation();
    if (allocation.empty()) {
      nodes.resize(static_cast<std::size_t>(topology.node_count()));
      for (topo::NodeId n = 0; n < topology.node_count(); ++n)
        nodes[static_cast<std::size_t>(n)] = n;
    } else {
      nodes.assign(allocation.begin(), allocation.end());
    }
  }
  std::sort(nodes.begin(), nodes.end());
  std::int64_t position = 0;
  for (const auto& line : lines) {
    const auto& where = line.where;
    for (const auto item : fields(line.text)) {
      std::size_t at = 0;
      while (at <= item.size()) {
        const auto comma = item.find(',', at);
        const auto entry = item.substr(at, comma == std::string_view::npos ? comma : comma - at);
        at = comma == std::string_view::npos ? item.size() + 1 : comma + 1;
        if (entry.empty()) continue;  // "0,1," and ",0": Cray's reader skips empty entries
        const auto dash = entry.find('-');
        const auto first = placement.parse_rank(entry.substr(0, dash), where);
        const auto last = dash == std::string_view::npos
                              ? first
                              : placement.parse_rank(entry.substr(dash + 1), where);
        if (last < first) {
          throw InputError(
              fmt::format("{}: the rank range '{}' ends below its start", where, entry));
        }
        for (auto rank = first; rank <= last; ++rank, ++position) {
          const auto k = static_cast<std::size_t>(position / per_node);
          if (k >= nodes.size()) {
            throw InputError(fmt::format(
                "{}: rank {} is the {}th listed, past the {} nodes x {} ranks the order fills",
                where, rank, position + 1, nodes.size(), per_node));
          }
          placement.place(rank, nodes[k], where, line.number);
        }
      }
    }
  }
}

/// "0-3,8,10-11": ranks in the order given, runs of consecutive ranks as ranges.
std::string rank_ranges(std::span<const Rank> ranks) {
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!text.empty()) text += ',';
    text += j > i ? fmt::format("{}-{}", ranks[i], ranks[j]) : fmt::format("{}", ranks[i]);
    i = j + 1;
  }
  return text;
}

void write_mpich(std::ostream& out, const topo::Mapping& mapping, const topo::Topology& topology) {
  std::vector<std::vector<Rank>> on_node(static_cast<std::size_t>(topology.node_count()));
  for (Rank r = 0; r < mapping.rank_count(); ++r)
    on_node[static_cast<std::size_t>(mapping.node(r))].push_back(r);
  std::vector<topo::NodeId> nodes;
  std::size_t per_node = 0;
  for (topo::NodeId n = 0; n < topology.node_count(); ++n) {
    const auto count = on_node[static_cast<std::size_t>(n)].size();
    if (count == 0) continue;
    nodes.push_back(n);
    per_node = std::max(per_node, count);
  }
  std::vector<Rank> order;
  std::vector<std::string> hosts;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const auto& ranks = on_node[static_cast<std::size_t>(nodes[k])];
    if (ranks.size() != per_node && k + 1 < nodes.size()) {
      throw InputError(fmt::format(
          "an MPICH_RANK_ORDER file deals the same number of ranks onto every node, but this "
          "mapping puts {} on {} and {} on another; write it as a rankfile or for slurm instead",
          ranks.size(), topology.host_name(nodes[k]), per_node));
    }
    order.insert(order.end(), ranks.begin(), ranks.end());
    hosts.push_back(topology.host_name(nodes[k]));
  }
  fmt::print(out,
             "# MPICH_RANK_ORDER written by mapsim for {} ranks on {}: set "
             "MPICH_RANK_REORDER_METHOD=3 and launch on these {} nodes, {} ranks per node\n",
             mapping.rank_count(), topology.spec(), nodes.size(), per_node);
  fmt::print(out, "{}nodes={} ranks-per-node={}\n", kMpichNote, compress_hostlist(hosts), per_node);
  fmt::print(out, "{}\n", rank_ranges(order));
}

}  // namespace

MappingFormat mapping_format_from_name(std::string_view text) {
  for (const auto& f : kFormats) {
    if (f.name == text) return f.format;
  }
  std::vector<std::string_view> names;
  for (const auto& f : kFormats) names.push_back(f.name);
  throw InputError(fmt::format("unknown mapping format '{}'; valid: {}{}", text,
                               mapping_format_names(), suggest_suffix(text, names)));
}

std::string_view name(MappingFormat format) {
  for (const auto& f : kFormats) {
    if (f.format == format) return f.name;
  }
  return "?";
}

std::string_view mapping_format_names() {
  return "plain, rankfile, hostlist, slurm, mpich";
}

topo::Mapping read_mapping(const std::filesystem::path& path, const topo::Topology& topology,
                           std::optional<Rank> ranks, std::optional<MappingFormat> format) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    throw InputError(fmt::format("{}: is a directory, not a mapping file", path.string()));
  }
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open the mapping file", path.string()));
  return read_mapping(in, path.string(), topology, ranks, format);
}

topo::Mapping read_mapping(std::istream& in, std::string_view name, const topo::Topology& topology,
                           std::optional<Rank> ranks, std::optional<MappingFormat> format) {
  std::vector<std::string> text;
  for (std::string line; std::getline(in, line);) text.push_back(std::move(line));
  if (in.bad()) throw InputError(fmt::format("{}: read error", name));
  std::vector<Line> lines;
  lines.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string_view raw = text[i];
    const int number = static_cast<int>(i + 1);
    check_header(raw, fmt::format("{}:{}", name, number), topology, ranks);
    std::string_view content = raw;
    if (const auto hash = content.find('#'); hash != std::string_view::npos) {
      content = content.substr(0, hash);
    }
    lines.push_back({number, content, raw, fmt::format("{}:{}", name, number)});
  }
  Placement placement(topology, ranks, name);
  const auto chosen = format ? *format : detect(lines);
  switch (chosen) {
    case MappingFormat::Plain:
      read_plain(lines, placement);
      break;
    case MappingFormat::Rankfile:
      read_rankfile(lines, placement);
      break;
    case MappingFormat::Hostlist:
    case MappingFormat::Slurm:
      read_hostlist(lines, placement);
      break;
    case MappingFormat::Mpich:
      read_mpich(lines, topology, placement);
      break;
  }
  return placement.finish(chosen == MappingFormat::Rankfile ? Placement::Cores::IfComplete
                                                            : Placement::Cores::AllOrNone);
}

void write_mapping(std::ostream& out, const topo::Mapping& mapping, const topo::Topology& topology,
                   MappingFormat format, const MappingSettings& settings) {
  const bool names = !topology.host_names().is_default();
  switch (format) {
    case MappingFormat::Plain:
      fmt::print(out, "{}{} ranks on {}\n", kHeader, mapping.rank_count(), topology.spec());
      for (const auto& [key, value] : settings) {
        MAPSIM_EXPECTS(value.find('\n') == std::string::npos, "a mapping setting spans lines");
        fmt::print(out, "# {}: {}\n", key, value);
      }
      fmt::print(out, "# rank {}{}\n", names ? "host" : "node",
                 mapping.cores().empty() ? "" : " core");
      for (Rank r = 0; r < mapping.rank_count(); ++r) {
        if (names) {
          fmt::print(out, "{} {}", r, topology.host_name(mapping.node(r)));
        } else {
          fmt::print(out, "{} {}", r, mapping.node(r));
        }
        if (mapping.cores().empty()) {
          fmt::print(out, "\n");
        } else {
          fmt::print(out, " {}\n", mapping.cores()[static_cast<std::size_t>(r)]);
        }
      }
      return;
    case MappingFormat::Rankfile: {
      const auto cores = topo::cores_of(mapping);
      for (Rank r = 0; r < mapping.rank_count(); ++r) {
        fmt::print(out, "rank {}={} slot={}\n", r, topology.host_name(mapping.node(r)),
                   cores[static_cast<std::size_t>(r)]);
      }
      return;
    }
    case MappingFormat::Hostlist:
    case MappingFormat::Slurm:
      for (Rank r = 0; r < mapping.rank_count(); ++r) {
        fmt::print(out, "{}\n", topology.host_name(mapping.node(r)));
      }
      return;
    case MappingFormat::Mpich:
      write_mpich(out, mapping, topology);
      return;
  }
}

void write_mapping(const std::filesystem::path& path, const topo::Mapping& mapping,
                   const topo::Topology& topology, MappingFormat format,
                   const MappingSettings& settings) {
  write_output(path, "mapping file",
               [&](std::ostream& out) { write_mapping(out, mapping, topology, format, settings); });
}

}  // namespace mapsim::map

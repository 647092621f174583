#include "mappers/MappingFile.hpp"

#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "support/Error.hpp"
#include "support/OutputFile.hpp"
#include "support/Parse.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::map {
namespace {

struct FormatName {
  MappingFormat format;
  std::string_view name;
};
constexpr FormatName kFormats[] = {{MappingFormat::Plain, "plain"},
                                   {MappingFormat::Rankfile, "rankfile"},
                                   {MappingFormat::Hostlist, "hostlist"}};

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

}  // namespace

MappingFormat mapping_format_from_name(std::string_view text) {
  for (const auto& f : kFormats) {
    if (f.name == text) return f.format;
  }
  throw InputError(
      fmt::format("unknown mapping format '{}'; valid: plain, rankfile, hostlist", text));
}

std::string_view name(MappingFormat format) {
  for (const auto& f : kFormats) {
    if (f.format == format) return f.name;
  }
  return "?";
}

std::string host_name(const topo::Topology& topology, topo::NodeId node) {
  const auto width = fmt::formatted_size("{}", std::max(topology.node_count() - 1, 0));
  return fmt::format("node{:0{}}", node, width);
}

topo::Mapping read_mapping(const std::filesystem::path& path, const topo::Topology& topology,
                           std::optional<Rank> ranks) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot open the mapping file", path.string()));
  return read_mapping(in, path.string(), topology, ranks);
}

topo::Mapping read_mapping(std::istream& in, std::string_view name, const topo::Topology& topology,
                           std::optional<Rank> ranks) {
  const std::int64_t capacity = topology.cores_per_node();
  std::vector<topo::NodeId> node_of_rank;
  std::vector<int> line_of_rank;
  std::vector<std::int64_t> load(static_cast<std::size_t>(topology.node_count()), 0);
  // Without an expected count, no more ranks than the machine has cores can be placed: larger
  // rank numbers are errors, not tables to grow.
  const std::int64_t max_rank =
      (ranks ? *ranks : static_cast<std::int64_t>(topology.node_count()) * capacity) - 1;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto where = fmt::format("{}:{}", name, number);
    std::string_view text = line;
    check_header(text, where, topology, ranks);
    if (const auto hash = text.find('#'); hash != std::string_view::npos) {
      text = text.substr(0, hash);
    }
    const auto parts = fields(text);
    if (parts.empty()) continue;
    if (parts.size() != 2) {
      throw InputError(
          fmt::format("{}: expected 'rank node', got {} field(s) '{}'", where, parts.size(), text));
    }
    const auto rank = parse_integer(parts[0], fmt::format("{}: rank", where), 0, max_rank);
    const auto node = parse_integer(parts[1], fmt::format("{}: node", where), 0, INT32_MAX);
    topology.check_node(node, fmt::format("{}: rank {}", where, rank));
    const auto r = static_cast<std::size_t>(rank);
    if (r >= node_of_rank.size()) {
      node_of_rank.resize(r + 1, -1);
      line_of_rank.resize(r + 1, 0);
    }
    if (node_of_rank[r] != -1) {
      throw InputError(fmt::format("{}: rank {} is mapped twice (first on line {})", where, rank,
                                   line_of_rank[r]));
    }
    if (++load[static_cast<std::size_t>(node)] > capacity) {
      throw InputError(
          fmt::format("{}: node {} would hold more than {} rank(s) ({} has {} "
                      "core(s) per node)",
                      where, node, capacity, topology.spec(), capacity));
    }
    node_of_rank[r] = static_cast<topo::NodeId>(node);
    line_of_rank[r] = number;
  }
  if (in.bad()) throw InputError(fmt::format("{}: read error", name));
  const auto expected = static_cast<std::size_t>(ranks ? *ranks : node_of_rank.size());
  node_of_rank.resize(expected, -1);
  for (std::size_t r = 0; r < expected; ++r) {
    if (node_of_rank[r] == -1) {
      throw InputError(fmt::format("{}: rank {} is missing (the mapping must place ranks 0 to {})",
                                   name, r, expected - 1));
    }
  }
  if (expected == 0) throw InputError(fmt::format("{}: the mapping is empty", name));
  return topo::Mapping(std::move(node_of_rank));
}

void write_mapping(std::ostream& out, const topo::Mapping& mapping, const topo::Topology& topology,
                   MappingFormat format, const MappingSettings& settings) {
  switch (format) {
    case MappingFormat::Plain:
      fmt::print(out, "{}{} ranks on {}\n", kHeader, mapping.rank_count(), topology.spec());
      for (const auto& [key, value] : settings) {
        MAPSIM_EXPECTS(value.find('\n') == std::string::npos, "a mapping setting spans lines");
        fmt::print(out, "# {}: {}\n", key, value);
      }
      fmt::print(out, "# rank node\n");
      for (Rank r = 0; r < mapping.rank_count(); ++r)
        fmt::print(out, "{} {}\n", r, mapping.node(r));
      return;
    case MappingFormat::Rankfile: {
      std::vector<int> next_slot(static_cast<std::size_t>(topology.node_count()), 0);
      for (Rank r = 0; r < mapping.rank_count(); ++r) {
        const auto node = mapping.node(r);
        fmt::print(out, "rank {}={} slot={}\n", r, host_name(topology, node),
                   next_slot[static_cast<std::size_t>(node)]++);
      }
      return;
    }
    case MappingFormat::Hostlist:
      for (Rank r = 0; r < mapping.rank_count(); ++r) {
        fmt::print(out, "{}\n", host_name(topology, mapping.node(r)));
      }
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

#include "topologies/SimgridPlatform.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Markup.hpp"
#include "support/Suggest.hpp"
#include "support/Version.hpp"
#include "topologies/Cascade.hpp"
#include "topologies/FatTree.hpp"
#include "topologies/GridTopology.hpp"

namespace mapsim::topo {
namespace {

constexpr std::array<std::string_view, 3> kChoiceNames{"auto", "native", "explicit"};

/// SimGrid's name of a native cluster layout (its <cluster topology=...>).
std::string_view cluster_name(PlatformLayout layout) {
  switch (layout) {
    case PlatformLayout::Torus:
      return "TORUS";
    case PlatformLayout::FatTree:
      return "FAT_TREE";
    case PlatformLayout::Dragonfly:
      return "DRAGONFLY";
    case PlatformLayout::Explicit:
      break;
  }
  return "";
}

/// The native cluster SimGrid has for this kind, if any.
std::optional<PlatformLayout> native_layout(const Topology& t) {
  if (t.kind() == "torus") {
    for (int d = 0; d < static_cast<int>(t.dimensions().size()); ++d) {
      if (!t.is_torus(d)) return std::nullopt;  // a block with open dimensions: no TORUS
    }
    return PlatformLayout::Torus;
  }
  if (dynamic_cast<const FatTree*>(&t) != nullptr) return PlatformLayout::FatTree;
  if (dynamic_cast<const Cascade*>(&t) != nullptr) return PlatformLayout::Dragonfly;
  return std::nullopt;
}

/// The link classes the machine's links belong to (the intra-node channel apart).
std::vector<LinkClass> classes_of(const Topology& t) {
  std::vector<LinkClass> classes;
  const auto counts = t.links_per_class();
  for (const auto& info : link_classes()) {
    if (counts[static_cast<std::size_t>(info.id)] > 0) classes.push_back(info.id);
  }
  return classes;
}

std::string params_text(const LinkParams& p) {
  return fmt::format("{:.6g} GB/s, {:.6g} ns", p.bandwidth / 1e9, p.latency * 1e9);
}

// SimGrid reads a number followed by its unit (xbt/parse_units): "25000000000Bps", "1e-07s".
// 15 significant digits: 100 ns is 1e-07s, not 1.0000000000000001e-07s.
std::string bandwidth_text(double bytes_per_second) {
  return fmt::format("{:.15g}Bps", bytes_per_second);
}
std::string latency_text(double seconds) {
  return fmt::format("{:.15g}s", seconds);
}

std::string xml_escape(std::string_view text) {
  return escape_markup(text);
}

/// Text for inside an XML comment, which may not hold "--".
std::string comment_text(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '-' && !out.empty() && out.back() == '-') out += ' ';
    out += c;
  }
  return out;
}

}  // namespace

std::string_view name(PlatformChoice choice) {
  return kChoiceNames[static_cast<std::size_t>(choice)];
}

PlatformChoice platform_choice_from_name(std::string_view text) {
  for (std::size_t i = 0; i < kChoiceNames.size(); ++i) {
    if (kChoiceNames[i] == text) return static_cast<PlatformChoice>(i);
  }
  throw InputError(fmt::format("unknown platform layout '{}'; valid: {}{}", text,
                               fmt::join(kChoiceNames, ", "), suggest_suffix(text, kChoiceNames)));
}

SimgridPlatform::SimgridPlatform(const Topology& topology, const LinkTable& links,
                                 PlatformOptions options)
    : topology_(&topology), links_(links), options_(std::move(options)) {
  if (topology.sockets_per_node() > 1) {
    throw InputError(fmt::format(
        "{}: a SimGrid host has no sockets (its ranks share one loopback), so a platform cannot "
        "say sockets={}; export the machine without sockets=",
        topology.spec(), topology.sockets_per_node()));
  }
  hosts_ = options_.hosts;
  for (const auto node : hosts_) topology.check_node(node, "a host of the platform");
  if (hosts_.empty()) hosts_ = topology.natural_order();
  std::sort(hosts_.begin(), hosts_.end());
  hosts_.erase(std::unique(hosts_.begin(), hosts_.end()), hosts_.end());

  const auto native = native_layout(topology);
  const auto classes = classes_of(topology);
  std::optional<std::string> mixed;  // why one bw / lat cannot stand for every class
  for (const auto c : classes) {
    if (links[c].bandwidth != links[classes.front()].bandwidth ||
        links[c].latency != links[classes.front()].latency) {
      mixed = fmt::format(
          "its link classes differ ({} {}, {} {}) where a SimGrid cluster has one "
          "bandwidth and latency (give them the same with --link)",
          name(classes.front()), params_text(links[classes.front()]), name(c),
          params_text(links[c]));
      break;
    }
  }

  std::vector<std::string> departures;
  if (options_.energy) {
    departures.push_back(
        "the links' energy properties (wattage_range) need explicit links: a SimGrid cluster's "
        "links take none");
    bool per_bit = false;
    for (const auto c : classes) per_bit = per_bit || links.energy(c).pj_per_bit != 0;
    per_bit = per_bit || links.energy(LinkClass::IntraNode).pj_per_bit != 0;
    if (per_bit) {
      notes_.push_back(
          "SimGrid's link energy plugin has no energy per bit: the platform's wattage_range "
          "holds the idle and busy power only (compare with mapsim's energy_static_j)");
    }
  }
  if (!native) {
    departures.push_back(fmt::format("SimGrid has no cluster for a {} ({})", topology.kind(),
                                     topology.machine_spec()));
  } else {
    if (mixed) departures.push_back(*mixed);
    for (auto& d : cluster_departures(*native)) departures.push_back(std::move(d));
  }

  switch (options_.choice) {
    case PlatformChoice::Auto:
      layout_ = departures.empty() ? *native : PlatformLayout::Explicit;
      notes_.insert(notes_.begin(), departures.begin(), departures.end());
      break;
    case PlatformChoice::Native:
      if (!native || mixed || options_.energy) {
        throw InputError(fmt::format("no native SimGrid cluster for {}: {}", topology.spec(),
                                     native && !options_.energy ? *mixed : departures.front()));
      }
      layout_ = *native;
      notes_.insert(notes_.begin(), departures.begin(), departures.end());
      break;
    case PlatformChoice::Explicit:
      layout_ = PlatformLayout::Explicit;
      break;
  }
  if (layout_ == PlatformLayout::Explicit &&
      hosts_.size() > static_cast<std::size_t>(kMaxExplicitHosts)) {
    throw InputError(fmt::format(
        "a platform of explicit routes between {} hosts: mapsim writes them for at most {} "
        "hosts{}",
        hosts_.size(), kMaxExplicitHosts,
        departures.empty() ? std::string()
                           : fmt::format(", and no native SimGrid cluster fits: {}",
                                         fmt::join(departures, "; "))));
  }
  if (topology.routing() != Routing::Minimal) {
    notes_.push_back(
        fmt::format("routing={} is per message in mapsim's replays; SimGrid has one "
                    "route per pair: the platform has the minimal routes",
                    name(topology.routing())));
  }

  if (layout_ != PlatformLayout::Explicit) {
    // A cluster names host i prefix + i + suffix: keep the machine's names if they are so.
    const auto last = topology.host_name(topology.node_count() - 1);
    const auto digits = std::to_string(topology.node_count() - 1);
    for (auto at = last.find(digits); at != std::string::npos; at = last.find(digits, at + 1)) {
      const auto prefix = last.substr(0, at);
      const auto suffix = last.substr(at + digits.size());
      bool all = true;
      for (NodeId n = 0; n < topology.node_count() && all; ++n) {
        all = topology.host_name(n) == prefix + std::to_string(n) + suffix;
      }
      if (all) {
        prefix_ = prefix;
        suffix_ = suffix;
        return;
      }
    }
    prefix_ = "node";
    notes_.push_back(fmt::format(
        "a SimGrid cluster names its hosts PREFIX + number without zero padding: the machine's "
        "{} ... {} are {} ... {} in the platform",
        topology.host_name(0), last, host_name(0), host_name(topology.node_count() - 1)));
  }
}

std::vector<std::string> SimgridPlatform::cluster_departures(PlatformLayout layout) const {
  std::vector<std::string> out;
  const auto& t = *topology_;
  if (t.cores_per_node() > 1) {
    out.push_back(fmt::format(
        "{} cores per node: ranks sharing a node share mapsim's intra-node channel, where a "
        "SimGrid cluster's loopback is FATPIPE (every flow at its whole bandwidth)",
        t.cores_per_node()));
  }
  if (layout == PlatformLayout::Dragonfly) {
    const auto& s = dynamic_cast<const Cascade&>(t).shape();
    if (s.blue_lanes > 1 || s.black_lanes > 1 || s.green_lanes > 1) {
      out.push_back(fmt::format(
          "parallel links (GL {}, CL {}, RL {}) are lanes of their own in mapsim, one link of "
          "that many times the bandwidth in SimGrid",
          s.blue_lanes, s.black_lanes, s.green_lanes));
    }
  }
  if (auto route = route_departure(layout); !route.empty()) out.push_back(std::move(route));
  return out;
}

std::string SimgridPlatform::route_departure(PlatformLayout layout) const {
  const auto& t = *topology_;
  switch (layout) {
    case PlatformLayout::Torus: {
      // SimGrid goes the negative way from coordinate k/2 to 0 (even k >= 4); mapsim the positive.
      const auto dims = t.dimensions();
      for (std::size_t d = 0; d < dims.size(); ++d) {
        const int k = dims[d];
        if (k < 4 || k % 2 != 0) continue;
        std::optional<NodeId> half;
        std::optional<NodeId> zero;
        for (const auto n : hosts_) {
          const int c = t.coordinates(n)[d];
          if (c == k / 2 && !half) half = n;
          if (c == 0 && !zero) zero = n;
        }
        if (half && zero) {
          return fmt::format(
              "routes differ: on a half-ring tie SimGrid's TORUS goes the negative way from "
              "coordinate {} to 0 of a dimension of {} where mapsim goes the positive way (e.g. "
              "{} to {})",
              k / 2, k, t.host_name(*half), t.host_name(*zero));
        }
      }
      return {};
    }
    case PlatformLayout::FatTree: {
      const auto& s = dynamic_cast<const FatTree&>(t).shape();
      for (int l = 0; l + 1 < s.levels; ++l) {
        if (s.parallel[static_cast<std::size_t>(l)] > 1) {
          return fmt::format(
              "routes differ: P{} = {} parallel links below the top level, where SimGrid's "
              "downward port scan takes another parallel link than mapsim's a mod P{}",
              l + 1, s.parallel[static_cast<std::size_t>(l)], l + 1);
        }
      }
      return {};
    }
    case PlatformLayout::Dragonfly: {
      // Within a group, SimGrid's route from a chassis c != 0 to another blade forgets c.
      const auto& s = dynamic_cast<const Cascade&>(t).shape();
      const int group_nodes = s.chassis * s.blades * s.nodes;
      const auto blade = [&](NodeId n) { return n / s.nodes % s.blades; };
      const auto chassis = [&](NodeId n) { return n / (s.nodes * s.blades) % s.chassis; };
      for (auto first = hosts_.begin(); first != hosts_.end();) {
        const int g = *first / group_nodes;
        const auto end =
            std::find_if(first, hosts_.end(), [&](NodeId n) { return n / group_nodes != g; });
        for (auto a = first; a != end; ++a) {
          if (chassis(*a) == 0) continue;
          const auto z = std::find_if(first, end, [&](NodeId n) { return blade(n) != blade(*a); });
          if (z != end) {
            return fmt::format(
                "routes differ: SimGrid's DRAGONFLY route between two blades of one group "
                "continues from chassis 0 after its green link, where the message is in the "
                "source chassis (e.g. {} in chassis {} to {})",
                t.host_name(*a), chassis(*a), t.host_name(*z));
          }
        }
        first = end;
      }
      return {};
    }
    case PlatformLayout::Explicit:
      break;
  }
  return {};
}

std::string SimgridPlatform::topo_parameters() const {
  const auto& t = *topology_;
  if (layout_ == PlatformLayout::FatTree) {
    const auto& s = dynamic_cast<const FatTree&>(t).shape();
    const auto levels = static_cast<std::size_t>(s.levels);
    const auto part = [&](const auto& values) {
      return fmt::format("{}", fmt::join(values.begin(), values.begin() + levels, ","));
    };
    return fmt::format("{};{};{};{}", s.levels, part(s.down), part(s.up), part(s.parallel));
  }
  if (layout_ == PlatformLayout::Dragonfly) {
    const auto& s = dynamic_cast<const Cascade&>(t).shape();
    return fmt::format("{},{};{},{};{},{};{}", s.groups, s.blue_lanes, s.chassis, s.black_lanes,
                       s.blades, s.green_lanes, s.nodes);
  }
  return fmt::format("{}", fmt::join(t.dimensions(), ","));
}

std::string SimgridPlatform::description() const {
  if (layout_ == PlatformLayout::Explicit) {
    return fmt::format("explicit routes between {} hosts", hosts_.size());
  }
  return fmt::format("SimGrid {} cluster {}", cluster_name(layout_), topo_parameters());
}

std::string SimgridPlatform::host_name(NodeId node) const {
  if (layout_ == PlatformLayout::Explicit) return topology_->host_name(node);
  return prefix_ + std::to_string(node) + suffix_;
}

void SimgridPlatform::write(std::ostream& out) const {
  fmt::print(out,
             "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<!-- mapsim {}: {}, {} -->\n",
             version(), comment_text(topology_->spec()), comment_text(description()));
  for (const auto& note : notes_) fmt::print(out, "<!-- {} -->\n", comment_text(note));
  fmt::print(out, "<platform version=\"4.1\">\n");
  if (layout_ == PlatformLayout::Explicit) {
    write_explicit(out);
  } else {
    write_cluster(out);
  }
  fmt::print(out, "</platform>\n");
}

void SimgridPlatform::write_cluster(std::ostream& out) const {
  const auto& t = *topology_;
  const auto& link = links_[classes_of(t).front()];
  const auto& loopback = links_[LinkClass::IntraNode];
  fmt::print(out,
             "  <cluster id=\"mapsim\" topology=\"{}\" topo_parameters=\"{}\" prefix=\"{}\" "
             "radical=\"0-{}\" suffix=\"{}\" speed=\"{}f\" core=\"{}\" bw=\"{}\" lat=\"{}\" "
             "loopback_bw=\"{}\" loopback_lat=\"{}\"/>\n",
             cluster_name(layout_), xml_escape(topo_parameters()), xml_escape(prefix_),
             t.node_count() - 1, xml_escape(suffix_), options_.flops_per_second, t.cores_per_node(),
             bandwidth_text(link.bandwidth), latency_text(link.latency),
             bandwidth_text(loopback.bandwidth), latency_text(loopback.latency));
}

void SimgridPlatform::write_explicit(std::ostream& out) const {
  const auto& t = *topology_;
  fmt::print(out, "  <zone id=\"{}\" routing=\"Full\">\n", xml_escape(t.machine_spec()));
  for (NodeId n = 0; n < t.node_count(); ++n) {
    fmt::print(out, "    <host id=\"{}\" speed=\"{}f\" core=\"{}\"/>\n", xml_escape(t.host_name(n)),
               options_.flops_per_second, t.cores_per_node());
  }
  const auto link_line = [&](LinkId id, LinkClass c) {
    const auto& p = links_[c];
    if (!options_.energy) {
      fmt::print(out, "    <link id=\"l{}\" bandwidth=\"{}\" latency=\"{}\"/>\n", id,
                 bandwidth_text(p.bandwidth), latency_text(p.latency));
      return;
    }
    const auto& e = links_.energy(c);
    fmt::print(out,
               "    <link id=\"l{}\" bandwidth=\"{}\" latency=\"{}\">\n      <prop "
               "id=\"wattage_range\" value=\"{}:{}\"/>\n    </link>\n",
               id, bandwidth_text(p.bandwidth), latency_text(p.latency), e.idle_watts,
               e.busy_watts);
  };
  std::optional<LinkClass> previous;
  for (LinkId id = 0; id < t.link_count(); ++id) {
    const auto c = t.link(id).link_class;
    if (c != previous) fmt::print(out, "    <!-- {} -->\n", name(c));
    previous = c;
    link_line(id, c);
  }
  fmt::print(out, "    <!-- {}: l<{} + node> -->\n", name(LinkClass::IntraNode), t.link_count());
  for (const auto n : hosts_) link_line(t.link_count() + n, LinkClass::IntraNode);

  std::vector<LinkId> path;
  path.reserve(static_cast<std::size_t>(t.max_route_links()));
  for (const auto a : hosts_) {
    const auto from = xml_escape(t.host_name(a));
    for (const auto b : hosts_) {
      if (a == b) {
        path.assign(1, t.link_count() + a);
      } else {
        t.route_into(a, b, path);
      }
      fmt::print(out, "    <route src=\"{}\" dst=\"{}\" symmetrical=\"NO\">", from,
                 xml_escape(t.host_name(b)));
      for (const auto l : path) fmt::print(out, "<link_ctn id=\"l{}\"/>", l);
      fmt::print(out, "</route>\n");
    }
  }
  fmt::print(out, "  </zone>\n");
}

}  // namespace mapsim::topo

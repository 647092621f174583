#include "sim/Overheads.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"

namespace mapsim::sim {
namespace {

constexpr Time kPerNs = 1000;  // ps
/// The largest cost a spec may give: 1 s per message (or per byte).
constexpr double kMaxNs = 1e9;

struct Key {
  std::string_view name;
  bool per_byte;
};
constexpr std::array<Key, 5> kKeys{
    {{"o_s", false}, {"O_s", true}, {"o_r", false}, {"O_r", true}, {"g", false}}};

/// The field of `costs` a key names (index into kKeys), in ns or ns per byte.
double get_ns(const ChannelCosts& costs, std::size_t key) {
  const auto ns = [](Time ps) { return static_cast<double>(ps) / static_cast<double>(kPerNs); };
  switch (key) {
    case 0:
      return ns(costs.send);
    case 1:
      return costs.send_ns_per_byte;
    case 2:
      return ns(costs.receive);
    case 3:
      return costs.receive_ns_per_byte;
    default:
      return ns(costs.gap);
  }
}

void set_ns(ChannelCosts& costs, std::size_t key, double ns) {
  const auto ps = [](double v) { return std::llround(v * static_cast<double>(kPerNs)); };
  switch (key) {
    case 0:
      costs.send = ps(ns);
      break;
    case 1:
      costs.send_ns_per_byte = ns;
      break;
    case 2:
      costs.receive = ps(ns);
      break;
    case 3:
      costs.receive_ns_per_byte = ns;
      break;
    default:
      costs.gap = ps(ns);
  }
}

Time per_message(Time constant, double ns_per_byte, std::int64_t bytes) {
  if (ns_per_byte == 0) return constant;
  const double ps = ns_per_byte * static_cast<double>(kPerNs) * static_cast<double>(bytes);
  return add_time(constant, checked_time(ps, [&] {
                    return fmt::format("an MPI overhead of {:.6g} ns per byte on {} bytes",
                                       ns_per_byte, bytes);
                  }));
}

}  // namespace

std::string_view name(Channel channel) {
  switch (channel) {
    case Channel::IntraNode:
      return "intra-node";
    case Channel::InterSocket:
      return "inter-socket";
    case Channel::Network:
      return "network";
  }
  return "?";
}

Time Overheads::send(Channel c, std::int64_t bytes) const {
  const auto& costs = of(c);
  return per_message(costs.send, costs.send_ns_per_byte, bytes);
}

Time Overheads::receive(Channel c, std::int64_t bytes) const {
  const auto& costs = of(c);
  return per_message(costs.receive, costs.receive_ns_per_byte, bytes);
}

Overheads typical_overheads() {
  Overheads o;
  // Shared memory: about 0.2-0.5 us end to end for a small message with the intra-node
  // channel's 200 ns; network: about 1-2 us with a route's latency (docs/models.md).
  o.of(Channel::IntraNode) = ChannelCosts{.send = 100 * kPerNs,
                                          .send_ns_per_byte = 0,
                                          .receive = 100 * kPerNs,
                                          .receive_ns_per_byte = 0,
                                          .gap = 50 * kPerNs};
  // Between two sockets of a node the copy crosses the processors' interconnect: about twice
  // the single-socket software cost (docs/models.md).
  o.of(Channel::InterSocket) = ChannelCosts{.send = 150 * kPerNs,
                                            .send_ns_per_byte = 0,
                                            .receive = 150 * kPerNs,
                                            .receive_ns_per_byte = 0,
                                            .gap = 50 * kPerNs};
  o.of(Channel::Network) = ChannelCosts{.send = 400 * kPerNs,
                                        .send_ns_per_byte = 0,
                                        .receive = 400 * kPerNs,
                                        .receive_ns_per_byte = 0,
                                        .gap = 100 * kPerNs};
  return o;
}

Overheads parse_overheads(std::string_view spec, std::string_view where) {
  Overheads overheads;
  const auto items = split_fields(spec, ',');
  if (spec.empty()) {
    throw InputError(
        fmt::format("{}: empty overheads: give none, typical or "
                    "CHANNEL.KEY=NS items (e.g. typical,network.o_s=600)",
                    where));
  }
  for (const auto& item : items) {
    if (item == "none") {
      overheads = Overheads{};
      continue;
    }
    if (item == "typical") {
      overheads = typical_overheads();
      continue;
    }
    const auto dot = item.find('.');
    const auto equals = item.find('=');
    if (dot == std::string_view::npos || equals == std::string_view::npos || equals < dot) {
      throw InputError(
          fmt::format("{}: '{}' is neither a preset (none, typical) nor CHANNEL.KEY=NS (e.g. "
                      "network.o_s=400)",
                      where, item));
    }
    const auto channel_name = item.substr(0, dot);
    const auto key_name = item.substr(dot + 1, equals - dot - 1);
    const auto value = item.substr(equals + 1);
    const auto* channel_at = std::find_if(kAllChannels.begin(), kAllChannels.end(),
                                          [&](Channel c) { return name(c) == channel_name; });
    if (channel_at == kAllChannels.end()) {
      throw InputError(
          fmt::format("{}: unknown channel '{}' in '{}' (intra-node, inter-socket, network)", where,
                      channel_name, item));
    }
    const Channel channel = *channel_at;
    std::size_t key = kKeys.size();
    for (std::size_t k = 0; k < kKeys.size(); ++k) {
      if (kKeys[k].name == key_name) key = k;
    }
    if (key == kKeys.size()) {
      throw InputError(
          fmt::format("{}: unknown cost '{}' in '{}' (o_s, o_r, g in ns; O_s, O_r in ns per byte)",
                      where, key_name, item));
    }
    const double ns =
        parse_real(value, fmt::format("{} in {} ('{}')", key_name, where, item), 0, kMaxNs);
    set_ns(overheads.of(channel), key, ns);
  }
  return overheads;
}

std::string to_string(const Overheads& overheads, bool inter_socket) {
  if (!inter_socket) {
    Overheads rest = overheads;
    rest.of(Channel::InterSocket) = {};
    auto typical = typical_overheads();
    typical.of(Channel::InterSocket) = {};
    if (rest.none()) return "none";
    if (rest == typical) return "typical";
    return to_string(rest);
  }
  if (overheads.none()) return "none";
  if (overheads == typical_overheads()) return "typical";
  std::vector<std::string> items;
  for (const auto channel : kAllChannels) {
    for (std::size_t k = 0; k < kKeys.size(); ++k) {
      const double ns = get_ns(overheads.of(channel), k);
      if (ns != 0) items.push_back(fmt::format("{}.{}={}", name(channel), kKeys[k].name, ns));
    }
  }
  return fmt::format("{}", fmt::join(items, ","));
}

}  // namespace mapsim::sim

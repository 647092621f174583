#pragma once
// What MPI itself costs the ranks per message: LogGP's overheads and gap (Alexandrov et al.,
// SPAA 1995; per-byte overheads as in LogGOPS, Hoefler et al., HPDC 2010), per channel kind c —
// intra-node (both ranks on one node, on one socket of it when it has several), inter-socket (on
// two sockets of one node; spec option sockets=) or network:
//
//   o_s(c, n) = o_s[c] + O_s[c] * n     CPU time of the sender per message of n bytes
//   o_r(c, n) = o_r[c] + O_r[c] * n     CPU time of the receiver per message of n bytes
//   g(c)                                the least time between the injections of two messages
//                                       of one rank on channel c
//
// They occupy the rank, not the links (the network models are unchanged). In the replay:
// - A send (Send, Isend, a collective step's send) executed at t occupies the sender's CPU from
//   s = max(t, cpu_free) to s + o_s(c, n); the message (an eager message's data, a rendezvous
//   message's request-to-send) enters the network at i = max(s + o_s(c, n), next_c), and
//   next_c = i + g(c). The rank's next event runs at s + o_s(c, n).
// - A completed receive costs its rank o_r(c, n) of CPU when the rank takes it: a rank blocked
//   on it resumes at max(t, cpu_free) + o_r(c, n); a receive completed while the rank did
//   something else (Irecv) is charged at the Wait that takes it; a collective member charges a
//   step's receive before its next step.
// - The clear-to-send and the data of a rendezvous take no CPU time (the adapter's work), and
//   receptions have no gap.
// - A non-blocking collective's steps occupy the CPU as they progress, beside the rank's
//   computation (a compute gap already under way is not lengthened): an approximation.
// So a lone small message between two waiting ranks takes o_s + L + o_r end to end, where L is
// what the network model gives it (route latency and serialisation).
//
// Spec (--overheads, mpi.overheads): comma-separated items applied left to right from `none`:
// a preset (`none`, `typical`) or CHANNEL.KEY=VALUE with CHANNEL `intra-node`, `inter-socket` or
// `network`, KEY
// `o_s`, `o_r`, `g` (ns) or `O_s`, `O_r` (ns per byte), e.g. `typical,network.o_s=600`.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/Time.hpp"

namespace mapsim::sim {

enum class Channel : std::uint8_t { IntraNode, Network, InterSocket };
inline constexpr std::size_t kChannels = 3;
/// Every channel, in the order specs and tables list them.
inline constexpr std::array<Channel, kChannels> kAllChannels{
    Channel::IntraNode, Channel::InterSocket, Channel::Network};

/// "intra-node", "inter-socket" or "network".
std::string_view name(Channel channel);

/// The costs of one channel kind: times in ps, per-byte terms in ns per byte (as a spec gives
/// them, so that a spec reads back exactly).
struct ChannelCosts {
  Time send = 0;                   ///< o_s
  double send_ns_per_byte = 0;     ///< O_s
  Time receive = 0;                ///< o_r
  double receive_ns_per_byte = 0;  ///< O_r
  Time gap = 0;                    ///< g

  friend bool operator==(const ChannelCosts&, const ChannelCosts&) = default;
};

struct Overheads {
  std::array<ChannelCosts, kChannels> channels{};

  [[nodiscard]] const ChannelCosts& of(Channel c) const {
    return channels[static_cast<std::size_t>(c)];
  }
  [[nodiscard]] ChannelCosts& of(Channel c) { return channels[static_cast<std::size_t>(c)]; }
  /// True when every cost is zero: the replay is exactly the one without overheads.
  [[nodiscard]] bool none() const { return *this == Overheads{}; }
  /// The same, of the channels a machine has: without `inter_socket`, that channel's costs
  /// are left out (nothing takes it).
  [[nodiscard]] bool none(bool inter_socket) const {
    if (inter_socket) return none();
    Overheads rest = *this;
    rest.of(Channel::InterSocket) = {};
    return rest.none();
  }
  /// o_s(c, n) and o_r(c, n), rounded to the ps.
  [[nodiscard]] Time send(Channel c, std::int64_t bytes) const;
  [[nodiscard]] Time receive(Channel c, std::int64_t bytes) const;

  friend bool operator==(const Overheads&, const Overheads&) = default;
};

/// The `typical` preset: small-message costs of current MPI libraries (docs/models.md gives the
/// figures and their sources), as modelled.
Overheads typical_overheads();

/// Parses a spec (see above); throws InputError naming `where` and the item otherwise.
Overheads parse_overheads(std::string_view spec, std::string_view where);

/// The canonical spec: a preset's name if it is one, else every non-zero cost as
/// CHANNEL.KEY=VALUE in a fixed order (parse_overheads(to_string(o)) == o).
/// `inter_socket` false (a machine of one socket per node, where no message takes that
/// channel): the spec of the other channels alone, the preset's name if they are the preset's,
/// so the text (and the run keys that hold it) does not depend on what the inter-socket channel
/// would cost.
std::string to_string(const Overheads& overheads, bool inter_socket = true);

}  // namespace mapsim::sim

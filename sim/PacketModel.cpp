#include "sim/PacketModel.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace mapsim::sim {
namespace {

constexpr std::uint32_t kPacketHop = kModelEvents;
constexpr std::uint32_t kPacketInject = kModelEvents + 1;

}  // namespace

PacketModel::PacketModel(Engine& engine, Network& network, const ModelOptions& options)
    : NetworkModel(engine, network),
      packet_bytes_(options.packet_bytes),
      cut_through_(options.cut_through),
      free_at_(static_cast<std::size_t>(network.resource_count()), 0) {
  MAPSIM_EXPECTS(packet_bytes_ > 0, "packet size must be positive (checked by the caller)");
}

void PacketModel::start(const Transfer& transfer) {
  const Route route = route_of(transfer);
  count_bytes(route, transfer.bytes);
  // ceil(bytes / P) without the overflow of bytes + P - 1.
  const std::int64_t count = std::max<std::int64_t>(
      1, transfer.bytes / packet_bytes_ + (transfer.bytes % packet_bytes_ != 0 ? 1 : 0));
  if (count > std::numeric_limits<std::uint32_t>::max()) {
    throw InputError(fmt::format(
        "a message of {} bytes is {} packets of {} bytes, more than the {} packets a message may "
        "have; use a larger packet size (--packet-size)",
        transfer.bytes, count, packet_bytes_, std::numeric_limits<std::uint32_t>::max()));
  }
  const std::uint32_t m = messages_.acquire();
  messages_[m] = Message{route, transfer.id, static_cast<std::uint32_t>(count), transfer.bytes, 0};
  inject(m);
}

void PacketModel::inject(std::uint32_t m) {
  const std::uint32_t p = packets_.acquire();
  Message& message = messages_[m];
  const auto size = static_cast<std::uint32_t>(std::min(message.bytes_to_inject, packet_bytes_));
  message.bytes_to_inject -= size;
  const Time now = engine_->now();
  packets_[p] = Packet{now, m, size, 0};
  forward(p, now);
}

void PacketModel::handle(const QueuedEvent& event) {
  if (event.kind == kPacketInject) {
    inject(event.data);
    return;
  }
  MAPSIM_EXPECTS(event.kind == kPacketHop, "unknown packet-model event");
  forward(event.data, event.time);
}

void PacketModel::forward(std::uint32_t p, Time head) {
  Packet& packet = packets_[p];
  Message& message = messages_[packet.message];
  const ResourceId link = network_->resources(message.route)[packet.hop];
  const auto l = static_cast<std::size_t>(link);
  const Time tx = transfer_time(static_cast<double>(packet.bytes), network_->bandwidth(link));
  const Time lat = network_->latency(link);
  Time start;
  Time end;
  if (cut_through_) {
    start = std::max(head, free_at_[l]);
    end = std::max(add_time(start, tx), packet.tail);
  } else {
    start = std::max(packet.tail, free_at_[l]);
    end = add_time(start, tx);
  }
  free_at_[l] = end;
  if (packet.hop == 0 && message.bytes_to_inject > 0) {
    engine_->schedule(end, kPacketInject, packet.message);
  }
  const Time next_tail = add_time(end, lat);
  if (packet.hop + 1 == message.route.length) {
    message.delivered = std::max(message.delivered, next_tail);
    packets_.release(p);
    if (--message.packets_left == 0) {
      engine_->schedule(message.delivered, kDelivery, message.transfer);
      network_->release(message.route);
      messages_.release(packet.message);
    }
    return;
  }
  packet.tail = next_tail;
  ++packet.hop;
  engine_->schedule(cut_through_ ? add_time(start, lat) : next_tail, kPacketHop, p);
}

}  // namespace mapsim::sim

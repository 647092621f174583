#pragma once
// `packet`: messages cut into packets forwarded hop by hop through FIFO output queues.
//
// A transfer of n bytes becomes k = max(1, ceil(n / P)) packets (P = ModelOptions::packet_bytes,
// the last one shorter). Each directed link l (and each intra-node channel) is an output port
// serving packets first come, first served, one at a time, with infinite buffers (no credit flow
// control, no drops). A packet of s bytes at link l takes tx_l = s / bw_l to transmit and lat_l
// to propagate. With h_l the time its head reaches the port, t_l the time its tail does, and
// free_l the time the port finishes its previous packet:
//
//   store-and-forward:  start = max(t_l, free_l),  end = start + tx_l,
//                       next hop: head = tail = end + lat_l
//   cut-through:        start = max(h_l, free_l),  end = max(start + tx_l, t_l),
//                       next hop: head = start + lat_l,  tail = end + lat_l
//   free_l := end.
//
// The source injects a message's packets one after the other: packet i + 1 joins the first port's
// queue when packet i has been transmitted on it (h = t = that time), so messages leaving one node
// together interleave packet by packet. The message is delivered when its last packet's tail
// reaches the destination. Uncontended, cut-through gives exactly the analytic
// time lat(R) + n / bw when every link has the same bandwidth; store-and-forward adds
// (hops - 1) * P / bw. Order of service at a port is the order in which packet heads arrive
// (ties: the order the engine scheduled them), so the queue needs no explicit storage: free_l is
// its whole state. One engine event per packet per hop.

#include <vector>

#include "sim/NetworkModel.hpp"
#include "sim/SlotPool.hpp"

namespace mapsim::sim {

class PacketModel final : public NetworkModel {
 public:
  PacketModel(Engine& engine, Network& network, const ModelOptions& options);

  void start(const Transfer& transfer) override;
  void handle(const QueuedEvent& event) override;
  /// UGAL's load: how long the link's output port is busy from now with the packets already
  /// queued on it, in ps (its backlog).
  [[nodiscard]] double link_load(ResourceId link) const override {
    const Time free = free_at_[static_cast<std::size_t>(link)];
    return free > engine_->now() ? static_cast<double>(free - engine_->now()) : 0.0;
  }

 private:
  struct Message {
    Route route;
    std::uint32_t transfer = 0;
    std::uint32_t packets_left = 0;  // not yet delivered
    std::int64_t bytes_to_inject = 0;
    Time delivered = 0;
  };
  struct Packet {
    Time tail = 0;  // when the packet's tail reaches the port of hop `hop`
    std::uint32_t message = 0;
    std::uint32_t bytes = 0;
    std::uint32_t hop = 0;
  };

  /// Creates the message's next packet at the source port now.
  void inject(std::uint32_t message);
  /// The packet's head is at the port of its current hop at `head`: serve it, then forward it.
  void forward(std::uint32_t packet, Time head);

  std::int64_t packet_bytes_;
  bool cut_through_;
  std::vector<Time> free_at_;
  SlotPool<Message> messages_;
  SlotPool<Packet> packets_;
};

}  // namespace mapsim::sim

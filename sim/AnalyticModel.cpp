#include "sim/AnalyticModel.hpp"

namespace mapsim::sim {

void AnalyticModel::start(const Transfer& transfer) {
  const Route route = network_->route(transfer.src, transfer.dst);
  count_bytes(route, transfer.bytes);
  engine_->schedule(
      add_time(engine_->now(),
               add_time(route.latency,
                        transfer_time(static_cast<double>(transfer.bytes), route.bandwidth))),
      kDelivery, transfer.id);
}

void AnalyticModel::handle(const QueuedEvent& /*event*/) {
  MAPSIM_EXPECTS(false, "the analytic model schedules no events of its own");
}

}  // namespace mapsim::sim

#include "sim/AnalyticModel.hpp"

namespace mapsim::sim {

void AnalyticModel::start(const Transfer& transfer) {
  const Route route = route_of(transfer);
  count_bytes(route, transfer.bytes);
  engine_->schedule(
      add_time(add_time(engine_->now(), transfer.delay), lone_time(route, transfer.bytes)),
      kDelivery, transfer.id);
  network_->release(route);
}

void AnalyticModel::handle(const QueuedEvent& /*event*/) {
  MAPSIM_EXPECTS(false, "the analytic model schedules no events of its own");
}

}  // namespace mapsim::sim

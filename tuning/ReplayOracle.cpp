#include "tuning/ReplayOracle.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <fmt/format.h>
#include <tbb/parallel_for.h>

#include "sim/Energy.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"

namespace mapsim::tuning {

ReplayOracle::ReplayOracle(const topo::Topology& topology, sim::SimConfig base, Replayer replay,
                           SliceCheck check)
    : topology_(topology),
      base_(std::move(base)),
      replay_(std::move(replay)),
      check_(std::move(check)) {
  sim::validate(base_);
}

void ReplayOracle::check_slice(const map::Slice& slice) const {
  if (check_) check_(slice);
}

std::vector<map::Judgement> ReplayOracle::judge(std::span<const topo::Mapping> mappings,
                                                const map::Fidelity& fidelity) const {
  auto config = base_;
  config.model = fidelity.model;
  config.compute_scale = fidelity.compute_scale;
  config.critical_messages = fidelity.critical_messages;
  config.stop.past = fidelity.stop_past;
  sim::validate(config);
  std::vector<map::Judgement> judgements(mappings.size());
  // Each replay's error is kept and the first (by index) rethrown: the same one at any thread
  // count.
  std::vector<std::exception_ptr> errors(mappings.size());
  tbb::parallel_for(
      std::size_t{0}, mappings.size(),
      [&](std::size_t k) {
        try {
          const auto result = replay_(mappings[k], config, fidelity.slice);
          auto& j = judgements[k];
          j.makespan = result.makespan;
          j.cut = result.cut;
          j.events = static_cast<std::int64_t>(result.trace_events);
          j.rank_finish = result.rank_finish;
          j.energy_joules = sim::replay_energy(result, topology_, config.links).joules();
          const auto links = static_cast<std::size_t>(result.link_count);
          j.link_busy.assign(
              result.resource_busy.begin(),
              result.resource_busy.begin() +
                  static_cast<std::ptrdiff_t>(std::min(links, result.resource_busy.size())));
          j.critical_messages.reserve(result.critical_messages.size());
          for (const auto& m : result.critical_messages)
            j.critical_messages.emplace_back(m.src, m.dst);
          replays_.fetch_add(1);
        } catch (...) {
          errors[k] = std::current_exception();
        }
      },
      tbb::simple_partitioner{});
  for (std::size_t k = 0; k < errors.size(); ++k) {
    if (!errors[k]) continue;
    try {
      std::rethrow_exception(errors[k]);
    } catch (const InputError& e) {
      throw InputError(
          fmt::format("replaying candidate mapping {} under {}: {}", k, fidelity.model, e.what()));
    }
  }
  return judgements;
}

void ReplayOracle::report(std::string_view text) const {
  const std::lock_guard lock(mutex_);
  reported_ += text;
}

void ReplayOracle::progress(std::string_view line) const {
  log::info("{}", line);
}

std::string ReplayOracle::reported() const {
  const std::lock_guard lock(mutex_);
  return reported_;
}

ReplayOracle::Replayer stream_replayer(
    const topo::Topology& topology,
    std::function<std::unique_ptr<traces::EventStreams>(const map::Slice&)> streams) {
  return [&topology, streams = std::move(streams)](
             const topo::Mapping& mapping, const sim::SimConfig& config, const map::Slice& slice) {
    const auto opened = streams(slice);
    return sim::simulate(*opened, topology, mapping, config);
  };
}

}  // namespace mapsim::tuning

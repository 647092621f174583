#include "experiments/Runner.hpp"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <queue>
#include <unordered_map>

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "experiments/ResultRows.hpp"
#include "experiments/StoreWriter.hpp"
#include "mappers/Mapper.hpp"
#include "mappers/Metrics.hpp"
#include "sim/Energy.hpp"
#include "sim/Network.hpp"
#include "sim/Simulation.hpp"
#include "support/Error.hpp"
#include "support/Log.hpp"
#include "support/Progress.hpp"
#include "traces/MatrixStatistics.hpp"
#include "tuning/ReplayOracle.hpp"

namespace mapsim::exp {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Scheduling weights: the search-based mappers cost about ranks^2, the rest far less; the flow
/// model costs more per event than packet, packet more than analytic.
double mapper_weight(std::string_view mapper) {
  for (const auto heavy : {"best", "ohtma", "bokhari", "genetic", "sampling"}) {
    if (mapper == heavy) return 1.0;
  }
  return mapper == "scotch" || mapper == "bisection" ? 0.1 : 0.01;
}

double model_weight(std::string_view model) {
  if (model == "flow") return 4;
  if (model == "packet") return 3;
  if (model == "analytic") return 1;
  return 0;
}

/// What the runs of one mapping share once it is computed.
struct GroupState {
  std::shared_ptr<const LoadedWorkload> workload;
  topo::Mapping mapping;
  StoredMapping stored;
  /// Per machine index of the config (the group's runs may differ in link tables only).
  std::map<std::size_t, schema::Row> static_rows;
  std::map<std::size_t, map::metrics::LinkLoads> link_loads;
};

class SweepRunner {
 public:
  SweepRunner(const Sweep& sweep, const RunnerOptions& options, RunnerReport& report)
      : sweep_(sweep),
        options_(options),
        report_(report),
        writer_(options.database, this_process(options.command)),
        time_limit_(options.time_limit.value_or(sweep.config.time_limit)),
        store_links_(options.store_links.value_or(sweep.config.store_links)) {}

  void run() {
    const auto start = Clock::now();
    plan();
    // One per core this process may use (taskset, cgroups), as oneTBB counts them.
    const int jobs =
        std::max(1, options_.jobs > 0 ? options_.jobs : tbb::info::default_concurrency());
    if (report_.to_run > 0) {
      log::info("{} of {} runs to do ({} done, {} failed, {} running elsewhere){}, {} job{}",
                report_.to_run, report_.runs, report_.already_done, report_.already_failed,
                report_.running_elsewhere,
                report_.stale > 0 ? fmt::format(", {} stale re-run", report_.stale) : "", jobs,
                jobs == 1 ? "" : "s");
      progress_.emplace("sweep", report_.to_run, "runs");
      // More jobs than usable cores is the user's choice: raise oneTBB's limit on worker threads
      // to match, or it would warn on stderr and run fewer.
      const tbb::global_control workers_limit(
          tbb::global_control::max_allowed_parallelism,
          static_cast<std::size_t>(std::max(jobs, tbb::info::default_concurrency())));
      tbb::task_arena arena(jobs);
      arena.execute([&] {
        tbb::task_group workers;
        for (int w = 0; w < jobs; ++w) workers.run([this] { work(); });
        workers.wait();
      });
      progress_.reset();
      writer_.finish();  // a write error is the cause: it is thrown first
      if (failure_) std::rethrow_exception(failure_);
    }
    writer_.finish();
    report_.commits = writer_.commits();
    report_.commit_seconds = writer_.commit_seconds();
    report_.interrupted = interrupted();
    report_.seconds = since(start);
  }

 private:
  struct Group {
    std::string mapping_key;
    std::vector<std::size_t> runs;  ///< indices into sweep.runs
    std::optional<StoredMapping> stored;
    double cost = 0;
  };

  struct WorkloadSlot {
    std::mutex mutex;
    bool loaded = false;
    std::shared_ptr<const LoadedWorkload> data;
    std::string error;
    int groups_left = 0;
    bool needs_trace = false;  ///< some run to do replays it (else only its matrix is made)
  };

  struct Job {
    int priority = 0;  ///< higher first: replays of started groups (1) before new groups (0)
    double cost = 0;   ///< then longest expected first
    std::uint64_t order = 0;
    std::function<void()> work;

    bool operator<(const Job& other) const {  // "less urgent than"
      if (priority != other.priority) return priority < other.priority;
      if (cost != other.cost) return cost < other.cost;
      return order > other.order;
    }
  };

  /// Adds to a counter of the report (workers count concurrently).
  void count(std::size_t RunnerReport::*counter, std::size_t n = 1) {
    const std::lock_guard lock(report_mutex_);
    report_.*counter += n;
  }

  [[nodiscard]] bool interrupted() const {
    return options_.interrupt != nullptr && options_.interrupt->load();
  }

  /// Interrupted, or stopped by an error: no new run starts.
  [[nodiscard]] bool stopping() const { return failed_.load() || interrupted(); }

  /// Which runs to do, grouped by mapping, with the mappings the database already has.
  void plan() {
    Store store(options_.database, Store::Access::Write);
    // Rows of runners that are gone read as stale in the database too, for whoever looks.
    store.mark_stale(writer_.owner());
    std::unordered_map<std::string, std::size_t> group_of;
    // One slot per content digest: workloads with equal content are loaded once.
    std::unordered_map<std::string, std::shared_ptr<WorkloadSlot>> by_digest;
    for (std::size_t w = 0; w < sweep_.config.workloads.size(); ++w) {
      auto& slot = by_digest[sweep_.inputs[w].digest];
      if (!slot) slot = std::make_shared<WorkloadSlot>();
      slots_.push_back(slot);
    }
    for (std::size_t i = 0; i < sweep_.runs.size(); ++i) {
      const auto& run = sweep_.runs[i];
      if (!in_shard(run, options_.shard_index, options_.shard_count)) continue;
      ++report_.runs;
      const auto state = store.state(run.key, &writer_.owner());
      switch (state.status) {
        case RunStatus::Done:
          ++report_.already_done;
          continue;
        case RunStatus::Failed:
          if (!options_.rerun_failed) {
            ++report_.already_failed;
            continue;
          }
          break;
        case RunStatus::Running:
          ++report_.running_elsewhere;
          continue;
        case RunStatus::Stale:
          ++report_.stale;
          break;
        case RunStatus::New:
          break;
      }
      ++report_.to_run;
      slots_[run.workload]->needs_trace = slots_[run.workload]->needs_trace || run.replays;
      auto [it, added] = group_of.try_emplace(run.mapping_key, groups_.size());
      if (added) {
        groups_.push_back(Group{run.mapping_key, {}, store.mapping(run.mapping_key), 0});
        ++slots_[run.workload]->groups_left;
      }
      auto& group = groups_[it->second];
      group.runs.push_back(i);
      const auto& input = sweep_.inputs[run.workload];
      group.cost += input.size * model_weight(sweep_.model_name(run));
      if (added && !group.stored) {
        group.cost += mapper_weight(sweep_.mapper(run).name) * input.ranks * input.ranks;
      }
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      push(Job{0, groups_[g].cost, next_order_++, [this, g] { map_group(groups_[g]); }});
    }
  }

  void push(Job job) {
    {
      const std::lock_guard lock(queue_mutex_);
      queue_.push(std::move(job));
    }
    queue_ready_.notify_one();
  }

  /// A worker: takes jobs until none is left and none can appear. A job that throws (the
  /// database cannot be written) stops the sweep: the first error is kept for run() and the jobs
  /// left run in their stopping mode (no new run starts, claimed ones are released), so that no
  /// worker waits for a job that never finishes.
  void work() {
    for (;;) {
      Job job;
      {
        std::unique_lock lock(queue_mutex_);
        queue_ready_.wait(lock, [&] { return !queue_.empty() || active_ == 0; });
        if (queue_.empty()) {
          queue_ready_.notify_all();
          return;
        }
        job = queue_.top();
        queue_.pop();
        ++active_;
      }
      try {
        // Isolated: while a mapper waits for its parallel loops, this thread takes no other job.
        tbb::this_task_arena::isolate([&] { job.work(); });
      } catch (...) {
        const std::lock_guard lock(queue_mutex_);
        if (!failure_) failure_ = std::current_exception();
        failed_ = true;
      }
      {
        const std::lock_guard lock(queue_mutex_);
        --active_;
      }
      queue_ready_.notify_all();
    }
  }

  /// The workload, loaded on first use; nullptr with `error` set if it cannot be.
  std::shared_ptr<const LoadedWorkload> acquire(std::size_t w, std::string& error) {
    auto& slot = *slots_[w];
    const std::lock_guard lock(slot.mutex);
    if (!slot.loaded) {
      slot.loaded = true;
      if (!sweep_.inputs[w].error.empty()) {
        slot.error = sweep_.inputs[w].error;
      } else {
        try {
          const auto& workload = sweep_.config.workloads[w];
          slot.data = std::make_shared<const LoadedWorkload>(
              load(workload, sweep_.config.collectives, slot.needs_trace,
                   sweep_.config.collective_algorithms));
          count(&RunnerReport::workloads_loaded);
          if (workload.kind != WorkloadKind::Matrix) {
            for (const auto& caveat :
                 traces::matrix_caveats(slot.data->matrix, sweep_.config.collectives, std::nullopt,
                                        "matrix: {collectives: false}")) {
              if (caveat.warning) {
                log::warning("{}: {}", workload.label, caveat.text);
              } else {
                log::info("{}: {}", workload.label, caveat.text);
              }
            }
          }
        } catch (const std::exception& e) {
          slot.error = e.what();
        }
      }
    }
    error = slot.error;
    return slot.data;
  }

  /// A group no longer needs its workload: free it after the last group.
  void release_workload(std::size_t w) {
    auto& slot = *slots_[w];
    const std::lock_guard lock(slot.mutex);
    if (--slot.groups_left == 0) slot.data.reset();
  }

  void finished(const Run& run, bool done, const std::string& message, double seconds) {
    progress_->advance();
    if (done) {
      count(&RunnerReport::done);
      if (!progress_->active()) log::info("done {} ({:.2f} s)", run.name, seconds);
    } else {
      count(&RunnerReport::failed);
      log::warning("failed {}: {}", run.name, message);
    }
  }

  void store(const Run& run, RunRecord record, double seconds) {
    const bool done = record.done;
    const std::string message = record.message;
    // If the database cannot be written this throws, and the sweep stops (work()); what is
    // stored stays stored.
    const bool ours = writer_.commit(std::move(record)).get();
    if (!ours) {
      count(&RunnerReport::taken);
      progress_->advance();
      log::warning("{}: another runner took this run over; its result is theirs", run.name);
      return;
    }
    finished(run, done, message, seconds);
  }

  void fail(const Run& run, const std::string& message,
            const std::optional<StoredMapping>& mapping = std::nullopt) {
    RunRecord record;
    record.key = run.key;
    record.done = false;
    record.message = message;
    record.mapping = mapping;
    store(run, std::move(record), 0);
  }

  void discard(std::vector<std::string> keys) {
    count(&RunnerReport::discarded, keys.size());
    progress_->advance(keys.size());
    writer_.release(std::move(keys));
  }

  void map_group(Group& group) {
    const auto& first = sweep_.runs[group.runs.front()];
    const std::size_t w = first.workload;
    if (stopping()) {
      release_workload(w);
      return;
    }
    std::vector<RunIdentity> identities;
    for (const auto i : group.runs) identities.push_back(identity(sweep_, sweep_.runs[i]));
    const auto claimed = writer_.claim(std::move(identities), options_.rerun_failed);
    std::vector<std::size_t> runs;
    for (std::size_t k = 0; k < group.runs.size(); ++k) {
      if (claimed[k]) {
        runs.push_back(group.runs[k]);
      } else {
        count(&RunnerReport::taken);
        progress_->advance();
      }
    }
    if (runs.empty()) {
      release_workload(w);
      return;
    }

    std::string error;
    auto workload = acquire(w, error);
    release_workload(w);  // `workload` keeps it alive for this group
    if (!workload) {
      for (const auto i : runs) fail(sweep_.runs[i], fmt::format("workload: {}", error));
      return;
    }
    const auto& topology = *sweep_.machines[first.machine];
    const auto& mapper = sweep_.mapper(first);
    auto state = std::make_shared<GroupState>();
    state->workload = workload;
    const auto start = Clock::now();
    try {
      if (group.stored) {
        state->mapping = group.stored->mapping;
        if (state->mapping.rank_count() != workload->matrix.rank_count())
          throw InputError("the stored mapping does not fit the workload");
        topo::validate(state->mapping, topology);
        state->stored = *group.stored;
        count(&RunnerReport::mappings_reused);
      } else {
        const auto built = map::make_mapper(mapper.name, mapper.given);
        count(&RunnerReport::mapper_invocations);
        std::optional<tuning::ReplayOracle> oracle;
        if (built->needs_oracle() && workload->replayable()) {
          // The search's replays run as the group's runs do (its model and compute scale are
          // its own parameters; the mapping key holds the rest: Sweep.cpp).
          auto config = sim_config(first);
          config.stop.wall_seconds = 0;
          config.eager_threshold = first.search_eager_threshold;
          if (!first.replays) {  // a static run: the search's model is its own parameter
            config.model = "flow";
            config.model_options = {};
          }
          oracle.emplace(topology, std::move(config),
                         tuning::stream_replayer(topology, [workload](const map::Slice& slice) {
                           return workload->streams(slice);
                         }));
        }
        state->mapping = built->map(workload->matrix, topology, static_cast<map::Seed>(first.seed),
                                    oracle ? &*oracle : nullptr, sweep_.machine(first).links);
        if (oracle) log::info("{}: {}", first.name, oracle->reported());
        state->stored = StoredMapping{group.mapping_key,
                                      sweep_.inputs[w].digest,
                                      sweep_.machine(first).topology,
                                      mapper.name,
                                      mapper.params,
                                      first.seed,
                                      state->mapping,
                                      since(start)};
      }
    } catch (const std::exception& e) {
      // A mapper that replays (replay-search) stops with its replays on Ctrl-C: its runs are
      // left to a later `mapsim run`, not stored as failed.
      if (dynamic_cast<const Cancelled*>(&e) != nullptr && interrupted()) {
        std::vector<std::string> keys;
        for (const auto i : runs) keys.push_back(sweep_.runs[i].key);
        discard(std::move(keys));
        return;
      }
      for (const auto i : runs)
        fail(sweep_.runs[i], fmt::format("mapper '{}': {}", mapper.label, e.what()));
      return;
    }
    const double map_seconds = since(start);
    // Every static score first: the replays read them from other threads.
    std::map<std::size_t, std::string> unscored;  // machine -> why
    for (const auto i : runs) {
      const auto& run = sweep_.runs[i];
      if (state->static_rows.contains(run.machine) || unscored.contains(run.machine)) continue;
      try {
        state->static_rows.emplace(run.machine, static_row(map::metrics::evaluate(
                                                    workload->matrix, topology, state->mapping,
                                                    sweep_.machine(run).links)));
        if (store_links_) {
          state->link_loads.emplace(
              run.machine, map::metrics::link_loads(workload->matrix, topology, state->mapping));
        }
      } catch (const std::exception& e) {
        unscored.emplace(run.machine, fmt::format("static metrics: {}", e.what()));
      }
    }
    for (const auto i : runs) {
      const auto& run = sweep_.runs[i];
      if (const auto it = unscored.find(run.machine); it != unscored.end()) {
        fail(run, it->second, state->stored);
      } else if (!run.replays) {
        RunRecord record;
        record.key = run.key;
        record.done = true;
        record.static_row = state->static_rows.at(run.machine);
        record.mapping = state->stored;
        if (store_links_) record.links = links(run, *state, nullptr);
        store(run, std::move(record), map_seconds);
      } else {
        push(Job{1, sweep_.inputs[w].size * model_weight(sweep_.model_name(run)), next_order_++,
                 [this, i, state] { replay(sweep_.runs[i], *state); }});
      }
    }
  }

  std::vector<LinkLoad> links(const Run& run, const GroupState& state, const sim::Result* result) {
    const auto& topology = *sweep_.machines[run.machine];
    const auto& loads = state.link_loads.at(run.machine);
    std::vector<LinkLoad> rows;
    for (topo::LinkId l = 0; l < topology.link_count(); ++l) {
      const auto s = static_cast<std::size_t>(l);
      const bool replayed = result != nullptr && s < result->resource_bytes.size();
      if (loads.bytes[s] == 0 && (!replayed || result->resource_bytes[s] == 0)) continue;
      const auto link = topology.link(l);
      LinkLoad row{l,
                   link.from,
                   link.to,
                   std::string(topo::name(link.link_class)),
                   exact(loads.bytes[s], "link bytes"),
                   {},
                   {},
                   {}};
      if (replayed) {
        row.bytes = result->resource_bytes[s];
        row.busy_ps = result->resource_busy[s];
        row.utilisation = result->resource_utilisation[s];
      }
      rows.push_back(std::move(row));
    }
    if (result != nullptr) {
      // The nodes' channels, after the links (sim/Network.hpp).
      for (std::size_t s = static_cast<std::size_t>(topology.link_count());
           s < result->resource_bytes.size(); ++s) {
        if (result->resource_bytes[s] == 0) continue;
        const auto channel = sim::node_channel(topology, static_cast<sim::ResourceId>(s));
        rows.push_back(LinkLoad{static_cast<std::int64_t>(s), channel.node, channel.node,
                                std::string(topo::name(channel.link_class)), 0,
                                result->resource_bytes[s], result->resource_busy[s],
                                result->resource_utilisation[s]});
      }
    }
    return rows;
  }

  /// The replay's configuration of `run`.
  [[nodiscard]] sim::SimConfig sim_config(const Run& run) const {
    const auto& model = sweep_.model(run);
    sim::SimConfig config;
    config.model = model.name;
    config.model_options = model.options;
    config.compute_scale = run.compute_scale;
    config.eager_threshold = run.eager_threshold;
    config.collectives = sweep_.config.collective_algorithms;
    config.overheads = sweep_.config.overheads;
    config.init_to_finalize = !sweep_.config.whole_run;
    config.links = sweep_.machine(run).links;
    config.seed = static_cast<std::uint64_t>(run.seed);
    config.stop.wall_seconds = time_limit_;
    config.stop.cancel = options_.interrupt;
    return config;
  }

  void replay(const Run& run, const GroupState& state) {
    if (stopping()) {
      discard({run.key});
      return;
    }
    const auto config = sim_config(run);
    const auto start = Clock::now();
    RunRecord record;
    record.key = run.key;
    record.mapping = state.stored;
    record.static_row = state.static_rows.at(run.machine);
    try {
      const auto streams = state.workload->streams();
      const auto result =
          sim::simulate(*streams, *sweep_.machines[run.machine], state.mapping, config);
      record.simulation_row = simulation_row(
          result, sim::replay_energy(result, *sweep_.machines[run.machine], config.links));
      if (store_links_) record.links = links(run, state, &result);
      record.done = true;
    } catch (const Cancelled& e) {
      if (interrupted()) {
        discard({run.key});
        return;
      }
      record.message = fmt::format("replay: {}", e.what());
    } catch (const std::exception& e) {
      record.message = fmt::format("replay: {}", e.what());
    }
    if (!record.done) {
      record.static_row.reset();
      record.simulation_row.reset();
      record.links.clear();
    }
    store(run, std::move(record), since(start));
  }

  const Sweep& sweep_;
  const RunnerOptions& options_;
  RunnerReport& report_;
  StoreWriter writer_;
  double time_limit_;
  bool store_links_;
  std::vector<Group> groups_;
  std::vector<std::shared_ptr<WorkloadSlot>> slots_;  ///< per workload of the config
  std::optional<Progress> progress_;
  std::mutex report_mutex_;

  std::mutex queue_mutex_;
  std::condition_variable queue_ready_;
  std::priority_queue<Job> queue_;
  int active_ = 0;
  std::exception_ptr failure_;  ///< the first error a job threw (under queue_mutex_)
  std::atomic<bool> failed_{false};
  std::atomic<std::uint64_t> next_order_{0};
};

}  // namespace

RunIdentity identity(const Sweep& sweep, const Run& run) {
  return {run.key,
          run.mapping_key,
          run.context_key,
          run.name,
          canonical_config(sweep, run),
          config_row(sweep, run)};
}

RunnerReport run_sweep(const Sweep& sweep, const RunnerOptions& options) {
  if (options.shard_count < 1 || options.shard_index < 1 ||
      options.shard_index > options.shard_count) {
    throw InputError(fmt::format("shard {}/{}: expected I/N with 1 <= I <= N", options.shard_index,
                                 options.shard_count));
  }
  RunnerReport report;
  SweepRunner runner(sweep, options, report);
  runner.run();
  return report;
}

std::vector<StoredState> run_states(const Sweep& sweep, const std::filesystem::path& path) {
  std::vector<StoredState> states(sweep.runs.size());
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return states;
  Store store(path, Store::Access::Read);
  for (std::size_t i = 0; i < sweep.runs.size(); ++i) states[i] = store.state(sweep.runs[i].key);
  return states;
}

}  // namespace mapsim::exp

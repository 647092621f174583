#include "experiments/Sweep.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/parallel_for.h>

#include "experiments/Digest.hpp"
#include "experiments/Where.hpp"
#include "mappers/Mapper.hpp"
#include "support/Error.hpp"
#include "topologies/TopologySpec.hpp"

namespace mapsim::exp {
namespace {

/// Axis indices of one combination, in Axis order.
using Combination = std::array<std::size_t, kAxisCount>;

/// The loops of the crossing, outermost first: a zip group is one loop at its first axis's place.
std::vector<std::vector<Axis>> crossing_loops(const SweepConfig& config) {
  std::vector<std::vector<Axis>> loops;
  std::array<bool, kAxisCount> placed{};
  for (int a = 0; a < kAxisCount; ++a) {
    const auto axis = static_cast<Axis>(a);
    if (placed[static_cast<std::size_t>(a)]) continue;
    std::vector<Axis> loop{axis};
    for (const auto& group : config.zips) {
      if (std::find(group.begin(), group.end(), axis) != group.end()) loop = group;
    }
    for (const auto member : loop) placed[static_cast<std::size_t>(member)] = true;
    loops.push_back(std::move(loop));
  }
  return loops;
}

/// How many combinations the crossing makes, counted before any is made; throws InputError
/// naming the count and the axes if it is above `limit` (or beyond 64 bits).
std::size_t count_combinations(const SweepConfig& config,
                               const std::vector<std::vector<Axis>>& loops, std::size_t limit) {
  std::size_t total = 1;
  bool overflow = false;
  std::vector<std::string> factors;
  for (const auto& loop : loops) {
    const auto size = config.size(loop.front());
    std::vector<std::string_view> axes;
    for (const auto axis : loop) axes.push_back(name(axis));
    factors.push_back(fmt::format("{} {}", fmt::join(axes, "+"), size));
    if (size != 0 && total > std::numeric_limits<std::size_t>::max() / size) overflow = true;
    total *= size;
  }
  if (overflow || total > limit) {
    throw InputError(fmt::format(
        "{}: the sweep crosses {} combinations ({}), more than the {} mapsim expands; narrow an "
        "axis, zip axes that vary together, or split the config (`mapsim run --max-combinations` "
        "raises the limit)",
        config.file, overflow ? std::string("more than 2^64") : std::to_string(total),
        fmt::join(factors, " x "), limit));
  }
  return total;
}

std::string format_number(double value) {
  return fmt::format("{}", value);
}

/// Whether the run's value on the condition's axis is one of the condition's values.
bool matches(const Sweep& sweep, const Run& run, const Exclusion::Condition& condition) {
  const auto is_one_of = [&](const std::string& label, const std::string& name) {
    return std::find(condition.values.begin(), condition.values.end(), label) !=
               condition.values.end() ||
           std::find(condition.values.begin(), condition.values.end(), name) !=
               condition.values.end();
  };
  const auto is_integer = [&](std::int64_t value) {
    return std::find(condition.integers.begin(), condition.integers.end(), value) !=
           condition.integers.end();
  };
  switch (condition.axis) {
    case Axis::Workload:
      return is_one_of(sweep.workload(run).label, sweep.workload(run).spec);
    case Axis::Machine:
      return is_one_of(sweep.machine(run).label, sweep.machine(run).topology);
    case Axis::Mapper:
      return is_one_of(sweep.mapper(run).label, sweep.mapper(run).name);
    case Axis::Model:
      return is_one_of(sweep.model(run).label, sweep.model(run).name);
    case Axis::EagerThreshold:
      return is_integer(run.eager_threshold);
    case Axis::ComputeScale:
      return std::find(condition.reals.begin(), condition.reals.end(), run.compute_scale) !=
             condition.reals.end();
    case Axis::Seed:
      return is_integer(run.seed);
    case Axis::Repeat:
      return is_integer(run.repeat);
  }
  return false;
}

std::string links_line(const topo::Topology& topology, const topo::LinkTable& links) {
  // The classes the machine has: its links', the intra-node channel, the inter-socket one on
  // nodes of several sockets.
  const auto used = topology.has_link_classes();
  std::vector<std::string> parts;
  for (const auto& info : topo::link_classes()) {
    if (!used[static_cast<std::size_t>(info.id)]) continue;
    const auto& link = links[info.id];
    parts.push_back(fmt::format("{}:{}:{}", info.name, link.bandwidth, link.latency));
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

/// The energy parameters of the machine's classes where they are not the defaults, as
/// CLASS:PJ:IDLE:BUSY, comma-separated; "" if none (the keys of earlier runs stay as they were).
std::string link_energy_line(const topo::Topology& topology, const topo::LinkTable& links) {
  const auto used = topology.has_link_classes();
  const topo::LinkTable defaults;
  std::vector<std::string> parts;
  for (const auto& info : topo::link_classes()) {
    if (!used[static_cast<std::size_t>(info.id)]) continue;
    const auto& e = links.energy(info.id);
    if (e == defaults.energy(info.id)) continue;
    parts.push_back(
        fmt::format("{}:{}:{}:{}", info.name, e.pj_per_bit, e.idle_watts, e.busy_watts));
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

/// What a run's key says of its machine: the spec as written (the keys of every machine that
/// names no file and no allocation are what they always were); else its canonical spec with the
/// allocation as node ids (whatever names or file gave it), no hosts file (names change no
/// result), and in place of a Slurm topology file's path the digest of its content (and of the
/// files it includes): moving the files re-runs nothing, changing a byte of them does.
std::string machine_key(const topo::Topology& machine, const std::string& written) {
  if (machine.allocation().empty() && machine.source_files().empty()) return written;
  auto spec = topo::parse_topology_spec(machine.spec());
  spec.hosts.clear();
  if (!machine.allocation().empty()) {
    std::string ids;
    const auto nodes = machine.allocation();
    for (std::size_t i = 0; i < nodes.size();) {
      std::size_t j = i;
      while (j + 1 < nodes.size() && nodes[j + 1] == nodes[j] + 1) ++j;
      ids += fmt::format("{}{}", ids.empty() ? "" : ",", nodes[i]);
      if (j > i) ids += fmt::format("-{}", nodes[j]);
      i = j + 1;
    }
    spec.allocation = ids;
  }
  if (!machine.source_files().empty()) {
    Sha256 content;
    for (const auto& file : machine.source_files()) content.update(file_digest(file));
    spec.shape = "sha256-" + content.hex();
  }
  return topo::to_string(spec);
}

/// The parts of a run's canonical configuration: what the three keys hash.
struct ConfigParts {
  std::string head;     ///< workload, matrix, topology
  std::string mapping;  ///< mapper, parameters, seed
  std::string setting;  ///< links, model, MPI and sim settings
  std::string repeat;
};

ConfigParts config_parts(const Sweep& sweep, const Run& run) {
  const auto& workload = sweep.workload(run);
  const auto& input = sweep.inputs[run.workload];
  const auto& machine = sweep.machine(run);
  const auto& mapper = sweep.mapper(run);
  const auto& model = sweep.model(run);
  ConfigParts parts;
  parts.head = fmt::format("results-version: {}\nworkload: {} {}\nmatrix: {}\ntopology: {}\n",
                           kResultsVersion, name(workload.kind), input.digest,
                           workload.kind == WorkloadKind::Matrix && !input.recorded ? "as given"
                           : sweep.config.collectives ? "point-to-point and collectives"
                                                      : "point-to-point",
                           sweep.machine_keys[run.machine]);
  // Only when not MPICH's, so that the keys of configs without mpi.collectives stay as they were.
  if (!sweep.config.collective_algorithms.is_default())
    parts.head +=
        fmt::format("collectives: {}\n", traces::to_string(sweep.config.collective_algorithms));
  parts.mapping =
      fmt::format("mapper: {}\nparams: {}\nseed: {}\n", mapper.name, mapper.params, run.seed);
  parts.setting =
      fmt::format("links: {}\n", links_line(*sweep.machines[run.machine], machine.links));
  // Only when not the defaults; the energies they give are in every run's row (static and
  // replayed alike).
  if (const auto energy = link_energy_line(*sweep.machines[run.machine], machine.links);
      !energy.empty()) {
    parts.setting += fmt::format("link-energy: {}\n", energy);
  }
  if (run.replays) {
    parts.setting += fmt::format("model: {}\n", model.name);
    if (model.name == "packet") {
      parts.setting += fmt::format("packet-size: {}\ncut-through: {}\n", model.options.packet_bytes,
                                   model.options.cut_through);
    }
    // Only when given, so that the keys of configs without them stay as they were.
    if (!model.options.bandwidth_factor.identity())
      parts.setting += fmt::format("bw-factor: {}\n", model.options.bandwidth_factor.to_string());
    if (!model.options.latency_factor.identity())
      parts.setting += fmt::format("lat-factor: {}\n", model.options.latency_factor.to_string());
    if (model.options.reverse_traffic) parts.setting += "reverse-traffic: true\n";
    if (model.options.weight_s != 0)
      parts.setting += fmt::format("weight-s: {}\n", format_number(model.options.weight_s));
    if (model.options.envelope != 0)
      parts.setting += fmt::format("envelope: {}\n", model.options.envelope);
    parts.setting +=
        fmt::format("eager-threshold: {}\ncompute-scale: {}\nwhole-run: {}\n", run.eager_threshold,
                    format_number(run.compute_scale), sweep.config.whole_run);
    // Only when some, so that the keys of configs without mpi.overheads stay as they were.
    // The text of the channels the machine has (no inter-socket one on nodes of one socket).
    const auto overheads =
        sim::to_string(sweep.config.overheads, sweep.machines[run.machine]->sockets_per_node() > 1);
    if (overheads != "none") parts.setting += fmt::format("overheads: {}\n", overheads);
  } else {
    parts.setting += fmt::format("model: {}\n", kStaticModel);
  }
  parts.repeat = fmt::format("repeat: {}\n", run.repeat);
  // A mapper that replays (replay-search; best:objective=critical-latency) searches under the
  // run's links, model options, MPI and sim settings (its model and compute scale are its own
  // parameters): its mapping depends on them, whether the run itself replays or not.
  const auto built = map::make_mapper(mapper.name, mapper.given);
  // A mapper under an energy objective (objective=energy, time+energy; replay-search whose
  // portfolio holds one) weighs the traffic by the links' energy per bit: its mapping depends on
  // them when they are not the defaults (only then, so that every other mapping key stays as it
  // was; replay-search's keys before it did carry the energies, as search-link-energy below).
  if (built->weighs_link_energy()) {
    if (const auto energy = link_energy_line(*sweep.machines[run.machine], machine.links);
        !energy.empty()) {
      parts.mapping += fmt::format("mapping-link-energy: {}\n", energy);
    }
  }
  if (built->needs_oracle()) {
    parts.mapping +=
        fmt::format("search-links: {}\nsearch-eager-threshold: {}\nsearch-whole-run: {}\n",
                    links_line(*sweep.machines[run.machine], machine.links),
                    run.search_eager_threshold, sweep.config.whole_run);
    // The links' energy parameters when not the defaults: a search under objective=energy
    // weighs its replays by them.
    if (const auto energy = link_energy_line(*sweep.machines[run.machine], machine.links);
        !energy.empty()) {
      parts.mapping += fmt::format("search-link-energy: {}\n", energy);
    }
    const auto overheads =
        sim::to_string(sweep.config.overheads, sweep.machines[run.machine]->sockets_per_node() > 1);
    if (overheads != "none") parts.mapping += fmt::format("search-overheads: {}\n", overheads);
    if (run.replays) {
      const auto& options = model.options;
      // The packet model's options matter only to a search that replays under packet.
      if (model.name == "packet" && mapper.params.find("=packet") != std::string::npos) {
        parts.mapping += fmt::format("search-packet-size: {}\nsearch-cut-through: {}\n",
                                     options.packet_bytes, options.cut_through);
      }
      if (!options.bandwidth_factor.identity())
        parts.mapping +=
            fmt::format("search-bw-factor: {}\n", options.bandwidth_factor.to_string());
      if (!options.latency_factor.identity())
        parts.mapping += fmt::format("search-lat-factor: {}\n", options.latency_factor.to_string());
      if (options.reverse_traffic) parts.mapping += "search-reverse-traffic: true\n";
      if (options.weight_s != 0)
        parts.mapping += fmt::format("search-weight-s: {}\n", format_number(options.weight_s));
      if (options.envelope != 0)
        parts.mapping += fmt::format("search-envelope: {}\n", options.envelope);
    }
  }
  return parts;
}

/// Fills the run's keys.
void identify(const Sweep& sweep, Run& run) {
  const auto parts = config_parts(sweep, run);
  run.key = sha256(parts.head + parts.mapping + parts.setting + parts.repeat);
  run.mapping_key = sha256(parts.head + parts.mapping);
  run.context_key = sha256(parts.head + parts.setting);
}

std::string default_template(const SweepConfig& config) {
  std::string text = "{workload}/{machine}/{mapper}/{model}";
  if (config.eager_thresholds.size() > 1) text += "/eager={eager-threshold}";
  if (config.compute_scales.size() > 1) text += "/compute={compute-scale}";
  if (config.seeds.size() > 1) text += "/seed={seed}";
  if (config.repeats > 1) text += "/repeat={repeat}";
  return text;
}

std::string render_name(const Sweep& sweep, const Run& run, std::string_view text) {
  std::string name;
  for (std::size_t at = 0; at < text.size();) {
    const auto open = text.find('{', at);
    if (open == std::string_view::npos) {
      name += text.substr(at);
      break;
    }
    name += text.substr(at, open - at);
    const auto close = text.find('}', open);
    const auto placeholder = text.substr(open + 1, close - open - 1);
    at = close + 1;
    if (placeholder == "workload") {
      name += sweep.workload(run).label;
    } else if (placeholder == "machine") {
      name += sweep.machine(run).label;
    } else if (placeholder == "mapper") {
      name += sweep.mapper(run).label;
    } else if (placeholder == "model") {
      name += run.replays ? sweep.model(run).label : std::string(kStaticModel);
    } else if (placeholder == "eager-threshold") {
      name += run.replays ? std::to_string(run.eager_threshold) : "-";
    } else if (placeholder == "compute-scale") {
      name += run.replays ? format_number(run.compute_scale) : "-";
    } else if (placeholder == "seed") {
      name += std::to_string(run.seed);
    } else if (placeholder == "repeat") {
      name += std::to_string(run.repeat);
    }
  }
  return name;
}

}  // namespace

std::string_view Sweep::model_name(const Run& run) const {
  return run.replays ? std::string_view(model(run).name) : kStaticModel;
}

Sweep expand(SweepConfig config, std::string_view extra_where, std::size_t max_combinations) {
  Sweep sweep;
  sweep.config = std::move(config);
  const auto& cfg = sweep.config;
  // Counted first: a sweep too large to expand is refused before anything is read or made.
  const auto loops = crossing_loops(cfg);
  sweep.combinations = count_combinations(cfg, loops, max_combinations);
  sweep.inputs.resize(cfg.workloads.size());
  // Digests read whole archives: in parallel over the workloads.
  tbb::parallel_for(std::size_t{0}, cfg.workloads.size(), [&](std::size_t w) {
    try {
      sweep.inputs[w] = inspect(cfg.workloads[w]);
    } catch (const InputError& e) {
      throw InputError(
          fmt::format("{}: workloads[{}]: {}", cfg.workloads[w].origin.str(), w, e.what()));
    }
  });
  for (const auto& machine : cfg.machines) {
    try {
      sweep.machines.push_back(topo::make_topology(machine.topology));
      sweep.machine_keys.push_back(machine_key(*sweep.machines.back(), machine.topology));
    } catch (const InputError& e) {
      throw InputError(
          fmt::format("{}: machine '{}': {}", machine.origin.str(), machine.label, e.what()));
    }
    // Settings of a class the machine lacks would apply to nothing (`simulate --link` refuses
    // them too).
    for (const auto& link : machine.link_overrides) {
      sweep.machines.back()->check_link_class(link.link_class,
                                              fmt::format("{}: {}", link.origin.str(), link.path));
    }
  }

  const std::string name_template =
      cfg.name_template.empty() ? default_template(cfg) : cfg.name_template;
  // Checked and compiled before anything is expanded (an error names its origin at once).
  std::vector<WhereFilter> filters;
  if (!cfg.where.empty()) filters.emplace_back(cfg.where, cfg.where_origin.str());
  if (!extra_where.empty()) filters.emplace_back(extra_where, "--where");

  // The combinations stream through in batches: exclude, name (where may use it), where, keys,
  // merging of equal keys. Only the runs kept stay in memory. A deque never moves them, so the
  // indexes by key and name can view their strings.
  std::deque<Run> kept;
  std::unordered_map<std::string_view, std::size_t> by_key;
  std::unordered_set<std::string_view> by_name;
  std::vector<Run> batch;
  constexpr std::size_t kBatch = 4096;
  const auto flush = [&] {
    std::vector<bool> keep(batch.size(), true);
    if (!filters.empty()) {
      std::vector<schema::Row> rows;
      rows.reserve(batch.size());
      for (const auto& run : batch) {
        auto row = config_row(sweep, run);
        row.emplace_back(run.name);
        rows.push_back(std::move(row));
      }
      for (auto& filter : filters) {
        const auto holds = filter.holds(rows);
        for (std::size_t i = 0; i < keep.size(); ++i) keep[i] = keep[i] && holds[i];
      }
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (!keep[i]) {
        ++sweep.filtered;
        continue;
      }
      auto& run = batch[i];
      identify(sweep, run);
      if (by_key.contains(run.key)) {
        ++sweep.merged;
        continue;
      }
      if (by_name.contains(run.name)) {
        const Origin where = cfg.name_template.empty() ? Origin{cfg.file, 1, 1} : cfg.name_origin;
        throw InputError(fmt::format(
            "{}: name: two different runs get the name '{}'; add the axis in which they differ "
            "to the name template '{}'",
            where.str(), run.name, name_template));
      }
      kept.push_back(std::move(run));
      by_key.emplace(kept.back().key, kept.size() - 1);
      by_name.insert(kept.back().name);
    }
    batch.clear();
  };

  std::vector<std::size_t> counter(loops.size(), 0);
  for (std::size_t n = 0; n < sweep.combinations; ++n) {
    Combination c{};
    for (std::size_t l = 0; l < loops.size(); ++l) {
      for (const auto axis : loops[l]) c[static_cast<std::size_t>(axis)] = counter[l];
    }
    for (std::size_t l = loops.size(); l-- > 0;) {
      if (++counter[l] < cfg.size(loops[l].front())) break;
      counter[l] = 0;
    }
    Run run;
    run.workload = c[static_cast<std::size_t>(Axis::Workload)];
    run.machine = c[static_cast<std::size_t>(Axis::Machine)];
    run.mapper = c[static_cast<std::size_t>(Axis::Mapper)];
    run.model = c[static_cast<std::size_t>(Axis::Model)];
    run.eager_threshold = cfg.eager_thresholds[c[static_cast<std::size_t>(Axis::EagerThreshold)]];
    run.compute_scale = cfg.compute_scales[c[static_cast<std::size_t>(Axis::ComputeScale)]];
    run.seed = cfg.seeds[c[static_cast<std::size_t>(Axis::Seed)]];
    run.repeat = static_cast<int>(c[static_cast<std::size_t>(Axis::Repeat)]);
    bool excluded = false;
    for (const auto& exclusion : cfg.exclusions) {
      bool all_match = true;
      for (const auto& condition : exclusion.conditions)
        all_match = all_match && matches(sweep, run, condition);
      excluded = excluded || all_match;
    }
    if (excluded) {
      ++sweep.excluded;
      continue;
    }
    run.replays =
        sweep.model(run).name != kStaticModel && sweep.workload(run).kind != WorkloadKind::Matrix;
    run.search_eager_threshold = run.eager_threshold;
    if (!run.replays) {
      run.eager_threshold = 0;
      run.compute_scale = 0;
    }
    run.name = render_name(sweep, run, name_template);
    batch.push_back(std::move(run));
    if (batch.size() == kBatch) flush();
  }
  flush();
  by_key.clear();
  by_name.clear();
  sweep.runs.reserve(kept.size());
  while (!kept.empty()) {
    sweep.runs.push_back(std::move(kept.front()));
    kept.pop_front();
  }
  return sweep;
}

std::string canonical_config(const Sweep& sweep, const Run& run) {
  const auto parts = config_parts(sweep, run);
  return parts.head + parts.mapping + parts.setting + parts.repeat;
}

schema::Row config_row(const Sweep& sweep, const Run& run) {
  const auto& workload = sweep.workload(run);
  const auto& input = sweep.inputs[run.workload];
  const auto& machine = sweep.machine(run);
  const auto& topology = *sweep.machines[run.machine];
  const auto& mapper = sweep.mapper(run);
  const auto& model = sweep.model(run);
  const auto text_or_null = [](const std::string& s) -> schema::Value {
    if (s.empty()) return std::monostate{};
    return s;
  };
  const bool packet = run.replays && model.name == "packet";
  schema::Row row{
      workload.label,
      std::string(name(workload.kind)),
      workload.spec,
      input.digest,
      text_or_null(input.kernel),
      text_or_null(input.problem_class),
      input.ranks > 0 ? schema::Value(std::int64_t{input.ranks}) : schema::Value(std::monostate{}),
      workload.kind == WorkloadKind::Matrix && !input.recorded
          ? schema::Value(std::monostate{})
          : schema::Value(std::int64_t{sweep.config.collectives ? 1 : 0}),
      machine.label,
      machine.topology,
      std::string(topology.kind()),
      std::int64_t{topology.node_count()},
      std::int64_t{topology.cores_per_node()},
      machine.overrides,
      mapper.name,
      mapper.label,
      mapper.params,
      run.seed,
      std::string(sweep.model_name(run)),
      run.replays ? model.label : std::string(kStaticModel),
      packet ? schema::Value(model.options.packet_bytes) : schema::Value(std::monostate{}),
      packet ? schema::Value(std::int64_t{model.options.cut_through ? 1 : 0})
             : schema::Value(std::monostate{}),
      run.replays ? schema::Value(run.eager_threshold) : schema::Value(std::monostate{}),
      run.replays ? schema::Value(run.compute_scale) : schema::Value(std::monostate{}),
      run.replays ? schema::Value(std::int64_t{sweep.config.whole_run ? 1 : 0})
                  : schema::Value(std::monostate{}),
      std::int64_t{run.repeat},
  };
  MAPSIM_EXPECTS(row.size() == schema::config_columns().size(),
                 "config_row and schema::config_columns() disagree");
  return row;
}

bool in_shard(const Run& run, int index, int count) {
  // The first 15 hex digits (60 bits) of the mapping key.
  const auto value = std::stoull(run.mapping_key.substr(0, 15), nullptr, 16);
  return static_cast<int>(value % static_cast<std::uint64_t>(count)) == index - 1;
}

}  // namespace mapsim::exp

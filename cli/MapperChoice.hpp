#pragma once
// Choosing mappers on the command line, the same in `map`, `simulate`, `export`, `advise` and
// `run`: `--mapper` takes one name, a comma list or `all` (items with parameters,
// NAME:key=value, where a mapper is run: not in `run`, which picks runs of a sweep by name),
// and every `--param` of every chosen mapper is checked before anything runs.

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mappers/Mapper.hpp"
#include "mappers/Parameters.hpp"

namespace mapsim::cli {

/// The mappers `list` names ("greedy", "greedy,scotch", "all": every registered one but those
/// that replay (replay-search), in
/// registry order), in the order given: names only (`run` picks a sweep's runs by mapper name).
/// Throws InputError for an unknown or repeated name, an empty item or an item with
/// parameters, naming `what` ("--mapper").
std::vector<std::string_view> choose_mappers(std::string_view list, std::string_view what);

/// The mappers `list` names as `map` and `simulate` take them: "all" (as above, without
/// parameters), or a comma list of items NAME or NAME:key=value[:key=value...]
/// (map::parse_mapper_item: "greedy,mxovlp:layers=tile,mxovlp:layers=tile-fold"), each checked
/// now. Throws InputError for an unknown mapper, a bad parameter, an empty item or an item
/// given twice, naming `what`.
std::vector<map::MapperItem> choose_mapper_items(std::string_view list, std::string_view what);

struct ChosenMapper {
  std::string_view name;
  std::string label;      ///< the item as written: the name, or NAME:key=value...
  map::ParamList params;  ///< the item's, then its share of --param ("MAPPER." removed)
  std::string described;  ///< every parameter, defaults filled in: "key=value key=value"
  /// The replay settings the command filled in (inherit_replay_settings), for the search's
  /// report: "" if none.
  std::string inherited;
};

/// The chosen mappers with their share of `given` (--param): validated now (see
/// map::assign_params). MAPPER.key=value goes to every item of that mapper; a bare "key=value"
/// with several mappers is a command-line error. `list` is the --mapper text, for messages.
std::vector<ChosenMapper> with_params(const std::vector<map::MapperItem>& items,
                                      std::span<const std::string> given, std::string_view list);

/// The replay under which a command shows or ranks its mappings: a mapper that replays to choose
/// (replay-search) and was not given `model=` or `compute-scale=` searches under this one, so
/// that its row is never slower than its portfolio's members under what the command shows.
/// Sweeps keep the mappers' own defaults: their keys name the parameters.
struct CommandReplay {
  std::string model;
  double compute_scale = 0;
  std::string_view model_source;  ///< "--model"
  std::string_view scale_source;  ///< "--compute-scale"
};

/// Adds `model=` and `compute-scale=` from `command` to `params` where mapper `name` takes them
/// and they are not given there. Returns what it added and whence, for the search's report
/// ("model=analytic from --model, compute-scale=1 from --compute-scale, not given as
/// parameters"), or "" if nothing.
std::string inherit_replay_settings(std::string_view name, map::ParamList& params,
                                    const CommandReplay& command);
/// The same for every chosen mapper, with its `described` and `inherited` updated.
void inherit_replay_settings(std::vector<ChosenMapper>& chosen, const CommandReplay& command);

/// `oracle` as it is, with a note on where the search's replay settings came from
/// (TimeOracle::settings_note): one per mapper item that inherited them.
class NotedOracle final : public map::TimeOracle {
 public:
  NotedOracle(const map::TimeOracle& oracle, std::string note)
      : oracle_(oracle), note_(std::move(note)) {}

  [[nodiscard]] const topo::Topology& topology() const override { return oracle_.topology(); }
  [[nodiscard]] std::vector<map::Judgement> judge(std::span<const topo::Mapping> mappings,
                                                  const map::Fidelity& fidelity) const override {
    return oracle_.judge(mappings, fidelity);
  }
  void check_slice(const map::Slice& slice) const override { oracle_.check_slice(slice); }
  void report(std::string_view text) const override { oracle_.report(text); }
  void progress(std::string_view line) const override { oracle_.progress(line); }
  [[nodiscard]] std::string settings_note() const override {
    return note_.empty() ? oracle_.settings_note() : note_;
  }

 private:
  const map::TimeOracle& oracle_;
  std::string note_;
};

}  // namespace mapsim::cli

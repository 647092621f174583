#include "topologies/SlurmTopologyFile.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "support/Error.hpp"
#include "support/Hostlist.hpp"
#include "support/Suggest.hpp"

namespace mapsim::topo {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxSwitchNameLength = 64;  // Slurm's HOST_NAME_MAX for SwitchName
constexpr int kMaxIncludeDepth = 16;

// ---- Reading the file as Slurm's parse_config.c does --------------------------------------------

struct Location {
  std::string file;
  int line = 0;
};

[[noreturn]] void fail_at(const Location& at, std::string_view what) {
  throw InputError(fmt::format("Slurm topology file {}:{}: {}", at.file, at.line, what));
}

[[noreturn]] void fail_file(std::string_view file, std::string_view what) {
  fail_slurm_file(file, what);
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// A line as Slurm parses it: physical lines joined at a trailing '\', comments and escapes
/// stripped; line_of[i] is the physical line of text[i].
struct LogicalLine {
  std::string text;
  std::vector<int> line_of;
  int first_line = 0;
};

std::string read_whole_file(const fs::path& path, std::string_view display) {
  std::error_code error;
  const auto status = fs::status(path, error);
  if (!fs::exists(status)) fail_file(display, "no such file");
  if (fs::is_directory(status)) {
    fail_file(display, "is a directory; give the path of a topology.conf file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_file(display, "cannot be opened for reading");
  std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) fail_file(display, "read error");
  return content;
}

std::vector<LogicalLine> logical_lines(std::string_view content) {
  std::vector<LogicalLine> lines;
  LogicalLine current;
  bool continued = false;
  int number = 0;
  while (!content.empty() || continued) {
    const auto newline = content.find('\n');
    std::string_view physical = content.substr(0, newline);
    content.remove_prefix(newline == std::string_view::npos ? content.size() : newline + 1);
    ++number;
    if (!continued) current = LogicalLine{{}, {}, number};
    // A '#' after an even number of backslashes starts a comment.
    int backslashes = 0;
    for (std::size_t i = 0; i < physical.size(); ++i) {
      if (physical[i] == '#' && backslashes % 2 == 0) {
        physical = physical.substr(0, i);
        break;
      }
      backslashes = physical[i] == '\\' ? backslashes + 1 : 0;
    }
    // An odd number of backslashes at the end (blanks after them allowed) continues the line.
    std::size_t end = physical.size();
    while (end > 0 && is_blank(physical[end - 1])) --end;
    std::size_t run = 0;
    while (run < end && physical[end - 1 - run] == '\\') ++run;
    continued = run % 2 == 1;
    if (continued) physical = physical.substr(0, end - 1);
    current.text += physical;
    current.line_of.insert(current.line_of.end(), physical.size(), number);
    if (continued && !content.empty()) continue;
    continued = false;
    // '\x' reads as x.
    std::size_t j = 0;
    for (std::size_t i = 0; i < current.text.size(); ++i, ++j) {
      if (current.text[i] == '\\' && i + 1 < current.text.size()) ++i;
      current.text[j] = current.text[i];
      current.line_of[j] = current.line_of[i];
    }
    current.text.resize(j);
    current.line_of.resize(j);
    lines.push_back(std::move(current));
    current = LogicalLine{};
  }
  return lines;
}

struct Pair {
  std::string key;
  std::string value;
  int line = 0;
};

/// The KEY=VALUE pairs of a line (Slurm's pattern: KEY of letters, digits, '_' and '.', blanks
/// around '=', VALUE a run of non-blanks or "quoted").
std::vector<Pair> split_pairs(const LogicalLine& logical, const std::string& file) {
  std::vector<Pair> pairs;
  const std::string_view text = logical.text;
  std::size_t at = 0;
  const auto line_at = [&](std::size_t i) {
    return logical.line_of.empty() ? logical.first_line
                                   : logical.line_of[std::min(i, logical.line_of.size() - 1)];
  };
  for (;;) {
    while (at < text.size() && is_blank(text[at])) ++at;
    if (at == text.size()) return pairs;
    const Location where{file, line_at(at)};
    const std::size_t key_start = at;
    while (at < text.size() && (std::isalnum(static_cast<unsigned char>(text[at])) != 0 ||
                                text[at] == '_' || text[at] == '.')) {
      ++at;
    }
    const auto key = text.substr(key_start, at - key_start);
    std::size_t next = at;
    while (next < text.size() && is_blank(text[next])) ++next;
    const bool assigns = next < text.size() && text[next] == '=';
    const bool operates = next + 1 < text.size() &&
                          std::string_view("-*+/").find(text[next]) != std::string_view::npos &&
                          text[next + 1] == '=';
    if (key.empty() || (!assigns && !operates)) {
      auto rest = text.substr(key_start);
      while (!rest.empty() && is_blank(rest.back())) rest.remove_suffix(1);
      fail_at(where, fmt::format("'{}' is not KEY=VALUE (a line is SwitchName=NAME followed by "
                                 "Nodes=HOSTLIST or Switches=HOSTLIST)",
                                 rest));
    }
    if (operates) {
      fail_at(where, fmt::format("'{}{}=' has an operator; Slurm ignores it in topology.conf and "
                                 "mapsim will not guess: write {}=",
                                 key, text[next], key));
    }
    at = next + 1;
    while (at < text.size() && is_blank(text[at])) ++at;
    std::string value;
    if (at < text.size() && text[at] == '"') {
      const auto close = text.find('"', at + 1);
      if (close != std::string_view::npos &&
          (close + 1 == text.size() || is_blank(text[close + 1]))) {
        value = std::string(text.substr(at + 1, close - at - 1));
        at = close + 1;
        pairs.push_back({std::string(key), std::move(value), where.line});
        continue;
      }
    }
    const std::size_t value_start = at;
    while (at < text.size() && !is_blank(text[at])) ++at;
    if (at == value_start) fail_at(where, fmt::format("{}= has no value", key));
    pairs.push_back(
        {std::string(key), std::string(text.substr(value_start, at - value_start)), where.line});
  }
}

/// One SwitchName line.
struct Declaration {
  Location at;
  std::string name;
  std::optional<Pair> nodes;
  std::optional<Pair> switches;
  std::uint32_t link_speed = 1;  // Slurm's default
};

constexpr std::array<std::string_view, 4> kKeys{"SwitchName", "Switches", "Nodes", "LinkSpeed"};

[[noreturn]] void unknown_key(const Location& at, std::string_view key) {
  if (iequals(key, "BlockName") || iequals(key, "BlockSizes") || iequals(key, "RingName")) {
    fail_at(at, fmt::format("{}= belongs to the topology/{} plugin's topology.conf; mapsim reads "
                            "topology/tree files (SwitchName=NAME with Nodes= or Switches=)",
                            key, iequals(key, "RingName") ? "ring" : "block"));
  }
  fail_at(at, fmt::format("unknown key '{}' (keys: {}){}", key, fmt::join(kKeys, ", "),
                          suggest_suffix(key, kKeys)));
}

/// Slurm's LinkSpeed: an unsigned 32-bit count as strtoul(base 0) reads it, with an optional
/// k (x1024), or UNLIMITED / INFINITE.
std::uint32_t parse_link_speed(const Pair& pair, const Location& at) {
  const std::string_view text = pair.value;
  if (iequals(text, "UNLIMITED") || iequals(text, "INFINITE")) return 0xFFFF'FFFFu;
  std::string_view digits = text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
  }
  std::uint64_t multiplier = 1;
  if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) {
    multiplier = 1024;
    digits.remove_suffix(1);
  }
  const auto bad = [&](std::string_view why) -> std::uint32_t {
    fail_at(at, fmt::format("LinkSpeed '{}' {}", text, why));
  };
  if (!text.empty() && text[0] == '-') return bad("is below zero");
  if (digits.empty()) return bad("is not a number");
  std::uint64_t value = 0;
  for (const char c : digits) {
    int digit = 99;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit >= base) return bad("is not a number (decimal, 0x hex or 0 octal, a k suffix)");
    value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(digit);
    if (value > 0xFFFF'FFFFull) return bad("is greater than 4294967295");
  }
  value *= multiplier;
  if (value > 0xFFFF'FFFFull) return bad("is greater than 4294967295");
  return static_cast<std::uint32_t>(value);
}

Declaration declaration(const std::vector<Pair>& pairs, const Location& line) {
  const auto at = [&](const Pair& pair) { return Location{line.file, pair.line}; };
  const Pair& first = pairs.front();
  if (!iequals(first.key, "SwitchName")) {
    for (const auto key : kKeys) {
      if (iequals(first.key, key)) {
        fail_at(at(first), fmt::format("SwitchName= is missing: the line starts with {}=; "
                                       "each line is SwitchName=NAME followed by Nodes=HOSTLIST "
                                       "or Switches=HOSTLIST",
                                       first.key));
      }
    }
    unknown_key(at(first), first.key);
  }
  Declaration d;
  d.at = at(first);
  d.name = first.value;
  if (d.name.empty()) fail_at(d.at, "SwitchName is empty");
  if (d.name.size() > kMaxSwitchNameLength) {
    fail_at(d.at, fmt::format("SwitchName '{}' is longer than Slurm's {} characters", d.name,
                              kMaxSwitchNameLength));
  }
  if (d.name.find_first_of("[], \t") != std::string::npos) {
    fail_at(d.at, fmt::format("SwitchName '{}' is not one name: a line defines one switch (Slurm "
                              "would take the text as the name, which no Switches= hostlist can "
                              "name)",
                              d.name));
  }
  bool speed_seen = false;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    const Pair& pair = pairs[i];
    std::optional<Pair>* slot = nullptr;
    if (iequals(pair.key, "Nodes")) {
      slot = &d.nodes;
    } else if (iequals(pair.key, "Switches")) {
      slot = &d.switches;
    } else if (iequals(pair.key, "LinkSpeed")) {
      if (speed_seen) fail_at(at(pair), "LinkSpeed= is given twice for one switch");
      speed_seen = true;
      d.link_speed = parse_link_speed(pair, at(pair));
      continue;
    } else if (iequals(pair.key, "SwitchName")) {
      fail_at(at(pair), fmt::format("a second SwitchName= ('{}') on the line of switch '{}'; "
                                    "define one switch per line",
                                    pair.value, d.name));
    } else {
      unknown_key(at(pair), pair.key);
    }
    if (slot->has_value()) {
      fail_at(at(pair), fmt::format("{}= is given twice for switch '{}' (Slurm would keep the "
                                    "last; say which you mean)",
                                    pair.key, d.name));
    }
    *slot = pair;
  }
  if (d.nodes && d.switches) {
    fail_at(d.at, fmt::format("switch '{}' has both Nodes= and Switches=; Slurm rejects that too: "
                              "put its nodes on a leaf switch of their own",
                              d.name));
  }
  if (!d.nodes && !d.switches) {
    fail_at(d.at, fmt::format("switch '{}' has neither Nodes= nor Switches=: nothing is below it",
                              d.name));
  }
  return d;
}

class FileReader {
 public:
  explicit FileReader(const fs::path& top) : folder_(top.parent_path()) {}

  void read(const fs::path& path, const std::string& display, int depth) {
    const auto content = read_whole_file(path, display);
    std::error_code error;
    reading_.push_back(fs::weakly_canonical(path, error));
    sources.push_back(display);
    for (const auto& line : logical_lines(content)) {
      std::string_view text = line.text;
      std::size_t start = 0;
      while (start < text.size() && is_blank(text[start])) ++start;
      text.remove_prefix(start);
      if (text.empty()) continue;
      if (text.size() > 7 && iequals(text.substr(0, 7), "include") && is_blank(text[7])) {
        include(text.substr(7), Location{display, line.first_line}, depth);
        continue;
      }
      const auto pairs = split_pairs(line, display);
      if (pairs.empty()) continue;
      declarations.push_back(declaration(pairs, Location{display, line.first_line}));
    }
    reading_.pop_back();
  }

  std::vector<Declaration> declarations;
  std::vector<std::string> sources;

 private:
  void include(std::string_view rest, const Location& at, int depth) {
    while (!rest.empty() && is_blank(rest.front())) rest.remove_prefix(1);
    std::size_t end = 0;
    while (end < rest.size() && !is_blank(rest[end])) ++end;
    const auto name = rest.substr(0, end);
    auto after = rest.substr(end);
    while (!after.empty() && is_blank(after.front())) after.remove_prefix(1);
    if (name.empty()) fail_at(at, "Include names no file");
    if (!after.empty()) {
      fail_at(at, fmt::format("'{}' follows the file of Include {}; one file per Include", after,
                              name));
    }
    if (name.find('*') != std::string_view::npos) {
      fail_at(at,
              fmt::format("Include {}: Slurm does not expand '*' and neither does mapsim", name));
    }
    if (name.find("%c") != std::string_view::npos) {
      fail_at(at, fmt::format("Include {}: %c stands for the cluster name, which only slurm.conf "
                              "knows; write the name",
                              name));
    }
    const fs::path file(name);
    const fs::path path = file.is_absolute() ? file : folder_ / file;
    std::error_code error;
    if (std::find(reading_.begin(), reading_.end(), fs::weakly_canonical(path, error)) !=
        reading_.end()) {
      fail_at(at,
              fmt::format("Include {} includes a file that is being read, so it never ends", name));
    }
    if (depth >= kMaxIncludeDepth) {
      fail_at(at, fmt::format("Include {} goes more than {} files deep", name, kMaxIncludeDepth));
    }
    try {
      read(path, path.string(), depth + 1);
    } catch (const InputError& e) {
      throw e.within(fmt::format("Slurm topology file {}:{}: Include {}", at.file, at.line, name));
    }
  }

  fs::path folder_;
  std::vector<fs::path> reading_;  // the files being read, outermost first
};

// ---- The tree --------------------------------------------------------------------------------

/// Slurm's hostlist text as support/Hostlist.hpp reads it: Slurm also splits items at blanks
/// and skips empty ones ("a,,b", "a b" in a quoted value).
std::string normalised_hostlist(std::string_view value) {
  std::string out;
  int depth = 0;
  bool separate = false;
  for (const char c : value) {
    if (depth <= 0 && (c == ',' || is_blank(c))) {
      separate = !out.empty();
      continue;
    }
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (separate) out += ',';
    separate = false;
    out += c;
  }
  return out;
}

std::vector<std::string> expand(const Pair& pair, const Declaration& d) {
  const Location at{d.at.file, pair.line};
  const auto text = normalised_hostlist(pair.value);
  if (text.empty()) fail_at(at, fmt::format("{}= of switch '{}' names nothing", pair.key, d.name));
  return expand_hostlist(text, fmt::format("Slurm topology file {}:{}: {} of switch '{}'", at.file,
                                           at.line, pair.key, d.name));
}

std::string where(const Location& at) {
  return fmt::format("{}:{}", at.file, at.line);
}

struct Edge {
  std::int32_t child = 0;
  std::int32_t parent = 0;
  Location listed;  // the Switches= that lists the child
};

class Builder {
 public:
  Builder(std::vector<Declaration> declarations, std::vector<std::string> sources,
          std::string_view top)
      : decl_(std::move(declarations)), top_(top) {
    tree_->sources = std::move(sources);
  }

  std::unique_ptr<SlurmTreeStructure> build() {
    if (decl_.empty()) {
      fail_file(top_,
                "defines no switch and no node (a topology/tree file has lines "
                "SwitchName=NAME Nodes=HOSTLIST)");
    }
    name_switches();
    attach_nodes();
    if (tree_->nodes() == 0) fail_file(top_, "names no node");
    link_switches();
    order_by_level();
    check_connected();
    ancestor_tables();
    return std::move(tree_);
  }

 private:
  void name_switches() {
    auto& t = *tree_;
    for (const auto& d : decl_) {
      const auto s = static_cast<std::int32_t>(t.names.size());
      const auto [it, inserted] = t.index.emplace(d.name, s);
      if (!inserted) {
        fail_at(d.at, fmt::format("switch '{}' is defined twice (first at {})", d.name,
                                  where(decl_[static_cast<std::size_t>(it->second)].at)));
      }
      t.names.push_back(d.name);
      t.link_speed.push_back(d.link_speed);
    }
    t.leaf_nodes.assign(t.names.size(), 0);
  }

  void attach_nodes() {
    auto& t = *tree_;
    std::unordered_map<std::string, NodeId> node_index;
    for (std::size_t s = 0; s < decl_.size(); ++s) {
      const auto& d = decl_[s];
      if (!d.nodes) continue;
      const Location at{d.at.file, d.nodes->line};
      const auto context =
          fmt::format("Slurm topology file {}: Nodes of switch '{}'", where(at), d.name);
      for (auto& host : expand(*d.nodes, d)) {
        check_host_name(host, context);
        const auto [it, inserted] = node_index.emplace(host, t.nodes());
        if (!inserted) {
          const auto other = t.leaf_of[static_cast<std::size_t>(it->second)];
          if (other == static_cast<std::int32_t>(s)) {
            fail_at(at, fmt::format("node '{}' is listed twice under switch '{}'", host, d.name));
          }
          fail_at(at, fmt::format("node '{}' is under leaf switch '{}' and under '{}' (at {}); a "
                                  "node attaches to one leaf switch",
                                  host, d.name, t.names[static_cast<std::size_t>(other)],
                                  where(decl_[static_cast<std::size_t>(other)].at)));
        }
        if (t.leaf_of.size() >= static_cast<std::size_t>(kMaxNodes)) {
          fail_at(at, fmt::format("more than {} nodes; mapsim models machines up to that size",
                                  kMaxNodes));
        }
        t.hosts.push_back(std::move(host));
        t.leaf_of.push_back(static_cast<std::int32_t>(s));
        ++t.leaf_nodes[s];
      }
    }
  }

  void link_switches() {
    auto& t = *tree_;
    const std::vector<std::string>& all_names = t.names;
    std::vector<std::int32_t> listed_by(t.names.size(), -1);  // the last switch listing each
    for (std::size_t p = 0; p < decl_.size(); ++p) {
      const auto& d = decl_[p];
      if (!d.switches) continue;
      const Location at{d.at.file, d.switches->line};
      for (const auto& child : expand(*d.switches, d)) {
        const auto it = t.index.find(child);
        if (it == t.index.end()) {
          fail_at(at, fmt::format("switch '{}' lists '{}' in Switches=, which no SwitchName line "
                                  "defines{}",
                                  d.name, child, suggest_suffix(child, all_names)));
        }
        auto& lister = listed_by[static_cast<std::size_t>(it->second)];
        if (lister == static_cast<std::int32_t>(p)) {
          fail_at(at, fmt::format("switch '{}' lists '{}' twice in Switches=", d.name, child));
        }
        lister = static_cast<std::int32_t>(p);
        edges_.push_back({it->second, static_cast<std::int32_t>(p), at});
      }
    }
    // Edges in order of the child, its parents in file order (a stable sort keeps that order).
    std::stable_sort(edges_.begin(), edges_.end(),
                     [](const Edge& x, const Edge& y) { return x.child < y.child; });
    const auto switches = static_cast<std::size_t>(t.switches());
    const auto links = 2 * static_cast<std::int64_t>(t.nodes()) + 2 * std::ssize(edges_);
    if (links > std::numeric_limits<LinkId>::max()) {
      fail_file(top_, fmt::format("{} links are too many to model", links));
    }
    t.parent_begin.assign(switches + 1, 0);
    for (const auto& e : edges_) {
      ++t.parent_begin[static_cast<std::size_t>(e.child) + 1];
      t.parent.push_back(e.parent);
      t.edge_child.push_back(e.child);
    }
    std::partial_sum(t.parent_begin.begin(), t.parent_begin.end(), t.parent_begin.begin());
    // Children, for the level order and for the search of a root.
    child_begin_.assign(switches + 1, 0);
    for (const auto& e : edges_) ++child_begin_[static_cast<std::size_t>(e.parent) + 1];
    std::partial_sum(child_begin_.begin(), child_begin_.end(), child_begin_.begin());
    child_edges_.resize(edges_.size());
    auto fill = child_begin_;
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      child_edges_[static_cast<std::size_t>(fill[static_cast<std::size_t>(edges_[e].parent)]++)] =
          static_cast<std::int32_t>(e);
    }
  }

  [[nodiscard]] std::span<const std::int32_t> child_edges(std::int32_t s) const {
    const auto u = static_cast<std::size_t>(s);
    return {child_edges_.data() + child_begin_[u],
            static_cast<std::size_t>(child_begin_[u + 1] - child_begin_[u])};
  }

  // Levels bottom-up (Kahn's order: every switch after the switches below it); cycles are what
  // never comes out.
  void order_by_level() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    t.level.assign(switches, 1);
    std::vector<std::int32_t> pending(switches);
    for (std::size_t s = 0; s < switches; ++s) {
      pending[s] = child_begin_[s + 1] - child_begin_[s];
      if (pending[s] == 0) order_.push_back(static_cast<std::int32_t>(s));
    }
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const auto s = static_cast<std::size_t>(order_[i]);
      if (t.level[s] > kMaxTreeLevels) {
        fail_at(decl_[s].at, fmt::format("switch '{}' is at level {} (a chain of {} switches from "
                                         "a leaf switch up to it); mapsim models trees of at most "
                                         "{} levels",
                                         t.names[s], t.level[s], t.level[s], kMaxTreeLevels));
      }
      t.levels = std::max(t.levels, t.level[s]);
      for (auto e = t.parent_begin[s]; e < t.parent_begin[s + 1]; ++e) {
        const auto p = static_cast<std::size_t>(t.parent[static_cast<std::size_t>(e)]);
        t.level[p] = std::max(t.level[p], t.level[s] + 1);
        if (--pending[p] == 0) order_.push_back(static_cast<std::int32_t>(p));
      }
    }
    if (order_.size() == switches) return;
    // A switch left over has a child left over: walk down them until one repeats.
    auto s = static_cast<std::int32_t>(
        std::find_if(pending.begin(), pending.end(), [](std::int32_t n) { return n > 0; }) -
        pending.begin());
    std::vector<std::int32_t> seen_at(switches, -1);
    std::vector<const Edge*> walk;
    while (seen_at[static_cast<std::size_t>(s)] < 0) {
      seen_at[static_cast<std::size_t>(s)] = static_cast<std::int32_t>(walk.size());
      for (const auto e : child_edges(s)) {
        const auto& edge = edges_[static_cast<std::size_t>(e)];
        if (pending[static_cast<std::size_t>(edge.child)] > 0) {
          walk.push_back(&edge);
          s = edge.child;
          break;
        }
      }
    }
    std::vector<std::string> steps;
    for (auto i = static_cast<std::size_t>(seen_at[static_cast<std::size_t>(s)]); i < walk.size();
         ++i) {
      steps.push_back(
          fmt::format("'{}' lists '{}' (at {})", t.names[static_cast<std::size_t>(walk[i]->parent)],
                      t.names[static_cast<std::size_t>(walk[i]->child)], where(walk[i]->listed)));
    }
    const auto& first = *walk[static_cast<std::size_t>(seen_at[static_cast<std::size_t>(s)])];
    fail_at(first.listed,
            fmt::format("the switches form a cycle, so switch '{}' is below itself: "
                        "{}; a tree has no cycles",
                        t.names[static_cast<std::size_t>(s)], fmt::join(steps, ", ")));
  }

  // Some switch must reach every node (a root: a switch that does has no parent, or its parent
  // would too). Nodes below several roots and no common one cannot be routed between.
  void check_connected() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    std::vector<std::int32_t> stamp(switches, -1);
    std::vector<std::int32_t> stack;
    std::vector<std::pair<std::int32_t, std::int64_t>> roots;  // switch, nodes below
    for (std::size_t r = 0; r < switches; ++r) {
      if (t.parent_begin[r] != t.parent_begin[r + 1]) continue;
      std::int64_t reached = 0;
      stack.assign(1, static_cast<std::int32_t>(r));
      stamp[r] = static_cast<std::int32_t>(r);
      while (!stack.empty()) {
        const auto s = stack.back();
        stack.pop_back();
        reached += t.leaf_nodes[static_cast<std::size_t>(s)];
        for (const auto e : child_edges(s)) {
          const auto c = static_cast<std::size_t>(edges_[static_cast<std::size_t>(e)].child);
          if (stamp[c] == static_cast<std::int32_t>(r)) continue;
          stamp[c] = static_cast<std::int32_t>(r);
          stack.push_back(static_cast<std::int32_t>(c));
        }
      }
      if (reached == t.nodes()) {
        root_ = static_cast<std::int32_t>(r);
        return;
      }
      roots.emplace_back(static_cast<std::int32_t>(r), reached);
    }
    std::vector<std::string> listed;
    for (std::size_t i = 0; i < roots.size() && i < 6; ++i) {
      const auto s = static_cast<std::size_t>(roots[i].first);
      listed.push_back(
          fmt::format("'{}' ({}, {} nodes)", t.names[s], where(decl_[s].at), roots[i].second));
    }
    if (roots.size() > 6) listed.push_back(fmt::format("and {} more", roots.size() - 6));
    fail_file(top_, fmt::format("no switch reaches every node: the {} roots {} have no common "
                                "ancestor, and mapsim needs one connected tree to route between "
                                "their nodes. Add a line above them, e.g. 'SwitchName=top "
                                "Switches={},{}'",
                                roots.size(), fmt::join(listed, ", "),
                                t.names[static_cast<std::size_t>(roots[0].first)],
                                t.names[static_cast<std::size_t>(roots[1].first)]));
  }

  // Top-down (reverse Kahn order): a switch's ancestors are itself and its parents' ancestors one
  // link further, each at the fewest links.
  void ancestor_tables() {
    auto& t = *tree_;
    const auto switches = static_cast<std::size_t>(t.switches());
    t.anc_begin.assign(switches, 0);
    t.anc_size.assign(switches, 0);
    std::vector<std::pair<std::int32_t, std::uint8_t>> merged;
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const auto s = static_cast<std::size_t>(*it);
      merged.assign(1, {*it, 0});
      for (auto e = t.parent_begin[s]; e < t.parent_begin[s + 1]; ++e) {
        const auto p = t.parent[static_cast<std::size_t>(e)];
        const auto ancestors = t.ancestors(p);
        const auto* dist = t.distances(p);
        for (std::size_t i = 0; i < ancestors.size(); ++i) {
          merged.emplace_back(ancestors[i], static_cast<std::uint8_t>(dist[i] + 1));
        }
      }
      std::sort(merged.begin(), merged.end());
      merged.erase(std::unique(merged.begin(), merged.end(),
                               [](const auto& x, const auto& y) { return x.first == y.first; }),
                   merged.end());
      t.anc_begin[s] = static_cast<std::int32_t>(t.anc_switch.size());
      t.anc_size[s] = static_cast<std::int32_t>(merged.size());
      for (const auto& [a, d] : merged) {
        t.anc_switch.push_back(a);
        t.anc_dist.push_back(d);
      }
      if (t.anc_switch.size() >
          static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        fail_file(top_, "the switches have too many ancestors to model (a dense mesh of switches)");
      }
    }
    // The longest route is at most up from one leaf switch to the root that reaches all and down
    // to another: the two farthest leaf switches from it (exact on a balanced tree).
    std::array<int, 2> farthest{0, 0};
    for (std::size_t s = 0; s < switches; ++s) {
      if (t.leaf_nodes[s] == 0) continue;
      const int d = t.up_distance(static_cast<std::int32_t>(s), root_);
      if (d > farthest[0]) {
        farthest = {d, farthest[0]};
      } else {
        farthest[1] = std::max(farthest[1], d);
      }
    }
    t.max_route_links = 2 + farthest[0] + farthest[1];
  }

  std::vector<Declaration> decl_;
  std::string top_;
  std::unique_ptr<SlurmTreeStructure> tree_ = std::make_unique<SlurmTreeStructure>();
  std::vector<Edge> edges_;
  std::vector<std::int32_t> child_begin_;
  std::vector<std::int32_t> child_edges_;
  std::vector<std::int32_t> order_;  // switches bottom-up
  std::int32_t root_ = 0;
};

}  // namespace

void fail_slurm_file(std::string_view file, std::string_view what) {
  throw InputError(fmt::format("Slurm topology file {}: {}", file, what));
}

std::unique_ptr<SlurmTreeStructure> read_slurm_topology(const fs::path& path) {
  FileReader reader(path);
  reader.read(path, path.string(), 0);
  return Builder(std::move(reader.declarations), std::move(reader.sources), path.string()).build();
}

}  // namespace mapsim::topo

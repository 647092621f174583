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

using Location = SlurmLocation;

[[noreturn]] void fail_at(const Location& at, std::string_view what) {
  fail_slurm_at(at, what);
}

[[noreturn]] void fail_file(std::string_view file, std::string_view what) {
  fail_slurm_file(file, what);
}

bool is_blank(char c) {
  return is_slurm_blank(c);
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

using Pair = SlurmPair;

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
    const std::size_t after_equals = at;
    while (at < text.size() && is_blank(text[at])) ++at;
    std::string value;
    if (at < text.size() && text[at] == '"') {
      const auto close = text.find('"', at + 1);
      if (close == std::string_view::npos) {
        fail_at(where, fmt::format("the quote that opens {}'s value is not closed", key));
      }
      if (close + 1 == text.size() || is_blank(text[close + 1])) {
        value = std::string(text.substr(at + 1, close - at - 1));
        at = close + 1;
        pairs.push_back({std::string(key), std::move(value), where.line});
        continue;
      }
    }
    const std::size_t value_start = at;
    while (at < text.size() && !is_blank(text[at])) ++at;
    // "KEY= OTHER=..." is KEY without a value, not KEY set to "OTHER=...".
    if (at == value_start ||
        (value_start > after_equals &&
         text.substr(value_start, at - value_start).find('=') != std::string_view::npos)) {
      fail_at(where, fmt::format("{}= has no value", key));
    }
    pairs.push_back(
        {std::string(key), std::string(text.substr(value_start, at - value_start)), where.line});
  }
}

using Declaration = SlurmSwitchLine;

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

}  // namespace

void fail_slurm_file(std::string_view file, std::string_view what) {
  throw InputError(fmt::format("Slurm topology file {}: {}", file, what));
}

void fail_slurm_at(const SlurmLocation& at, std::string_view what) {
  throw InputError(fmt::format("Slurm topology file {}:{}: {}", at.file, at.line, what));
}

bool is_slurm_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

SlurmConf read_slurm_conf(const fs::path& path) {
  FileReader reader(path);
  reader.read(path, path.string(), 0);
  return {std::move(reader.declarations), std::move(reader.sources)};
}

std::unique_ptr<SlurmTreeStructure> read_slurm_topology(const fs::path& path) {
  return build_slurm_tree(read_slurm_conf(path), path.string());
}

}  // namespace mapsim::topo

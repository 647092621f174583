#pragma once
// The names of a machine's nodes, as a launcher and a user see them.
//
// By default node n is host "node" followed by n in decimal, zero-padded to the digits of the
// machine's largest node id (torus:4x4x4 has node00 .. node63; a 4096-node machine node0000 ..
// node4095). A machine read from a Slurm topology file has the names the file gives; any machine
// takes names from a hosts file (spec option hosts=FILE, `--hosts FILE`): one name or Slurm
// hostlist expression per line, in node order, '#' starting a comment.
// A name is 1 to 255 characters of letters, digits, '.', '-' and '_', not all digits (a number
// names the node of that id), and no name appears twice.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mapsim::topo {

class HostNames {
 public:
  /// The default names of `nodes` nodes.
  explicit HostNames(std::int32_t nodes);
  /// `names[n]` for node n. Throws InputError naming `source` for a malformed or repeated name.
  HostNames(std::vector<std::string> names, std::string_view source);

  [[nodiscard]] std::int32_t size() const { return nodes_; }
  [[nodiscard]] bool is_default() const { return names_.empty(); }
  [[nodiscard]] std::string name(std::int32_t node) const;
  /// The node named `name`, if any (names only; not node ids).
  [[nodiscard]] std::optional<std::int32_t> find(std::string_view name) const;
  /// Where the names came from ("" for the defaults), e.g. "hosts file hosts.txt".
  [[nodiscard]] const std::string& source() const { return source_; }

 private:
  std::int32_t nodes_ = 0;
  std::vector<std::string> names_;  // empty: the defaults
  std::unordered_map<std::string, std::int32_t> index_;
  std::string source_;
};

/// Throws InputError naming `where` unless `name` is a valid host name (see the file comment).
void check_host_name(std::string_view name, std::string_view where);

/// Reads a hosts file for a machine of `nodes` nodes. Throws InputError naming the file (and line)
/// if it cannot be read, a line is not a valid name or hostlist, a name repeats, or the file names
/// other than `nodes` hosts.
HostNames read_host_names(const std::filesystem::path& path, std::int32_t nodes);

}  // namespace mapsim::topo

#include "traces/RecordedMatrix.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "support/Error.hpp"
#include "support/Parse.hpp"
#include "traces/CollectiveSchedule.hpp"

namespace mapsim::traces {

namespace {

constexpr std::string_view kMagic = "mapsim-record";
constexpr std::int64_t kVersion = 1;
constexpr std::int64_t kMaxCount = std::numeric_limits<std::int64_t>::max();

struct Run {
  CollectiveOp op = CollectiveOp::None;
  Rank root = -1;  // world rank
  std::int64_t sent = 0;
  std::int64_t received = 0;
  std::int64_t times = 1;
};

struct Calls {
  std::vector<Run> runs;
  std::int64_t total = 0;  // calls, runs counted with their repeats
  std::size_t line = 0;
};

struct Comm {
  std::vector<Rank> members;
  std::size_t line = 0;
  std::map<Rank, Calls> calls;  // by world rank
};

// The '#' lines of a record: its communicators by id and their calls.
struct Record {
  std::map<std::int64_t, Comm> comms;
  struct Pending {
    std::int64_t comm;
    Rank rank;
    Calls calls;
  };
  std::vector<Pending> calls;
};

CollectiveOp parse_op(std::string_view text, const std::string& where) {
  for (auto op = static_cast<int>(CollectiveOp::Barrier);
       op <= static_cast<int>(CollectiveOp::Other); ++op) {
    if (name(static_cast<CollectiveOp>(op)) == text) return static_cast<CollectiveOp>(op);
  }
  std::string known;
  for (auto op = static_cast<int>(CollectiveOp::Barrier);
       op <= static_cast<int>(CollectiveOp::Other); ++op) {
    known += fmt::format("{}{}", known.empty() ? "" : ", ", name(static_cast<CollectiveOp>(op)));
  }
  throw InputError(
      fmt::format("{}: unknown collective operation '{}' (known: {})", where, text, known));
}

void parse_comm(const std::vector<std::string_view>& fields, const std::string& where,
                std::size_t line, Record& record) {
  if (fields.size() < 3) {
    throw InputError(fmt::format(
        "{}: expected '# comm ID MEMBERS...' (world ranks or ranges a-b), got {} field(s)", where,
        fields.size()));
  }
  const auto id = parse_integer(fields[1], fmt::format("{}: communicator id", where), 0, kMaxCount);
  Comm comm;
  comm.line = line;
  for (std::size_t k = 2; k < fields.size(); ++k) {
    const auto dash = fields[k].find('-');
    const auto what = fmt::format("{}: member '{}'", where, fields[k]);
    const auto first = parse_integer(fields[k].substr(0, dash), what, 0, kMaxCsvRanks - 1);
    const auto last = dash == std::string_view::npos
                          ? first
                          : parse_integer(fields[k].substr(dash + 1), what, 0, kMaxCsvRanks - 1);
    if (last < first) {
      throw InputError(fmt::format("{}: member range '{}' runs backwards", where, fields[k]));
    }
    if (comm.members.size() + static_cast<std::size_t>(last - first + 1) > kMaxCsvRanks) {
      throw InputError(fmt::format("{}: more than {} members (the most ranks a matrix has)", where,
                                   kMaxCsvRanks));
    }
    for (auto r = first; r <= last; ++r) comm.members.push_back(static_cast<Rank>(r));
  }
  const auto [it, fresh] = record.comms.emplace(id, std::move(comm));
  if (!fresh) {
    throw InputError(fmt::format("{}: communicator {} is defined twice (first on line {})", where,
                                 id, it->second.line));
  }
}

void parse_calls(const std::vector<std::string_view>& fields, const std::string& where,
                 std::size_t line, Record& record) {
  if (fields.size() < 3) {
    throw InputError(fmt::format(
        "{}: expected '# calls COMM RANK OP:ROOT:SENT:RECEIVED[*TIMES]...', got {} field(s)", where,
        fields.size()));
  }
  Record::Pending pending;
  pending.comm = parse_integer(fields[1], fmt::format("{}: communicator id", where), 0, kMaxCount);
  pending.rank = static_cast<Rank>(
      parse_integer(fields[2], fmt::format("{}: rank", where), 0, kMaxCsvRanks - 1));
  pending.calls.line = line;
  for (std::size_t k = 3; k < fields.size(); ++k) {
    const auto token = fields[k];
    const auto call = fmt::format("{}: call '{}'", where, token);
    const auto star = token.find('*');
    const auto body = token.substr(0, star);
    std::vector<std::string_view> parts;
    for (std::size_t at = 0;;) {
      const auto colon = body.find(':', at);
      parts.push_back(body.substr(at, colon == std::string_view::npos ? colon : colon - at));
      if (colon == std::string_view::npos) break;
      at = colon + 1;
    }
    if (parts.size() != 4) {
      throw InputError(fmt::format("{}: expected OP:ROOT:SENT:RECEIVED[*TIMES], got {} field(s)",
                                   call, parts.size()));
    }
    Run run;
    run.op = parse_op(parts[0], call);
    run.root = static_cast<Rank>(parse_integer(parts[1], call + ": root", -1, kMaxCsvRanks - 1));
    run.sent = parse_integer(parts[2], call + ": sent bytes", 0, kMaxCount);
    run.received = parse_integer(parts[3], call + ": received bytes", 0, kMaxCount);
    if (star != std::string_view::npos) {
      run.times = parse_integer(token.substr(star + 1), call + ": times", 1, kMaxCount);
    }
    if (run.times > kMaxCount - pending.calls.total) {
      throw InputError(fmt::format("{}: more than {} calls", where, kMaxCount));
    }
    pending.calls.total += run.times;
    pending.calls.runs.push_back(run);
  }
  record.calls.push_back(std::move(pending));
}

// Adds `times` messages of `bytes` from `from` to `to`, refusing products past 64 bits.
void add_times(CommMatrixBuilder& builder, Rank from, Rank to, std::int64_t times,
               std::int64_t bytes, const std::string& where) {
  const auto b = static_cast<std::uint64_t>(std::max<std::int64_t>(bytes, 0));
  const auto t = static_cast<std::uint64_t>(times);
  if (b != 0 && t > kMaxMatrixTotal / b) {
    throw InputError(fmt::format(
        "{}: {} calls sending {} bytes each from rank {} to rank {} pass the matrix's limit of {} "
        "bytes",
        where, times, bytes, from, to, kMaxMatrixTotal));
  }
  builder.add_collective(from, to, t, t * b);
}

// Expands the calls of one communicator, run by run: the k-th call of every member is one
// collective (CollectiveTraffic's rule), and equal stretches of calls are expanded once.
void expand(std::int64_t id, const Comm& comm, std::string_view name,
            const CollectiveOptions& options, CommMatrixBuilder& builder) {
  const auto where = [&](std::size_t line) { return fmt::format("{}:{}", name, line); };
  const auto size = comm.members.size();
  const Calls none;
  std::vector<const Calls*> calls(size);
  for (std::size_t i = 0; i < size; ++i) {
    const auto found = comm.calls.find(comm.members[i]);
    calls[i] = found == comm.calls.end() ? &none : &found->second;
  }
  for (std::size_t i = 1; i < size; ++i) {
    if (calls[i]->total != calls[0]->total) {
      const auto line = calls[i]->line != 0 ? calls[i]->line : calls[0]->line;
      throw InputError(fmt::format(
          "{}: communicator {} (line {}): rank {} made {} collective calls but rank {} made {}; "
          "the record is incomplete, so its collectives cannot be matched",
          where(line != 0 ? line : comm.line), id, comm.line, comm.members[0], calls[0]->total,
          comm.members[i], calls[i]->total));
    }
  }
  std::unordered_map<Rank, std::int32_t> local;
  for (std::size_t i = 0; i < size; ++i)
    local.emplace(comm.members[i], static_cast<std::int32_t>(i));

  std::vector<std::size_t> run(size, 0);
  std::vector<std::int64_t> used(size, 0);  // calls already expanded of the current run
  std::vector<CollectiveRecord> records(size);
  std::int64_t done = 0;
  while (done < calls[0]->total) {
    const Run& first = calls[0]->runs[run[0]];
    std::int64_t times = kMaxCount;
    for (std::size_t i = 0; i < size; ++i) {
      const Run& mine = calls[i]->runs[run[i]];
      if (mine.op != first.op || mine.root != first.root) {
        throw InputError(fmt::format(
            "{}: communicator {}, collective call {}: rank {} calls {} (root {}) but rank {} "
            "calls {} (root {})",
            where(calls[i]->line), id, done + 1, comm.members[0], traces::name(first.op),
            first.root, comm.members[i], traces::name(mine.op), mine.root));
      }
      records[i] = {mine.sent, mine.received};
      times = std::min(times, mine.times - used[i]);
    }
    std::int32_t root = -1;
    if (first.root >= 0) {
      const auto r = local.find(first.root);
      if (r == local.end()) {
        throw InputError(fmt::format("{}: communicator {}: {} with root {}, not a member",
                                     where(calls[0]->line), id, traces::name(first.op),
                                     first.root));
      }
      root = r->second;
    }
    try {
      const CollectiveSchedule schedule(first.op, root, records, options);
      for (std::size_t i = 0; i < size; ++i) {
        const auto member = static_cast<std::int32_t>(i);
        const auto steps = schedule.step_count(member);
        for (std::int32_t s = 0; s < steps; ++s) {
          const auto step = schedule.step(member, s);
          if (step.send_to < 0) continue;
          add_times(builder, comm.members[i], comm.members[static_cast<std::size_t>(step.send_to)],
                    times, step.send_bytes, where(calls[i]->line));
        }
      }
    } catch (const InputError& e) {
      throw e.within(fmt::format("{}: communicator {}, collective call {}", where(calls[0]->line),
                                 id, done + 1));
    }
    for (std::size_t i = 0; i < size; ++i) {
      used[i] += times;
      if (used[i] == calls[i]->runs[run[i]].times) {
        ++run[i];
        used[i] = 0;
      }
    }
    done += times;
  }
}

}  // namespace

bool is_recorded_matrix(std::istream& in) {
  const auto start = in.tellg();
  std::string line;
  std::getline(in, line);
  in.clear();
  in.seekg(start);
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
  auto content = trim(line);
  if (!content.starts_with('#')) return false;
  content = trim(content.substr(1));
  return content.starts_with(kMagic) &&
         (content.size() == kMagic.size() || content[kMagic.size()] == ' ' ||
          content[kMagic.size()] == '\t');
}

bool is_recorded_matrix(const std::filesystem::path& path) {
  std::ifstream in(path);
  return in && is_recorded_matrix(in);
}

CommMatrix read_recorded_matrix(const std::filesystem::path& path, const MatrixOptions& options) {
  std::ifstream in = open_matrix_file(path);
  return read_recorded_matrix(in, path.string(), options);
}

CommMatrix read_recorded_matrix(std::istream& in, std::string_view name,
                                const MatrixOptions& options) {
  const std::string content{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto where = [&](std::size_t line) { return fmt::format("{}:{}", name, line); };

  Record record;
  std::istringstream lines(content);
  std::string text;
  std::size_t line = 0;
  while (std::getline(lines, text)) {
    ++line;
    if (line == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
    const auto trimmed = trim(text);
    if (line == 1) {
      const auto fields = words(trimmed.empty() ? trimmed : trim(trimmed.substr(1)));
      if (!trimmed.starts_with('#') || fields.empty() || fields[0] != kMagic) {
        throw InputError(fmt::format(
            "{}: expected the record header '# {} {}' (a matrix written by libmapsim-record), "
            "got '{}'",
            where(line), kMagic, kVersion, trimmed));
      }
      if (fields.size() != 2 ||
          parse_integer(fields[1], fmt::format("{}: record version", where(line)), 0, kMaxCount) !=
              kVersion) {
        throw InputError(fmt::format("{}: this mapsim reads record version {}, the file says '{}'",
                                     where(line), kVersion, trimmed));
      }
      continue;
    }
    if (trimmed.empty()) continue;
    if (!trimmed.starts_with('#')) break;  // the CSV header: read_matrix_csv takes it from here
    const auto fields = words(trim(trimmed.substr(1)));
    if (fields.empty()) continue;
    if (fields[0] == "comm") {
      parse_comm(fields, where(line), line, record);
    } else if (fields[0] == "calls") {
      parse_calls(fields, where(line), line, record);
    } else if (fields[0] == kMagic) {
      throw InputError(fmt::format("{}: the record header is given twice", where(line)));
    }
  }

  std::istringstream csv(content);
  auto p2p = read_matrix_csv(csv, name);
  if (!options.collectives) return p2p;

  const Rank ranks = p2p.rank_count();
  for (auto& [id, comm] : record.comms) {
    auto sorted = comm.members;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.back() >= ranks) {
      throw InputError(
          fmt::format("{}: communicator {}: rank {} is out of range (the matrix has "
                      "{} ranks)",
                      where(comm.line), id, sorted.back(), ranks));
    }
    const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
    if (twice != sorted.end()) {
      throw InputError(fmt::format("{}: communicator {}: rank {} is a member twice",
                                   where(comm.line), id, *twice));
    }
  }
  for (auto& pending : record.calls) {
    const auto at = where(pending.calls.line);
    const auto comm = record.comms.find(pending.comm);
    if (comm == record.comms.end()) {
      throw InputError(fmt::format("{}: communicator {} is not defined (no '# comm {} ...' line)",
                                   at, pending.comm, pending.comm));
    }
    const auto& members = comm->second.members;
    if (std::find(members.begin(), members.end(), pending.rank) == members.end()) {
      throw InputError(
          fmt::format("{}: rank {} calls collectives on communicator {}, which it is "
                      "not a member of (line {})",
                      at, pending.rank, pending.comm, comm->second.line));
    }
    const auto [it, fresh] = comm->second.calls.emplace(pending.rank, std::move(pending.calls));
    if (!fresh) {
      throw InputError(
          fmt::format("{}: the calls of rank {} on communicator {} are given twice "
                      "(first on line {})",
                      at, pending.rank, pending.comm, it->second.line));
    }
  }

  CommMatrixBuilder builder(ranks);
  for (Rank src = 0; src < ranks; ++src) {
    const auto dsts = p2p.destinations(src);
    const auto traffic = p2p.traffic(src);
    for (std::size_t k = 0; k < dsts.size(); ++k) {
      builder.add(src, dsts[k], traffic[k].messages, traffic[k].bytes);
    }
  }
  for (const auto& [id, comm] : record.comms) expand(id, comm, name, options.algorithms, builder);
  return builder.build();
}

CommMatrix read_matrix_file(const std::filesystem::path& path, bool collectives,
                            const CollectiveOptions& algorithms) {
  std::ifstream in = open_matrix_file(path);
  // Telling the kinds apart reads the first line and goes back: a pipe is read into memory first.
  if (in.tellg() == std::streampos(-1)) {
    std::stringstream copy;
    copy << in.rdbuf();
    return read_matrix_file(copy, path.string(), collectives, algorithms);
  }
  return read_matrix_file(in, path.string(), collectives, algorithms);
}

CommMatrix read_matrix_file(std::istream& in, std::string_view name, bool collectives,
                            const CollectiveOptions& algorithms) {
  if (!is_recorded_matrix(in)) return read_matrix_csv(in, name);
  MatrixOptions options;
  options.collectives = collectives;
  options.algorithms = algorithms;
  return read_recorded_matrix(in, name, options);
}

}  // namespace mapsim::traces

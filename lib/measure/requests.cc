#include "lib/measure/requests.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>

namespace alignbench {
namespace {

struct EventName {
  std::string_view marker;
  BlockEvent::Kind kind;
};
constexpr EventName kEventNames[] = {
    {": block_bio_queue: ", BlockEvent::Kind::kQueue},
    {": block_rq_issue: ", BlockEvent::Kind::kIssue},
    {": block_rq_complete: ", BlockEvent::Kind::kComplete},
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

std::optional<std::uint64_t> Number(std::string_view s) {
  s = Trim(s);
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

// "123.456789" (seconds, microseconds) in nanoseconds.
std::optional<std::int64_t> Timestamp(std::string_view s) {
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto whole = Number(s.substr(0, dot));
  const std::string_view frac_text = s.substr(dot + 1);
  const auto frac = Number(frac_text);
  if (!whole || !frac || frac_text.size() > 9) return std::nullopt;
  std::int64_t ns = static_cast<std::int64_t>(*frac);
  for (std::size_t i = frac_text.size(); i < 9; ++i) ns *= 10;
  return static_cast<std::int64_t>(*whole) * 1000000000 + ns;
}

// The head before the event's name: "comm-pid (tgid) [cpu] flags time". A
// task's name may hold spaces and brackets, so it is read from the right.
bool ParseHead(std::string_view head, BlockEvent& event) {
  head = Trim(head);
  const std::size_t space = head.rfind(' ');
  if (space == std::string_view::npos) return false;
  const auto time = Timestamp(head.substr(space + 1));
  const std::size_t cpu = head.rfind(" [");
  if (!time || cpu == std::string_view::npos) return false;
  event.time_ns = *time;
  const std::string_view task = Trim(head.substr(0, cpu));
  const std::size_t open = task.rfind('(');
  if (!task.empty() && task.back() == ')' && open != std::string_view::npos) {
    const auto tgid = Number(task.substr(open + 1, task.size() - open - 2));
    if (tgid) event.tgid = static_cast<std::int64_t>(*tgid);
  }
  return true;
}

// "7,0 WS 8192 () 33112 + 16 be,0,4 [comm]": the letters second, the sector
// and length around " + ", the last bracket's name.
bool ParseBody(std::string_view body, BlockEvent& event) {
  const std::size_t first_space = body.find(' ');
  if (first_space == std::string_view::npos) return false;
  std::string_view rest = body.substr(first_space + 1);
  event.rwbs = std::string(rest.substr(0, rest.find(' ')));
  const std::size_t plus = body.find(" + ");
  if (plus == std::string_view::npos) return false;
  const std::size_t before = body.rfind(' ', plus - 1);
  const std::size_t after_end = body.find(' ', plus + 3);
  const auto sector = Number(body.substr(before + 1, plus - before - 1));
  const auto sectors = Number(body.substr(plus + 3, after_end - plus - 3));
  if (!sector || !sectors) return false;
  event.sector = *sector;
  event.sectors = *sectors;
  const std::size_t open = body.rfind('[');
  if (open != std::string_view::npos && body.back() == ']')
    event.comm = std::string(body.substr(open + 1, body.size() - open - 2));
  return true;
}

enum class Part { kFile, kFilesystem, kOthers };

// The operation's letter in blktrace's rwbs: after a leading F (a preflush)
// where a letter of an operation follows it. "FF" is a flush request.
char OpOf(const std::string& rwbs) {
  if (rwbs.empty()) return 'N';
  const bool preflush =
      rwbs.size() >= 2 && rwbs[0] == 'F' &&
      std::string_view("FWDRN").find(rwbs[1]) != std::string_view::npos;
  return rwbs[preflush ? 1 : 0];
}

bool IsMetadata(const BlockEvent& e) {
  return e.rwbs.find('M') != std::string::npos;
}

bool InRanges(const BlockEvent& e, const std::vector<SectorRange>& ranges) {
  const std::uint64_t end = e.sector + e.sectors;
  return std::any_of(ranges.begin(), ranges.end(), [&](const SectorRange& r) {
    return e.sector < r.end && r.first < end;
  });
}

Part PartOfData(const BlockEvent& e, const std::vector<SectorRange>& file) {
  if (InRanges(e, file)) return Part::kFile;
  return IsMetadata(e) ? Part::kFilesystem : Part::kOthers;
}

// Whose is a bio that asks for a flush (a preflush or FUA): one with data by
// where it lands; an empty one by the process that queued it.
Part PartOfFlushBio(const BlockEvent& e, const std::vector<SectorRange>& file,
                    std::int64_t self_tgid) {
  if (e.sectors > 0) return PartOfData(e, file);
  if (e.tgid >= 0 && e.tgid == self_tgid) return Part::kFile;
  const bool journal = e.comm.rfind("jbd2/", 0) == 0 ||
                       e.comm.rfind("xfs", 0) == 0 || IsMetadata(e);
  return journal ? Part::kFilesystem : Part::kOthers;
}

DeviceCounters& CountersOf(RequestAccount& account, Part part) {
  switch (part) {
    case Part::kFile:
      return account.file;
    case Part::kFilesystem:
      return account.filesystem;
    case Part::kOthers:
      return account.others;
  }
  return account.others;
}

// As /sys/block/*/stat counts it: a flush, or a read or write of its
// sectors; a discard is neither.
void Count(DeviceCounters& c, const BlockEvent& e) {
  const char op = OpOf(e.rwbs);
  if (op == 'F') {
    *c.flushes += 1;
  } else if (op == 'R') {
    ++c.reads;
    c.read_sectors += e.sectors;
  } else if (op == 'W') {
    ++c.writes;
    c.write_sectors += e.sectors;
  }
}

struct BusySpan {
  std::int64_t from = 0;
  std::int64_t to = 0;
};

// The time at least one span covers.
std::uint64_t UnionOf(std::vector<BusySpan> spans) {
  std::sort(
      spans.begin(), spans.end(),
      [](const BusySpan& a, const BusySpan& b) { return a.from < b.from; });
  std::uint64_t covered = 0;
  std::int64_t reached = INT64_MIN;
  for (const BusySpan& s : spans) {
    const std::int64_t from = std::max(s.from, reached);
    if (s.to > from) covered += static_cast<std::uint64_t>(s.to - from);
    reached = std::max(reached, s.to);
  }
  return covered;
}

// Requests at the device: issued, not yet completed. A flush completes with
// no sector, so flushes complete in the order they were issued.
struct InFlight {
  std::map<std::uint64_t, std::deque<std::pair<std::int64_t, Part>>> data;
  std::deque<std::pair<std::int64_t, Part>> flushes;
  std::vector<BusySpan> ours;

  void Issued(const BlockEvent& e, Part part) {
    if (OpOf(e.rwbs) == 'F') {
      flushes.emplace_back(e.time_ns, part);
    } else {
      data[e.sector].emplace_back(e.time_ns, part);
    }
  }
  void Completed(const BlockEvent& e) {
    std::deque<std::pair<std::int64_t, Part>>* queue = &flushes;
    if (OpOf(e.rwbs) != 'F') {
      const auto found = data.find(e.sector);
      if (found == data.end()) return;
      queue = &found->second;
    }
    if (queue->empty()) return;
    const auto [issued, part] = queue->front();
    queue->pop_front();
    if (part != Part::kOthers) ours.push_back({issued, e.time_ns});
  }
};

}  // namespace

std::optional<BlockEvent> ParseBlockEvent(std::string_view line) {
  if (line.empty() || line.front() == '#') return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.remove_suffix(1);
  for (const EventName& name : kEventNames) {
    const std::size_t at = line.find(name.marker);
    if (at == std::string_view::npos) continue;
    BlockEvent event;
    event.kind = name.kind;
    if (!ParseHead(line.substr(0, at), event) ||
        !ParseBody(line.substr(at + name.marker.size()), event)) {
      return std::nullopt;
    }
    return event;
  }
  return std::nullopt;
}

ParsedTrace ParseTrace(std::string_view text) {
  ParsedTrace trace;
  constexpr std::string_view kCounts = "# entries-in-buffer/entries-written: ";
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (line.rfind(kCounts, 0) == 0) {
      const std::string_view counts = line.substr(kCounts.size());
      const std::size_t slash = counts.find('/');
      const auto kept = Number(counts.substr(0, slash));
      const auto written =
          Number(counts.substr(slash + 1, counts.find(' ', slash) - slash - 1));
      trace.lost = !kept || !written || *kept < *written;
      continue;
    }
    if (auto event = ParseBlockEvent(line)) trace.events.push_back(*event);
  }
  return trace;
}

RequestAccount AccountRequests(const std::vector<BlockEvent>& events,
                               const std::vector<SectorRange>& file_ranges,
                               std::int64_t self_tgid) {
  RequestAccount account;
  for (DeviceCounters* c :
       {&account.file, &account.filesystem, &account.others}) {
    c->flushes = 0;
  }
  Part flush_owner = Part::kOthers;
  InFlight in_flight;
  for (const BlockEvent& e : events) {
    switch (e.kind) {
      case BlockEvent::Kind::kQueue:
        if (e.rwbs.find('F') == std::string::npos) break;
        flush_owner = PartOfFlushBio(e, file_ranges, self_tgid);
        // An empty write that asks for a flush is a request of its own,
        // never issued (its flush is), which the device's counters count
        // as a write of no sectors when it completes.
        if (e.sectors == 0 && OpOf(e.rwbs) == 'W')
          ++CountersOf(account, flush_owner).writes;
        break;
      case BlockEvent::Kind::kIssue: {
        const Part part =
            OpOf(e.rwbs) == 'F' ? flush_owner : PartOfData(e, file_ranges);
        Count(CountersOf(account, part), e);
        in_flight.Issued(e, part);
        break;
      }
      case BlockEvent::Kind::kComplete:
        in_flight.Completed(e);
        break;
    }
  }
  account.device_ns = UnionOf(std::move(in_flight.ours));
  return account;
}

DeviceCounters TotalOf(const RequestAccount& a) {
  DeviceCounters total;
  total.flushes = 0;
  for (const DeviceCounters* c : {&a.file, &a.filesystem, &a.others}) {
    total += *c;
  }
  return total;
}

}  // namespace alignbench

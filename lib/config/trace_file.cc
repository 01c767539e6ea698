#include "lib/config/trace_file.h"

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "lib/base/json_parse.h"
#include "lib/io/file_io.h"

namespace alignbench {
namespace {

using nlohmann::json;

// An open(2) flag as strace names it, or a hexadecimal number for the bits
// it could not name.
bool IsOpenFlag(const std::string& flag) {
  static const std::set<std::string> kNames = {
      "O_RDONLY",    "O_WRONLY",   "O_RDWR",    "O_CREAT",    "O_EXCL",
      "O_NOCTTY",    "O_TRUNC",    "O_APPEND",  "O_NONBLOCK", "O_NDELAY",
      "O_DSYNC",     "O_SYNC",     "O_RSYNC",   "O_DIRECT",   "O_LARGEFILE",
      "O_DIRECTORY", "O_NOFOLLOW", "O_NOATIME", "O_CLOEXEC",  "O_PATH",
      "O_TMPFILE",   "O_ASYNC",    "FASYNC"};
  if (kNames.count(flag) != 0) return true;
  return flag.size() > 2 && flag.size() <= 18 &&
         flag.compare(0, 2, "0x") == 0 &&
         flag.find_first_not_of("0123456789abcdef", 2) == std::string::npos;
}

// Reads one trace, remembering where it is for its errors.
class TraceReader {
 public:
  explicit TraceReader(std::string origin) : origin_(std::move(origin)) {}

  Error Bad(const std::string& key, const std::string& why) const {
    Error error = PlainError(ErrorKind::kUsage, "read trace " + origin_,
                             "key '" + key + "': " + why);
    error.hint =
        "a trace is written by alignbench record; record the program again "
        "if the file was cut short or edited";
    return error;
  }

  Result<const json*> Member(const json& object, const std::string& path,
                             const char* key) const {
    auto it = object.find(key);
    if (it == object.end()) return Bad(path + key, "missing");
    return &*it;
  }

  Result<std::uint64_t> Whole(const json& value, const std::string& key,
                              std::uint64_t max) const {
    const std::optional<std::uint64_t> n = WholeNumber(value);
    if (!n) return Bad(key, "expected a whole number");
    if (*n > max) return Bad(key, "at most " + std::to_string(max));
    return *n;
  }

  // The member `key` of `object`, a whole number of at most `max`.
  Result<std::uint64_t> WholeMember(const json& object, const std::string& path,
                                    const char* key, std::uint64_t max) const {
    Result<const json*> m = Member(object, path, key);
    if (!m) return m.error();
    return Whole(*m.value(), path + key, max);
  }

  Result<std::string> Text(const json& value, const std::string& key) const {
    if (!value.is_string()) return Bad(key, "expected a string");
    std::string text = value.get<std::string>();
    if (text.size() > kMaxTraceStringBytes) {
      return Bad(key, "longer than " + std::to_string(kMaxTraceStringBytes) +
                          " bytes");
    }
    return text;
  }

  Result<std::vector<std::string>> Texts(const json& value,
                                         const std::string& key) const {
    if (!value.is_array()) return Bad(key, "expected an array of strings");
    if (value.size() > kMaxTraceStrings) {
      return Bad(key,
                 "more than " + std::to_string(kMaxTraceStrings) + " strings");
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < value.size(); ++i) {
      Result<std::string> t =
          Text(value[i], key + "[" + std::to_string(i) + "]");
      if (!t) return t.error();
      out.push_back(std::move(t).value());
    }
    return out;
  }

  // A write's or an allocation's extent: 1 byte to 1 GiB, ending at most
  // 1 TiB into its file.
  Status Extent(const json& value, const std::string& key, Op& op) const {
    for (const auto& [name, field, max] :
         {std::tuple{"offset", &op.offset, kMaxTraceFileOffset},
          std::tuple{"length", &op.length, kMaxTraceWriteBytes}}) {
      Result<std::uint64_t> n = WholeMember(value, key + ".", name, max);
      if (!n) return n.error();
      *field = n.value();
    }
    if (op.length == 0) return Bad(key + ".length", "an extent of 0 bytes");
    if (op.offset + op.length > kMaxTraceFileOffset) {
      return Bad(key + ".length", "the extent ends past 1 TiB into its file");
    }
    return Ok{};
  }

  Status Call(const json& value, const std::string& key, Op& op) const {
    Result<const json*> call = Member(value, key + ".", "call");
    if (!call) return call.error();
    const json& c = *call.value();
    std::optional<SyncCall> parsed;
    if (c.is_string()) parsed = FromName(kTraceSyncs, c.get<std::string>());
    if (!parsed) {
      return Bad(key + ".call", "expected one of " + NameList(kTraceSyncs));
    }
    op.call = *parsed;
    return Ok{};
  }

  // What each kind of op holds besides "op" and "file", read into `op`.
  Status Fields(const json& value, const std::string& key, Op& op) const {
    switch (op.kind) {
      case OpKind::kWrite:
      case OpKind::kRead:
        if (Status ok =
                Keys(value, key + ".", {"op", "file", "offset", "length"});
            !ok) {
          return ok;
        }
        return Extent(value, key, op);
      case OpKind::kSync:
      case OpKind::kSyncDir:
        if (Status ok = Keys(value, key + ".", {"op", "file", "call"}); !ok) {
          return ok;
        }
        return Call(value, key, op);
      case OpKind::kTruncate: {
        if (Status ok = Keys(value, key + ".", {"op", "file", "length"}); !ok) {
          return ok;
        }
        Result<std::uint64_t> n =
            WholeMember(value, key + ".", "length", kMaxTraceFileOffset);
        if (!n) return n.error();
        op.length = n.value();
        return Ok{};
      }
      case OpKind::kAllocate: {
        if (Status ok = Keys(value, key + ".",
                             {"op", "file", "offset", "length", "keep_size"});
            !ok) {
          return ok;
        }
        Result<const json*> keep = Member(value, key + ".", "keep_size");
        if (!keep) return keep.error();
        if (!keep.value()->is_boolean()) {
          return Bad(key + ".keep_size", "expected true or false");
        }
        op.keep_size = keep.value()->get<bool>();
        return Extent(value, key, op);
      }
      case OpKind::kStat:
      case OpKind::kUnlink:
      case OpKind::kCreate:
        return Keys(value, key + ".", {"op", "file"});
    }
    return Ok{};
  }

  Result<Op> OpOf(const json& value, const std::string& key,
                  std::uint64_t files) const {
    if (!value.is_object()) return Bad(key, "expected an object");
    Op op;
    Result<const json*> kind = Member(value, key + ".", "op");
    if (!kind) return kind.error();
    std::optional<OpKind> parsed;
    if (kind.value()->is_string()) {
      parsed = FromName(kOpKinds, kind.value()->get<std::string>());
    }
    if (!parsed) {
      return Bad(key + ".op", "expected one of " + NameList(kOpKinds));
    }
    op.kind = *parsed;
    Result<std::uint64_t> index =
        WholeMember(value, key + ".", "file", kMaxTraceFiles);
    if (!index) return index.error();
    if (index.value() >= files) {
      return Bad(key + ".file", "names no file of the trace (it has " +
                                    std::to_string(files) + ")");
    }
    op.file = index.value();
    if (Status ok = Fields(value, key, op); !ok) return ok.error();
    return op;
  }

  Result<CommitOps> Ops(const json& value, const std::string& key,
                        std::uint64_t files) const {
    if (!value.is_array()) return Bad(key, "expected an array of operations");
    if (value.size() > kMaxTraceOpsPerCommit) {
      return Bad(key, "more than " + std::to_string(kMaxTraceOpsPerCommit) +
                          " operations");
    }
    CommitOps ops;
    for (std::size_t i = 0; i < value.size(); ++i) {
      Result<Op> op =
          OpOf(value[i], key + "[" + std::to_string(i) + "]", files);
      if (!op) return op.error();
      ops.push_back(op.value());
    }
    return ops;
  }

  Result<TraceFile> File(const json& value, const std::string& key) const {
    if (!value.is_object()) return Bad(key, "expected an object");
    if (Status ok =
            Keys(value, key + ".", {"path", "flags", "state", "size_at_open"});
        !ok) {
      return ok.error();
    }
    TraceFile file;
    Result<const json*> path = Member(value, key + ".", "path");
    if (!path) return path.error();
    Result<std::string> p = Text(*path.value(), key + ".path");
    if (!p) return p.error();
    file.path = p.value();
    Result<const json*> flags = Member(value, key + ".", "flags");
    if (!flags) return flags.error();
    Result<std::vector<std::string>> f = Texts(*flags.value(), key + ".flags");
    if (!f) return f.error();
    for (std::size_t i = 0; i < f.value().size(); ++i) {
      if (!IsOpenFlag(f.value()[i])) {
        return Bad(key + ".flags[" + std::to_string(i) + "]",
                   "'" + f.value()[i] +
                       "' is no open flag (O_... as strace names them, or "
                       "0x... for bits it could not name)");
      }
    }
    file.flags = f.value();
    Result<const json*> state = Member(value, key + ".", "state");
    if (!state) return state.error();
    std::optional<FileState> s;
    if (state.value()->is_string()) {
      s = FromName(kFileStates, state.value()->get<std::string>());
    }
    if (!s)
      return Bad(key + ".state", "expected one of " + NameList(kFileStates));
    file.state = *s;
    Result<std::uint64_t> n =
        WholeMember(value, key + ".", "size_at_open", kMaxTraceFileOffset);
    if (!n) return n.error();
    file.size_at_open = n.value();
    return file;
  }

  // The keys an object of the format may have: any other is refused (a
  // misspelt or edited trace must not be read as if it said nothing).
  Status Keys(const json& object, const std::string& path,
              std::initializer_list<const char*> allowed) const {
    for (const auto& item : object.items()) {
      if (std::none_of(allowed.begin(), allowed.end(),
                       [&](const char* k) { return item.key() == k; })) {
        return Bad(path + item.key(), "unknown key in a trace");
      }
    }
    return Ok{};
  }

  Result<Trace> Read(const json& doc) const {
    if (!doc.is_object()) return Bad("", "a trace is a JSON object");
    Result<const json*> schema = Member(doc, "", "schema");
    if (!schema) return schema.error();
    if (*schema.value() != kTraceSchema) {
      return Bad("schema", std::string("expected \"") + kTraceSchema + "\"");
    }
    Result<const json*> version = Member(doc, "", "version");
    if (!version) return version.error();
    const std::optional<std::uint64_t> v = WholeNumber(*version.value());
    if (!v || *v < kOldestTraceVersion || *v > kTraceVersion) {
      return Bad("version", "this alignbench reads versions " +
                                std::to_string(kOldestTraceVersion) + " to " +
                                std::to_string(kTraceVersion) +
                                "; record the program again with it");
    }
    if (Status ok = Keys(
            doc, "",
            {"schema", "version", "program", "recorder", "commit_rule", "files",
             "header", "commits", "after_last_commit", "limits", "tracing"});
        !ok) {
      return ok.error();
    }
    Trace trace;
    for (Status (TraceReader::*part)(const json&, Trace&) const :
         {&TraceReader::ReadProgram, &TraceReader::ReadFiles,
          &TraceReader::ReadHeader, &TraceReader::ReadCommits,
          &TraceReader::ReadRest, &TraceReader::ReadTracing}) {
      if (Status ok = (this->*part)(doc, trace); !ok) return ok.error();
    }
    return trace;
  }

  // program (argv, version), recorder and commit_rule.
  Status ReadProgram(const json& doc, Trace& trace) const {
    Result<const json*> program = Member(doc, "", "program");
    if (!program) return program.error();
    const json& p = *program.value();
    if (!p.is_object()) return Bad("program", "expected an object");
    if (Status ok = Keys(p, "program.", {"argv", "version"}); !ok) return ok;
    Result<const json*> argv = Member(p, "program.", "argv");
    if (!argv) return argv.error();
    Result<std::vector<std::string>> a = Texts(*argv.value(), "program.argv");
    if (!a) return a.error();
    trace.argv = a.value();
    for (const auto& [object, path, name, field] :
         {std::tuple{&p, "program.", "version", &trace.version},
          std::tuple{&doc, "", "recorder", &trace.recorder},
          std::tuple{&doc, "", "commit_rule", &trace.commit_rule}}) {
      Result<const json*> m = Member(*object, path, name);
      if (!m) return m.error();
      Result<std::string> t = Text(*m.value(), std::string(path) + name);
      if (!t) return t.error();
      *field = t.value();
    }
    return Ok{};
  }

  Status ReadFiles(const json& doc, Trace& trace) const {
    Result<const json*> files = Member(doc, "", "files");
    if (!files) return files.error();
    if (!files.value()->is_array()) return Bad("files", "expected an array");
    if (files.value()->size() > kMaxTraceFiles) {
      return Bad("files",
                 "more than " + std::to_string(kMaxTraceFiles) + " files");
    }
    for (std::size_t i = 0; i < files.value()->size(); ++i) {
      Result<TraceFile> f =
          File((*files.value())[i], "files[" + std::to_string(i) + "]");
      if (!f) return f.error();
      trace.files.push_back(f.value());
    }
    return Ok{};
  }

  // The header: 1 to kMaxTraceHeaderBytes bytes at the start of a file of
  // the trace, or null.
  Status ReadHeader(const json& doc, Trace& trace) const {
    auto it = doc.find("header");
    if (it == doc.end() || it->is_null()) return Ok{};
    if (!it->is_object()) return Bad("header", "expected an object or null");
    if (Status ok = Keys(*it, "header.", {"file", "bytes"}); !ok) return ok;
    Trace::Header header;
    for (const auto& [name, field, max] :
         {std::tuple{"file", &header.file, kMaxTraceFiles},
          std::tuple{"bytes", &header.bytes, kMaxTraceHeaderBytes}}) {
      Result<std::uint64_t> w = WholeMember(*it, "header.", name, max);
      if (!w) return w.error();
      *field = w.value();
    }
    if (header.bytes == 0) return Bad("header.bytes", "a header of 0 bytes");
    if (header.file >= trace.files.size()) {
      return Bad("header.file", "names no file");
    }
    trace.header = header;
    return Ok{};
  }

  Status ReadCommits(const json& doc, Trace& trace) const {
    Result<const json*> commits = Member(doc, "", "commits");
    if (!commits) return commits.error();
    const json& list = *commits.value();
    if (!list.is_array()) return Bad("commits", "expected an array");
    if (list.size() > kMaxTraceCommits) {
      return Bad("commits",
                 "more than " + std::to_string(kMaxTraceCommits) + " commits");
    }
    trace.commits.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string key = "commits[" + std::to_string(i) + "]";
      const json& c = list[i];
      if (!c.is_object()) return Bad(key, "expected an object");
      if (Status ok = Keys(c, key + ".", {"ops"}); !ok) return ok;
      Result<const json*> ops = Member(c, key + ".", "ops");
      if (!ops) return ops.error();
      Result<CommitOps> o = Ops(*ops.value(), key + ".ops", trace.files.size());
      if (!o) return o.error();
      if (o.value().empty() || o.value().back().kind != OpKind::kSync) {
        return Bad(key + ".ops", "a commit ends in a sync");
      }
      trace.commits.push_back({std::move(o).value()});
    }
    return Ok{};
  }

  // after_last_commit and limits.
  Status ReadRest(const json& doc, Trace& trace) const {
    Result<const json*> after = Member(doc, "", "after_last_commit");
    if (!after) return after.error();
    Result<CommitOps> rest =
        Ops(*after.value(), "after_last_commit", trace.files.size());
    if (!rest) return rest.error();
    trace.after_last_commit = rest.value();
    Result<const json*> limits = Member(doc, "", "limits");
    if (!limits) return limits.error();
    Result<std::vector<std::string>> l = Texts(*limits.value(), "limits");
    if (!l) return l.error();
    trace.limits = l.value();
    return Ok{};
  }

  // tracing: two windows (each an object or null) and why they cannot be
  // compared, or absent.
  Status ReadTracing(const json& doc, Trace& trace) const {
    auto it = doc.find("tracing");
    if (it == doc.end()) return Ok{};
    if (!it->is_object()) return Bad("tracing", "expected an object");
    if (Status ok = Keys(*it, "tracing.", {"untraced", "traced", "unknown"});
        !ok) {
      return ok;
    }
    TracingEffect effect;
    for (const auto& [name, window] : {std::pair{"untraced", &effect.untraced},
                                       std::pair{"traced", &effect.traced}}) {
      Result<const json*> w = Member(*it, "tracing.", name);
      if (!w) return w.error();
      if (w.value()->is_null()) continue;
      Result<CounterWindow> read =
          Window(*w.value(), std::string("tracing.") + name + ".");
      if (!read) return read.error();
      *window = read.value();
    }
    Result<const json*> unknown = Member(*it, "tracing.", "unknown");
    if (!unknown) return unknown.error();
    Result<std::string> why = Text(*unknown.value(), "tracing.unknown");
    if (!why) return why.error();
    effect.unknown = why.value();
    trace.tracing = effect;
    return Ok{};
  }

 private:
  Result<CounterWindow> Window(const json& w, const std::string& path) const {
    if (!w.is_object()) return Bad(path, "expected an object or null");
    if (Status ok = Keys(
            w, path,
            {"milliseconds", "write_calls", "write_bytes", "device_flushes"});
        !ok) {
      return ok.error();
    }
    CounterWindow window;
    for (const auto& [name, field, max] :
         {std::tuple{"milliseconds", &window.milliseconds, kMaxTraceWindowMs},
          std::tuple{"write_calls", &window.write_calls, kMaxTraceCount},
          std::tuple{"write_bytes", &window.write_bytes, kMaxTraceCount},
          std::tuple{"device_flushes", &window.device_flushes,
                     kMaxTraceCount}}) {
      Result<std::uint64_t> n = WholeMember(w, path, name, max);
      if (!n) return n.error();
      *field = n.value();
    }
    return window;
  }

  std::string origin_;
};

json OpJson(const Op& op) {
  json j = {{"op", NameOf(kOpKinds, op.kind)}, {"file", op.file}};
  switch (op.kind) {
    case OpKind::kSync:
    case OpKind::kSyncDir:
      j["call"] = NameOf(kTraceSyncs, op.call);
      break;
    case OpKind::kTruncate:
      j["length"] = op.length;
      break;
    case OpKind::kAllocate:
      j["keep_size"] = op.keep_size;
      [[fallthrough]];
    case OpKind::kWrite:
    case OpKind::kRead:
      j["offset"] = op.offset;
      j["length"] = op.length;
      break;
    case OpKind::kStat:
    case OpKind::kUnlink:
    case OpKind::kCreate:
      break;
  }
  return j;
}

json OpsJson(const CommitOps& ops) {
  json out = json::array();
  for (const Op& op : ops) out.push_back(OpJson(op));
  return out;
}

json WindowJson(const std::optional<CounterWindow>& w) {
  if (!w) return nullptr;
  return {{"milliseconds", w->milliseconds},
          {"write_calls", w->write_calls},
          {"write_bytes", w->write_bytes},
          {"device_flushes", w->device_flushes}};
}

}  // namespace

bool TraceFile::HasFlag(const std::string& flag) const {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

json TraceToJson(const Trace& t) {
  json files = json::array();
  for (const TraceFile& f : t.files) {
    files.push_back({{"path", f.path},
                     {"flags", f.flags},
                     {"state", NameOf(kFileStates, f.state)},
                     {"size_at_open", f.size_at_open}});
  }
  json commits = json::array();
  for (const TraceCommit& c : t.commits) {
    commits.push_back({{"ops", OpsJson(c.ops)}});
  }
  json header = nullptr;
  if (t.header) {
    header = {{"file", t.header->file}, {"bytes", t.header->bytes}};
  }
  json doc = {{"schema", kTraceSchema},
              {"version", kTraceVersion},
              {"program", {{"argv", t.argv}, {"version", t.version}}},
              {"recorder", t.recorder},
              {"commit_rule", t.commit_rule},
              {"files", files},
              {"header", header},
              {"commits", commits},
              {"after_last_commit", OpsJson(t.after_last_commit)},
              {"limits", t.limits}};
  if (t.tracing) {
    doc["tracing"] = {{"untraced", WindowJson(t.tracing->untraced)},
                      {"traced", WindowJson(t.tracing->traced)},
                      {"unknown", t.tracing->unknown}};
  }
  return doc;
}

Result<std::string> TraceText(const Trace& trace, const std::string& origin) {
  std::string text =
      TraceToJson(trace).dump(1, ' ', false, json::error_handler_t::replace) +
      "\n";
  if (text.size() > kMaxTraceFileBytes) {
    return PlainError(ErrorKind::kUsage, "write trace " + origin,
                      "the trace takes " + std::to_string(text.size() >> 20) +
                          " MiB, past the " +
                          std::to_string(kMaxTraceFileBytes >> 20) +
                          " MiB --replay reads");
  }
  if (Result<Trace> back = ParseTrace(text, origin); !back) {
    return PlainError(ErrorKind::kUsage, "write trace " + origin,
                      "the trace is past what a trace file may hold (" +
                          back.error().detail + ")");
  }
  return text;
}

Result<Trace> ParseTrace(const std::string& text, const std::string& origin) {
  const TraceReader reader(origin);
  Result<json> doc = ParseJsonStrict(text);
  if (!doc) {
    // A trace cut short is not valid JSON: say so with the cause.
    return reader.Bad(
        "", doc.error().detail + " (a trace cut short, or not a trace)");
  }
  return reader.Read(doc.value());
}

Result<std::string> ReadTraceText(const std::string& path) {
  Result<std::string> text =
      ReadWholeFile(path, ErrorKind::kUsage, kMaxTraceFileBytes);
  if (!text) {
    Error error = text.error();
    error.operation += " trace";
    error.hint = "--replay takes a trace written by alignbench record";
    return error;
  }
  return text;
}

Result<Trace> ReadTraceFile(const std::string& path) {
  Result<std::string> text = ReadTraceText(path);
  if (!text) return text.error();
  return ParseTrace(text.value(), path);
}

}  // namespace alignbench

#include "lib/config/trace.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "lib/base/json_parse.h"
#include "lib/io/file_io.h"

namespace alignbench {
namespace {

using nlohmann::json;

// Reads one trace, remembering where it is for its errors.
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

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

  Result<TraceOp> Op(const json& value, const std::string& key,
                     std::uint64_t files) const {
    if (!value.is_object()) return Bad(key, "expected an object");
    TraceOp op;
    Result<const json*> kind = Member(value, key + ".", "op");
    if (!kind) return kind.error();
    Result<const json*> file = Member(value, key + ".", "file");
    if (!file) return file.error();
    Result<std::uint64_t> index =
        Whole(*file.value(), key + ".file", kMaxTraceFiles);
    if (!index) return index.error();
    if (index.value() >= files) {
      return Bad(key + ".file", "names no file of the trace (it has " +
                                    std::to_string(files) + ")");
    }
    op.file = index.value();
    const json& k = *kind.value();
    if (k == "write") {
      op.kind = TraceOpKind::kWrite;
      for (const auto& [name, field, max] :
           {std::tuple{"offset", &op.offset, kMaxTraceFileOffset},
            std::tuple{"length", &op.length, kMaxTraceWriteBytes}}) {
        Result<const json*> v = Member(value, key + ".", name);
        if (!v) return v.error();
        Result<std::uint64_t> n = Whole(*v.value(), key + "." + name, max);
        if (!n) return n.error();
        *field = n.value();
      }
      if (op.length == 0) return Bad(key + ".length", "a write of 0 bytes");
      return op;
    }
    if (k == "sync") {
      op.kind = TraceOpKind::kSync;
      Result<const json*> call = Member(value, key + ".", "call");
      if (!call) return call.error();
      const json& c = *call.value();
      std::optional<TraceSync> parsed;
      if (c.is_string()) parsed = FromName(kTraceSyncs, c.get<std::string>());
      if (!parsed) {
        return Bad(key + ".call", "expected one of " + NameList(kTraceSyncs));
      }
      op.call = *parsed;
      return op;
    }
    return Bad(key + ".op", "expected \"write\" or \"sync\"");
  }

  Result<std::vector<TraceOp>> Ops(const json& value, const std::string& key,
                                   std::uint64_t files) const {
    if (!value.is_array()) return Bad(key, "expected an array of operations");
    if (value.size() > kMaxTraceOpsPerCommit) {
      return Bad(key, "more than " + std::to_string(kMaxTraceOpsPerCommit) +
                          " operations");
    }
    std::vector<TraceOp> ops;
    for (std::size_t i = 0; i < value.size(); ++i) {
      Result<TraceOp> op =
          Op(value[i], key + "[" + std::to_string(i) + "]", files);
      if (!op) return op.error();
      ops.push_back(op.value());
    }
    return ops;
  }

  Result<TraceFile> File(const json& value, const std::string& key) const {
    if (!value.is_object()) return Bad(key, "expected an object");
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
    Result<const json*> size = Member(value, key + ".", "size_at_open");
    if (!size) return size.error();
    Result<std::uint64_t> n =
        Whole(*size.value(), key + ".size_at_open", kMaxTraceFileOffset);
    if (!n) return n.error();
    file.size_at_open = n.value();
    return file;
  }

  Result<Trace> Read(const json& doc) const {
    if (!doc.is_object()) return Bad("", "a trace is a JSON object");
    Trace trace;
    Result<const json*> schema = Member(doc, "", "schema");
    if (!schema) return schema.error();
    if (*schema.value() != kTraceSchema) {
      return Bad("schema", std::string("expected \"") + kTraceSchema + "\"");
    }
    Result<const json*> version = Member(doc, "", "version");
    if (!version) return version.error();
    if (WholeNumber(*version.value()) != std::uint64_t{kTraceVersion}) {
      return Bad("version", "this alignbench reads version " +
                                std::to_string(kTraceVersion));
    }
    Result<const json*> program = Member(doc, "", "program");
    if (!program) return program.error();
    if (!program.value()->is_object()) {
      return Bad("program", "expected an object");
    }
    Result<const json*> argv = Member(*program.value(), "program.", "argv");
    if (!argv) return argv.error();
    Result<std::vector<std::string>> a = Texts(*argv.value(), "program.argv");
    if (!a) return a.error();
    trace.argv = a.value();
    Result<const json*> pv = Member(*program.value(), "program.", "version");
    if (!pv) return pv.error();
    Result<std::string> v = Text(*pv.value(), "program.version");
    if (!v) return v.error();
    trace.version = v.value();
    for (const auto& [name, field] :
         {std::pair{"recorder", &trace.recorder},
          std::pair{"commit_rule", &trace.commit_rule}}) {
      Result<const json*> m = Member(doc, "", name);
      if (!m) return m.error();
      Result<std::string> t = Text(*m.value(), name);
      if (!t) return t.error();
      *field = t.value();
    }
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
    const std::uint64_t n = trace.files.size();
    if (auto it = doc.find("header"); it != doc.end() && !it->is_null()) {
      if (!it->is_object()) return Bad("header", "expected an object or null");
      Trace::Header header;
      for (const auto& [name, field, max] :
           {std::tuple{"file", &header.file, kMaxTraceFiles},
            std::tuple{"bytes", &header.bytes, kMaxTraceFileOffset}}) {
        Result<const json*> m = Member(*it, "header.", name);
        if (!m) return m.error();
        Result<std::uint64_t> w =
            Whole(*m.value(), std::string("header.") + name, max);
        if (!w) return w.error();
        *field = w.value();
      }
      if (header.file >= n) return Bad("header.file", "names no file");
      trace.header = header;
    }
    Result<const json*> commits = Member(doc, "", "commits");
    if (!commits) return commits.error();
    if (!commits.value()->is_array())
      return Bad("commits", "expected an array");
    if (commits.value()->size() > kMaxTraceCommits) {
      return Bad("commits",
                 "more than " + std::to_string(kMaxTraceCommits) + " commits");
    }
    for (std::size_t i = 0; i < commits.value()->size(); ++i) {
      const std::string key = "commits[" + std::to_string(i) + "]";
      const json& c = (*commits.value())[i];
      if (!c.is_object()) return Bad(key, "expected an object");
      Result<const json*> ops = Member(c, key + ".", "ops");
      if (!ops) return ops.error();
      Result<std::vector<TraceOp>> o = Ops(*ops.value(), key + ".ops", n);
      if (!o) return o.error();
      if (o.value().empty() || o.value().back().kind != TraceOpKind::kSync) {
        return Bad(key + ".ops", "a commit ends in a sync");
      }
      trace.commits.push_back({std::move(o).value()});
    }
    Result<const json*> after = Member(doc, "", "after_last_commit");
    if (!after) return after.error();
    Result<std::vector<TraceOp>> rest =
        Ops(*after.value(), "after_last_commit", n);
    if (!rest) return rest.error();
    trace.after_last_commit = rest.value();
    Result<const json*> limits = Member(doc, "", "limits");
    if (!limits) return limits.error();
    Result<std::vector<std::string>> l = Texts(*limits.value(), "limits");
    if (!l) return l.error();
    trace.limits = l.value();
    return trace;
  }

 private:
  std::string origin_;
};

json OpJson(const TraceOp& op) {
  if (op.kind == TraceOpKind::kWrite) {
    return {{"op", "write"},
            {"file", op.file},
            {"offset", op.offset},
            {"length", op.length}};
  }
  return {{"op", "sync"},
          {"file", op.file},
          {"call", NameOf(kTraceSyncs, op.call)}};
}

json OpsJson(const std::vector<TraceOp>& ops) {
  json out = json::array();
  for (const TraceOp& op : ops) out.push_back(OpJson(op));
  return out;
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
  return {{"schema", kTraceSchema},
          {"version", kTraceVersion},
          {"program", {{"argv", t.argv}, {"version", t.version}}},
          {"recorder", t.recorder},
          {"commit_rule", t.commit_rule},
          {"files", files},
          {"header", header},
          {"commits", commits},
          {"after_last_commit", OpsJson(t.after_last_commit)},
          {"limits", t.limits}};
}

Result<Trace> ParseTrace(const std::string& text, const std::string& origin) {
  const Reader reader(origin);
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

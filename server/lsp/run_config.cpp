// The editor's run configuration of a document (run_config.h).
#include "server/lsp/run_config.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "analysis/ir/op_accessors.h"
#include "server/lsp/doc_links.h"
#include "server/lsp/documents.h"
#include "server/lsp/settings.h"

namespace tilesight::lsp {

namespace {

// Entries among `id` and the ops its regions hold (modules), not inside an entry.
void collectEntries(const Program &p, OpId id, std::vector<EntryRef> &out) {
  const Operation &op = p.op(id);
  if (op.info && op.info->kind == OpKind::Entry) {
    if (const auto *name = attrs::symName(op); name && !name->s.empty())
      out.push_back({name->s[0] == '@' ? name->s.substr(1) : name->s, op.range});
    return;
  }
  for (const Region &r : op.regions)
    for (const Block &b : r.blocks)
      for (OpId inner : b.ops)
        collectEntries(p, inner, out);
}

} // namespace

std::vector<EntryRef> entriesOf(const Analysis &a) {
  std::vector<EntryRef> out;
  for (const ChunkAnalysis &c : a.chunks)
    for (OpId id : c.parsed.program.topLevel)
      collectEntries(c.parsed.program, id, out);
  return out;
}

std::optional<ResolvedRun> runConfigFor(const Snapshot &snap, const Settings &settings, const std::string &entry,
                                        size_t entries) {
  for (const RunDirective &d : snap.runDirectives) {
    const std::string &e = d.parsed.config.entry;
    if (e == entry || (e.empty() && entries == 1)) {
      if (!d.parsed.ok())
        return std::nullopt;
      ResolvedRun r{d.parsed.config, d.range};
      r.config.entry = entry;
      return r;
    }
  }
  if (!settings.run || (!settings.run->entry.empty() && settings.run->entry != entry))
    return std::nullopt;
  ResolvedRun r{*settings.run, std::nullopt};
  r.config.entry = entry;
  return r;
}

std::string folderOfUri(std::string_view uri) {
  if (!uri.starts_with("file://"))
    return {};
  std::string decoded = percentDecode(uri.substr(7));
  size_t slash = decoded.rfind('/');
  return slash == std::string::npos ? std::string() : decoded.substr(0, std::max<size_t>(slash, 1));
}

std::string runFilesProblem(const std::string &folder, const RunConfig &config) {
  namespace fs = std::filesystem;
  std::vector<std::string> inputs = config.inputs(), outputs = config.outputs();
  if (inputs.empty() && outputs.empty())
    return {};
  if (folder.empty())
    return "the run reads or writes files, which are relative to the file's folder: save the file first";
  std::error_code ec;
  fs::path root = fs::canonical(folder, ec);
  if (ec)
    return "cannot enter the file's folder " + folder + ": " + ec.message();
  auto inside = [&](const fs::path &p) {
    fs::path rel = p.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
  };
  // What does not exist is the run's to report; what exists must stay inside.
  for (const std::string &in : inputs)
    if (fs::path p = fs::canonical(root / in, ec); !ec && !inside(p))
      return "--arg @" + in + " leads outside the file's folder (to " + p.string() + ")";
  for (const std::string &out : outputs) {
    fs::file_status status = fs::symlink_status(root / out, ec);
    if (fs::is_symlink(status))
      return "--out " + out + " is a symbolic link: a run writes only files inside the file's folder";
    // A file of several names (hard links) is the same file wherever its
    // other names are, outside the folder too: writing it changes them all.
    if (uintmax_t links = fs::is_regular_file(status) ? fs::hard_link_count(root / out, ec) : 1; !ec && links > 1)
      return "--out " + out + " has " + std::to_string(links) +
             " hard links: writing it would change the file under its other names too, which may lie outside the "
             "file's folder; remove the other links or name another output";
    if (fs::path p = fs::canonical((root / out).parent_path(), ec); !ec && !inside(p))
      return "--out " + out + " leads outside the file's folder (to " + p.string() + ")";
  }
  return {};
}

} // namespace tilesight::lsp

#pragma once
// What the editor's Run needs from a document: its entries, its
// `// tilesight-run:` directives (analysis/run_directive.h) and the
// `tilesight.run` setting, resolved into the options of one run.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/run_directive.h"

namespace tilesight::lsp {

struct Snapshot;
struct Settings;

struct EntryRef {
  std::string name;  // without '@'
  Range range;       // the entry op
};
std::vector<EntryRef> entriesOf(const Analysis &a);  // the module items only: entry bodies are not walked

// The run options of `entry` (of `entryCount` in the file): its directive's,
// else the setting's (when the setting names no other entry); none when the
// run cannot be configured.
struct ResolvedRun {
  RunConfig config;
  std::optional<Range> directive;  // where the options came from (a directive)
};
std::optional<ResolvedRun> runConfigFor(const Snapshot &snap, const Settings &settings, const std::string &entry,
                                        size_t entryCount);

// The folder of a file:// URI (percent-decoded); empty for other schemes.
std::string folderOfUri(std::string_view uri);

// Why the files `config` names (inputs and outputs) are not inside `folder`
// once symbolic links are followed, or an output is a symbolic link or a file
// with more than one hard link; empty when they are. A file without a folder (an untitled document) may name none.
std::string runFilesProblem(const std::string &folder, const RunConfig &config);

} // namespace tilesight::lsp

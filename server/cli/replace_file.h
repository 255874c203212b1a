#pragma once
// Writing the user's file in place without ever leaving it half written
// (`check --fix`): the new text goes to a temporary file beside it, which then
// takes its name; a rename within one folder is atomic. A failure at any step
// (a full disk, a file size limit, an interruption) leaves the file as it was.
#include <string>

namespace tilesight::cli {

// Replaces the text of the regular file `path` (a symbolic link: of the file
// it leads to; the link stays) with `text`, keeping its permissions and, where
// the system allows, its owner. false with `why` when it cannot: the file is
// then unchanged.
bool replaceFileText(const std::string& path, const std::string& text, std::string& why);

}  // namespace tilesight::cli

#pragma once
// LSP positions and the conversion of analysis facts to LSP JSON. Positions
// count UTF-16 code units unless the client negotiated UTF-8 (LSP 3.17).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/diag/diagnostic.h"
#include "analysis/source/source_text.h"

namespace tilesight::lsp {

using json = nlohmann::json;

enum class PositionEncoding { Utf16, Utf8 };
const char *encodingName(PositionEncoding e);
// The client's `capabilities.general.positionEncodings`: UTF-8 when offered.
PositionEncoding negotiateEncoding(const json &initializeParams);

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
};

// Reads `{line, character}`; throws RpcError(InvalidParams) when malformed.
Position parsePosition(const json &j);
// Byte offset of a position; past the end of a line (or the text) clamps.
uint32_t toOffset(const SourceText &src, Position p, PositionEncoding e);
Position toPosition(const SourceText &src, uint32_t offset, PositionEncoding e);
json positionJson(const SourceText &src, uint32_t offset, PositionEncoding e);

// toPosition for offsets that never decrease (a sorted token list): it walks
// the lines and columns forward instead of searching for each one.
class PositionCursor {
public:
  PositionCursor(const SourceText &src, PositionEncoding e) : src_(src), e_(e) {}
  Position at(uint32_t offset);

private:
  const SourceText &src_;
  PositionEncoding e_;
  uint32_t line_ = 0, lineBegin_ = 0, nextLine_ = 0; // nextLine_: 0 = unknown
  uint32_t offset_ = 0, character_ = 0;              // the last answer
  bool started_ = false;
};
json rangeJson(const SourceText &src, Range r, PositionEncoding e);

// An LSP Diagnostic: range, severity, code with a link to its section of
// docs/checks.md, source "tilesight", message, notes as relatedInformation
// (in the same document).
json diagnosticJson(const SourceText &src, const std::string &uri,
                    const Diagnostic &d, PositionEncoding e);

// Required members of params, with InvalidParams when missing or mistyped.
const json &member(const json &object, const char *key);
std::string stringMember(const json &object, const char *key);

} // namespace tilesight::lsp

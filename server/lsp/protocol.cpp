#include "server/lsp/protocol.h"

#include <algorithm>

#include "server/lsp/doc_links.h"
#include "server/lsp/jsonrpc.h"

namespace tilesight::lsp {

const char *encodingName(PositionEncoding e) {
  return e == PositionEncoding::Utf8 ? "utf-8" : "utf-16";
}

PositionEncoding negotiateEncoding(const json &params) {
  const json *caps = params.is_object() && params.contains("capabilities")
                         ? &params["capabilities"]
                         : nullptr;
  if (!caps || !caps->is_object() || !caps->contains("general"))
    return PositionEncoding::Utf16;
  const json &general = (*caps)["general"];
  if (!general.is_object() || !general.contains("positionEncodings"))
    return PositionEncoding::Utf16;
  const json &offered = general["positionEncodings"];
  if (!offered.is_array())
    return PositionEncoding::Utf16;
  for (const json &o : offered)
    if (o == "utf-8")
      return PositionEncoding::Utf8;
  return PositionEncoding::Utf16;
}

const json &member(const json &object, const char *key) {
  if (!object.is_object())
    throw RpcError(error_code::InvalidParams,
                   std::string("expected an object with \"") + key + "\"");
  auto it = object.find(key);
  if (it == object.end())
    throw RpcError(error_code::InvalidParams,
                   std::string("missing \"") + key + "\"");
  return *it;
}

std::string stringMember(const json &object, const char *key) {
  const json &v = member(object, key);
  if (!v.is_string())
    throw RpcError(error_code::InvalidParams,
                   std::string("\"") + key + "\" must be a string");
  return v.get<std::string>();
}

Position parsePosition(const json &j) {
  const json &line = member(j, "line");
  const json &character = member(j, "character");
  auto valid = [](const json &v) {
    return v.is_number_integer() && v.get<int64_t>() >= 0 &&
           v.get<uint64_t>() <= UINT32_MAX;
  };
  if (!valid(line) || !valid(character))
    throw RpcError(
        error_code::InvalidParams,
        "a position needs non-negative integer \"line\" and \"character\"");
  return {line.get<uint32_t>(), character.get<uint32_t>()};
}

uint32_t toOffset(const SourceText &src, Position p, PositionEncoding e) {
  if (p.line >= src.lineCount())
    return src.size();
  uint32_t col = e == PositionEncoding::Utf8
                     ? p.character
                     : src.byteColFromUtf16(p.line, p.character);
  return src.offsetOf({p.line, col});
}

Position toPosition(const SourceText &src, uint32_t offset,
                    PositionEncoding e) {
  LineCol lc = src.lineCol(offset);
  return {lc.line, e == PositionEncoding::Utf8 ? lc.col : src.utf16Col(lc)};
}

Position PositionCursor::at(uint32_t offset) {
  // An offset inside a byte-order mark is where the first line starts.
  offset = std::clamp(offset, src_.offsetOf({0, 0}), src_.size());
  if (!started_ || offset < offset_) { // first, or not forward: find the line
    started_ = true;
    LineCol lc = src_.lineCol(offset);
    line_ = lc.line;
    lineBegin_ = offset_ = offset - lc.col;
    nextLine_ = character_ = 0;
  }
  auto nextLineBegin = [&] {
    if (nextLine_ == 0)
      nextLine_ = line_ + 1 < src_.lineCount() ? src_.offsetOf({line_ + 1, 0}) : src_.size() + 1;
    return nextLine_;
  };
  while (offset >= nextLineBegin()) {
    ++line_;
    lineBegin_ = offset_ = nextLine_;
    nextLine_ = character_ = 0;
  }
  std::string_view text = src_.text();
  for (; offset_ < offset; ++offset_) {
    auto c = static_cast<unsigned char>(text[offset_]);
    // As toPosition: UTF-8 columns are bytes; UTF-16 columns stop at the
    // line's text (inside a "\r\n" they do not count the "\r").
    if (e_ == PositionEncoding::Utf8)
      ++character_;
    else if ((c & 0xC0) != 0x80 && !isLineEnd(text[offset_])) // 2 units beyond the BMP
      character_ += c >= 0xF0 ? 2 : 1;
  }
  return {line_, character_};
}

json positionJson(const SourceText &src, uint32_t offset, PositionEncoding e) {
  Position p = toPosition(src, offset, e);
  return {{"line", p.line}, {"character", p.character}};
}

json rangeJson(const SourceText &src, Range r, PositionEncoding e) {
  return {{"start", positionJson(src, r.begin, e)},
          {"end", positionJson(src, r.end, e)}};
}

namespace {
int severityNumber(Severity s) {
  switch (s) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Note:
    return 3;
  case Severity::Remark:
    return 4;
  }
  return 1;
}
} // namespace

json diagnosticJson(const SourceText &src, const std::string &uri,
                    const Diagnostic &d, PositionEncoding e) {
  json j = {{"range", rangeJson(src, d.range, e)},
            {"severity", severityNumber(d.severity)},
            {"code", d.code},
            {"source", "tilesight"},
            {"message", d.message}};
  if (std::optional<std::string> href = checkDocUrl(d.code))
    j["codeDescription"] = {{"href", *href}};
  if (!d.notes.empty()) {
    json related = json::array();
    for (const RelatedNote &n : d.notes)
      related.push_back(
          {{"location", {{"uri", uri}, {"range", rangeJson(src, n.range, e)}}},
           {"message", n.message}});
    j["relatedInformation"] = std::move(related);
  }
  return j;
}

} // namespace tilesight::lsp

#pragma once
// Parsing a message that holds a long string (a whole document's text, sent
// on open and by clients that sync the full text) without nlohmann's lexer
// going over it a byte at a time: each long string value is decoded by a
// scanner of its own (memchr to the next quote or backslash, a word-at-a-time
// check of the bytes), nlohmann parses the rest, and the strings go back in
// place. The result is json::parse's; anything the scanner does not take
// (an escape or a byte it doubts) is parsed by json::parse whole, so errors
// are json::parse's too.
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tilesight::lsp {

// A string value this long or longer is decoded by the scanner.
constexpr size_t kLongStringBytes = 4096;

// The index of the quote that closes the JSON string opened at `open` (the
// first quote not escaped), found with memchr; npos when there is none.
size_t jsonStringEnd(std::string_view text, size_t open);

// json::parse(body), faster when the body holds long strings; throws its
// parse_error.
nlohmann::json parseMessage(std::string_view body);

} // namespace tilesight::lsp

#pragma once
// Transcript tests of the language server (tests/lsp/*.test), our own format.
// One directive per line; lines that start with whitespace continue the
// previous `send`/`expect`; `#` starts a comment line.
//
//   text NAME          a document: the following lines up to a line `end`;
//                      `${NAME}` in a later `send` becomes its JSON string
//   send JSON          a client message, framed with Content-Length
//   raw BYTES          bytes sent as they are, after the escapes \r \n \t
//   \\ (for framing tests) expect JSON        the next server message contains
//   this subset: objects
//                      match key by key, arrays element by element (same
//                      length), a string "~abc" matches any string containing
//                      abc
//   log TEXT           the server's log contains TEXT
//   exit-code N        the server's exit status
//
// Every server message must be matched by an `expect`, in order. The runner
// plays the client as an editor would: it sends the messages up to an
// `expect`, waits for the server's next message, then goes on.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tilesight::lsp::testing {

struct Step {
  enum Kind { Send, Raw, Expect, Log, ExitCode } kind = Send;
  std::string body;
  int line = 0; // in the .test file, for messages
};

struct Transcript {
  std::vector<Step> steps;
  std::string error; // the file is malformed: why and where
};

Transcript parseTranscript(std::string_view content);

// The client's bytes of one step: a framed `send` message or `raw` bytes
// (nothing for other steps).
std::string clientBytes(const Step &s);

// Whether `actual` contains `expected` (the subset rule above); `why` says
// where they differ.
bool matchesSubset(const nlohmann::json &expected, const nlohmann::json &actual,
                   std::string &why, const std::string &path = "");

} // namespace tilesight::lsp::testing

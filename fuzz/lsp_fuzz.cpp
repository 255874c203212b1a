// libFuzzer target: any bytes as the client's side of a language-server
// connection, after a fixed `initialize`, so the fuzzer spends its time on
// framing, dispatch, documents and features rather than on finding the
// lifecycle. Besides the sanitizers, it checks that the server's output is
// well framed JSON-RPC and that every request the server read (up to `exit`)
// got exactly one answer. Clients may reuse ids, so answers are counted per
// id against the requests that carried it.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/server.h"
#include "server/lsp/transport.h"

namespace {

using tilesight::lsp::Incoming;
using tilesight::lsp::Logger;
using tilesight::lsp::MessageReader;
using tilesight::lsp::StringStream;

// Each framed message of `bytes`, in order, as the server reads them.
template <class F> void eachMessage(const std::string &bytes, F f) {
  std::string discard;
  llvm::raw_string_ostream os(discard);
  Logger log(os, Logger::Level::Error);
  StringStream in(bytes);
  MessageReader reader(in, log);
  while (auto body = reader.next())
    if (!f(*body))
      return;
}

// How many answers each id must get: one per request read before `exit`
// (and per invalid message that still carried an id). A message nested too
// deep is refused before its id is read, so it is answered with id null.
std::map<std::string, int> expectedAnswers(const std::string &input) {
  std::map<std::string, int> want;
  eachMessage(input, [&](const std::string &body) {
    if (tilesight::lsp::nestsDeeperThan(body, tilesight::lsp::kMaxJsonDepth))
      return true;
    nlohmann::json m = nlohmann::json::parse(body, nullptr, false);
    if (m.is_discarded())
      return true;
    Incoming in = tilesight::lsp::classify(m);
    if ((in.kind == Incoming::Request || in.kind == Incoming::Invalid) &&
        !in.id.is_null())
      ++want[in.id.dump()];
    return !(in.kind == Incoming::Notification && in.method == "exit");
  });
  return want;
}

void checkOutput(const std::string &input, const std::string &output) {
  std::map<std::string, int> answered;
  std::string rejected;
  {
    llvm::raw_string_ostream os(rejected);
    Logger log(os, Logger::Level::Error);
    StringStream in(output);
    MessageReader reader(in, log);
    while (auto body = reader.next()) {
      nlohmann::json m = nlohmann::json::parse(*body); // throws: not JSON
      if (m.value("jsonrpc", "") != "2.0")
        __builtin_trap();
      bool isResponse = m.contains("result") || m.contains("error");
      if (isResponse && !m["id"].is_null())
        ++answered[m["id"].dump()];
    }
  }
  if (!rejected.empty())
    __builtin_trap(); // the server wrote something the reader rejects
  if (answered != expectedAnswers(input))
    __builtin_trap(); // a request without an answer, or with two
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input = tilesight::lsp::frame(
      R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{}}})");
  input.append(reinterpret_cast<const char *>(data), size);
  StringStream stream(input);
  std::string discard;
  llvm::raw_string_ostream os(discard);
  Logger log(os, Logger::Level::Error);
  tilesight::lsp::serve(stream, log);
  checkOutput(input, stream.output());
  return 0;
}

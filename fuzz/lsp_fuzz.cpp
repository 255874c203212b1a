// libFuzzer target: any bytes as the client's side of a language-server
// connection, after a fixed `initialize`, so the fuzzer spends its time on
// framing, dispatch, documents and features rather than on finding the
// lifecycle. Besides the sanitizers, it checks that the server's output is
// well framed JSON-RPC and that no request is answered twice.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/server.h"
#include "server/lsp/transport.h"

namespace {

using tilesight::lsp::Logger;
using tilesight::lsp::MessageReader;
using tilesight::lsp::StringStream;

void checkOutput(const std::string &output) {
  std::string discard;
  llvm::raw_string_ostream os(discard);
  Logger log(os, Logger::Level::Error);
  StringStream in(output);
  MessageReader reader(in, log);
  std::set<std::string> answered;
  while (auto body = reader.next()) {
    nlohmann::json m = nlohmann::json::parse(*body); // throws: not JSON
    if (m.value("jsonrpc", "") != "2.0")
      __builtin_trap();
    bool isResponse = m.contains("result") || m.contains("error");
    if (isResponse && !m["id"].is_null() &&
        !answered.insert(m["id"].dump()).second)
      __builtin_trap(); // one request, two answers
  }
  if (!os.str().empty())
    __builtin_trap(); // the server wrote something the reader rejects
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input = tilesight::lsp::frame(
      R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"capabilities":{}}})");
  input.append(reinterpret_cast<const char *>(data), size);
  StringStream stream(std::move(input));
  std::string discard;
  llvm::raw_string_ostream os(discard);
  Logger log(os, Logger::Level::Error);
  tilesight::lsp::serve(stream, log);
  checkOutput(stream.output());
  return 0;
}

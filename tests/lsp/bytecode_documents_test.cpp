// A CUDA Tile IR bytecode file in the editor (bytecode_documents.h): the
// client asks tilesight.translate for the text form and opens it, under a
// tilesight-bytecode: URI (VS Code) or the file's own (Neovim); the server
// analyzes it with the launch file beside the bytecode, and each diagnostic
// names its op's Python line. The text form comes from the server, so the
// test holds whatever the printer prints.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <thread>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/doc_links.h"
#include "server/lsp/server.h"
#include "tests/lsp/pipe_stream.h"
#include "tests/lsp/transcript.h"

namespace tilesight::lsp::testing {
namespace {

using nlohmann::json;

const std::string kBugs =
    std::filesystem::weakly_canonical(std::string(TILESIGHT_LSP_TESTS_DIR) + "/../corpus/cutile/bugs").string();
// Its launch file (grid 4) makes the race between tile blocks visible; the
// mistake is on line 11 of the Python file, column 5.
const std::string kBytecode = kBugs + "/argmax_rows_bug1.argmax_rows.13_3.tilebc";
const std::string kPython = kBugs + "/argmax_rows_bug1.py";

class Client {
public:
  Client() : log_(os_, Logger::Level::Verbose), server_([this] { serve(stream_, log_); }) {
    send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
    await([](const json &m) { return m.value("id", -1) == 0; });
  }
  ~Client() {
    stream_.close();
    server_.join();
  }
  void send(const json &message) {
    stream_.push(clientBytes({Step::Send, message.dump()}));
  }
  json request(const std::string &method, json params) {
    int id = ++lastId_;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
    return await([id](const json &m) { return m.value("id", -1) == id; });
  }
  // The first message since the last one awaited that `wanted` takes;
  // null after 20 s without it.
  json await(const std::function<bool(const json &)> &wanted) {
    for (size_t n = seen_ + 1;; ++n) {
      std::vector<json> got = stream_.waitForMessages(n, std::chrono::seconds(20));
      if (got.size() < n)
        return nullptr;
      seen_ = n;
      if (wanted(got[n - 1]))
        return got[n - 1];
    }
  }
  json diagnosticsOf(const std::string &uri) {
    json m = await([&](const json &m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
    });
    return m.is_null() ? m : m["params"]["diagnostics"];
  }
  void open(const std::string &uri, const std::string &text) {
    send({{"jsonrpc", "2.0"},
          {"method", "textDocument/didOpen"},
          {"params", {{"textDocument", {{"uri", uri}, {"languageId", "tileir"}, {"version", 1}, {"text", text}}}}}});
  }
  std::string log() { return os_.str(); }

private:
  PipeStream stream_;
  std::string logText_;
  llvm::raw_string_ostream os_{logText_};
  Logger log_;
  std::thread server_;
  size_t seen_ = 0;
  int lastId_ = 0;
};

json translate(Client &c, const std::string &uri) {
  return c.request("workspace/executeCommand", {{"command", "tilesight.translate"}, {"arguments", {{{"uri", uri}}}}});
}

// The race.unordered diagnostic of the bug, checked for its Python location.
void expectRaceAtPythonLine(const json &diagnostics) {
  ASSERT_TRUE(diagnostics.is_array()) << "no diagnostics were published";
  const json *race = nullptr;
  for (const json &d : diagnostics)
    if (d["code"] == "race.unordered")
      race = &d;
  ASSERT_NE(race, nullptr) << "no race.unordered (the launch's grid 4 was not used?): " << diagnostics.dump();
  bool located = false;
  for (const json &r : (*race)["relatedInformation"])
    if (r["location"]["uri"] == fileUri(kPython)) {
      EXPECT_EQ(r["location"]["range"]["start"], json({{"line", 10}, {"character", 4}}));
      EXPECT_NE(r["message"].get<std::string>().find("argmax_rows_bug1.py:11:5"), std::string::npos) << r.dump();
      located = true;
    }
  EXPECT_TRUE(located) << "no related information at " << kPython << ": " << race->dump();
}

TEST(BytecodeDocuments, OpenAsTextWithDiagnosticsAtPythonLinesHoverAndNoFixes) {
  Client c;
  std::string uri = "tilesight-bytecode:" + percentEncodePath(kBytecode);
  json t = translate(c, uri);
  ASSERT_TRUE(t.contains("result")) << t.dump();
  EXPECT_EQ(t["result"]["version"], "13.3");
  EXPECT_EQ(t["result"]["hasDebugInfo"], true);
  std::string text = t["result"]["text"];
  ASSERT_NE(text.find("cuda_tile.module"), std::string::npos) << text;

  c.open(uri, text);
  json diagnostics = c.diagnosticsOf(uri);
  expectRaceAtPythonLine(diagnostics);

  // Hover on the racing op: the op's documentation, as in any document.
  json race;
  for (const json &d : diagnostics)
    if (d["code"] == "race.unordered")
      race = d;
  int line = race["range"]["start"]["line"];
  size_t lineStart = 0;
  for (int i = 0; i < line; ++i)
    lineStart = text.find('\n', lineStart) + 1;
  size_t op = text.find("store_view_tko", lineStart);
  ASSERT_LT(op, text.find('\n', lineStart)) << "the diagnostic's line has no store_view_tko";
  json hover = c.request("textDocument/hover", {{"textDocument", {{"uri", uri}}},
                                                {"position", {{"line", line}, {"character", op - lineStart}}}});
  EXPECT_NE(hover["result"]["contents"]["value"].get<std::string>().find("store_view_tko"), std::string::npos)
      << hover.dump();
  // Its quick fix would edit a read-only text: none is offered.
  json actions = c.request("textDocument/codeAction", {{"textDocument", {{"uri", uri}}},
                                                       {"range", race["range"]},
                                                       {"context", {{"diagnostics", json::array()}}}});
  EXPECT_EQ(actions["result"], json::array()) << actions.dump();
}

TEST(BytecodeDocuments, TheFilesOwnUriAsNeovimOpensIt) {
  Client c;
  std::string uri = fileUri(kBytecode);
  json t = translate(c, uri);
  ASSERT_TRUE(t.contains("result")) << t.dump();
  c.open(uri, t["result"]["text"]);
  expectRaceAtPythonLine(c.diagnosticsOf(uri));
}

TEST(BytecodeDocuments, AnEditedTextLosesThePythonLocationsNotItsAnalysis) {
  Client c;
  std::string uri = fileUri(kBytecode);
  std::string text = translate(c, uri)["result"]["text"];
  c.open(uri, "// edited\n" + text);
  json diagnostics = c.diagnosticsOf(uri);
  ASSERT_TRUE(diagnostics.is_array());
  ASSERT_FALSE(diagnostics.empty());
  for (const json &d : diagnostics)
    for (const json &r : d.value("relatedInformation", json::array()))
      EXPECT_NE(r["location"]["uri"], fileUri(kPython)) << d.dump();
}

TEST(BytecodeDocuments, TranslateSaysWhatIsWrong) {
  Client c;
  std::string text = kBugs + "/argmax_rows_bug1.py";
  json e = translate(c, fileUri(text))["error"];
  EXPECT_EQ(e["code"], -32803);
  EXPECT_EQ(e["message"], "tilesight.translate: '" + text +
                              "' is not CUDA Tile IR bytecode (it does not start with \\x7fTileIR\\0): open it as text");
  e = translate(c, fileUri(kBugs + "/no-such.tilebc"))["error"];
  EXPECT_EQ(e["message"], "tilesight.translate: cannot read '" + kBugs + "/no-such.tilebc'");
  e = translate(c, "untitled:Untitled-1")["error"];
  EXPECT_EQ(e["code"], -32602);
  EXPECT_NE(e["message"].get<std::string>().find("does not name a local file"), std::string::npos) << e.dump();
}

} // namespace
} // namespace tilesight::lsp::testing

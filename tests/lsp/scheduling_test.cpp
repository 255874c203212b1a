// The worker's rules (scheduler.h) and what the server makes of them: stale
// versions skipped, debounce, $/cancelRequest (-32800), ContentModified
// (-32801). The worker is paused while a test queues work, so the order the
// test builds is the order the worker sees.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/scheduler.h"
#include "server/lsp/server.h"
#include "tests/lsp/pipe_stream.h"

namespace tilesight::lsp::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct Quiet {
  std::string text;
  llvm::raw_string_ostream os{text};
  Logger log{os, Logger::Level::Verbose};
};

TEST(Scheduler, RunsInOrderAndSkipsStaleUpdates) {
  Quiet q;
  Scheduler s(q.log);
  std::vector<std::string> ran;
  s.pause();
  s.update("a", 0us, [&] { ran.push_back("a1"); });
  s.request("a", [&](bool modified) {
    ran.push_back(modified ? "r1 modified" : "r1");
  });
  s.update("b", 0us, [&] { ran.push_back("b1"); });
  s.update("a", 0us, [&] { ran.push_back("a2"); });
  s.request("a", [&](bool modified) {
    ran.push_back(modified ? "r2 modified" : "r2");
  });
  s.request("", [&](bool modified) {
    ran.push_back(modified ? "r3 modified" : "r3");
  });
  s.resume();
  s.waitIdle();
  // a1 is stale (a2 is queued), and r1 was sent before a2 changed "a".
  EXPECT_EQ(ran, (std::vector<std::string>{"r1 modified", "b1", "a2", "r2",
                                           "r3"}));
}

TEST(Scheduler, DebouncesOnlyWhenNothingWaits) {
  Quiet q;
  Scheduler s(q.log);
  Clock::time_point ranAt;
  auto queued = Clock::now();
  s.update("a", 200ms, [&] { ranAt = Clock::now(); });
  s.waitIdle();
  EXPECT_GE(ranAt - queued, 200ms);

  // A request behind the update wants it now.
  std::atomic<bool> answered = false;
  queued = Clock::now();
  s.pause();
  s.update("a", 5s, [&] { ranAt = Clock::now(); });
  s.request("a", [&](bool) { answered = true; });
  s.resume();
  s.waitIdle();
  EXPECT_TRUE(answered);
  EXPECT_LT(ranAt - queued, 4s);

  // A second change during the quiet time makes the first one stale.
  int runs = 0;
  s.update("a", 300ms, [&] { runs += 1; });
  std::this_thread::sleep_for(50ms);
  s.update("a", 0ms, [&] { runs += 10; });
  s.waitIdle();
  EXPECT_EQ(runs, 10);
}

TEST(Scheduler, DebounceOnlyForEditsFasterThanAnalyses) {
  // A slow typist (200 ms between edits, 30 ms analyses): no wait.
  EXPECT_EQ(debounceWait(30ms, 200ms, 50ms), 0us);
  // Edits 10 ms apart on a 30 ms analysis: wait one analysis.
  EXPECT_EQ(debounceWait(30ms, 10ms, 50ms), 30ms);
  // A 400 ms analysis: the setting caps the wait.
  EXPECT_EQ(debounceWait(400ms, 10ms, 50ms), 50ms);
  EXPECT_EQ(debounceWait(400ms, 10ms, 0ms), 0us);
}

TEST(Scheduler, StopDropsQueuedWork) {
  Quiet q;
  Scheduler s(q.log);
  bool ran = false;
  s.pause();
  s.request("", [&](bool) { ran = true; });
  s.stop();
  s.stop(); // idempotent
  EXPECT_FALSE(ran);
  EXPECT_NE(q.os.str().find("stopped with 1 queued tasks not run"),
            std::string::npos);
}

std::string body(const nlohmann::json &j) { return j.dump(); }

nlohmann::json didChange(int version, const std::string &text) {
  return {{"jsonrpc", "2.0"},
          {"method", "textDocument/didChange"},
          {"params",
           {{"textDocument", {{"uri", "file:///c.tile"}, {"version", version}}},
            {"contentChanges", {{{"text", text}}}}}}};
}

nlohmann::json hover(int id) {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "textDocument/hover"},
          {"params",
           {{"textDocument", {{"uri", "file:///c.tile"}}},
            {"position", {{"line", 0}, {"character", 1}}}}}};
}

TEST(ServerScheduling, StaleCancelledAndModified) {
  Quiet q;
  PipeStream stream;
  MessageWriter writer(stream);
  LspServer server(writer, q.log);
  server.handle(body({{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "initialize"},
                      {"params", {{"capabilities", nlohmann::json::object()}}}}));
  server.scheduler().pause();
  server.handle(body(
      {{"jsonrpc", "2.0"},
       {"method", "textDocument/didOpen"},
       {"params",
        {{"textDocument",
          {{"uri", "file:///c.tile"},
           {"languageId", "tileir"},
           {"version", 1},
           {"text", "#a = #layout<4:1>\n"}}}}}}));
  server.handle(body(didChange(2, "#b = #layout<8:1>\n")));
  server.handle(body(hover(5)));
  server.handle(body({{"jsonrpc", "2.0"},
                      {"method", "$/cancelRequest"},
                      {"params", {{"id", 5}}}}));
  server.handle(body(hover(6)));
  server.handle(body(didChange(3, "#c = #layout<2:1, expect = bijective>\n"
                                  "#d = #layout<(2,2):(1,1)>\n")));
  server.handle(body(hover(7)));
  server.scheduler().resume();
  server.scheduler().waitIdle();

  std::vector<nlohmann::json> m = stream.messages();
  ASSERT_EQ(m.size(), 5u) << nlohmann::json(m).dump();
  EXPECT_EQ(m[0]["id"], 1); // initialize
  EXPECT_EQ(m[1]["id"], 5);
  EXPECT_EQ(m[1]["error"]["code"], -32800);
  EXPECT_EQ(m[2]["id"], 6);
  EXPECT_EQ(m[2]["error"]["code"], -32801);
  // Versions 1 and 2 were stale before the worker reached them.
  EXPECT_EQ(m[3]["method"], "textDocument/publishDiagnostics");
  EXPECT_EQ(m[3]["params"]["version"], 3);
  EXPECT_EQ(m[4]["id"], 7);
  EXPECT_NE(m[4]["result"]["contents"]["value"].get<std::string>().find(
                "**#c**"),
            std::string::npos);
  EXPECT_NE(q.os.str().find("skipped a stale version of file:///c.tile"),
            std::string::npos);
}

} // namespace
} // namespace tilesight::lsp::testing

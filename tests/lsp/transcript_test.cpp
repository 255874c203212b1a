// Runs every tests/lsp/*.test transcript against the server in process, the
// server on its own thread behind a PipeStream: the client's messages go in
// up to each `expect`, then the runner waits for the server's next message.
// Each transcript runs twice, once read whole and once a byte per read, and
// both runs must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/server.h"
#include "server/lsp/transport.h"
#include "tests/lsp/pipe_stream.h"
#include "tests/lsp/transcript.h"

namespace tilesight::lsp::testing {
namespace {

struct ServerRun {
  std::vector<nlohmann::json> messages;
  std::string log;
  int exitCode = -1;
};

// Long enough for a slow machine under sanitizers; a missing message costs
// this once, then the run ends.
constexpr std::chrono::seconds kMessageTimeout(20);

ServerRun runServer(const Transcript &t, size_t chunk) {
  ServerRun r;
  PipeStream stream(chunk);
  llvm::raw_string_ostream os(r.log);
  Logger log(os, Logger::Level::Verbose);
  // Runs (tilesight.run) start the tilesight executable this build made.
  std::thread server([&] { r.exitCode = serve(stream, log, ServeOptions{TILESIGHT_BINARY}); });
  size_t expected = 0;
  for (const Step &s : t.steps) {
    if (s.kind == Step::Expect) {
      ++expected;
      if (stream.waitForMessages(expected, kMessageTimeout).size() < expected)
        break; // the server is silent: report what it sent
    }
    stream.push(clientBytes(s));
  }
  stream.close();
  server.join();
  bool wellFramed = false;
  r.messages = stream.messages(&wellFramed);
  EXPECT_TRUE(wellFramed) << "the server's output is not well framed";
  os.flush();
  return r;
}

std::vector<std::string> transcriptNames() {
  std::vector<std::string> names;
  for (const auto &e :
       std::filesystem::directory_iterator(TILESIGHT_LSP_TESTS_DIR))
    if (e.path().extension() == ".test")
      names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The messages without what a clock measures (a run's times and the report
// that shows them), which differ between two runs of one transcript.
nlohmann::json withoutTimes(nlohmann::json j) {
  if (j.is_object()) {
    for (const char *key : {"wall_ms", "run_ms", "compile_ms", "report"})
      j.erase(key);
    for (auto &[key, value] : j.items())
      value = withoutTimes(value);
  } else if (j.is_array()) {
    for (auto &value : j)
      value = withoutTimes(value);
  }
  return j;
}

std::vector<nlohmann::json> withoutTimes(const std::vector<nlohmann::json> &messages) {
  std::vector<nlohmann::json> out;
  for (const auto &m : messages)
    out.push_back(withoutTimes(m));
  return out;
}

class Transcripts : public ::testing::TestWithParam<std::string> {};

TEST_P(Transcripts, Run) {
  std::ifstream file(std::string(TILESIGHT_LSP_TESTS_DIR) + "/" + GetParam() +
                         ".test",
                     std::ios::binary);
  ASSERT_TRUE(file) << "cannot read the transcript";
  std::stringstream content;
  content << file.rdbuf();
  Transcript t = parseTranscript(content.str());
  ASSERT_EQ(t.error, "") << "malformed transcript";
  ASSERT_TRUE(std::any_of(t.steps.begin(), t.steps.end(), [](const Step &s) {
    return s.kind != Step::Send;
  })) << "a transcript must check something";

  ServerRun whole = runServer(t, SIZE_MAX);
  ServerRun bytewise = runServer(t, 1);
  ASSERT_EQ(withoutTimes(whole.messages), withoutTimes(bytewise.messages))
      << "reading a byte at a time changed the server's answers";
  ASSERT_EQ(whole.exitCode, bytewise.exitCode);

  size_t next = 0;
  for (const Step &s : t.steps) {
    SCOPED_TRACE("transcript line " + std::to_string(s.line));
    switch (s.kind) {
    case Step::Send:
    case Step::Raw:
      break;
    case Step::Expect: {
      ASSERT_LT(next, whole.messages.size())
          << "the server sent no message for: " << s.body << "\nlog:\n"
          << whole.log;
      std::string why;
      EXPECT_TRUE(matchesSubset(nlohmann::json::parse(s.body),
                                whole.messages[next], why))
          << why << "\nmessage: " << whole.messages[next].dump();
      ++next;
      break;
    }
    case Step::Log:
      EXPECT_NE(whole.log.find(s.body), std::string::npos) << "log:\n"
                                                           << whole.log;
      break;
    case Step::ExitCode:
      EXPECT_EQ(std::to_string(whole.exitCode), s.body);
      break;
    }
  }
  for (; next < whole.messages.size(); ++next)
    ADD_FAILURE() << "unexpected server message: "
                  << whole.messages[next].dump();
}

INSTANTIATE_TEST_SUITE_P(
    Lsp, Transcripts, ::testing::ValuesIn(transcriptNames()),
    [](const ::testing::TestParamInfo<std::string> &info) {
      std::string n = info.param;
      std::replace_if(
          n.begin(), n.end(),
          [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); },
          '_');
      return n;
    });

} // namespace
} // namespace tilesight::lsp::testing

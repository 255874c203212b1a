// Runs every tests/lsp/*.test transcript against the server in process: the
// client's framed bytes go in through a StringStream, the server's messages
// are decoded and matched in order. Each transcript runs twice, once read
// whole and once a byte per read, and both runs must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <llvm/Support/raw_ostream.h>

#include "server/lsp/server.h"
#include "server/lsp/transport.h"
#include "tests/lsp/transcript.h"

namespace tilesight::lsp::testing {
namespace {

struct ServerRun {
  std::vector<nlohmann::json> messages;
  std::string log;
  int exitCode = -1;
};

ServerRun runServer(const std::string &input, size_t chunk) {
  ServerRun r;
  StringStream stream(input, chunk);
  {
    llvm::raw_string_ostream os(r.log);
    Logger log(os, Logger::Level::Verbose);
    r.exitCode = serve(stream, log);
  }
  // The server's own output must be well framed: decode it with the reader.
  std::string decodeLog;
  llvm::raw_string_ostream decodeOs(decodeLog);
  Logger decodeLogger(decodeOs);
  StringStream out(stream.output());
  MessageReader reader(out, decodeLogger);
  while (auto body = reader.next())
    r.messages.push_back(nlohmann::json::parse(*body));
  EXPECT_EQ(decodeOs.str(), "") << "the server's output is not well framed";
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

  std::string input = clientBytes(t);
  ServerRun whole = runServer(input, SIZE_MAX);
  ServerRun bytewise = runServer(input, 1);
  ASSERT_EQ(whole.messages, bytewise.messages)
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

// The layers under the transcripts: framing, message kinds, reply-once,
// incremental edits; and the real executable over stdio and TCP.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <fstream>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <llvm/Support/raw_ostream.h>

#include "server/lsp/documents.h"
#include "server/lsp/jsonrpc.h"
#include "server/lsp/transport.h"

namespace tilesight::lsp {
namespace {

struct Read {
  std::vector<std::string> bodies;
  std::string log;
};

Read readAll(const std::string &input, size_t chunk = SIZE_MAX) {
  Read r;
  llvm::raw_string_ostream os(r.log);
  Logger log(os);
  StringStream s(input, chunk);
  MessageReader reader(s, log);
  while (auto b = reader.next())
    r.bodies.push_back(*b);
  os.flush();
  return r;
}

TEST(LspFraming, SplitReadsAndOtherHeaders) {
  std::string in = "Content-Type: application/vscode-jsonrpc; "
                   "charset=utf-8\r\nContent-Length: 2\r\n\r\n{}" +
                   frame("[1]") + "\r\n" + "content-length:3\n\n[2]";
  for (size_t chunk : {size_t(1), size_t(7), SIZE_MAX}) {
    Read r = readAll(in, chunk);
    EXPECT_EQ(r.bodies, (std::vector<std::string>{"{}", "[1]", "[2]"}))
        << "chunk " << chunk;
    EXPECT_EQ(r.log, "");
  }
}

// The reader compacts its buffer once 4 KiB are consumed; a header that
// arrives in a later read must still be found (a 4 KB initialize from Neovim
// once made the next message vanish).
TEST(LspFraming, HeadersAfterTheBufferIsCompacted) {
  std::string big = "\"" + std::string(5000, 'x') + "\"";
  std::string first = frame(big);
  std::string in = first + frame("[2]") + frame("[3]");
  for (size_t chunk : {size_t(1), size_t(7), size_t(4096), size_t(4097),
                       first.size(), first.size() + 5, SIZE_MAX}) {
    Read r = readAll(in, chunk);
    EXPECT_EQ(r.bodies, (std::vector<std::string>{big, "[2]", "[3]"}))
        << "chunk " << chunk;
    EXPECT_EQ(r.log, "") << "chunk " << chunk;
  }
}

TEST(LspFraming, DuplicateLengthUsesTheLast) {
  Read r = readAll("Content-Length: 99\r\nContent-Length: 2\r\n\r\n{}");
  EXPECT_EQ(r.bodies, std::vector<std::string>{"{}"});
  EXPECT_NE(
      r.log.find(
          "duplicate Content-Length header: the previous value 99 was ignored"),
      std::string::npos);
}

TEST(LspFraming, BadHeadersAreSkippedAndReadingResumes) {
  Read r = readAll("Content-Length: abc\r\n\r\n" +
                   std::string("garbage line\r\n\r\n") +
                   "Content-Length: " + std::to_string((1ull << 30) + 1) +
                   "\r\n\r\n{\"big\":1}" + frame("[3]"));
  EXPECT_EQ(r.bodies, std::vector<std::string>{"[3]"});
  EXPECT_NE(r.log.find("bad Content-Length value 'abc'"), std::string::npos)
      << r.log;
  EXPECT_NE(r.log.find("ignored a malformed header line: 'garbage line'"),
            std::string::npos)
      << r.log;
  EXPECT_NE(r.log.find("refused a message of 1073741825 bytes"),
            std::string::npos)
      << r.log;
  EXPECT_NE(r.log.find("skipped 9 bytes before a header"), std::string::npos)
      << r.log;
}

TEST(LspFraming, TruncatedBodyIsTheEnd) {
  Read r = readAll(frame("[1]") + "Content-Length: 10\r\n\r\n[2");
  EXPECT_EQ(r.bodies, std::vector<std::string>{"[1]"});
  EXPECT_NE(r.log.find("input ended inside a message body (2 of 10 bytes)"),
            std::string::npos);
  Read header = readAll("Content-Len");
  EXPECT_TRUE(header.bodies.empty());
  EXPECT_NE(header.log.find("input ended inside a message header"),
            std::string::npos);
}

TEST(LspFraming, OverlongHeaderLineIsDropped) {
  Read r = readAll(std::string(kMaxHeaderLine + 10, 'x') + "\r\n\r\n" +
                   frame("[1]"));
  EXPECT_EQ(r.bodies, std::vector<std::string>{"[1]"});
}

TEST(LspJsonRpc, Classify) {
  using K = Incoming::Kind;
  auto kind = [](const char *text) { return classify(json::parse(text)).kind; };
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","id":1,"method":"m"})"), K::Request);
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","id":"a","method":"m","params":[]})"),
            K::Request);
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","method":"m"})"), K::Notification);
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","id":1,"result":null})"), K::Response);
  EXPECT_EQ(kind(R"({"id":1,"method":"m"})"), K::Invalid);
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","id":{},"method":"m"})"), K::Invalid);
  EXPECT_EQ(kind(R"({"jsonrpc":"2.0","id":1,"method":"m","params":3})"),
            K::Invalid);
  EXPECT_EQ(kind(R"([1,2])"), K::Invalid);
  // The id of an invalid request is kept, so the error can name it.
  EXPECT_EQ(
      classify(json::parse(R"({"jsonrpc":"1.0","id":7,"method":"m"})")).id, 7);
}

TEST(LspJsonRpc, ReplyAnswersExactlyOnce) {
  StringStream s("");
  MessageWriter w(s);
  std::string logText;
  llvm::raw_string_ostream os(logText);
  Logger log(os);
  Connection conn(w, log);
  {
    Reply r(conn, 1, "a");
    r.result(42);
    r.error(error_code::InternalError, "second answer"); // ignored
  }
  { Reply forgotten(conn, "x", "b"); } // destroyed unanswered: InternalError
  EXPECT_EQ(
      s.output(),
      frame(R"({"id":1,"jsonrpc":"2.0","result":42})") +
          frame(
              R"({"error":{"code":-32603,"message":"the server did not answer b"},"id":"x","jsonrpc":"2.0"})"));
  EXPECT_NE(os.str().find("<-- a(1) reply"), std::string::npos);
}

TEST(LspDocuments, IncrementalChangesInBothEncodings) {
  SourceText src("a😀b\nxyz\n");
  json change = {{"range",
                  {{"start", {{"line", 0}, {"character", 3}}},
                   {"end", {{"line", 1}, {"character", 1}}}}},
                 {"text", "-"}};
  EXPECT_EQ(applyChange(src, change, PositionEncoding::Utf16),
            "a😀-yz\n"); // 😀 is two UTF-16 units
  change["range"]["start"]["character"] = 5;
  EXPECT_EQ(applyChange(src, change, PositionEncoding::Utf8),
            "a😀-yz\n"); // and four bytes
  EXPECT_EQ(applyChange(src, {{"text", "new"}}, PositionEncoding::Utf16),
            "new");
  change["range"]["start"]["line"] = 2;
  EXPECT_THROW(applyChange(src, change, PositionEncoding::Utf16),
               RpcError); // start after end
  EXPECT_THROW(
      applyChange(src, {{"range", 1}, {"text", "x"}}, PositionEncoding::Utf16),
      RpcError);
}

// --- the real executable
// ------------------------------------------------------

std::string tempPath(const std::string &name) {
  return ::testing::TempDir() +
         ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
         name;
}

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})";
const std::string kShutdown = R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})";
const std::string kExit = R"({"jsonrpc":"2.0","method":"exit"})";

struct Process {
  int status = -1;
  std::string out;
};

Process runStdio(const std::string &input) {
  std::string in = tempPath("stdin.bin");
  std::ofstream(in, std::ios::binary) << input;
  std::string cmd =
      std::string(TILESIGHT_BINARY) + " lsp < " + in + " 2>/dev/null";
  Process p;
  FILE *f = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    p.out.append(buf, n);
  int st = pclose(f);
  p.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return p;
}

TEST(LspExecutable, StdioExitStatus) {
  Process ok = runStdio(frame(kInitialize) + frame(kShutdown) + frame(kExit));
  EXPECT_EQ(ok.status, 0);
  EXPECT_NE(ok.out.find(R"("serverInfo":{"name":"tilesight")"),
            std::string::npos)
      << ok.out;
  EXPECT_NE(ok.out.find(frame(R"({"id":2,"jsonrpc":"2.0","result":null})")),
            std::string::npos)
      << ok.out;
  EXPECT_EQ(runStdio(frame(kInitialize) + frame(kExit)).status, 1);
  EXPECT_EQ(runStdio(frame(kInitialize)).status,
            1); // the input ends without shutdown
}

// Copying such a message's params recursed once per level: 150,000 levels
// overflowed the stack, and LLVM's crash handler then hung the server. Now it
// is refused before it is parsed, and the session goes on.
TEST(LspExecutable, DeeplyNestedMessageIsRefused) {
  std::string deep = R"({"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":)" +
                     std::string(150000, '[') + std::string(150000, ']') + "}";
  Process p = runStdio(frame(kInitialize) + frame(deep) + frame(kShutdown) +
                       frame(kExit));
  EXPECT_EQ(p.status, 0) << p.out.substr(0, 2000);
  EXPECT_NE(p.out.find(R"("code":-32600,"message":"the message nests arrays and objects deeper than 512 levels")"),
            std::string::npos)
      << p.out.substr(0, 2000);
  EXPECT_NE(p.out.find(R"({"id":2,"jsonrpc":"2.0","result":null})"),
            std::string::npos);
}

// Reads from `socket` until `until` appears, or (empty) until it closes.
std::string readUntil(boost::asio::ip::tcp::socket &socket,
                      const std::string &until = "") {
  std::string got;
  boost::system::error_code ec;
  char buf[4096];
  while (until.empty() || got.find(until) == std::string::npos) {
    size_t n = socket.read_some(boost::asio::buffer(buf), ec);
    if (ec)
      break;
    got.append(buf, n);
  }
  return got;
}

// The first client is served; one that connects meanwhile is told why it
// is not, and closed, instead of waiting in the kernel's backlog for ever.
TEST(LspExecutable, TcpServesOneClientAndTellsOthers) {
  std::string cmd = std::string(TILESIGHT_BINARY) +
                    " lsp --listen 127.0.0.1:0 2>&1 >/dev/null";
  FILE *log = popen(cmd.c_str(), "r");
  ASSERT_TRUE(log);
  std::string port;
  char line[512];
  while (port.empty() && fgets(line, sizeof line, log)) {
    std::string l = line;
    size_t at = l.find("listening on 127.0.0.1:");
    if (at != std::string::npos)
      port = l.substr(at + 23, l.find_first_of("\r\n", at) - at - 23);
  }
  ASSERT_FALSE(port.empty()) << "the server did not say where it listens";
  namespace asio = boost::asio;
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  asio::ip::tcp::socket socket(io), second(io);
  asio::connect(socket, resolver.resolve("127.0.0.1", port));
  asio::write(socket, asio::buffer(frame(kInitialize)));
  std::string reply = readUntil(socket, R"("positionEncoding":"utf-16")");
  EXPECT_NE(reply.find(R"("positionEncoding":"utf-16")"), std::string::npos)
      << reply;

  asio::connect(second, resolver.resolve("127.0.0.1", port));
  std::string refused = readUntil(second);
  EXPECT_NE(refused.find(R"("method":"window/showMessage")"),
            std::string::npos)
      << refused;
  EXPECT_NE(refused.find("serves one client at a time, and a client from "
                         "127.0.0.1 is connected"),
            std::string::npos)
      << refused;

  asio::write(socket, asio::buffer(frame(kShutdown) + frame(kExit)));
  reply = readUntil(socket);
  EXPECT_NE(reply.find(R"({"id":2,"jsonrpc":"2.0","result":null})"),
            std::string::npos)
      << reply;
  int st = pclose(log);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST(LspExecutable, ListenPortOutOfRange) {
  std::string cmd =
      std::string(TILESIGHT_BINARY) + " lsp --listen 999999 2>&1";
  FILE *f = popen(cmd.c_str(), "r");
  ASSERT_TRUE(f);
  std::string out;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, f))
    out.append(buf, n);
  int st = pclose(f);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 2) << out;
  EXPECT_NE(out.find("a port from 0 to 65535, got '999999'"),
            std::string::npos)
      << out;
}

} // namespace
} // namespace tilesight::lsp

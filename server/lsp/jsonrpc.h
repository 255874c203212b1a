#pragma once
// JSON-RPC 2.0 over a MessageWriter: classifying incoming messages, error
// codes, and Reply, which answers a request exactly once.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "server/lsp/logger.h"
#include "server/lsp/transport.h"

namespace tilesight::lsp {

using json = nlohmann::json;

namespace error_code {
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int InternalError = -32603;
constexpr int ServerNotInitialized = -32002;
constexpr int RequestCancelled = -32800;
constexpr int ContentModified = -32801;
constexpr int RequestFailed = -32803;
} // namespace error_code

// Thrown by handlers to answer with an error (e.g. InvalidParams).
struct RpcError : std::runtime_error {
  RpcError(int code, const std::string &message)
      : std::runtime_error(message), code(code) {}
  int code;
};

// Messages nested deeper than this are refused before they are parsed:
// copying or walking a parsed value recurses once per level, and a client
// (or an attacker on --listen) must not be able to overflow the stack.
// Real LSP messages nest about ten levels.
constexpr size_t kMaxJsonDepth = 512;
// Whether the JSON text opens more than `limit` arrays and objects at once
// (brackets inside strings do not count).
bool nestsDeeperThan(std::string_view text, size_t limit);

// One incoming message, by kind (JSON-RPC 2.0 §4, §5).
struct Incoming {
  enum Kind { Request, Notification, Response, Invalid } kind = Invalid;
  json id;             // Request, Response; null when unknown
  std::string method;  // Request, Notification
  json params;         // null when absent
  std::string problem; // Invalid: why
};
Incoming classify(const json &message);

// The outgoing side of a connection, shared by the I/O thread and the
// worker. Requests to the client get ids of their own (integers counting
// from 1; the client's ids are another namespace).
class Connection {
public:
  // Called with the response's `result`, or with its `error` object.
  using ResponseHandler =
      std::function<void(const json &result, const json &error)>;

  Connection(MessageWriter &out, Logger &log) : out_(out), log_(log) {}
  void notify(std::string_view method, json params);
  void reply(const json &id, json result);
  // A result already written as JSON text (trusted: the server wrote it).
  void replyRaw(const json &id, std::string_view resultJson);
  void replyError(const json &id, int code, std::string_view message);
  void request(std::string_view method, json params, ResponseHandler onDone);
  // Hands a client's response to the handler of the request with its id;
  // false when the server sent no such request (or it was answered).
  bool deliver(const json &response);
  Logger &log() { return log_; }

private:
  void send(const json &message);
  MessageWriter &out_;
  Logger &log_;
  std::mutex mu_; // guards the two members below
  int64_t nextId_ = 1;
  std::map<int64_t, ResponseHandler> pending_;
};

// The answer to one request. Move-only; only the first answer is sent, and
// a Reply destroyed unanswered sends InternalError, so every request gets
// exactly one answer. Logs the request's duration.
class Reply {
public:
  Reply(Connection &conn, json id, std::string method);
  Reply(Reply &&other) noexcept;
  Reply &operator=(Reply &&) = delete;
  Reply(const Reply &) = delete;
  ~Reply();

  void result(json value);
  void rawResult(std::string_view resultJson); // JSON text the server wrote
  void error(int code, std::string_view message);
  const json &id() const { return id_; }

private:
  bool claim(std::string_view outcome); // false if already answered
  Connection *conn_;
  json id_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace tilesight::lsp

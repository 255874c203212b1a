#include "server/lsp/jsonrpc.h"

#include "server/lsp/long_strings.h"

#include <llvm/Support/Format.h>
#include <llvm/Support/raw_ostream.h>

namespace tilesight::lsp {

bool nestsDeeperThan(std::string_view text, size_t limit) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string's inside is skipped with memchr: a document's text is long
      i = jsonStringEnd(text, i);
      if (i == std::string_view::npos)
        return false;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

Incoming classify(const json &m) {
  Incoming in;
  if (!m.is_object()) {
    in.problem = "a message must be a JSON object";
    return in;
  }
  auto id = m.find("id");
  bool hasId = id != m.end();
  if (hasId && (id->is_number_integer() || id->is_string()))
    in.id = *id;
  auto version = m.find("jsonrpc");
  if (version == m.end() || *version != "2.0") {
    in.problem = "\"jsonrpc\" must be \"2.0\"";
    return in;
  }
  if (hasId && !(id->is_number_integer() || id->is_string() || id->is_null())) {
    in.problem = "\"id\" must be an integer or a string";
    return in;
  }
  // `"params": null` is outside JSON-RPC 2.0 but common (clients serialize
  // an absent value as null): read it as no params.
  auto params = m.find("params");
  if (params != m.end() && !params->is_null()) {
    if (!params->is_object() && !params->is_array()) {
      in.problem = "\"params\" must be an object or an array";
      return in;
    }
    in.params = *params;
  }
  auto method = m.find("method");
  if (method == m.end()) {
    if (hasId && (m.contains("result") || m.contains("error"))) {
      in.kind = Incoming::Response;
      return in;
    }
    in.problem = "a message needs a \"method\" (or, as a response, an \"id\" "
                 "and a result or error)";
    return in;
  }
  if (!method->is_string()) {
    in.problem = "\"method\" must be a string";
    return in;
  }
  in.method = method->get<std::string>();
  in.kind = hasId ? Incoming::Request : Incoming::Notification;
  return in;
}

void Connection::send(const json &message) {
  if (!out_.write(message.dump(-1, ' ', false, json::error_handler_t::replace)))
    log_.error("cannot write to the client");
}

void Connection::notify(std::string_view method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

void Connection::reply(const json &id, json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Connection::replyRaw(const json &id, std::string_view resultJson) {
  std::string head = "{\"jsonrpc\":\"2.0\",\"id\":" + id.dump() + ",\"result\":";
  if (!out_.write({head, resultJson, "}"}))
    log_.error("cannot write to the client");
}

void Connection::replyError(const json &id, int code,
                            std::string_view message) {
  send({{"jsonrpc", "2.0"},
        {"id", id},
        {"error", {{"code", code}, {"message", message}}}});
}

void Connection::request(std::string_view method, json params,
                         ResponseHandler onDone) {
  int64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = nextId_++;
    pending_.emplace(id, std::move(onDone));
  }
  log_.info("<-- " + std::string(method) + "(" + std::to_string(id) +
            ") request to the client");
  json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) // a request without parameters has no "params" (JSON-RPC: null is not one)
    message["params"] = std::move(params);
  send(std::move(message));
}

bool Connection::deliver(const json &response) {
  auto idIt = response.find("id");
  if (idIt == response.end() || !idIt->is_number_integer())
    return false;
  const json &id = *idIt;
  ResponseHandler handler;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = pending_.find(id.get<int64_t>());
    if (it == pending_.end())
      return false;
    handler = std::move(it->second);
    pending_.erase(it);
  }
  static const json null;
  auto result = response.find("result");
  auto error = response.find("error");
  handler(result == response.end() ? null : *result,
          error == response.end() ? null : *error);
  return true;
}

Reply::Reply(Connection &conn, json id, std::string method)
    : conn_(&conn), id_(std::move(id)), method_(std::move(method)),
      start_(std::chrono::steady_clock::now()) {}

Reply::Reply(Reply &&other) noexcept
    : conn_(other.conn_), id_(std::move(other.id_)),
      method_(std::move(other.method_)), start_(other.start_) {
  other.conn_ = nullptr;
}

Reply::~Reply() {
  if (conn_)
    error(error_code::InternalError, "the server did not answer " + method_);
}

bool Reply::claim(std::string_view outcome) {
  if (!conn_)
    return false; // moved from, or answered already
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start_)
                  .count();
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "<-- " << method_ << "(" << id_.dump() << ") " << outcome << " "
     << llvm::format("%.2f", ms) << " ms";
  conn_->log().info(os.str());
  return true;
}

void Reply::result(json value) {
  if (!claim("reply"))
    return;
  conn_->reply(id_, std::move(value));
  conn_ = nullptr;
}

void Reply::rawResult(std::string_view resultJson) {
  if (!claim("reply"))
    return;
  conn_->replyRaw(id_, resultJson);
  conn_ = nullptr;
}

void Reply::error(int code, std::string_view message) {
  if (!claim("error " + std::to_string(code)))
    return;
  conn_->replyError(id_, code, message);
  conn_ = nullptr;
}

} // namespace tilesight::lsp

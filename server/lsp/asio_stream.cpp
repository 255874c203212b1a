#include "server/lsp/asio_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/write.hpp>

#include "server/lsp/jsonrpc.h"
#include "server/lsp/server.h"
#include "server/lsp/transport.h"

namespace tilesight::lsp {

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// Any Asio synchronous read/write stream pair as a ByteStream.
template <class In, class Out> class AsioStream : public ByteStream {
public:
  AsioStream(In &in, Out &out) : in_(in), out_(out) {}
  size_t read(char *buf, size_t size) override {
    boost::system::error_code ec;
    size_t n = in_.read_some(asio::buffer(buf, size), ec);
    return ec ? 0 : n;
  }
  bool write(std::string_view bytes) override {
    boost::system::error_code ec;
    asio::write(out_, asio::buffer(bytes.data(), bytes.size()), ec);
    return !ec;
  }

private:
  In &in_;
  Out &out_;
};

// HOST:PORT, PORT or :PORT; [v6]:PORT, with PORT from 0 to 65535. False
// when malformed.
bool splitHostPort(const std::string &s, std::string &host, std::string &port) {
  size_t colon = s.rfind(':');
  host = colon == std::string::npos ? "" : s.substr(0, colon);
  port = colon == std::string::npos ? s : s.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty())
    host = "127.0.0.1";
  return !port.empty() && port.size() <= 5 &&
         port.find_first_not_of("0123456789") == std::string::npos &&
         std::stoul(port) <= 65535;
}

// The one message a client that connects while another is served gets
// before the connection is closed: a notification every client can show.
std::string busyMessage(const std::string &first) {
  json note = {{"jsonrpc", "2.0"},
               {"method", "window/showMessage"},
               {"params",
                {{"type", 1},
                 {"message", "tilesight lsp --listen serves one client at a "
                             "time, and a client from " +
                                 first +
                                 " is connected; start another server "
                                 "(another port) for this one"}}}};
  std::string body = note.dump();
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" +
         body;
}

// Answers every further connection with busyMessage() and closes it, on
// io's thread, until the acceptor is closed.
void refuseOthers(tcp::acceptor &acceptor, const std::string &first,
                  Logger &log) {
  acceptor.async_accept([&acceptor, first, &log](boost::system::error_code ec,
                                                 tcp::socket other) {
    if (ec)
      return; // the acceptor was closed: the first client is done
    boost::system::error_code ignored;
    log.error("refused a second client from " +
              other.remote_endpoint(ignored).address().to_string() +
              ": one client at a time");
    asio::write(other, asio::buffer(busyMessage(first)), ignored);
    other.shutdown(tcp::socket::shutdown_both, ignored);
    refuseOthers(acceptor, first, log);
  });
}

} // namespace

int serveStdio(Logger &log, const ServeOptions &options) {
  asio::io_context io;
  // Duplicates, so that closing the descriptors leaves fds 0 and 1 alone;
  // close-on-exec, so that a run the server starts does not hold them.
  asio::posix::stream_descriptor in(io, ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)),
      out(io, ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0));
  AsioStream<asio::posix::stream_descriptor, asio::posix::stream_descriptor>
      stream(in, out);
  log.info("tilesight " TILESIGHT_VERSION " language server on stdio");
  return serve(stream, log, options);
}

int serveTcp(const std::string &hostPort, Logger &log, const ServeOptions &options) {
  std::string host, port;
  if (!splitHostPort(hostPort, host, port)) {
    log.error("--listen needs HOST:PORT or PORT with a port from 0 to 65535, "
              "got '" +
              hostPort + "'");
    return 2;
  }
  asio::io_context io;
  boost::system::error_code ec;
  tcp::resolver resolver(io);
  auto endpoints =
      resolver.resolve(host, port, tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty()) {
    log.error("cannot resolve '" + host + "': " + ec.message());
    return 2;
  }
  tcp::acceptor acceptor(io);
  tcp::endpoint ep = endpoints.begin()->endpoint();
  acceptor.open(ep.protocol(), ec);
  if (!ec)
    acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec)
    acceptor.bind(ep, ec);
  if (!ec)
    acceptor.listen(1, ec);
  if (ec) {
    log.error("cannot listen on " + hostPort + ": " + ec.message());
    return 2;
  }
  tcp::endpoint bound = acceptor.local_endpoint();
  log.info("tilesight " TILESIGHT_VERSION " language server listening on " +
           bound.address().to_string() + ":" + std::to_string(bound.port()));
  tcp::socket socket(io);
  acceptor.accept(socket, ec);
  if (ec) {
    log.error("accept failed: " + ec.message());
    return 2;
  }
  std::string first = socket.remote_endpoint(ec).address().to_string();
  log.info("client connected from " + first);
  // Further clients are told why they are not served (the kernel would
  // otherwise accept them into the backlog and leave them waiting).
  refuseOthers(acceptor, first, log);
  std::thread refusing([&io] { io.run(); });
  AsioStream<tcp::socket, tcp::socket> stream(socket, socket);
  int status = serve(stream, log, options);
  asio::post(io, [&acceptor] { acceptor.close(); });
  refusing.join();
  return status;
}

} // namespace tilesight::lsp

// pcv_serve_benchmark: browsers' worth of load on a running `pcv serve`, measured as a browser
// sees it. Each client requests the page, opens the WebSocket, says its size and then drags the
// camera without pause: one drag (with a "seq") per frame received, every frame acknowledged.
//   first image   from the page's request to the first frame received that draws points (a
//                 dataset still opening sends frames of nothing first)
//   frames/s      frames received per second while moving
//   input→frame   from a drag sent to the first frame whose status says it was applied
//                 (status.input >= its seq): median, 95th percentile, maximum
//   where         the server's own figures from each status: drawMs, encodeMs, bytes
//   lost          frame numbers skipped (a reading client must see every frame it is sent)
// Usage: pcv_serve_benchmark URL [--clients N] [--seconds S] [--size WxH] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

struct Target {
  std::string host;   // "127.0.0.1"
  std::string port;   // "8080"
  std::string token;  // "" when none
};

Target parseUrl(const std::string& url) {
  const std::string prefix = "http://";
  if (url.rfind(prefix, 0) != 0) throw std::runtime_error("the URL must start with http://");
  const std::string rest = url.substr(prefix.size());
  const size_t slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  const size_t colon = authority.rfind(':');
  Target target{authority.substr(0, colon),
                colon == std::string::npos ? "80" : authority.substr(colon + 1),
                {}};
  const size_t token = url.find("token=");
  if (token != std::string::npos)
    target.token = url.substr(token + 6, url.find('&', token) - token - 6);
  return target;
}

double ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1, size_t(p * double(values.size() - 1) + 0.5))];
}

struct ClientResult {
  double firstFrameMs = 0.0;  // any frame, points or not
  double firstImageMs = 0.0;  // the first frame with points
  uint64_t frames = 0;
  uint64_t lost = 0;
  double seconds = 0.0;
  std::vector<double> latencyMs, drawMs, encodeMs, bytes;
  std::string error;
};

ClientResult runClient(const Target& target, int width, int height, double seconds) {
  ClientResult result;
  try {
    net::io_context io;
    tcp::resolver resolver(io);
    const auto endpoints = resolver.resolve(target.host, target.port);
    const std::string query = target.token.empty() ? "" : "?token=" + target.token;
    const Clock::time_point start = Clock::now();
    {  // The page, as a browser requests it first.
      tcp::socket socket(io);
      net::connect(socket, endpoints);
      http::request<http::empty_body> request{http::verb::get, "/" + query, 11};
      request.set(http::field::host, target.host);
      http::write(socket, request);
      beast::flat_buffer buffer;
      http::response<http::string_body> response;
      http::read(socket, buffer, response);
      if (response.result() != http::status::ok)
        throw std::runtime_error("the page: " + std::to_string(response.result_int()));
    }
    websocket::stream<tcp::socket> ws(io);
    net::connect(ws.next_layer(), endpoints);
    ws.next_layer().set_option(tcp::no_delay(true));  // as browsers send WebSocket messages
    ws.handshake(target.host, "/ws" + query);
    ws.text(true);
    ws.write(net::buffer(json{{"type", "size"}, {"width", width}, {"height", height}}.dump()));
    std::map<uint64_t, Clock::time_point> sent;  // seq -> when
    uint64_t seq = 0, lastSeen = 0;
    const auto drag = [&] {
      ++seq;
      sent[seq] = Clock::now();
      ws.text(true);
      ws.write(net::buffer(
          json{{"type", "drag"}, {"dx", 3}, {"dy", 0}, {"button", "left"}, {"seq", seq}}.dump()));
    };
    Clock::time_point moving{};
    json status;
    uint64_t lastFrame = 0;
    while (true) {
      beast::flat_buffer buffer;
      ws.read(buffer);
      const Clock::time_point now = Clock::now();
      if (ws.got_text()) {
        const json message = json::parse(beast::buffers_to_string(buffer.data()));
        if (message.value("type", "") == "status") status = message;
        continue;
      }
      const uint64_t frame = status.value("frame", uint64_t(0));
      if (lastFrame != 0 && frame != lastFrame + 1) result.lost += frame - lastFrame - 1;
      lastFrame = frame;
      const bool drawsPoints = status.contains("points") && status["points"].is_number() &&
                               status["points"].get<double>() > 0.0;
      if (result.firstImageMs == 0.0 && drawsPoints) {
        result.firstImageMs = ms(now - start);
      }
      if (result.frames == 0 && moving == Clock::time_point{}) {
        result.firstFrameMs = ms(now - start);
        moving = now;
      } else {
        ++result.frames;
        const uint64_t input = status.value("input", uint64_t(0));
        for (uint64_t s = lastSeen + 1; s <= input; ++s) {
          if (sent.count(s)) result.latencyMs.push_back(ms(now - sent[s]));
          sent.erase(s);
        }
        lastSeen = std::max(lastSeen, input);
        result.drawMs.push_back(status.value("drawMs", 0.0));
        result.encodeMs.push_back(status.value("encodeMs", 0.0));
        result.bytes.push_back(status.value("bytes", 0.0));
      }
      ws.text(true);
      ws.write(net::buffer(json{{"type", "ack"}, {"frame", status.value("frame", 0)}}.dump()));
      if (ms(now - moving) >= seconds * 1000.0) break;
      drag();
    }
    result.seconds = ms(Clock::now() - moving) / 1000.0;
    ws.close(websocket::close_code::normal);
  } catch (const std::exception& error) {
    result.error = error.what();
  }
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Load a running pcv serve as browsers do and time what they see"};
  std::string url, size = "1920x1080", jsonPath;
  int clients = 1;
  double seconds = 10.0;
  app.add_option("url", url, "The URL pcv serve printed")->required();
  app.add_option("--clients", clients, "Browsers at once")->capture_default_str();
  app.add_option("--seconds", seconds, "Seconds of dragging each")->capture_default_str();
  app.add_option("--size", size, "The view's size WIDTHxHEIGHT")->capture_default_str();
  app.add_option("--json", jsonPath, "Also write the results as JSON to this file");
  CLI11_PARSE(app, argc, argv);
  int width = 0, height = 0;
  if (std::sscanf(size.c_str(), "%dx%d", &width, &height) != 2) {
    std::fprintf(stderr, "--size must be WIDTHxHEIGHT\n");
    return 2;
  }
  const Target target = parseUrl(url);
  std::vector<ClientResult> results(static_cast<size_t>(clients));
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back(
        [&, i] { results[size_t(i)] = runClient(target, width, height, seconds); });
  }
  for (std::thread& thread : threads) thread.join();
  json report = {{"url", url}, {"clients", clients}, {"size", size}, {"results", json::array()}};
  int failed = 0;
  std::printf(
      "client  first image ms  frames/s  input->frame ms p50 / p95 / max  draw ms  encode ms  "
      "KB/frame  lost\n");
  for (size_t i = 0; i < results.size(); ++i) {
    const ClientResult& r = results[i];
    if (!r.error.empty()) {
      std::printf("%6zu  failed: %s\n", i, r.error.c_str());
      ++failed;
      continue;
    }
    const double fps = r.seconds > 0.0 ? double(r.frames) / r.seconds : 0.0;
    std::printf("%6zu  %14.1f  %8.1f  %9.1f / %5.1f / %5.1f  %7.2f  %9.2f  %8.1f  %4llu\n", i,
                r.firstImageMs, fps, percentile(r.latencyMs, 0.5), percentile(r.latencyMs, 0.95),
                percentile(r.latencyMs, 1.0), percentile(r.drawMs, 0.5),
                percentile(r.encodeMs, 0.5), percentile(r.bytes, 0.5) / 1024.0,
                static_cast<unsigned long long>(r.lost));
    report["results"].push_back({{"firstFrameMs", r.firstFrameMs},
                                 {"firstImageMs", r.firstImageMs},
                                 {"framesPerSecond", fps},
                                 {"frames", r.frames},
                                 {"lostFrames", r.lost},
                                 {"latencyMs",
                                  {{"median", percentile(r.latencyMs, 0.5)},
                                   {"p95", percentile(r.latencyMs, 0.95)},
                                   {"max", percentile(r.latencyMs, 1.0)}}},
                                 {"drawMsMedian", percentile(r.drawMs, 0.5)},
                                 {"encodeMsMedian", percentile(r.encodeMs, 0.5)},
                                 {"bytesMedian", percentile(r.bytes, 0.5)}});
  }
  if (!jsonPath.empty()) std::ofstream(jsonPath) << report.dump(1) << "\n";
  return failed == 0 ? 0 : 1;
}

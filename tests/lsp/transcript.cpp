#include "tests/lsp/transcript.h"

#include <map>

#include "server/lsp/transport.h"

namespace tilesight::lsp::testing {

namespace {

std::string unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char c = s[++i];
    out += c == 'r' ? '\r' : c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

// ${NAME} -> the JSON string of text NAME.
std::string substitute(std::string body,
                       const std::map<std::string, std::string> &texts,
                       std::string &error) {
  size_t at = 0;
  while ((at = body.find("${", at)) != std::string::npos) {
    size_t close = body.find('}', at);
    std::string name =
        body.substr(at + 2, close == std::string::npos ? std::string::npos
                                                       : close - at - 2);
    auto it = texts.find(name);
    if (close == std::string::npos || it == texts.end()) {
      error = "unknown text ${" + name + "}";
      return body;
    }
    std::string value = nlohmann::json(it->second).dump();
    body.replace(at, close - at + 1, value);
    at += value.size();
  }
  return body;
}

} // namespace

Transcript parseTranscript(std::string_view content) {
  Transcript t;
  std::map<std::string, std::string> texts;
  std::string textName; // inside a `text` block
  int lineNo = 0;
  auto fail = [&](const std::string &why) {
    if (t.error.empty())
      t.error = "line " + std::to_string(lineNo) + ": " + why;
  };
  while (!content.empty()) {
    size_t nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content = nl == std::string_view::npos ? std::string_view()
                                           : content.substr(nl + 1);
    ++lineNo;
    if (!textName.empty()) {
      if (line == "end")
        textName.clear();
      else
        texts[textName].append(line).append("\n");
      continue;
    }
    if (line.empty() || line.front() == '#')
      continue;
    if (line.front() == ' ' || line.front() == '\t') {
      if (t.steps.empty() || (t.steps.back().kind != Step::Send &&
                              t.steps.back().kind != Step::Expect))
        fail("a continuation line must follow `send` or `expect`");
      else
        t.steps.back().body.append("\n").append(line);
      continue;
    }
    size_t sp = line.find(' ');
    std::string_view word = line.substr(0, sp);
    std::string rest(sp == std::string_view::npos ? std::string_view()
                                                  : line.substr(sp + 1));
    if (word == "text") {
      if (rest.empty())
        fail("`text` needs a name");
      textName = rest;
      texts[textName].clear();
    } else if (word == "send" || word == "expect") {
      t.steps.push_back(
          {word == "send" ? Step::Send : Step::Expect, rest, lineNo});
    } else if (word == "raw") {
      t.steps.push_back({Step::Raw, unescape(rest), lineNo});
    } else if (word == "log") {
      t.steps.push_back({Step::Log, rest, lineNo});
    } else if (word == "exit-code") {
      t.steps.push_back({Step::ExitCode, rest, lineNo});
    } else {
      fail("unknown directive '" + std::string(word) + "'");
    }
  }
  if (!textName.empty())
    fail("text " + textName + " has no `end`");
  // Substitute texts and check that every JSON body parses.
  for (Step &s : t.steps) {
    lineNo = s.line;
    if (s.kind != Step::Send && s.kind != Step::Expect)
      continue;
    std::string error;
    s.body = substitute(s.body, texts, error);
    if (!error.empty())
      fail(error);
    else if (!nlohmann::json::accept(s.body))
      fail("not JSON: " + s.body);
  }
  return t;
}

std::string clientBytes(const Step &s) {
  if (s.kind == Step::Send)
    return frame(nlohmann::json::parse(s.body).dump());
  return s.kind == Step::Raw ? s.body : std::string();
}

bool matchesSubset(const nlohmann::json &expected, const nlohmann::json &actual,
                   std::string &why, const std::string &path) {
  const std::string where = path.empty() ? "the message" : path;
  if (expected.is_string() &&
      expected.get_ref<const std::string &>().starts_with("~")) {
    const std::string &want = expected.get_ref<const std::string &>();
    if (actual.is_string() && actual.get_ref<const std::string &>().find(
                                  want.substr(1)) != std::string::npos)
      return true;
    why = where + ": expected a string containing " +
          nlohmann::json(want.substr(1)).dump() + ", got " + actual.dump();
    return false;
  }
  if (expected.is_object()) {
    if (!actual.is_object()) {
      why = where + ": expected an object, got " + actual.dump();
      return false;
    }
    for (const auto &[key, value] : expected.items()) {
      auto it = actual.find(key);
      if (it == actual.end()) {
        why = where + ": missing \"" + key + "\" in " + actual.dump();
        return false;
      }
      if (!matchesSubset(value, *it, why, path + "." + key))
        return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) {
      why = where + ": expected an array of " +
            std::to_string(expected.size()) + ", got " + actual.dump();
      return false;
    }
    for (size_t i = 0; i < expected.size(); ++i)
      if (!matchesSubset(expected[i], actual[i], why,
                         path + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }
  if (expected != actual) {
    why = where + ": expected " + expected.dump() + ", got " + actual.dump();
    return false;
  }
  return true;
}

} // namespace tilesight::lsp::testing

#pragma once
// The one diagnostic record every layer produces and every front end prints.
#include <cstdint>
#include <string>
#include <vector>

namespace tilesight {

// Half-open byte range [begin, end) in the whole file.
struct Range {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool empty() const { return begin == end; }
};

enum class Severity { Error, Warning, Note, Remark };
const char* severityName(Severity s);

struct RelatedNote {
  Range range;
  std::string message;
};

struct TextEdit {
  Range range;
  std::string newText;
};

struct Fix {
  std::string title;
  std::vector<TextEdit> edits;
};

struct Diagnostic {
  Range range;
  Severity severity = Severity::Error;
  std::string code;  // contract: syntax, type, bounds.index, ...
  std::string message;
  std::vector<RelatedNote> notes;
  std::vector<Fix> fixes;
};

// Collects diagnostics for one analysis run.
class DiagSink {
public:
  Diagnostic& error(Range r, std::string code, std::string message) {
    return add(Severity::Error, r, std::move(code), std::move(message));
  }
  Diagnostic& warning(Range r, std::string code, std::string message) {
    return add(Severity::Warning, r, std::move(code), std::move(message));
  }
  Diagnostic& add(Severity s, Range r, std::string code, std::string message) {
    return push({r, s, std::move(code), std::move(message), {}, {}});
  }
  Diagnostic& push(Diagnostic d) {
    errors_ += d.severity == Severity::Error;
    diags_.push_back(std::move(d));
    return diags_.back();
  }
  const std::vector<Diagnostic>& all() const { return diags_; }
  // Counted as they come: the verifier asks once per op.
  size_t errorCount() const { return errors_; }
  std::vector<Diagnostic> take() {
    errors_ = 0;
    return std::move(diags_);
  }

private:
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
};

}  // namespace tilesight

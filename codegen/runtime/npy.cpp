#include "codegen/runtime/npy.h"

#include <array>
#include <cassert>
#include <cctype>
#include <optional>
#include <string_view>

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include "codegen/runtime/input_file.h"

namespace tilesight::runtime {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kHeaderAlign = 64;
constexpr const char* kSupportedKinds = "b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8";

template <class... Args>
llvm::Error fail(const char* fmt, const Args&... args) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), fmt, args...);
}

// The byte size of a descr's kind and size ("f4" of "<f4") when it is one
// we read.
std::optional<unsigned> supportedSize(std::string_view kindAndSize) {
  static constexpr std::array<std::pair<std::string_view, unsigned>, 12> kKinds{{
      {"b1", 1}, {"i1", 1}, {"i2", 2}, {"i4", 4}, {"i8", 8}, {"u1", 1},
      {"u2", 2}, {"u4", 4}, {"u8", 8}, {"f2", 2}, {"f4", 4}, {"f8", 8},
  }};
  for (const auto& [name, size] : kKinds)
    if (name == kindAndSize) return size;
  return std::nullopt;
}

// The item size of a descr of a byte order mark and a kind and size we read.
std::optional<unsigned> descrSize(std::string_view descr) {
  if (descr.size() != 3 || std::string_view("<>|=").find(descr[0]) == std::string_view::npos)
    return std::nullopt;
  return supportedSize(descr.substr(1));
}

// The little-endian (or byte-sized) spelling NumPy writes for a descr we
// read: "=f4" and "|f4" become "<f4"; byte-sized ones take '|' whatever
// their order mark, since a byte has no order.
llvm::Expected<std::string> normalizeDescr(const std::string& descr) {
  const std::optional<unsigned> size = descrSize(descr);
  if (!size)
    return fail("unsupported dtype '%s'; supported: %s (little-endian or byte-sized)", descr.c_str(),
                kSupportedKinds);
  const std::string body = descr.substr(1);
  if (*size == 1) return "|" + body;
  if (descr[0] == '>')
    return fail("big-endian arrays are not supported ('%s'); convert with arr.astype('<%s')",
                descr.c_str(), body.c_str());
  return "<" + body;
}

// A reader of the header's Python dict literal: string keys; string,
// boolean and tuple-of-integer values; any spacing, a trailing comma.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  llvm::Expected<NpyArray> parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortranOrder;
    std::optional<std::vector<int64_t>> shape;
    if (auto err = expect('{')) return err;
    while (!peekIs('}')) {
      auto key = parseString();
      if (!key) return key.takeError();
      if (auto err = expect(':')) return err;
      if (auto err = parseValue(*key, descr, fortranOrder, shape)) return err;
      if (auto err = expectSeparator('}')) return err;
    }
    // What follows the '}' is padding.
    for (auto [present, name] : {std::pair{descr.has_value(), "descr"},
                                 std::pair{fortranOrder.has_value(), "fortran_order"},
                                 std::pair{shape.has_value(), "shape"}})
      if (!present) return fail("bad .npy header: no '%s' key", name);
    auto normalized = normalizeDescr(*descr);
    if (!normalized) return normalized.takeError();
    NpyArray a;
    a.descr = std::move(*normalized);
    a.shape = std::move(*shape);
    a.fortranOrder = *fortranOrder;
    return a;
  }

 private:
  llvm::Error parseValue(const std::string& key, std::optional<std::string>& descr,
                         std::optional<bool>& fortranOrder,
                         std::optional<std::vector<int64_t>>& shape) {
    const bool seen = (key == "descr" && descr) || (key == "fortran_order" && fortranOrder) ||
                      (key == "shape" && shape);
    if (seen) return fail("bad .npy header: key '%s' appears twice", key.c_str());
    if (key == "descr") {
      if (peekIs('['))
        return fail("structured dtypes are not supported (the descr is a list of fields)");
      return assign(parseString(), descr);
    }
    if (key == "fortran_order") return assign(parseBool(), fortranOrder);
    if (key == "shape") return assign(parseShape(), shape);
    return fail("bad .npy header: unexpected key '%s' (expected 'descr', 'fortran_order', 'shape')",
                key.c_str());
  }

  template <class T>
  static llvm::Error assign(llvm::Expected<T> value, std::optional<T>& slot) {
    if (!value) return value.takeError();
    slot = std::move(*value);
    return llvm::Error::success();
  }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool peekIs(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  llvm::Error expect(char c) {
    if (!peekIs(c)) return unexpected(std::string("'") + c + "'");
    ++pos_;
    return llvm::Error::success();
  }
  // After an item: a ',' (consumed) or the closing `close` (left for the
  // loop to see), so that a trailing comma is allowed.
  llvm::Error expectSeparator(char close) {
    if (peekIs(',')) {
      ++pos_;
      return llvm::Error::success();
    }
    if (peekIs(close)) return llvm::Error::success();
    return unexpected(std::string("',' or '") + close + "'");
  }
  llvm::Error unexpected(const std::string& wanted) {
    if (pos_ >= text_.size())
      return fail("bad .npy header: expected %s, found the end of the header", wanted.c_str());
    return fail("bad .npy header: expected %s at offset %zu, found '%c'", wanted.c_str(), pos_,
                text_[pos_]);
  }

  // A quoted string, '…' or "…" (the header never needs escapes).
  llvm::Expected<std::string> parseString() {
    skipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      return unexpected("a quoted string");
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return fail("bad .npy header: unterminated string");
    std::string s(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return s;
  }

  llvm::Expected<bool> parseBool() {
    skipSpace();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}})
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    return unexpected("True or False");
  }

  // (), (3,), (2, 3) and (2, 3,): dimensions in order.
  llvm::Expected<std::vector<int64_t>> parseShape() {
    if (auto err = expect('(')) return err;
    std::vector<int64_t> dims;
    while (!peekIs(')')) {
      auto dim = parseDim();
      if (!dim) return dim.takeError();
      dims.push_back(*dim);
      if (auto err = expectSeparator(')')) return err;
    }
    ++pos_;  // the ')'
    return dims;
  }

  llvm::Expected<int64_t> parseDim() {
    skipSpace();
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      // Dimensions past 2^62 are no real array; stopping there keeps the
      // arithmetic in range.
      if (value > (int64_t{1} << 62) / 10) return fail("bad .npy header: dimension too large");
      value = value * 10 + (text_[pos_++] - '0');
    }
    if (pos_ == start) return unexpected("a dimension (a non-negative integer)");
    return value;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

uint64_t readLittleEndian(const std::vector<uint8_t>& bytes, size_t at, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= uint64_t(bytes[at + i]) << (8 * i);
  return v;
}

void appendLittleEndian(std::vector<uint8_t>& out, uint64_t v, size_t width) {
  for (size_t i = 0; i < width; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

// Where the header dict starts and how long it is, from the preamble.
struct Preamble {
  size_t dictStart;
  size_t dictLength;
};

llvm::Expected<Preamble> parsePreamble(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < kMagic.size() + 2 ||
      std::string_view(reinterpret_cast<const char*>(bytes.data()), kMagic.size()) != kMagic)
    return fail("not a .npy file (it does not start with \"\\x93NUMPY\")");
  const unsigned major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3)
    return fail("unsupported .npy version %u.%u (1.0, 2.0 and 3.0 are read)", major, minor);
  // Version 1 has a 2-byte header length, later versions a 4-byte one.
  const size_t lengthWidth = major == 1 ? 2 : 4;
  const size_t dictStart = 8 + lengthWidth;
  if (bytes.size() < dictStart)
    return fail("truncated .npy header: expected at least %zu bytes, found %zu", dictStart,
                bytes.size());
  const size_t dictLength = readLittleEndian(bytes, 8, lengthWidth);
  if (bytes.size() - dictStart < dictLength)
    return fail("truncated .npy header: expected %zu bytes, found %zu", dictStart + dictLength,
                bytes.size());
  return Preamble{dictStart, dictLength};
}

std::string shapeLiteral(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

int64_t NpyArray::elementCount() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

unsigned NpyArray::itemSize(const std::string& descr) { return descrSize(descr).value_or(0); }

llvm::Expected<NpyArray> parseNpy(const std::vector<uint8_t>& bytes) {
  auto preamble = parsePreamble(bytes);
  if (!preamble) return preamble.takeError();
  const std::string_view dict(reinterpret_cast<const char*>(bytes.data()) + preamble->dictStart,
                              preamble->dictLength);
  auto array = HeaderParser(dict).parse();
  if (!array) return array.takeError();
  const size_t dataStart = preamble->dictStart + preamble->dictLength;
  // Each dimension is below 2^62; the product must stay below 2^62 too.
  uint64_t expected = NpyArray::itemSize(array->descr);
  for (int64_t d : array->shape) {
    if (d != 0 && expected > (uint64_t{1} << 62) / uint64_t(d))
      return fail("bad .npy header: shape %s is too large", shapeLiteral(array->shape).c_str());
    expected *= uint64_t(d);
  }
  const size_t found = bytes.size() - dataStart;
  if (found != expected) {
    const char* problem = found < expected ? "truncated" : "oversized";
    return fail("%s .npy data: expected %llu bytes for shape %s of '%s', found %zu", problem,
                static_cast<unsigned long long>(expected), shapeLiteral(array->shape).c_str(),
                array->descr.c_str(), found);
  }
  array->data.assign(bytes.begin() + dataStart, bytes.end());
  return array;
}

std::vector<uint8_t> serializeNpy(const NpyArray& a) {
  assert(a.data.size() == uint64_t(a.elementCount()) * NpyArray::itemSize(a.descr));
  const std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': " + (a.fortranOrder ? "True" : "False") +
                           ", 'shape': " +
                           shapeLiteral(a.shape) + ", }";
  // Pad with spaces so that magic, version, length, dict and the closing
  // '\n' fill a multiple of 64 bytes; a dict too long for version 1's
  // 2-byte length takes version 2's 4-byte one.
  auto paddedLength = [&](size_t preamble) {
    const size_t unpadded = preamble + dict.size() + 1;
    return (unpadded + kHeaderAlign - 1) / kHeaderAlign * kHeaderAlign - preamble;
  };
  const bool v1 = paddedLength(10) <= 0xFFFF;
  const size_t preamble = v1 ? 10 : 12;
  const size_t length = paddedLength(preamble);
  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  out.push_back(v1 ? 1 : 2);
  out.push_back(0);
  appendLittleEndian(out, length, preamble - 8);
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), length - dict.size() - 1, ' ');
  out.push_back('\n');
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

llvm::Expected<NpyArray> readNpy(const std::string& path) {
  std::string why;
  std::optional<std::string> contents = readRegularFile(path, why);
  if (!contents) return fail("cannot read '%s': %s", path.c_str(), why.c_str());
  auto array = parseNpy(std::vector<uint8_t>(contents->begin(), contents->end()));
  if (!array) return fail("%s: %s", path.c_str(), llvm::toString(array.takeError()).c_str());
  return array;
}

llvm::Error writeNpy(const std::string& path, const NpyArray& a) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_None);
  if (ec) return fail("cannot write '%s': %s", path.c_str(), ec.message().c_str());
  const std::vector<uint8_t> bytes = serializeNpy(a);
  out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out.close();
  if (out.has_error()) {
    const std::string message = out.error().message();
    out.clear_error();
    return fail("cannot write '%s': %s", path.c_str(), message.c_str());
  }
  return llvm::Error::success();
}

}  // namespace tilesight::runtime

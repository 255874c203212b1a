#pragma once
// Bounds-checked reads of little-endian numbers, LEB128 varints and zigzag
// varints from a byte buffer. The first failure is kept (its absolute byte
// offset and what was expected there); every later read returns 0 without
// moving, so a decoder can read on and check `ok()` where it matters.
// Counts are checked against the bytes left before anything is allocated.
#include <cstdint>
#include <string>
#include <string_view>

namespace tilesight::bytecode {

class ByteCursor {
 public:
  // `base` is the absolute offset of data[0] in the file (for messages).
  ByteCursor(std::string_view data, uint64_t base = 0) : data_(data), base_(base) {}

  bool ok() const { return !failed_; }
  bool atEnd() const { return pos_ >= data_.size(); }
  size_t left() const { return data_.size() - pos_; }
  uint64_t offset() const { return base_ + pos_; }  // absolute
  size_t pos() const { return pos_; }
  uint64_t failOffset() const { return failOffset_; }
  const std::string& expected() const { return expected_; }

  // Records a failure at the current position (the first one wins).
  void fail(std::string expected) { failAt(offset(), std::move(expected)); }
  void failAt(uint64_t at, std::string expected) {
    if (failed_) return;
    failed_ = true;
    failOffset_ = at;
    expected_ = std::move(expected);
  }

  uint8_t u8(std::string_view what) {
    if (!need(1, what)) return 0;
    return static_cast<uint8_t>(data_[pos_++]);
  }
  uint64_t fixed(unsigned bytes, std::string_view what) {
    if (!need(bytes, what)) return 0;
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v |= uint64_t(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    pos_ += bytes;
    return v;
  }
  uint32_t u32(std::string_view what) { return static_cast<uint32_t>(fixed(4, what)); }
  uint64_t u64(std::string_view what) { return fixed(8, what); }

  // Unsigned LEB128 of at most 10 bytes whose value fits in 64 bits.
  uint64_t varint(std::string_view what) {
    if (!failed_ && pos_ < data_.size() && !(data_[pos_] & 0x80)) return static_cast<uint8_t>(data_[pos_++]);  // one byte: most
    return varintSlow(what);
  }
  int64_t svarint(std::string_view what) {
    uint64_t z = varint(what);
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }

  // A count of items that take at least `minBytes` each: never more than the bytes left.
  uint64_t count(std::string_view what, size_t minBytes = 1) {
    uint64_t start = offset();
    uint64_t n = varint(what);
    if (failed_) return 0;
    if (minBytes && n > left() / minBytes) return tooMany(start, n, what, minBytes);
    return n;
  }

  std::string_view bytes(uint64_t n, std::string_view what) {
    if (!need(n, what)) return {};
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  // Skips to the next multiple of `align` (relative to data[0]).
  void align(unsigned alignment, std::string_view what) {
    size_t pad = (alignment - pos_ % alignment) % alignment;
    bytes(pad, what);
  }
  void seek(size_t pos) {
    if (pos > data_.size()) fail("a position inside the data");
    else pos_ = pos;
  }

 private:
  // The rest of varint and count: out of line, so the common one-byte case inlines.
  [[gnu::noinline]] uint64_t varintSlow(std::string_view what) {
    if (failed_) return 0;
    uint64_t start = offset(), v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
      if (atEnd()) {
        failAt(start, std::string(what) + " (a varint), but the data ends");
        return 0;
      }
      uint8_t b = static_cast<uint8_t>(data_[pos_++]);
      uint64_t bits = b & 0x7F;
      if (shift == 63 ? bits > 1 : false) {
        failAt(start, std::string(what) + " (a varint of at most 64 bits)");
        return 0;
      }
      v |= bits << shift;
      if (!(b & 0x80)) return v;
    }
    failAt(start, std::string(what) + " (a varint of at most 10 bytes)");
    return 0;
  }
  [[gnu::noinline]] uint64_t tooMany(uint64_t start, uint64_t n, std::string_view what, size_t minBytes) {
    failAt(start, std::string(what) + " of at most " + std::to_string(left() / minBytes) + " (the bytes left), not " +
                      std::to_string(n));
    return 0;
  }
  bool need(uint64_t n, std::string_view what) {
    if (failed_) return false;
    if (n > left()) {
      fail(std::string(what) + " (" + std::to_string(n) + " bytes), but only " + std::to_string(left()) + " are left");
      return false;
    }
    return true;
  }

  std::string_view data_;
  uint64_t base_ = 0;
  size_t pos_ = 0;
  bool failed_ = false;
  uint64_t failOffset_ = 0;
  std::string expected_;
};

}  // namespace tilesight::bytecode

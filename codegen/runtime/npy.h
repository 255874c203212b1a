#pragma once
// NumPy's .npy format (versions 1.0, 2.0 and 3.0 read; 1.0 written, or 2.0
// when the header needs it): a magic string, a header dictionary with
// 'descr', 'fortran_order' and 'shape', then the raw data. Only
// little-endian (or byte-sized) numeric dtypes; anything else is an error
// with a message that says what was found. A Fortran-order array is kept as
// its bytes are (column-major memory, as a kernel with such strides reads it).
#include <cstdint>
#include <string>
#include <vector>

#include <llvm/Support/Error.h>

namespace tilesight::runtime {

struct NpyArray {
  std::string descr;            // as NumPy writes it: "<f4", "|u1", "|b1", "<i8"
  std::vector<int64_t> shape;   // empty: a 0-d array (one element)
  std::vector<uint8_t> data;    // element count * itemSize bytes, in memory order
  bool fortranOrder = false;    // data is column-major (the first index varies fastest)

  int64_t elementCount() const;
  // The byte size of one element from descr ("<f4" -> 4); 0 for an unknown descr.
  static unsigned itemSize(const std::string& descr);
};

// Parses the bytes of a .npy file. The descr comes back in NumPy's own
// spelling: '|' for byte-sized kinds, '<' for the others ("=f4" gives
// "<f4", ">u1" gives "|u1"). The data must be exactly elementCount() items:
// fewer or more bytes are an error.
llvm::Expected<NpyArray> parseNpy(const std::vector<uint8_t>& bytes);
// The bytes of a .npy file holding `a` (a.data must hold elementCount() items).
std::vector<uint8_t> serializeNpy(const NpyArray& a);

// The same through files; errors name the path.
llvm::Expected<NpyArray> readNpy(const std::string& path);
llvm::Error writeNpy(const std::string& path, const NpyArray& a);

}  // namespace tilesight::runtime

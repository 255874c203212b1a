// Reading and writing NumPy .npy files: round trips, headers written by hand
// the way other writers might lay them out, and every rejection's message.
#include "codegen/runtime/npy.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

namespace tilesight::runtime {
namespace {

// A .npy file with the given version and header dict (taken as is: no
// padding added) followed by `data`.
std::vector<uint8_t> npyBytes(const std::string& dict, const std::vector<uint8_t>& data = {},
                              uint8_t major = 1) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  const size_t lengthBytes = major == 1 ? 2 : 4;
  for (size_t i = 0; i < lengthBytes; ++i) out.push_back(uint8_t(dict.size() >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

std::string errorOf(llvm::Expected<NpyArray> result) {
  if (result) return "(no error)";
  return llvm::toString(result.takeError());
}

NpyArray parseOk(const std::vector<uint8_t>& bytes) {
  auto result = parseNpy(bytes);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  return std::move(*result);
}

template <class T>
std::vector<uint8_t> bytesOf(const std::vector<T>& values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::string tempPath(const char* stem) {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile(stem, "npy", path));
  return std::string(path);
}

TEST(NpyWrite, LayoutOfVersion1) {
  NpyArray a{"<f4", {2, 3}, bytesOf(std::vector<float>{1, 2, 3, 4, 5, 6})};
  const std::vector<uint8_t> bytes = serializeNpy(a);
  const std::string text(bytes.begin(), bytes.end());
  EXPECT_EQ(text.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t dictLength = bytes[8] | (bytes[9] << 8);
  const size_t dataStart = 10 + dictLength;
  EXPECT_EQ(dataStart % 64, 0u);
  EXPECT_EQ(bytes.size(), dataStart + 24);
  const std::string dict = text.substr(10, dictLength);
  EXPECT_EQ(dict.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u);
  EXPECT_EQ(dict.back(), '\n');
  EXPECT_EQ(dict.find_first_not_of(' ', 59), dictLength - 1);  // spaces, then the '\n'
}

TEST(NpyWrite, ShapeSpellings) {
  auto dictOf = [](std::vector<int64_t> shape) {
    const std::vector<uint8_t> bytes = serializeNpy({"|u1", shape, std::vector<uint8_t>(0)});
    return std::string(bytes.begin() + 10, bytes.end());
  };
  EXPECT_NE(dictOf({}).find("'shape': ()"), std::string::npos);
  EXPECT_NE(dictOf({0}).find("'shape': (0,)"), std::string::npos);
  EXPECT_NE(dictOf({0, 4, 5}).find("'shape': (0, 4, 5)"), std::string::npos);
}

TEST(NpyRoundTrip, SeveralDtypesAndShapes) {
  const std::vector<NpyArray> arrays = {
      {"<f4", {2, 3}, bytesOf(std::vector<float>{1.5f, -2, 3, 4, 5, 6})},
      {"<i8", {}, bytesOf(std::vector<int64_t>{-42})},  // 0-d: one element
      {"|u1", {5}, {1, 2, 3, 254, 255}},
      {"|b1", {2, 2, 2}, {1, 0, 0, 1, 1, 1, 0, 0}},
      {"<f8", {3}, bytesOf(std::vector<double>{0.1, -0.0, 1e300})},
      {"<f2", {1, 2}, {0x00, 0x3C, 0x00, 0xC0}},  // 1.0, -2.0
      {"<u2", {2, 1, 2}, bytesOf(std::vector<uint16_t>{1, 65535, 7, 8})},
      {"<i4", {0}, {}},
      {"|i1", {2}, {0x80, 0x7F}},
      {"<u4", {1}, bytesOf(std::vector<uint32_t>{0xDEADBEEF})},
      {"<i2", {3}, bytesOf(std::vector<int16_t>{-1, 0, 1})},
      {"<u8", {1}, bytesOf(std::vector<uint64_t>{~uint64_t{0}})},
  };
  for (const NpyArray& a : arrays) {
    const std::vector<uint8_t> bytes = serializeNpy(a);
    EXPECT_EQ(bytes[6], 1) << a.descr;  // version 1.0
    NpyArray b = parseOk(bytes);
    EXPECT_EQ(b.descr, a.descr);
    EXPECT_EQ(b.shape, a.shape) << a.descr;
    EXPECT_EQ(b.data, a.data) << a.descr;
  }
}

TEST(NpyRoundTrip, HugeHeaderTakesVersion2) {
  // 30000 dimensions of 1 spell a dict longer than version 1's 65535 bytes.
  NpyArray a{"|u1", std::vector<int64_t>(30000, 1), {9}};
  const std::vector<uint8_t> bytes = serializeNpy(a);
  EXPECT_EQ(bytes[6], 2);
  const size_t dictLength = bytes[8] | (bytes[9] << 8) | (bytes[10] << 16) | (size_t(bytes[11]) << 24);
  EXPECT_GT(dictLength, 65535u);
  EXPECT_EQ((12 + dictLength) % 64, 0u);
  NpyArray b = parseOk(bytes);
  EXPECT_EQ(b.shape.size(), 30000u);
  EXPECT_EQ(b.data, a.data);
}

TEST(NpyRoundTrip, ThroughAFile) {
  const std::string path = tempPath("npy_roundtrip");
  NpyArray a{"<i4", {2, 2}, bytesOf(std::vector<int32_t>{1, -2, 3, -4})};
  ASSERT_FALSE(bool(writeNpy(path, a)));
  auto b = readNpy(path);
  ASSERT_TRUE(bool(b)) << llvm::toString(b.takeError());
  EXPECT_EQ(b->shape, a.shape);
  EXPECT_EQ(b->data, a.data);
  std::remove(path.c_str());
}

TEST(NpyRead, SpacingKeyOrderAndTrailingCommas) {
  NpyArray a = parseOk(npyBytes("{\"shape\":(3,),\"descr\":\"<i2\",\"fortran_order\":False}",
                                {1, 0, 2, 0, 3, 0}));
  EXPECT_EQ(a.descr, "<i2");
  EXPECT_EQ(a.shape, std::vector<int64_t>{3});
  EXPECT_EQ(a.elementCount(), 3);

  a = parseOk(npyBytes("{ 'fortran_order' : False ,'shape' : ( 2 , 3 , ) , 'descr':'<f4' , }   \n",
                       std::vector<uint8_t>(24)));
  EXPECT_EQ(a.descr, "<f4");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));

  a = parseOk(npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n",
                       std::vector<uint8_t>(8)));
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.elementCount(), 1);

  a = parseOk(npyBytes("{'descr':'<u1','fortran_order':False,'shape':(1,1,1,2)}", {7, 8}));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{1, 1, 1, 2}));
}

TEST(NpyRead, ByteOrderMarksAreNormalized) {
  EXPECT_EQ(parseOk(npyBytes("{'descr': '=f8', 'fortran_order': False, 'shape': (1,)}",
                             std::vector<uint8_t>(8)))
                .descr,
            "<f8");
  EXPECT_EQ(parseOk(npyBytes("{'descr': '<u1', 'fortran_order': False, 'shape': (1,)}", {1})).descr,
            "|u1");
  EXPECT_EQ(parseOk(npyBytes("{'descr': '>i1', 'fortran_order': False, 'shape': (1,)}", {1})).descr,
            "|i1");  // a byte has no byte order
}

TEST(NpyRead, Versions2And3) {
  for (uint8_t major : {2, 3}) {
    NpyArray a = parseOk(npyBytes("{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }\n",
                                  {1, 0, 0, 1}, major));
    EXPECT_EQ(a.descr, "<u2");
    EXPECT_EQ(a.data, (std::vector<uint8_t>{1, 0, 0, 1}));
  }
}

TEST(NpyRead, ItemSizes) {
  EXPECT_EQ(NpyArray::itemSize("<f4"), 4u);
  EXPECT_EQ(NpyArray::itemSize("|b1"), 1u);
  EXPECT_EQ(NpyArray::itemSize("<i8"), 8u);
  EXPECT_EQ(NpyArray::itemSize("<f2"), 2u);
  EXPECT_EQ(NpyArray::itemSize(">f4"), 4u);  // a layout known, though not read
  EXPECT_EQ(NpyArray::itemSize("?f4"), 0u);
  EXPECT_EQ(NpyArray::itemSize("<c8"), 0u);
  EXPECT_EQ(NpyArray::itemSize("|O"), 0u);
  EXPECT_EQ(NpyArray::itemSize(""), 0u);
}

TEST(NpyReject, BigEndian) {
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '>f4', 'fortran_order': False, 'shape': (1,)}",
                                      std::vector<uint8_t>(4)))),
            "big-endian arrays are not supported ('>f4'); convert with arr.astype('<f4')");
}

// np.save(f, a.T) of a C-order a writes a Fortran-order array: its bytes are
// a's, column-major for a.T's shape. They are kept as they are (the memory a
// kernel with column-major strides reads) and written back the same way.
TEST(Npy, FortranOrderKeepsItsBytesAndSaysSoWhenWritten) {
  std::vector<uint8_t> data{1, 2, 3, 4, 5, 6};
  NpyArray a = parseOk(npyBytes("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }\n", data));
  EXPECT_TRUE(a.fortranOrder);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.data, data);
  std::vector<uint8_t> bytes = serializeNpy(a);
  std::string header(bytes.begin(), bytes.end() - 6);
  EXPECT_NE(header.find("'fortran_order': True"), std::string::npos) << header;
  NpyArray back = parseOk(bytes);
  EXPECT_TRUE(back.fortranOrder);
  EXPECT_EQ(back.data, data);
}

TEST(NpyReject, TruncatedAndOversizedData) {
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
                                      std::vector<uint8_t>(12)))),
            "truncated .npy data: expected 16 bytes for shape (4,) of '<f4', found 12");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3)}",
                                      std::vector<uint8_t>(13)))),
            "oversized .npy data: expected 12 bytes for shape (2, 3) of '<i2', found 13");
}

TEST(NpyReject, BadMagicVersionAndTruncatedHeader) {
  EXPECT_EQ(errorOf(parseNpy({'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0})),
            "not a .npy file (it does not start with \"\\x93NUMPY\")");
  EXPECT_EQ(errorOf(parseNpy({})), "not a .npy file (it does not start with \"\\x93NUMPY\")");
  std::vector<uint8_t> v4 = npyBytes("{}");
  v4[6] = 4;
  EXPECT_EQ(errorOf(parseNpy(v4)), "unsupported .npy version 4.0 (1.0, 2.0 and 3.0 are read)");
  std::vector<uint8_t> cut = npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)}");
  cut.resize(30);
  EXPECT_EQ(errorOf(parseNpy(cut)), "truncated .npy header: expected 65 bytes, found 30");
  EXPECT_EQ(errorOf(parseNpy({0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 1})),
            "truncated .npy header: expected at least 12 bytes, found 9");
}

TEST(NpyReject, UnsupportedDtypes) {
  const std::string supported =
      "; supported: b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8 (little-endian or byte-sized)";
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '|O', 'fortran_order': False, 'shape': (1,)}",
                                      std::vector<uint8_t>(8)))),
            "unsupported dtype '|O'" + supported);
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,)}",
                                      std::vector<uint8_t>(8)))),
            "unsupported dtype '<c8'" + supported);
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<U10', 'fortran_order': False, 'shape': (1,)}",
                                      std::vector<uint8_t>(40)))),
            "unsupported dtype '<U10'" + supported);
  EXPECT_EQ(errorOf(parseNpy(npyBytes(
                "{'descr': [('x', '<f4'), ('y', '<i4')], 'fortran_order': False, 'shape': (1,)}",
                std::vector<uint8_t>(8)))),
            "structured dtypes are not supported (the descr is a list of fields)");
}

TEST(NpyReject, MalformedDicts) {
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<f4', 'shape': (1,)}", std::vector<uint8_t>(4)))),
            "bad .npy header: no 'fortran_order' key");
  EXPECT_EQ(errorOf(parseNpy(npyBytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}"))),
            "bad .npy header: unexpected key 'extra' (expected 'descr', 'fortran_order', 'shape')");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr': '<f4', 'descr': '<f4'}"))),
            "bad .npy header: key 'descr' appears twice");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr' '<f4'}"))),
            "bad .npy header: expected ':' at offset 9, found '''");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'fortran_order': false}"))),
            "bad .npy header: expected True or False at offset 18, found 'f'");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'shape': (2, -3)}"))),
            "bad .npy header: expected a dimension (a non-negative integer) at offset 14, found '-'");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'shape': (2, 3)"))),
            "bad .npy header: expected ',' or '}', found the end of the header");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'descr: '<f4'}"))),
            "bad .npy header: expected ':' at offset 10, found '<'");
  EXPECT_EQ(errorOf(parseNpy(npyBytes("{'shape': (99999999999999999999,)}"))),
            "bad .npy header: dimension too large");
}

TEST(NpyFiles, ErrorsNameThePath) {
  const std::string missing = "/nonexistent-dir/tilesight/in.npy";
  std::string message = errorOf(readNpy(missing));
  EXPECT_EQ(message.rfind("cannot read '" + missing + "': ", 0), 0u) << message;

  message = llvm::toString(writeNpy("/nonexistent-dir/tilesight/out.npy", {"|u1", {1}, {0}}));
  EXPECT_EQ(message.rfind("cannot write '/nonexistent-dir/tilesight/out.npy': ", 0), 0u) << message;

  const std::string path = tempPath("npy_bad");
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("PK\x03\x04 not numpy", f);
    std::fclose(f);
  }
  EXPECT_EQ(errorOf(readNpy(path)),
            path + ": not a .npy file (it does not start with \"\\x93NUMPY\")");
  std::remove(path.c_str());
}

// What is not a regular file is refused without being opened (a device
// such as /dev/zero never ends; FIFOs are tested through the executable,
// under a timeout, in tests/cli/run_robustness_test.cpp).
TEST(NpyFiles, OnlyRegularFilesAreRead) {
  EXPECT_EQ(errorOf(readNpy("/dev/null")), "cannot read '/dev/null': a character device, not a regular file");
  const std::string folder = ::testing::TempDir();
  EXPECT_NE(errorOf(readNpy(folder)).find("a folder, not a regular file"), std::string::npos);
}

// A file NumPy itself wrote, when python3 with numpy is at hand.
TEST(NpyNumPy, ReadsWhatNpSaveWrites) {
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "/usr/bin/python3 with numpy is not available";
  const std::string path = tempPath("npy_numpy");
  const std::string script =
      "import numpy as np; np.save('" + path +
      "', np.arange(24, dtype='<f4').reshape(2, 3, 4) * np.float32(0.5), allow_pickle=False)";
  // np.save appends ".npy" to a name without it; our temp name has it.
  ASSERT_EQ(std::system(("/usr/bin/python3 -c \"" + script + "\"").c_str()), 0);
  auto a = readNpy(path);
  ASSERT_TRUE(bool(a)) << llvm::toString(a.takeError());
  EXPECT_EQ(a->descr, "<f4");
  EXPECT_EQ(a->shape, (std::vector<int64_t>{2, 3, 4}));
  ASSERT_EQ(a->data.size(), 96u);
  std::vector<float> values(24);
  std::memcpy(values.data(), a->data.data(), 96);
  for (int i = 0; i < 24; ++i) EXPECT_EQ(values[i], i * 0.5f);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tilesight::runtime

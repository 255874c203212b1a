#include "bench/program_gen.h"

#include <vector>

namespace tilesight::bench {

namespace {

constexpr const char* kF = "tile<16x16xf32>";
constexpr const char* kI = "tile<16x16xi32>";
constexpr const char* kLF = "!cuda_tile.tile<16x16xf32>";
constexpr const char* kLI = "!cuda_tile.tile<16x16xi32>";
constexpr const char* kLB = "!cuda_tile.tile<16x16xi1>";

struct Gen {
  Form form;
  std::string out;
  int next = 0;
  std::vector<std::string> floats, ints;

  std::string fresh() { return "%v" + std::to_string(next++); }
  const std::string& pick(const std::vector<std::string>& v, int k) { return v[(k * 7919) % v.size()]; }

  void constant(bool isFloat) {
    std::string r = fresh();
    if (form == Form::Custom)
      out += "    " + r + " = constant <" + (isFloat ? "f32: 1.5" : "i32: 3") + "> : " + (isFloat ? kF : kI) + "\n";
    else
      out += "    " + r + " = \"cuda_tile.constant\"() {value = dense<" + (isFloat ? "1.5" : "3") + "> : tensor<16x16x" +
             (isFloat ? "f32" : "i32") + ">} : () -> " + (isFloat ? kLF : kLI) + "\n";
    (isFloat ? floats : ints).push_back(r);
  }

  void binary(const char* op, bool isFloat, int k) {
    const auto& pool = isFloat ? floats : ints;
    std::string a = pick(pool, k), b = pick(pool, k + 1), r = fresh();
    if (form == Form::Custom)
      out += "    " + r + " = " + op + " " + a + ", " + b + " : " + (isFloat ? kF : kI) + "\n";
    else {
      const char* t = isFloat ? kLF : kLI;
      out += "    " + r + " = \"cuda_tile." + op + "\"(" + a + ", " + b + ") : (" + t + ", " + t + ") -> " + t + "\n";
    }
    (isFloat ? floats : ints).push_back(r);
  }

  void selectOp(int k) {
    std::string a = pick(ints, k), b = pick(ints, k + 3), c = fresh(), r = fresh();
    if (form == Form::Custom) {
      out += "    " + c + " = cmpi less_than " + a + ", " + b + ", signed : " + kI + " -> tile<16x16xi1>\n";
      out += "    " + r + " = select " + c + ", " + a + ", " + b + " : tile<16x16xi1>, " + kI + "\n";
    } else {
      out += "    " + c + " = \"cuda_tile.cmpi\"(" + a + ", " + b +
             ") {comparison_predicate = #cuda_tile.comparison_predicate<less_than>, signedness = "
             "#cuda_tile.signedness<signed>} : (" + kLI + ", " + kLI + ") -> " + kLB + "\n";
      out += "    " + r + " = \"cuda_tile.select\"(" + c + ", " + a + ", " + b + ") : (" + kLB + ", " + kLI + ", " +
             kLI + ") -> " + kLI + "\n";
    }
    ints.push_back(r);
  }
};

// One GEMM-like kernel with a token-threaded K loop, block-id indices and a
// pointer-tile load/store: the memory ops the dataflow checks work on. It is
// clean, so the checks do all their work and report nothing.
constexpr const char* kKernelBody =
    "    %ta = make_tensor_view %a, shape = [1024, 512], strides = [512, 1] : tensor_view<1024x512xf16, strides=[512,1]>\n"
    "    %tb = make_tensor_view %b, shape = [512, 1024], strides = [1024, 1] : tensor_view<512x1024xf16, strides=[1024,1]>\n"
    "    %tc = make_tensor_view %c, shape = [1024, 1024], strides = [1024, 1] : tensor_view<1024x1024xf32, strides=[1024,1]>\n"
    "    %va = make_partition_view %ta : partition_view<tile=(128x32), tensor_view<1024x512xf16, strides=[512,1]>>\n"
    "    %vb = make_partition_view %tb : partition_view<tile=(32x128), tensor_view<512x1024xf16, strides=[1024,1]>>\n"
    "    %vc = make_partition_view %tc : partition_view<tile=(128x128), tensor_view<1024x1024xf32, strides=[1024,1]>>\n"
    "    %bx, %by, %bz = get_tile_block_id : tile<i32>\n"
    "    %c0 = constant <i32: 0> : tile<i32>\n"
    "    %c1 = constant <i32: 1> : tile<i32>\n"
    "    %kt = constant <i32: 16> : tile<i32>\n"
    "    %zero = constant <f32: 0.0> : tile<128x128xf32>\n"
    "    %t0 = make_token : token\n"
    "    %acc, %tk = for %k in (%c0 to %kt, step %c1) : tile<i32>\n"
    "        iter_values(%sum = %zero, %tok = %t0) -> (tile<128x128xf32>, token) {\n"
    "      %ta_tile, %ta_tok = load_view_tko weak %va[%bx, %k] token = %tok\n"
    "          : partition_view<tile=(128x32), tensor_view<1024x512xf16, strides=[512,1]>>, tile<i32> -> tile<128x32xf16>, token\n"
    "      %tb_tile, %tb_tok = load_view_tko weak %vb[%k, %by] token = %tok\n"
    "          : partition_view<tile=(32x128), tensor_view<512x1024xf16, strides=[1024,1]>>, tile<i32> -> tile<32x128xf16>, token\n"
    "      %next = mmaf %ta_tile, %tb_tile, %sum : tile<128x32xf16>, tile<32x128xf16>, tile<128x128xf32>\n"
    "      %joined = join_tokens %ta_tok, %tb_tok : token\n"
    "      continue %next, %joined : tile<128x128xf32>, token\n"
    "    }\n"
    "    %done = store_view_tko weak %acc, %vc[%bx, %by] token = %tk\n"
    "        : tile<128x128xf32>, partition_view<tile=(128x128), tensor_view<1024x1024xf32, strides=[1024,1]>>, tile<i32> -> token\n"
    "    %i = iota : tile<16xi32>\n"
    "    %pr = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
    "    %pb = broadcast %pr : tile<1xptr<f32>> -> tile<16xptr<f32>>\n"
    "    %pp = offset %pb, %i : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>\n"
    "    %qr = reshape %q : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
    "    %qb = broadcast %qr : tile<1xptr<f32>> -> tile<16xptr<f32>>\n"
    "    %qq = offset %qb, %i : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>\n"
    "    %v, %tv = load_ptr_tko weak %pp token = %done : tile<16xptr<f32>> -> tile<16xf32>, token\n"
    "    %two = constant <f32: 2.0> : tile<16xf32>\n"
    "    %w = mulf %v, %two rounding<nearest_even> : tile<16xf32>\n"
    "    %ts = store_ptr_tko weak %qq, %w token = %tv : tile<16xptr<f32>>, tile<16xf32> -> token\n"
    "    return\n"
    "  }\n";
constexpr int kKernelOps = 34;  // the entry and the ops of kKernelBody

}  // namespace

std::string generateKernels(int ops) {
  std::string out = "cuda_tile.module @bench {\n";
  for (int n = 0; n * kKernelOps < ops; ++n)
    out += "  entry @k" + std::to_string(n) +
           "(%a: tile<ptr<f16>>, %b: tile<ptr<f16>>, %c: tile<ptr<f32>>, %p: tile<ptr<f32>>, %q: tile<ptr<f32>>) {\n" +
           kKernelBody;
  return out + "}\n";
}

std::string generateEntries(int entries) {
  std::string out = "cuda_tile.module @bench {\n";
  for (int n = 0; n < entries; ++n)
    out += "  entry @e" + std::to_string(n) +
           "(%x: tile<i32>) {\n    %a = addi %x, %x : tile<i32>\n    %b = muli %a, %x : tile<i32>\n"
           "    return\n  }\n";
  return out + "}\n";
}

std::string generateErrors(int errors) {
  std::string out = "cuda_tile.module @bench {\n  entry @k() {\n";
  for (int n = 0; n < errors; ++n)
    out += "    %c" + std::to_string(n) + " = constant <i32: 1> : tile<4xf32>\n";
  return out + "    return\n  }\n}\n";
}

std::string generateProgram(int ops, Form form, int entries) {
  Gen g{form, {}, 0, {}, {}};
  g.out.reserve(static_cast<size_t>(ops) * 110);
  entries = entries < 1 ? 1 : entries;
  g.out += form == Form::Custom ? "cuda_tile.module @bench {\n" : "\"cuda_tile.module\"() ({\n";
  int emitted = 0;
  for (int e = 0; e < entries; ++e) {
    // Entries are isolated: each starts its own value pools.
    g.floats.clear();
    g.ints.clear();
    std::string name = entries == 1 ? "kernel" : "kernel" + std::to_string(e);
    if (form == Form::Custom) g.out += "  entry @" + name + "() {\n";
    else g.out += "  \"cuda_tile.entry\"() ({\n";
    int target = static_cast<int>(static_cast<int64_t>(ops) * (e + 1) / entries);
    for (int i = 0; i < 8; ++i) g.constant(i % 2 == 0);
    emitted += 8;
    for (int k = 0; emitted < target; ++k) {
      switch (k % 6) {
        case 0: g.binary("addf", true, k); ++emitted; break;
        case 1: g.binary("mulf", true, k); ++emitted; break;
        case 2: g.binary("addi", false, k); ++emitted; break;
        case 3: g.binary("xori", false, k); ++emitted; break;
        case 4: g.selectOp(k); emitted += 2; break;
        default: g.constant(k % 4 == 1); ++emitted; break;
      }
    }
    if (form == Form::Custom) g.out += "    return\n  }\n";
    else
      g.out += "    \"cuda_tile.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"" + name +
               "\"} : () -> ()\n";
  }
  g.out += form == Form::Custom ? "}\n" : "}) {sym_name = \"bench\"} : () -> ()\n";
  return g.out;
}

}  // namespace tilesight::bench

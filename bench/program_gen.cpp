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

}  // namespace

std::string generateProgram(int ops, Form form) {
  Gen g{form, {}, 0, {}, {}};
  g.out.reserve(static_cast<size_t>(ops) * 110);
  if (form == Form::Custom) g.out += "cuda_tile.module @bench {\n  entry @kernel() {\n";
  else g.out += "\"cuda_tile.module\"() ({\n  \"cuda_tile.entry\"() ({\n";
  for (int i = 0; i < 8; ++i) g.constant(i % 2 == 0);
  int emitted = 8;
  for (int k = 0; emitted < ops; ++k) {
    switch (k % 6) {
      case 0: g.binary("addf", true, k); ++emitted; break;
      case 1: g.binary("mulf", true, k); ++emitted; break;
      case 2: g.binary("addi", false, k); ++emitted; break;
      case 3: g.binary("xori", false, k); ++emitted; break;
      case 4: g.selectOp(k); emitted += 2; break;
      default: g.constant(k % 4 == 1); ++emitted; break;
    }
  }
  if (form == Form::Custom) g.out += "    return\n  }\n}\n";
  else
    g.out += "    \"cuda_tile.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"kernel\"} : () -> ()\n"
             "}) {sym_name = \"bench\"} : () -> ()\n";
  return g.out;
}

}  // namespace tilesight::bench

#pragma once
// The formats several rows of ops.def share (the table: op_table.cpp; the
// accessor generator, ir/opgen, reads the rows too).
#include <string_view>

namespace tilesight::formats {

constexpr std::string_view kUnary = "%source {} ':' t(result=source)";
constexpr std::string_view kBinary = "%lhs ',' %rhs {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinaryOvf = "%lhs ',' %rhs @overflow:ovf {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinarySign = "%lhs ',' %rhs @signedness:sign {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinaryIeee =
    "%lhs ',' %rhs @rounding_mode:rnd_ieee=nearest_even @flush_to_zero:unit {} ':' t(result=lhs=rhs)";
constexpr std::string_view kCast = "%source {} ':' t(source) '->' t(result)";
constexpr std::string_view kTerm = "{} [ %operands* ':' t(operands*) ]";
constexpr std::string_view kMemLoadPtr =
    "@memory_ordering_semantics:ord @memory_scope:scope? %source [ ',' %mask ] [ ',' %paddingValue ] "
    "[ 'token' '=' %token ] [ 'optimization_hints' '=' @optimization_hints:hints ] {} ':' t(source) "
    "[?mask ',' t(mask) ] [?paddingValue ',' t(paddingValue) ] '->' t(result) ',' t(result_token)";
constexpr std::string_view kMemStorePtr =
    "@memory_ordering_semantics:ord @memory_scope:scope? %destination ',' %value [ ',' %mask ] "
    "[ 'token' '=' %token ] [ 'optimization_hints' '=' @optimization_hints:hints ] {} ':' t(destination) ',' "
    "t(value) [?mask ',' t(mask) ] '->' t(result_token)";

}  // namespace tilesight::formats

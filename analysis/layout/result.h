#pragma once
// Results of layout operations: a value, or the precondition that failed.
// The algebra never returns a layout that breaks its post-condition; it
// returns an error naming the rule and the mode instead.
#include <string>
#include <utility>
#include <variant>

namespace tilesight::layout {

struct LayoutError {
  std::string rule;     // e.g. "complement: the input must be injective"
  std::string message;  // the concrete values: modes, strides, coordinates
  std::string text() const { return message.empty() ? rule : rule + ": " + message; }
};

template <class T, class E = LayoutError>
class Expected {
public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(E e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  const E& error() const { return std::get<1>(v_); }

private:
  std::variant<T, E> v_;
};

inline LayoutError fail(std::string rule, std::string message = {}) { return {std::move(rule), std::move(message)}; }

}  // namespace tilesight::layout

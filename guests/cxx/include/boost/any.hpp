// wasmeval's stand-in for <boost/any.hpp>: boost::any, boost::any_cast and boost::bad_any_cast
// written over the C++17 standard library only (Boost has no wasm32 build in the registries, and
// HumanEval-X's C++ tasks 22 and 137 include this header).
//
// Behaviour follows Boost.Any's documented interface: an `any` holds a copy of a value of any
// copyable type or nothing; `type()` is `typeid(void)` when empty; `any_cast<T>(&a)` returns a
// null pointer on a type mismatch; the value and reference forms throw `boost::bad_any_cast`.
// In this sandbox a throw cannot be caught (see guests/cxx/exceptions.c): it ends the program
// with "terminate: exception thrown ...: type N5boost12bad_any_castE" on stderr, as an uncaught
// exception would natively.
//
// Not provided: Boost's small-object buffer, `boost::typeindex` and the `unsafe_any_cast` of
// boost/any/ (an implementation detail); types are compared with `typeid`.
#ifndef WASMEVAL_BOOST_ANY_HPP
#define WASMEVAL_BOOST_ANY_HPP

#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace boost {

class bad_any_cast : public std::bad_cast {
public:
    const char *what() const noexcept override {
        return "boost::bad_any_cast: failed conversion using boost::any_cast";
    }
};

class any {
public:
    any() noexcept = default;

    any(const any &other) : content_(other.content_ ? other.content_->clone() : nullptr) {}

    any(any &&other) noexcept : content_(std::move(other.content_)) {}

    // Any value but an `any` itself (which the copy and move constructors take).
    template <typename ValueType,
              typename Stored = typename std::decay<ValueType>::type,
              typename = typename std::enable_if<!std::is_same<Stored, any>::value>::type>
    any(ValueType &&value) : content_(new holder<Stored>(std::forward<ValueType>(value))) {}

    ~any() = default;

    any &operator=(const any &other) {
        any(other).swap(*this);
        return *this;
    }

    any &operator=(any &&other) noexcept {
        any(std::move(other)).swap(*this);
        return *this;
    }

    template <typename ValueType,
              typename Stored = typename std::decay<ValueType>::type,
              typename = typename std::enable_if<!std::is_same<Stored, any>::value>::type>
    any &operator=(ValueType &&value) {
        any(std::forward<ValueType>(value)).swap(*this);
        return *this;
    }

    any &swap(any &other) noexcept {
        content_.swap(other.content_);
        return *this;
    }

    bool empty() const noexcept { return !content_; }

    void clear() noexcept { content_.reset(); }

    const std::type_info &type() const noexcept {
        return content_ ? content_->type() : typeid(void);
    }

private:
    struct placeholder {
        virtual ~placeholder() = default;
        virtual const std::type_info &type() const noexcept = 0;
        virtual placeholder *clone() const = 0;
    };

    template <typename ValueType>
    struct holder final : placeholder {
        template <typename Argument>
        explicit holder(Argument &&argument) : held(std::forward<Argument>(argument)) {}
        const std::type_info &type() const noexcept override { return typeid(ValueType); }
        placeholder *clone() const override { return new holder(held); }
        ValueType held;
    };

    template <typename ValueType>
    friend ValueType *any_cast(any *operand) noexcept;

    std::unique_ptr<placeholder> content_;
};

inline void swap(any &left, any &right) noexcept { left.swap(right); }

// Pointer forms: the held value, or a null pointer when `operand` is null, empty or holds another
// type. `any_cast<const T>(&a)` is accepted like `any_cast<T>(&a)`.
template <typename ValueType>
ValueType *any_cast(any *operand) noexcept {
    using Stored = typename std::remove_cv<ValueType>::type;
    if (!operand || operand->type() != typeid(Stored)) {
        return nullptr;
    }
    return &static_cast<any::holder<Stored> *>(operand->content_.get())->held;
}

template <typename ValueType>
const ValueType *any_cast(const any *operand) noexcept {
    return any_cast<ValueType>(const_cast<any *>(operand));
}

// Value and reference forms: `any_cast<T>(a)` copies, `any_cast<T&>(a)` and
// `any_cast<const T&>(a)` refer to the held value; a mismatch throws bad_any_cast.
template <typename ValueType>
ValueType any_cast(any &operand) {
    using Plain = typename std::remove_reference<ValueType>::type;
    Plain *result = any_cast<Plain>(&operand);
    if (!result) {
        throw bad_any_cast();
    }
    using Reference = typename std::conditional<std::is_reference<ValueType>::value, ValueType,
                                                typename std::add_lvalue_reference<ValueType>::type>::type;
    return static_cast<Reference>(*result);
}

template <typename ValueType>
ValueType any_cast(const any &operand) {
    using Plain = typename std::remove_reference<ValueType>::type;
    return any_cast<const Plain &>(const_cast<any &>(operand));
}

// From a temporary (`any_cast<int>(f())`): the value is moved out unless a reference is asked for.
template <typename ValueType>
ValueType any_cast(any &&operand) {
    static_assert(std::is_rvalue_reference<ValueType &&>::value ||
                      std::is_const<typename std::remove_reference<ValueType>::type>::value,
                  "boost::any_cast of an rvalue to a non-const lvalue reference");
    using Plain = typename std::remove_reference<ValueType>::type;
    Plain *result = any_cast<Plain>(&operand);
    if (!result) {
        throw bad_any_cast();
    }
    return static_cast<ValueType>(std::move(*result));
}

}  // namespace boost

#endif

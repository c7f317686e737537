// wasmeval's driver support for C++ `calls` cases, put between the candidate and the driver.
//
// WASMEVAL_CASE(i, call) reports case i: "start <i>", then the value `call` returned as plain data
// ("value <i> <json>"), then "end <i> returned null" (see guests/cxx/end_of_tests.c for the lines).
// JSON forms, as the harness's: integers, floats (the shortest text that reads back to the same
// double: a float is reported as the exact double it promotes to, 1.2f as 1.2000000476837158,
// which the host compares with a `1.2f` literal read as a float; nan and the infinities as
// {"$float": "nan" | "inf" | "-inf"}), bool, char and strings as strings, vectors as arrays, maps
// as {"$dict": [[key, value], ..]}, pairs as {"$tuple": [..]}. A return type not listed here does
// not compile: such a task is not converted.
//
// `wasmeval_calls::compared<decltype(LIT)>(call)` is what a converted `call == LIT` reports for a
// number, bool or char literal: the value as C++'s `==` compares it, converted to the common type
// of both operands (the usual arithmetic conversions), so that a float returned where the test
// compares with the double literal 1.2 is the double 1.2000000476837158, not equal to 1.2, as
// g++ says. Only the literal's type enters the driver, never its value.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" void __wasmeval_report(const char *words, unsigned long length);
extern "C" void __wasmeval_loaded(void);
extern "C" void __wasmeval_done(void);

namespace wasmeval_calls {

// Declared first: the templates below find each other by ordinary lookup (their arguments are
// std:: types, so argument-dependent lookup would not look here).
inline void show(std::string &out, bool value);
inline void show(std::string &out, char value);
inline void show(std::string &out, float value);
inline void show(std::string &out, double value);
inline void show(std::string &out, long double value);
inline void show(std::string &out, const std::string &value);
inline void show(std::string &out, const char *value);
template <class T>
typename std::enable_if<std::is_integral<T>::value>::type show(std::string &out, T value);
template <class T, class A> void show(std::string &out, const std::vector<T, A> &value);
template <class K, class V, class C, class A> void show(std::string &out, const std::map<K, V, C, A> &value);
template <class A, class B> void show(std::string &out, const std::pair<A, B> &value);

inline void show(std::string &out, bool value) { out += value ? "true" : "false"; }

inline void show(std::string &out, const std::string &value) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (unsigned char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += (char)c;
        } else if (c < 0x20 || c == 0x7f) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += (char)c;
        }
    }
    out += '"';
}

inline void show(std::string &out, const char *value) { show(out, std::string(value ? value : "")); }
inline void show(std::string &out, char value) { show(out, std::string(1, value)); }

template <class T>
typename std::enable_if<std::is_integral<T>::value>::type show(std::string &out, T value) {
    out += std::to_string(value);
}

// The shortest of `digits_from`..17 significant digits that reads back as `value` in type F.
template <class F> void show_float(std::string &out, F value, int digits_from) {
    if (std::isnan(value)) {
        out += "{\"$float\":\"nan\"}";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "{\"$float\":\"inf\"}" : "{\"$float\":\"-inf\"}";
        return;
    }
    char text[64];
    for (int digits = digits_from; digits <= 17; digits++) {
        std::snprintf(text, sizeof text, "%.*g", digits, (double)value);
        if ((F)std::strtod(text, nullptr) == value) {
            break;
        }
    }
    out += text;
    // An integral float stays a float in JSON's eyes only with a point; the host compares numbers
    // by value, so "3" and "3.0" are the same there.
}

// A float as the exact double it is (every float is one): C++ promotes it so where a test compares
// it with a double, and a float literal the host reads is that double too.
inline void show(std::string &out, float value) { show_float(out, (double)value, 15); }
inline void show(std::string &out, double value) { show_float(out, value, 15); }
inline void show(std::string &out, long double value) { show_float(out, (double)value, 15); }

template <class T, class A> void show(std::string &out, const std::vector<T, A> &value) {
    out += '[';
    bool first = true;
    for (auto item = value.begin(); item != value.end(); ++item) {
        if (!first) {
            out += ',';
        }
        first = false;
        const T copy = *item;  // vector<bool> yields proxies
        show(out, copy);
    }
    out += ']';
}

template <class K, class V, class C, class A> void show(std::string &out, const std::map<K, V, C, A> &value) {
    out += "{\"$dict\":[";
    bool first = true;
    for (const auto &entry : value) {
        if (!first) {
            out += ',';
        }
        first = false;
        out += '[';
        show(out, entry.first);
        out += ',';
        show(out, entry.second);
        out += ']';
    }
    out += "]}";
}

template <class A, class B> void show(std::string &out, const std::pair<A, B> &value) {
    out += "{\"$tuple\":[";
    show(out, value.first);
    out += ',';
    show(out, value.second);
    out += "]}";
}

// The type `value == literal` compares in when the literal's type is L: their common type when
// both are arithmetic (bool, char, integers, floats), else the value's own.
template <class T, class L, bool = std::is_arithmetic<T>::value &&std::is_arithmetic<L>::value>
struct compared_type {
    typedef T type;
};
template <class T, class L> struct compared_type<T, L, true> {
    typedef typename std::common_type<T, L>::type type;
};

template <class L, class T>
typename compared_type<typename std::decay<T>::type, typename std::decay<L>::type>::type compared(const T &value) {
    return static_cast<typename compared_type<typename std::decay<T>::type, typename std::decay<L>::type>::type>(value);
}

inline void line(const std::string &words) { __wasmeval_report(words.data(), words.size()); }

inline void start(int index) { line("start " + std::to_string(index)); }

template <class T> void value(int index, const T &returned) {
    std::string words = "value " + std::to_string(index) + " ";
    show(words, returned);
    line(words);
    line("end " + std::to_string(index) + " returned null");
}

}  // namespace wasmeval_calls

#define WASMEVAL_CASE(index, ...)                                   \
    do {                                                            \
        wasmeval_calls::start(index);                               \
        wasmeval_calls::value(index, (__VA_ARGS__));                \
    } while (0)

//! The 64-bit integer model the benchmarks were written for, applied to C, C++ and Rust source
//! before it is compiled for wasm32.
//!
//! HumanEval-X's and MultiPL-E's C++ and Rust tests were written and run on 64-bit hosts (LP64),
//! where C's `long` and Rust's `isize` are 64 bits wide. On wasm32 (ILP32) both are 32 bits, so
//! MultiPL-E's HumanEval_139 (`125411328000`) fails a correct C++ solution with a wrong answer and
//! HumanEval_114 (`-9999999999999999`) stops a correct Rust solution from compiling ("literal out
//! of range for `isize`"). No 64-bit target can take their place: Debian packages no wasm64
//! wasi-libc or libc++, WASI preview 1 is defined over 32-bit memories, and rustc's only wasm64
//! target (`wasm64-unknown-unknown`, tier 3) has no std (docs/formats.md). So [`widen_integers`]
//! rewrites the program's own text, token by token, outside comments, strings (but for C's
//! `%ld`) and characters:
//!
//! - C and C++: `long` alone (`long`, `long int`, `unsigned long`, `signed long`, `const long`)
//!   becomes `long long`; `long long` and `long double` stay. In C++ a lone `long` before `(` or
//!   `{` (a functional cast, `long(x)`) becomes `decltype(0LL)`, as `long long(x)` does not parse.
//!   Integer literals with a single `l` suffix (`0L`, `5ul`, `7LU`) get `ll`; `LONG_MAX`,
//!   `LONG_MIN`, `ULONG_MAX`, `labs`, `atol`, `strtol`, `strtoul`, `stol` and `stoul` become their
//!   `long long` counterparts; in string literals, `printf`/`scanf`'s signed `%ld` and `%li`
//!   become `%lld` and `%lli`. `%lu`, `%lx` and `%lo` stay: on wasm32 they are what `size_t`
//!   (`unsigned long` there) is printed with, the usual use of them (`strlen`, `sizeof`).
//! - Rust: `isize` becomes `i64` (types, paths such as `isize::MAX` and `std::isize::MAX`,
//!   literal suffixes such as `0isize`), padded with two spaces so every column stays where it
//!   was. `usize` stays 32 bits wide: it indexes memory.
//!
//! C++'s `size_t` cannot be widened (libc++ and every pointer are built on it), but the sizes
//! programs compute with are: [`widen_sizes`] wraps each `x.size()` and `x.length()` (also after
//! `->`) in `__wasmeval_size(...)`, which [`with_size_helper`] declares: a `size_t` becomes an
//! `unsigned long long` (the value of LP64's `size_t` is the same, being below 2^32), anything else
//! stays what it was. MultiPL-E's HumanEval_70 needs it: `long r = lst.size() - 1` on an empty
//! vector is -1 on LP64 and 4294967295 with a 32-bit `size_t`. The wrapped call is typed
//! differently, so a program that compiles only with a 32-bit `size_t` (`std::max(v.size(),
//! (size_t)1)` deduces two types) is compiled again without it (`languages::compiled` in the
//! runner). A call that is an argument of a `printf`/`scanf`-family call, or whose object
//! expression is not a plain chain of names, members, calls and subscripts, stays as it is.
//!
//! What it does not change: `size_t`, `usize`, pointers (the memory is 32-bit); a `%lu` given an
//! `unsigned long` variable; a program that names its own things `isize`, `labs` or `LONG_MAX`
//! (they are renamed too). Lines never move (no line break is added or removed), so compile
//! errors keep their line numbers; Rust's keep their columns too. The rewrite only turns words
//! into words (and `long` into `decltype(0LL)`, balanced): it adds no quote, comment, brace or
//! `main`, so what the judging instruments (`judging::compiled`) is where it was.

use crate::source_scan::skip_non_code;
use crate::task::Language;

/// `code` with the 64-bit integer model of LP64 hosts (see the module's documentation); code in
/// any other language than C, C++ and Rust is returned as it is.
pub fn widen_integers(language: Language, code: &str) -> String {
    match language {
        Language::C => c_family(code, false),
        Language::Cpp => c_family(code, true),
        Language::Rust => rust(code),
        _ => code.to_owned(),
    }
}

/// What a token of source is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An identifier or keyword.
    Word,
    /// A number (C's preprocessing number: digits, letters, `.`, exponent signs, `'` separators).
    Number,
    /// A double-quoted string literal, quotes included.
    Str,
}

/// A token: its kind and byte range.
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

/// The words, numbers and strings of `code`, in order (comments and character literals skipped).
/// `c_numbers`: numbers as C's preprocessing numbers (with `.`, exponent signs and `'`); else as
/// Rust's (letters, digits and `_`: `1..n` is a range, not a number).
fn tokens(code: &str, c_numbers: bool) -> Vec<Token> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let number_start = b.is_ascii_digit()
            || (c_numbers && b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        if number_start {
            let start = i;
            i += 1;
            while i < bytes.len() {
                let c = bytes[i];
                let next = bytes.get(i + 1).copied();
                // An exponent's sign (`1e+5`) belongs to the number in C.
                let sign = c_numbers
                    && matches!(c, b'+' | b'-')
                    && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
                if ident(c) || (c_numbers && c == b'.') || sign {
                    i += 1;
                } else if c_numbers && c == b'\'' && next.is_some_and(ident) {
                    i += 2;
                } else {
                    break;
                }
            }
            found.push(Token {
                kind: Kind::Number,
                start,
                end: i.min(bytes.len()),
            });
            continue;
        }
        if let Some(next) = skip_non_code(bytes, i) {
            let next = next.min(bytes.len());
            if b == b'"' {
                found.push(Token {
                    kind: Kind::Str,
                    start: i,
                    end: next,
                });
            }
            i = next;
            continue;
        }
        if ident(b) {
            let start = i;
            while i < bytes.len() && ident(bytes[i]) {
                i += 1;
            }
            found.push(Token {
                kind: Kind::Word,
                start,
                end: i,
            });
            continue;
        }
        // Multi-byte characters are skipped whole, so slices stay on character boundaries.
        i += code[i..].chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// The C and C++ names of `long` things and their `long long` counterparts.
const C_RENAMES: [(&str, &str); 9] = [
    ("LONG_MAX", "LLONG_MAX"),
    ("LONG_MIN", "LLONG_MIN"),
    ("ULONG_MAX", "ULLONG_MAX"),
    ("labs", "llabs"),
    ("atol", "atoll"),
    ("strtol", "strtoll"),
    ("strtoul", "strtoull"),
    ("stol", "stoll"),
    ("stoul", "stoull"),
];

/// C or C++ source with `long` 64 bits wide (see the module's documentation).
fn c_family(code: &str, cpp: bool) -> String {
    let tokens = tokens(code, true);
    let text = |t: &Token| &code[t.start..t.end];
    // The word token adjacent to token `k` on one side (only blanks between), if any.
    let adjacent_word = |k: usize, before: bool| -> Option<&str> {
        let other = if before {
            k.checked_sub(1)?
        } else {
            k.checked_add(1)?
        };
        let other = tokens.get(other)?;
        let (left, right) = if before {
            (other, &tokens[k])
        } else {
            (&tokens[k], other)
        };
        (other.kind == Kind::Word && code[left.end..right.start].trim().is_empty())
            .then(|| text(other))
    };
    let mut out = String::with_capacity(code.len() + 64);
    let mut last = 0;
    for (k, token) in tokens.iter().enumerate() {
        let word = text(token);
        let replacement: Option<String> = match token.kind {
            Kind::Word if word == "long" => {
                let before = adjacent_word(k, true);
                let after = adjacent_word(k, false);
                let wide = |w: Option<&str>| matches!(w, Some("long" | "double"));
                if wide(before) || wide(after) {
                    None
                } else {
                    let next = code[token.end..].trim_start().as_bytes().first();
                    // `operator long()` is a conversion function: `operator long long()` parses.
                    let typed = matches!(before, Some("unsigned" | "signed" | "operator"))
                        || after.is_some();
                    if cpp && !typed && matches!(next, Some(b'(' | b'{')) {
                        Some("decltype(0LL)".into())
                    } else {
                        Some("long long".into())
                    }
                }
            }
            Kind::Word => C_RENAMES
                .iter()
                .find(|(from, _)| *from == word)
                .map(|(_, to)| (*to).to_owned()),
            Kind::Number => long_suffix(word),
            Kind::Str => signed_long_formats(word),
        };
        if let Some(replacement) = replacement {
            out.push_str(&code[last..token.start]);
            out.push_str(&replacement);
            last = token.end;
        }
    }
    out.push_str(&code[last..]);
    out
}

/// An integer literal whose suffix has a single `l` (`0L`, `5ul`, `7LU`) with it doubled; `None`
/// for any other number (no suffix, `ll`, floats, user-defined suffixes).
fn long_suffix(number: &str) -> Option<String> {
    let lower = number.to_ascii_lowercase();
    let hex = lower.starts_with("0x");
    let float = lower.contains('.')
        || (hex && lower.contains('p'))
        || (!hex && !lower.starts_with("0b") && lower.contains('e'));
    if float {
        return None;
    }
    let digits = number.trim_end_matches(['u', 'U', 'l', 'L']);
    let suffix = &number[digits.len()..];
    if suffix.chars().filter(|c| matches!(c, 'l' | 'L')).count() != 1 {
        return None;
    }
    let at = digits.len() + suffix.find(['l', 'L'])?;
    let l = &number[at..at + 1];
    Some(format!("{}{l}{}", &number[..at], &number[at..]))
}

/// A string literal with `printf`/`scanf`'s `%ld` and `%li` conversions made `%lld` and `%lli`
/// (flags, width and precision kept); `None` when it has none.
fn signed_long_formats(literal: &str) -> Option<String> {
    let bytes = literal.as_bytes();
    let mut out = String::with_capacity(literal.len() + 4);
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        if bytes.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        let mut j = i + 1;
        while j < bytes.len() && matches!(bytes[j], b'-' | b'+' | b' ' | b'#' | b'0' | b'\'') {
            j += 1;
        }
        while j < bytes.len() && (bytes[j].is_ascii_digit() || matches!(bytes[j], b'*' | b'.')) {
            j += 1;
        }
        if bytes.get(j) == Some(&b'l') && matches!(bytes.get(j + 1), Some(b'd' | b'i')) {
            out.push_str(&literal[last..j]);
            out.push('l');
            last = j;
        }
        i = j.max(i + 1);
    }
    if last == 0 {
        return None;
    }
    out.push_str(&literal[last..]);
    Some(out)
}

/// Rust source with `isize` as `i64` (see the module's documentation).
fn rust(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut last = 0;
    for token in tokens(code, false) {
        let text = &code[token.start..token.end];
        let at = match token.kind {
            Kind::Word if text == "isize" => token.start,
            Kind::Number if text.ends_with("isize") => token.end - "isize".len(),
            _ => continue,
        };
        out.push_str(&code[last..at]);
        // As wide as `isize`: columns stay.
        out.push_str("i64  ");
        last = token.end;
    }
    out.push_str(&code[last..]);
    out
}

/// The declaration [`widen_sizes`]'s calls need, put before C++ `code`: on wasm32 `size_t` is
/// `unsigned long` (32 bits), which the overload widens; every other type goes through the template
/// unchanged. `#line 1` keeps the line numbers of compile errors.
pub fn with_size_helper(code: &str) -> String {
    format!(
        "template <class T> inline T {SIZE_HELPER}(T n) {{ return n; }}\n\
         inline unsigned long long {SIZE_HELPER}(unsigned long n) {{ return n; }}\n#line 1\n{code}"
    )
}

/// The function [`widen_sizes`] wraps size calls in.
const SIZE_HELPER: &str = "__wasmeval_size";

/// C++ `code` with each `x.size()` and `x.length()` wrapped in `__wasmeval_size(...)` (see the
/// module's documentation); other languages' code as it is. Lines and the words in them stay.
pub fn widen_sizes(language: Language, code: &str) -> String {
    if language != Language::Cpp {
        return code.to_owned();
    }
    let bytes = code.as_bytes();
    let in_code = code_mask(bytes);
    let mut wraps: Vec<(usize, usize)> = Vec::new();
    for token in tokens(code, true) {
        let name = &code[token.start..token.end];
        if token.kind != Kind::Word || !matches!(name, "size" | "length") {
            continue;
        }
        // `name` then `(` and `)`, with only blanks between.
        let Some(open) = next_code(bytes, &in_code, token.end).filter(|&i| bytes[i] == b'(') else {
            continue;
        };
        let Some(close) = next_code(bytes, &in_code, open + 1).filter(|&i| bytes[i] == b')') else {
            continue;
        };
        // `.` or `->` before the name.
        let Some(member) = previous_code(bytes, &in_code, token.start) else {
            continue;
        };
        let access = match bytes[member] {
            b'.' => member,
            b'>' if member > 0 && bytes[member - 1] == b'-' => member - 1,
            _ => continue,
        };
        let Some(start) = object_start(code, &in_code, access) else {
            continue;
        };
        if in_formatted_call(code, &in_code, start) {
            continue;
        }
        wraps.push((start, close + 1));
    }
    // Calls nest (`a[b.size()].size()`): opening texts go in at starts, closing at ends, in order.
    let mut edits: Vec<(usize, &str)> = wraps
        .iter()
        .flat_map(|&(start, end)| [(start, "__wasmeval_size("), (end, ")")])
        .collect();
    // At one index a closing paren goes before an opening one: `f(a.size())` ends where nothing
    // starts, but `(a.size())+b.size()` could; stable sort keeps the rest in order.
    edits.sort_by_key(|&(at, text)| (at, text != ")"));
    let mut out = String::with_capacity(code.len() + edits.len() * 10);
    let mut last = 0;
    for (at, text) in edits {
        out.push_str(&code[last..at]);
        out.push_str(text);
        last = at;
    }
    out.push_str(&code[last..]);
    out
}

/// For each byte of `bytes`, whether it is code (not in a comment, string or character literal).
fn code_mask(bytes: &[u8]) -> Vec<bool> {
    let mut mask = vec![true; bytes.len()];
    let mut i = 0;
    while i < bytes.len() {
        match skip_non_code(bytes, i) {
            Some(next) => {
                let next = next.min(bytes.len());
                mask[i..next].iter_mut().for_each(|m| *m = false);
                i = next.max(i + 1);
            }
            None => i += 1,
        }
    }
    mask
}

/// The first code byte at or after `from` that is not blank.
fn next_code(bytes: &[u8], in_code: &[bool], from: usize) -> Option<usize> {
    (from..bytes.len()).find(|&i| in_code[i] && !bytes[i].is_ascii_whitespace())
}

/// The last code byte before `before` that is not blank.
fn previous_code(bytes: &[u8], in_code: &[bool], before: usize) -> Option<usize> {
    (0..before)
        .rev()
        .find(|&i| in_code[i] && !bytes[i].is_ascii_whitespace())
}

/// Words after which a parenthesised expression is not a call's arguments.
const NOT_CALLEES: [&str; 14] = [
    "return",
    "case",
    "sizeof",
    "throw",
    "co_return",
    "co_yield",
    "co_await",
    "delete",
    "new",
    "and",
    "or",
    "not",
    "else",
    "do",
];

/// Where the object expression before the member access at `access` (`.` or `->`) starts: a
/// chain of names, `::`, `.`, `->`, calls and subscripts, or a parenthesised expression. `None`
/// when it is anything else (a template's `>`, braces, a lambda): such a call is left alone.
fn object_start(code: &str, in_code: &[bool], access: usize) -> Option<usize> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // The start of the balanced group closed at `close`.
    let group_start = |close: usize| -> Option<usize> {
        let (open, shut) = match bytes[close] {
            b')' => (b'(', b')'),
            _ => (b'[', b']'),
        };
        let mut depth = 0usize;
        for i in (0..=close).rev().filter(|&i| in_code[i]) {
            if bytes[i] == shut {
                depth += 1;
            } else if bytes[i] == open {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
        }
        None
    };
    let word_start = |end: usize| (0..end).rev().take_while(|&i| ident(bytes[i])).last();
    #[derive(PartialEq)]
    enum After {
        Access,
        Name,
        Group(u8),
    }
    let mut start = access;
    let mut after = After::Access;
    loop {
        let previous = previous_code(bytes, in_code, start);
        match after {
            // After `.`, `->` or `::`: a name or a group must come before.
            After::Access => {
                let at = previous?;
                if ident(bytes[at]) {
                    start = word_start(at + 1)?;
                    after = After::Name;
                } else if matches!(bytes[at], b')' | b']') {
                    start = group_start(at)?;
                    after = After::Group(bytes[at]);
                } else {
                    return None;
                }
            }
            After::Name => match previous {
                Some(at) if bytes[at] == b'.' => {
                    start = at;
                    after = After::Access;
                }
                Some(at) if at > 0 && bytes[at] == b'>' && bytes[at - 1] == b'-' => {
                    start = at - 1;
                    after = After::Access;
                }
                Some(at) if at > 0 && bytes[at] == b':' && bytes[at - 1] == b':' => {
                    start = at - 1;
                    after = After::Access;
                }
                _ => return Some(start),
            },
            After::Group(kind) => match previous {
                Some(at) if ident(bytes[at]) => {
                    let word_at = word_start(at + 1)?;
                    if NOT_CALLEES.contains(&&code[word_at..=at]) {
                        return (kind == b')').then_some(start);
                    }
                    start = word_at;
                    after = After::Name;
                }
                Some(at) if matches!(bytes[at], b')' | b']') => {
                    start = group_start(at)?;
                    after = After::Group(bytes[at]);
                }
                // A template's arguments or a lambda's body: the extent is not plain.
                Some(at) if matches!(bytes[at], b'>' | b'}') => return None,
                // A parenthesised expression; a subscript needs something to subscript.
                _ => return (kind == b')').then_some(start),
            },
        }
    }
}

/// Whether the expression at `at` is inside the arguments of a `printf`/`scanf`-family call
/// (their variadic arguments are read at the width the format says: a widened size would shift
/// every argument after it).
fn in_formatted_call(code: &str, in_code: &[bool], at: usize) -> bool {
    let bytes = code.as_bytes();
    let mut depth = 0usize;
    for i in (0..at).rev().filter(|&i| in_code[i]) {
        match bytes[i] {
            b')' | b']' => depth += 1,
            b'(' | b'[' if depth > 0 => depth -= 1,
            b'(' => {
                let end = previous_code(bytes, in_code, i).map_or(0, |e| e + 1);
                let callee_start = (0..end)
                    .rev()
                    .take_while(|&k| bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_')
                    .last()
                    .unwrap_or(end);
                let callee = &code[callee_start..end];
                if callee.ends_with("printf") || callee.ends_with("scanf") {
                    return true;
                }
            }
            b'[' => {}
            b';' | b'{' | b'}' if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpp(code: &str) -> String {
        widen_integers(Language::Cpp, code)
    }

    fn sizes(code: &str) -> String {
        widen_sizes(Language::Cpp, code)
    }

    #[test]
    fn size_calls_on_plain_object_chains_are_wrapped() {
        assert_eq!(
            sizes("long r = lst.size() - 1;"),
            "long r = __wasmeval_size(lst.size()) - 1;"
        );
        assert_eq!(
            sizes("n = a[i].b->c.length ( ) ; m = std::string(x).size();"),
            "n = __wasmeval_size(a[i].b->c.length ( )) ; m = __wasmeval_size(std::string(x).size());"
        );
        assert_eq!(
            sizes("if (f(a, b).size() < (*p).size()) return (v).size(); x = this->v.size();"),
            "if (__wasmeval_size(f(a, b).size()) < __wasmeval_size((*p).size())) \
             return __wasmeval_size((v).size()); x = __wasmeval_size(this->v.size());"
        );
        assert_eq!(
            sizes("x = a[b.size() - 1].size();"),
            "x = __wasmeval_size(a[__wasmeval_size(b.size()) - 1].size());"
        );
        assert_eq!(
            sizes("for (int i = v.size() - 1; i >= 0; i--) {}"),
            "for (int i = __wasmeval_size(v.size()) - 1; i >= 0; i--) {}"
        );
    }

    #[test]
    fn size_calls_whose_extent_or_use_is_unsure_stay() {
        for code in [
            "printf(\"%lu %d\", v.size(), x);",
            "std::printf(\"%d\", std::max(a, b.size()));",
            "scanf(\"%d\", &v[v.size() - 1]);",
            "n = std::get<0>(t).size();",
            "n = std::vector<int>{1, 2}.size();",
            "n = [&] { return v; }().size();",
            "// v.size() - 1\n",
            "s = \"v.size() - 1\";",
            "size_t size() const { return n; } int length(int x);",
            "n = v.size; m = v.size(1); k = size();",
            "n = ::v.size();",
        ] {
            assert_eq!(sizes(code), code);
        }
        assert_eq!(widen_sizes(Language::C, "n = v.size();"), "n = v.size();");
        assert_eq!(widen_sizes(Language::Rust, "v.len() - 1"), "v.len() - 1");
    }

    #[test]
    fn the_size_helper_keeps_line_numbers() {
        let helped = with_size_helper("int main() {}\n");
        assert!(helped.ends_with("\n#line 1\nint main() {}\n"), "{helped}");
        assert!(helped.contains("unsigned long n"), "{helped}");
    }

    #[test]
    fn a_lone_long_becomes_long_long_and_wider_types_stay() {
        assert_eq!(
            cpp("long f(long n, long int m, unsigned long u, signed long s, const long c);"),
            "long long f(long long n, long long int m, unsigned long long u, \
             signed long long s, const long long c);"
        );
        assert_eq!(
            cpp("long long a; long double b; unsigned long long c; int long d; double long e;"),
            "long long a; long double b; unsigned long long c; int long long d; double long e;"
        );
        assert_eq!(
            cpp("std::vector<long> v = {(long)-9999999999999999}; std::map<long,long> m;"),
            "std::vector<long long> v = {(long long)-9999999999999999}; \
             std::map<long long,long long> m;"
        );
        assert_eq!(
            cpp("long\nf(long\n  long x);"),
            "long long\nf(long\n  long x);"
        );
    }

    #[test]
    fn comments_strings_characters_and_other_words_are_left_alone() {
        let code = "// long ago\n/* long */ const char *s = \"long\"; char c = 'l'; \
                    int longest = 1; long_t x; belong y;";
        assert_eq!(cpp(code), code);
        assert_eq!(widen_integers(Language::Python, "long x"), "long x");
        assert_eq!(
            widen_integers(Language::Javascript, "let isize = 1"),
            "let isize = 1"
        );
    }

    #[test]
    fn a_functional_cast_to_long_stays_a_cast_in_cpp() {
        assert_eq!(
            cpp("auto x = long(y) + long{z}; long (*p)(int);"),
            "auto x = decltype(0LL)(y) + decltype(0LL){z}; decltype(0LL) (*p)(int);"
        );
        assert_eq!(
            cpp("unsigned long (x); sizeof(long); operator long()"),
            "unsigned long long (x); sizeof(long long); operator long long()"
        );
        // C has no functional casts (nor decltype).
        assert_eq!(
            widen_integers(Language::C, "long (*p)(int);"),
            "long long (*p)(int);"
        );
    }

    #[test]
    fn literals_limits_and_conversions_of_long_are_widened() {
        assert_eq!(
            cpp("0L + 5ul + 7LU + 1'000L + 0x1fL + 3LL + 4ull + 1.5L + 1e+5L + 0x1p3L + 42 + 7_km"),
            "0LL + 5ull + 7LLU + 1'000LL + 0x1fLL + 3LL + 4ull + 1.5L + 1e+5L + 0x1p3L + 42 + 7_km"
        );
        assert_eq!(
            cpp(
                "long m = LONG_MAX, n = LONG_MIN; unsigned long u = ULONG_MAX; \
                 labs(a); std::labs(a); atol(s); strtol(s, 0, 10); strtoul(s, 0, 10); \
                 std::stol(t); std::stoul(t); LONG_MAXIMUM; stoi(t);"
            ),
            "long long m = LLONG_MAX, n = LLONG_MIN; unsigned long long u = ULLONG_MAX; \
             llabs(a); std::llabs(a); atoll(s); strtoll(s, 0, 10); strtoull(s, 0, 10); \
             std::stoll(t); std::stoull(t); LONG_MAXIMUM; stoi(t);"
        );
    }

    #[test]
    fn signed_long_formats_are_widened_and_size_formats_stay() {
        assert_eq!(
            cpp(r#"scanf("%ld %li", &a, &b); printf("%5ld|%-08.3ld|%lld|%lu|%zu|%%ld|%lx\n", a);"#),
            r#"scanf("%lld %lli", &a, &b); printf("%5lld|%-08.3lld|%lld|%lu|%zu|%%ld|%lx\n", a);"#
        );
        assert_eq!(cpp(r#"puts("100%");"#), r#"puts("100%");"#);
    }

    #[test]
    fn rust_isize_is_i64_in_types_paths_and_suffixes_with_columns_kept() {
        let code = "fn f(n: isize, v: Vec<isize>) -> isize {\n    let m = isize::MAX.min(std::isize::MIN);\n    \
                    let k = 0isize + 1_isize + v.len() as isize;\n    let s = \"isize\"; // isize\n    \
                    let u: usize = 3; let w = misize; n\n}\n";
        let widened = widen_integers(Language::Rust, code);
        assert_eq!(
            widened,
            "fn f(n: i64  , v: Vec<i64  >) -> i64   {\n    let m = i64  ::MAX.min(std::i64  ::MIN);\n    \
             let k = 0i64   + 1_i64   + v.len() as i64  ;\n    let s = \"isize\"; // isize\n    \
             let u: usize = 3; let w = misize; n\n}\n"
        );
        for (before, after) in code.lines().zip(widened.lines()) {
            assert_eq!(before.len(), after.len());
        }
        // A range is not a number with a suffix.
        assert_eq!(
            widen_integers(Language::Rust, "for i in 0..isize::MAX {}"),
            "for i in 0..i64  ::MAX {}"
        );
    }

    #[test]
    fn lines_never_move_and_the_instrumented_words_stay() {
        let code = "#include <climits>\nlong f(long x) {\n  // long\n  return long(x) * 2L;\n}\nint main() {\n  assert(f(3L) == 6);\n  return 0;\n}\n";
        let widened = cpp(code);
        assert_eq!(widened.lines().count(), code.lines().count());
        for word in ["main", "return", "assert", "{", "}", "\"", "//"] {
            assert_eq!(
                widened.matches(word).count(),
                code.matches(word).count(),
                "{word}"
            );
        }
    }

    #[test]
    fn text_that_is_not_ascii_or_ends_mid_token_is_kept_whole() {
        assert_eq!(
            cpp("// é long\nlong é = 1L"),
            "// é long\nlong long é = 1LL"
        );
        assert_eq!(cpp("\"unterminated %ld"), "\"unterminated %lld");
        assert_eq!(cpp("x = 1'"), "x = 1'");
        assert_eq!(widen_integers(Language::Rust, "'a isize é"), "'a i64   é");
    }
}

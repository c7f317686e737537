//! HumanEval-X's C++ and Rust asserts as host-judged `calls` cases.
//!
//! A test's top-level asserts (in C++'s `main`, in Rust's test function) that compare what the
//! candidate's function returns with a literal become `calls` cases whose expected values stay
//! on the host. The test itself stays, as the suite's driver (its `setup`), with each converted
//! assert replaced by a call that reports the value as plain data: `WASMEVAL_CASE(i, <call>);` in
//! C++ (`guests/cxx/calls.hpp`), `__wasmeval_calls::case(i, || <call>);` in Rust
//! (`judging::compiled::calls_program` adds the support). Other statements (declarations the
//! asserts use) stay where they are.
//!
//! What a case compares is what the test's own `==` compares (issue 33): each assert is still
//! compiled, unevaluated (`(void)sizeof((<assert>) ? 1 : 0);` in C++, `if false { <assert>; loop
//! {} }` in Rust, a branch that diverges so that the values the assert moves stay for the call), so a comparison the compiler refuses is a `compile_error` as natively; C++ reports a
//! value compared with a number, bool or character literal converted to their common type
//! (`wasmeval_calls::compared<decltype(<literal>)>(<call>)`: a `float` against the double `1.2`
//! is the double `1.2000000476837158`), reports a `float` as the exact double it is, and reads a
//! literal of type `float` (`1.2f`, `(float)1.2`, `float(1)`, the items of a `vector<float>` or of
//! a `vector<float>` parameter of `issame`) as that float. Rust compares an `f32` with an `f32`
//! (an unsuffixed literal takes the value's type): its driver reports an `f32` by its shortest
//! text and its literals are read as written, which is exact for literals of at most 6
//! significant digits (every such decimal is its `f32`'s shortest text).
//!
//! Shapes converted, either side of `==` holding the literal:
//!
//! | language | assert | case |
//! |---|---|---|
//! | C++ | `assert (f(x) == lit);`, `assert (issame(f(x), lit));` | equals (`issame` on `map<..>` compares as a dict; on floats, within the tolerance its body uses) |
//! | C++ | `assert (abs(f(x) - lit) < eps);` | equals within `eps` |
//! | C++ | `assert (f(x));`, `assert (not f(x));`, `assert (!f(x));` | truthy, falsy |
//! | Rust | `assert_eq!(f(x), lit);`, `assert!(f(x) == lit);` | equals |
//! | Rust | `assert!((f(x) - lit).abs() < eps);` | equals within `eps` |
//! | Rust | `assert!(f(x));`, `assert!(!f(x));` | truthy, falsy |
//!
//! Literals: numbers, `true`/`false`, strings, characters (as one-character strings), brace
//! lists (C++) and `vec![..]`/arrays (Rust) as arrays, tuples, `Some(x)` as `x` and `None` as
//! null (Rust), `"..".to_string()` and friends. MultiPL-E's too: C casts of items (`(long)1`),
//! empty `std::vector<T>()`, `std::string()`, `std::map<K,V>(..)` (a dict, as `calls.hpp` reports
//! a map), Rust's `Vec::<T>::new()`, `HashMap::new()` and `HashMap::from([(k, v), ..])` (a dict).
//! C++'s `std::make_tuple` and `std::optional` are not read (`calls.hpp` reports neither). A test with any assert this cannot convert (in a
//! loop, against a variable, another shape) is left whole: one assertion case, judged in the
//! guest, and its results say so.

use crate::source_scan::{c_main_body, matching, skip_non_code};
use crate::task::{CallCase, CallCheck, TestSuite};
use serde_json::{json, Value};

/// The `calls` suite of a C++ HumanEval-X test, or `None` when an assert cannot be converted.
pub fn cpp_calls(test: &str) -> Option<TestSuite> {
    let (open, close) = c_main_body(test)?;
    let issame = IssameHelper::of(test);
    let mut driver = String::with_capacity(test.len() + 256);
    driver.push_str(&test[..open]);
    let mut cases = Vec::new();
    let body = &test[open..close];
    let mut last = 0;
    for (start, end) in top_level_statements(body) {
        let statement = body[start..end].trim();
        let words = word_starts(statement, "assert");
        if words.is_empty() {
            continue;
        }
        // An assert that is not a statement of its own at the top level (in a loop, an `if`)
        // runs a varying number of times: not a case.
        if words != [0] {
            return None;
        }
        let inner = call_arguments(statement, "assert")?;
        let (reported, case) = cpp_case(inner, &issame, cases.len())?;
        driver.push_str(&body[last..start]);
        // The assert's condition is compiled, unevaluated, so that a test that g++ would refuse
        // (a `vector<int>` compared with a `vector<long>`, a string with a number) is refused here
        // too; the driver then reports the value `==` compares.
        driver.push_str(&format!(
            "(void)sizeof(({}) ? 1 : 0); WASMEVAL_CASE({}, {reported});",
            inner.trim(),
            cases.len()
        ));
        last = end;
        cases.push(case);
    }
    if cases.is_empty() {
        return None;
    }
    driver.push_str(&body[last..]);
    driver.push_str(&test[close..]);
    suite(driver, cases)
}

/// The `calls` suite of a Rust test program (HumanEval-X's as the importer rewrites it: test
/// functions in `mod tests`, called by `main`; MultiPL-E's: asserts in `main`), or `None` when an
/// assert cannot be converted.
pub fn rust_calls(program: &str) -> Option<TestSuite> {
    let mut driver = String::with_capacity(program.len() + 256);
    let mut cases = Vec::new();
    let mut last = 0;
    for (open, close) in rust_test_bodies(program) {
        let body = &program[open..close];
        for (start, end) in top_level_statements(body) {
            let statement = body[start..end].trim();
            let asserts: Vec<usize> = ["assert", "assert_eq", "assert_ne"]
                .iter()
                .flat_map(|word| word_starts(statement, word))
                .collect();
            if asserts.is_empty() {
                continue;
            }
            if asserts != [0] {
                return None;
            }
            let (call, case) = rust_case(statement, cases.len())?;
            driver.push_str(&program[last..open + start]);
            // The assert itself is compiled, never run, so that a test that rustc would refuse
            // (a `Vec` compared with a tuple, a literal out of its type's range) is refused here
            // too; the driver then reports the value. The branch diverges, so what the assert
            // moves is still there for the call.
            driver.push_str(&format!(
                "if false {{ {}; loop {{}} }} crate::__wasmeval_calls::case({}, || {call});",
                statement.trim_end_matches(';'),
                cases.len()
            ));
            last = open + end;
            cases.push(case);
        }
    }
    if cases.is_empty() {
        return None;
    }
    driver.push_str(&program[last..]);
    suite(driver, cases)
}

fn suite(driver: String, cases: Vec<CallCase>) -> Option<TestSuite> {
    // The function the first case calls names the suite (results show it; the driver calls).
    let entry_point = cases.first().map(|c| c.name.clone()).and_then(|name| {
        let callee: String = name
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!callee.is_empty()).then_some(callee)
    })?;
    Some(TestSuite::Calls {
        setup: driver,
        entry_point,
        tolerance: 0.0,
        cases,
    })
}

/// How the test's `issame(a, b)` compares, when it defines one: as dicts (its parameters are
/// `map`s), within a tolerance (its body takes `abs` of a difference), or exactly; a literal
/// passed for a `vector<float>` parameter is converted to `float`s.
#[derive(Debug, Default)]
struct IssameHelper {
    map: bool,
    float: bool,
    tolerance: Option<f64>,
}

impl IssameHelper {
    fn of(test: &str) -> IssameHelper {
        let Some(at) = word_starts(test, "issame").first().copied() else {
            return IssameHelper::default();
        };
        let bytes = test.as_bytes();
        let Some(paren) = test[at..].find('(').map(|n| at + n) else {
            return IssameHelper::default();
        };
        let Some(close) = matching(bytes, paren, b'(', b')') else {
            return IssameHelper::default();
        };
        let parameters = &test[paren + 1..close];
        let body_end = test[close..]
            .find('{')
            .and_then(|n| matching(bytes, close + n, b'{', b'}'))
            .unwrap_or(close);
        let body = &test[close..body_end];
        let tolerance = (body.contains("abs(") || body.contains("fabs("))
            .then(|| {
                body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                    .filter(|word| word.contains('e') || word.contains('.'))
                    .find_map(|word| word.parse::<f64>().ok())
            })
            .flatten();
        let parameters = parameters.trim_start();
        let parameters = parameters.strip_prefix("std::").unwrap_or(parameters);
        IssameHelper {
            map: parameters.starts_with("map<"),
            float: parameters.replace(' ', "").starts_with("vector<float>"),
            tolerance,
        }
    }
}

/// One C++ assert's inner expression as (the expression to report, its case). For `call == lit`
/// with a number, bool or character literal, the expression converts the value to the type that
/// `==` compares in (`guests/cxx/calls.hpp`'s `compared`).
fn cpp_case(inner: &str, issame: &IssameHelper, index: usize) -> Option<(String, CallCase)> {
    let inner = strip_parens(inner);
    let name = collapse(inner);
    let case = |call: &str, check, expected: Value, tolerance| {
        Some((
            call.trim().to_owned(),
            CallCase {
                name: named(&name, index),
                args: Vec::new(),
                expected,
                check,
                tolerance,
            },
        ))
    };
    if let Some(arguments) = call_arguments(inner, "issame") {
        let [left, right] = split_top_level(arguments, ',')[..] else {
            return None;
        };
        let (call, _, literal) = call_and_literal(left, right, Dialect::Cpp)?;
        let expected = match (issame.map, issame.float) {
            (true, _) => dict_of_pairs(literal)?,
            (false, true) => as_float(literal)?,
            (false, false) => literal,
        };
        return case(call, CallCheck::Equals, expected, issame.tolerance);
    }
    if let Some((call, expected, tolerance)) = within_tolerance(inner, Dialect::Cpp) {
        return case(call, CallCheck::Equals, expected, Some(tolerance));
    }
    if let [left, right] = split_operator(inner, "==")[..] {
        let (call, text, expected) = call_and_literal(left, right, Dialect::Cpp)?;
        let scalar = matches!(expected, Value::Number(_) | Value::Bool(_))
            || strip_parens(text).starts_with('\'');
        if scalar {
            let converted = format!(
                "wasmeval_calls::compared<decltype({})>({})",
                text.trim(),
                call.trim()
            );
            return case(&converted, CallCheck::Equals, expected, None);
        }
        return case(call, CallCheck::Equals, expected, None);
    }
    let negated = inner.strip_prefix("not ").or_else(|| {
        inner
            .strip_prefix('!')
            .filter(|rest| !rest.starts_with('='))
    });
    match negated {
        Some(rest) if is_call(strip_parens(rest.trim())) => case(
            strip_parens(rest.trim()),
            CallCheck::Falsy,
            Value::Null,
            None,
        ),
        None if is_call(inner) => case(inner, CallCheck::Truthy, Value::Null, None),
        _ => None,
    }
}

/// One Rust assert statement as (the call to report, its case).
fn rust_case(statement: &str, index: usize) -> Option<(String, CallCase)> {
    let make = |name: &str, call: &str, check, expected: Value, tolerance| {
        Some((
            call.trim().to_owned(),
            CallCase {
                name: named(&collapse(name), index),
                args: Vec::new(),
                expected,
                check,
                tolerance,
            },
        ))
    };
    // A custom message after the operands is not part of the check.
    if let Some(arguments) = macro_arguments(statement, "assert_eq") {
        let [left, right, ..] = arguments[..] else {
            return None;
        };
        let (call, _, expected) = call_and_literal(left, right, Dialect::Rust)?;
        return make(
            &format!("{left}, {right}"),
            call,
            CallCheck::Equals,
            expected,
            None,
        );
    }
    let inner = strip_parens(macro_arguments(statement, "assert")?.first()?);
    if let Some((call, expected, tolerance)) = within_tolerance(inner, Dialect::Rust) {
        return make(inner, call, CallCheck::Equals, expected, Some(tolerance));
    }
    if let [left, right] = split_operator(inner, "==")[..] {
        let (call, _, expected) = call_and_literal(left, right, Dialect::Rust)?;
        return make(inner, call, CallCheck::Equals, expected, None);
    }
    match inner.strip_prefix('!') {
        Some(rest) if is_call(strip_parens(rest.trim())) => make(
            inner,
            strip_parens(rest.trim()),
            CallCheck::Falsy,
            Value::Null,
            None,
        ),
        None if is_call(inner) => make(inner, inner, CallCheck::Truthy, Value::Null, None),
        _ => None,
    }
}

/// A case's name: its expression, shortened, and unique by its number.
fn named(expression: &str, index: usize) -> String {
    let short: String = expression.chars().take(80).collect();
    if short.len() < expression.len() {
        format!("{index}: {short}...")
    } else {
        format!("{index}: {short}")
    }
}

/// `abs(call - lit) < eps` (C++, also `fabs`) or `(call - lit).abs() < eps` (Rust), either
/// operand first: (call, literal, eps).
fn within_tolerance(inner: &str, dialect: Dialect) -> Option<(&str, Value, f64)> {
    let [left, right] = split_operator(inner, "<")[..] else {
        return None;
    };
    let tolerance = literal(right, dialect)?.as_f64()?;
    let left = left.trim();
    let difference = match dialect {
        Dialect::Cpp => call_arguments(left, "abs").or_else(|| call_arguments(left, "fabs"))?,
        Dialect::Rust => strip_parens(left.strip_suffix(".abs()")?.trim()),
    };
    let [a, b] = split_operator(difference, "-")[..] else {
        return None;
    };
    let (call, _, expected) = call_and_literal(a, b, dialect)?;
    Some((call, expected, tolerance))
}

/// Of two operands, the call, the literal's text and its value: one must be a literal, the other
/// not.
fn call_and_literal<'a>(
    a: &'a str,
    b: &'a str,
    dialect: Dialect,
) -> Option<(&'a str, &'a str, Value)> {
    match (literal(a, dialect), literal(b, dialect)) {
        (None, Some(value)) if is_call(strip_parens(a.trim())) => Some((a.trim(), b, value)),
        (Some(value), None) if is_call(strip_parens(b.trim())) => Some((b.trim(), a, value)),
        _ => None,
    }
}

/// Whether `code` ends with a call's closing parenthesis after an identifier: what a candidate's
/// result looks like.
fn is_call(code: &str) -> bool {
    let code = code.trim();
    code.ends_with(')')
        && code
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// A list of pairs as a `$dict`: C++'s `{{"a", 1}, {"b", 2}}`, Rust's `[("a", 1), ("b", 2)]`
/// (tuples); a `$dict` already is one.
fn dict_of_pairs(value: Value) -> Option<Value> {
    if value.get("$dict").is_some() {
        return Some(value);
    }
    let Value::Array(items) = value else {
        return None;
    };
    let pairs: Option<Vec<Value>> = items
        .into_iter()
        .map(|item| match item {
            Value::Array(pair) if pair.len() == 2 => Some(Value::Array(pair)),
            Value::Object(mut tuple) => match tuple.remove("$tuple") {
                Some(Value::Array(pair)) if pair.len() == 2 && tuple.is_empty() => {
                    Some(Value::Array(pair))
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    Some(json!({ "$dict": pairs? }))
}

/// Which language's literal syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Cpp,
    Rust,
}

/// The value of a literal, or `None` when `code` is not one this reads.
fn literal(code: &str, dialect: Dialect) -> Option<Value> {
    let code = code.trim();
    if code.is_empty() {
        return None;
    }
    // `(5)`, as MultiPL-E writes values; in Rust only when it is not a tuple.
    let inner = strip_parens(code);
    if inner.len() < code.len()
        && (dialect == Dialect::Cpp
            || (split_top_level(inner, ',').len() == 1 && !inner.ends_with(',')))
    {
        return literal(inner, dialect);
    }
    // A C cast, as MultiPL-E writes list items: `(long)1`, `(std::string)"a"`.
    if dialect == Dialect::Cpp && code.starts_with('(') {
        let close = matching(code.as_bytes(), 0, b'(', b')')?;
        let type_name = &code[1..close];
        let is_type = type_name.starts_with(|c: char| c.is_alphabetic() || c == '_')
            && type_name
                .chars()
                .all(|c| c.is_alphanumeric() || "_:<>, ".contains(c));
        let value = is_type
            .then(|| literal(&code[close + 1..], dialect))
            .flatten()?;
        return match is_float_type(type_name) {
            true => as_float(value),
            false => Some(value),
        };
    }
    if let Some(rest) = code.strip_prefix('-') {
        return match literal(rest, dialect)? {
            Value::Number(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) if n.is_i64() => Some(json!(-i)),
                (_, Some(f)) => Some(json!(-f)),
                _ => None,
            },
            _ => None,
        };
    }
    match code {
        "true" => return Some(Value::Bool(true)),
        "false" => return Some(Value::Bool(false)),
        "None" | "Vec::new()" | "String::new()" if dialect == Dialect::Rust => {
            return Some(if code == "None" {
                Value::Null
            } else if code == "Vec::new()" {
                json!([])
            } else {
                json!("")
            })
        }
        _ => {}
    }
    let first = code.chars().next()?;
    if first.is_ascii_digit() || first == '.' {
        return number(code, dialect);
    }
    if first == '"' {
        // Rust's `"x".to_string()` and friends are the string.
        let end = string_end(code)?;
        let rest = code[end..].trim();
        let converted = matches!(
            rest,
            "" | ".to_string()" | ".to_owned()" | ".into()" | ".as_str()"
        );
        return (converted || (dialect == Dialect::Cpp && rest.is_empty()))
            .then(|| unescape(&code[1..end - 1]).map(Value::String))
            .flatten();
    }
    if first == '\'' {
        let end = string_end(code)?;
        return (end == code.len())
            .then(|| unescape(&code[1..end - 1]).map(Value::String))
            .flatten();
    }
    match dialect {
        Dialect::Cpp => {
            // `{..}`, `vector<..>{..}`, `string("..")`.
            if let Some(inner) = code.strip_prefix('{').and_then(|c| c.strip_suffix('}')) {
                return list(inner, dialect);
            }
            let type_end = code.find(['{', '('])?;
            let type_name = code[..type_end].trim();
            let type_name = type_name.strip_prefix("std::").unwrap_or(type_name);
            // A functional cast, as MultiPL-E writes some numbers: `float(-1)`, `double(3)`.
            if matches!(type_name, "float" | "double") {
                let inner = &code[type_end..];
                let (open, close) = match inner.starts_with('(') {
                    true => (b'(', b')'),
                    false => (b'{', b'}'),
                };
                if matching(inner.as_bytes(), 0, open, close) != Some(inner.len() - 1) {
                    return None;
                }
                let value = literal(&inner[1..inner.len() - 1], dialect)?;
                return match type_name == "float" {
                    true => as_float(value),
                    false => Some(value),
                };
            }
            let container = ["vector<", "map<", "pair<"]
                .iter()
                .any(|t| type_name.starts_with(t));
            if !(container || type_name == "string") {
                return None;
            }
            let inner = &code[type_end..];
            let value = match inner.starts_with('(') {
                // `T()`, as MultiPL-E writes an empty vector, map or string.
                true if inner.trim_end() == "()" => match type_name {
                    "string" => json!(""),
                    _ if type_name.starts_with("vector<") => json!([]),
                    _ if type_name.starts_with("map<") => json!({ "$dict": [] }),
                    _ => return None,
                },
                true => literal(strip_parens(inner), dialect)?,
                false => literal(inner, dialect)?,
            };
            // A `map` is compared as a dict, which is how `calls.hpp` reports one; the items of
            // a `vector<float>` are floats.
            match type_name.starts_with("map<") {
                true => dict_of_pairs(value),
                false if is_float_type(type_name) => as_float(value),
                false => Some(value),
            }
        }
        Dialect::Rust => {
            if let Some(inner) = code
                .strip_prefix("vec!")
                .map(str::trim)
                .and_then(|c| c.strip_prefix('[').and_then(|c| c.strip_suffix(']')))
            {
                return list(inner, dialect);
            }
            if let Some(inner) = code
                .strip_prefix("&[")
                .or_else(|| code.strip_prefix('['))
                .and_then(|c| c.strip_suffix(']'))
            {
                return list(inner, dialect);
            }
            // `Vec::<T>::new()`; maps as `calls.rs` reports them, dicts.
            if code.starts_with("Vec::<") && code.ends_with(">::new()") {
                return Some(json!([]));
            }
            if matches!(code, "HashMap::new()" | "BTreeMap::new()") {
                return Some(json!({ "$dict": [] }));
            }
            if let Some(inner) = code
                .strip_prefix("HashMap::from(")
                .or_else(|| code.strip_prefix("BTreeMap::from("))
                .and_then(|c| c.strip_suffix(')'))
            {
                return dict_of_pairs(literal(inner, dialect)?);
            }
            if let Some(inner) = code
                .strip_prefix("String::from(")
                .or_else(|| code.strip_prefix("Some("))
                .and_then(|c| c.strip_suffix(')'))
            {
                return literal(inner, dialect);
            }
            if code.starts_with('(') && code.ends_with(')') {
                let inner = &code[1..code.len() - 1];
                let items = split_top_level(inner, ',');
                if items.len() == 1 && !inner.trim_end().ends_with(',') {
                    return literal(inner, dialect);
                }
                let values: Option<Vec<Value>> = items
                    .iter()
                    .filter(|item| !item.trim().is_empty())
                    .map(|item| literal(item, dialect))
                    .collect();
                return Some(json!({ "$tuple": values? }));
            }
            None
        }
    }
}

/// A comma-separated list of literals (a trailing comma allowed) as an array.
fn list(inner: &str, dialect: Dialect) -> Option<Value> {
    if inner.trim().is_empty() {
        return Some(json!([]));
    }
    let items: Option<Vec<Value>> = split_top_level(inner, ',')
        .iter()
        .enumerate()
        .filter(|(i, item)| !(item.trim().is_empty() && *i > 0))
        .map(|(_, item)| literal(item, dialect))
        .collect();
    Some(Value::Array(items?))
}

/// Whether C++'s `type_name` is `float` or a vector of them (of any depth): what a literal
/// converted to it holds is floats.
fn is_float_type(type_name: &str) -> bool {
    let mut name: String = type_name.chars().filter(|c| !c.is_whitespace()).collect();
    loop {
        let bare = name.strip_prefix("std::").unwrap_or(&name);
        match bare
            .strip_prefix("vector<")
            .and_then(|rest| rest.strip_suffix('>'))
        {
            Some(item) => name = item.to_owned(),
            None => return bare == "float",
        }
    }
}

/// `value` with its numbers converted to C++'s `float` (the nearest one, as a double's exact
/// value): what `(float)1.2`, `1.2f` or an item of a `vector<float>` is, and what `calls.hpp`
/// reports a `float` as. `None` when one does not fit (`(float)1e39` is infinite).
fn as_float(value: Value) -> Option<Value> {
    match value {
        Value::Number(n) => {
            let rounded = f64::from(n.as_f64()? as f32);
            // An integer that a float holds exactly stays an integer.
            let integer = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from));
            match integer {
                Some(i) if rounded.abs() < 1e38 && rounded as i128 == i => Some(Value::Number(n)),
                _ => serde_json::Number::from_f64(rounded).map(Value::Number),
            }
        }
        Value::Array(items) => items
            .into_iter()
            .map(as_float)
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        other => Some(other),
    }
}

/// A number with C++ or Rust suffixes (`1.5f`, `10LL`, `3_i32`, `2.0f64`) and `_` separators.
/// C++'s `f` suffix makes a `float` ([`as_float`]); Rust's `f32` is left as written, since Rust
/// compares an `f32` with an `f32` and its driver reports one by its shortest text.
fn number(code: &str, dialect: Dialect) -> Option<Value> {
    let mut float_suffix = false;
    let mut text: String = code.chars().filter(|&c| c != '_').collect();
    for suffix in [
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        "f32", "f64", "ull", "ULL", "ll", "LL", "ul", "UL", "u", "U", "l", "L", "f", "F",
    ] {
        let hexadecimal = text.starts_with("0x") || text.starts_with("0X");
        if !hexadecimal || !suffix.eq_ignore_ascii_case("f") {
            if let Some(stripped) = text.strip_suffix(suffix) {
                if !stripped.is_empty() {
                    float_suffix = suffix.eq_ignore_ascii_case("f");
                    text = stripped.to_owned();
                    break;
                }
            }
        }
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return i64::from_str_radix(hex, 16).ok().map(Value::from);
    }
    let float = text.contains(['.', 'e', 'E']);
    if float {
        let value: f64 = text.parse().ok()?;
        if !value.is_finite() {
            return None;
        }
        return match float_suffix && dialect == Dialect::Cpp {
            true => as_float(json!(value)),
            false => Some(json!(value)),
        };
    }
    text.parse::<i64>().ok().map(Value::from)
}

/// The index after a string or character literal that starts `code` (its closing quote).
fn string_end(code: &str) -> Option<usize> {
    let bytes = code.as_bytes();
    let quote = bytes[0];
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The text of a literal's escapes resolved (`\n`, `\t`, `\\`, `\"`, `\'`, `\0`, `\xHH`,
/// Rust's `\u{..}`); `None` for an escape this does not know.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '\'' => out.push('\''),
            'x' => {
                let digits: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&digits, 16).ok()?));
            }
            'u' => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = rest.strip_prefix('{')?;
                out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// `code` without the parentheses that wrap it whole.
fn strip_parens(code: &str) -> &str {
    let mut code = code.trim();
    while code.starts_with('(') && matching(code.as_bytes(), 0, b'(', b')') == Some(code.len() - 1)
    {
        code = code[1..code.len() - 1].trim();
    }
    code
}

/// What is between the parentheses of `word(..)` when `code` is exactly that call (spaces
/// allowed before the parenthesis, and a `;` after it).
fn call_arguments<'a>(code: &'a str, word: &str) -> Option<&'a str> {
    let rest = code.trim().strip_prefix(word)?;
    let trimmed = rest.trim_start();
    if !trimmed.starts_with('(') {
        return None;
    }
    let close = matching(trimmed.as_bytes(), 0, b'(', b')')?;
    let after = trimmed[close + 1..].trim();
    (after.is_empty() || after == ";").then(|| &trimmed[1..close])
}

/// The arguments of the macro call `word!(..)` that `code` is, split at top-level commas (a
/// trailing comma dropped).
fn macro_arguments<'a>(code: &'a str, word: &str) -> Option<Vec<&'a str>> {
    let rest = code
        .trim()
        .strip_prefix(word)?
        .trim_start()
        .strip_prefix('!')?;
    let mut parts = split_top_level(call_arguments(rest, "")?, ',');
    if parts.len() > 1 && parts.last().is_some_and(|p| p.trim().is_empty()) {
        parts.pop();
    }
    Some(parts)
}

/// `code` split at `separator` where it is outside brackets and literals.
fn split_top_level(code: &str, separator: char) -> Vec<&str> {
    let bytes = code.as_bytes();
    let mut parts = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b if depth == 0 && b == separator as u8 => {
                parts.push(&code[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&code[start..]);
    parts
}

/// `code` split in two at its only top-level binary `operator` (`==`, `<`, `-`); empty unless
/// there is exactly one. `<` and `-` must stand alone (not `<=`, `<<`, `->`, `-=`, nor a sign:
/// a `-` follows an operand).
fn split_operator<'a>(code: &'a str, operator: &str) -> Vec<&'a str> {
    let bytes = code.as_bytes();
    let op = operator.as_bytes();
    let mut found = Vec::new();
    let (mut depth, mut i) = (0i32, 0);
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0 && bytes[i..].starts_with(op) => {
                let before = bytes[..i].iter().rev().find(|b| !b.is_ascii_whitespace());
                let after = bytes.get(i + op.len());
                let prev = i.checked_sub(1).map(|p| bytes[p]);
                let alone = match operator {
                    "==" => prev != Some(b'=') && prev != Some(b'!') && after != Some(&b'='),
                    "<" => !matches!(after, Some(b'=' | b'<')) && prev != Some(b'<'),
                    _ => {
                        !matches!(after, Some(b'=' | b'>' | b'-'))
                            && before.is_some_and(|b| {
                                b.is_ascii_alphanumeric() || *b == b')' || *b == b']' || *b == b'_'
                            })
                    }
                };
                if alone {
                    found.push(i);
                }
                i += op.len();
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    match found.as_slice() {
        [at] => vec![&code[..*at], &code[at + op.len()..]],
        _ => Vec::new(),
    }
}

/// The byte ranges of `body`'s top-level statements: each ends after a `;` or a `}` at depth 0.
fn top_level_statements(body: &str) -> Vec<(usize, usize)> {
    let bytes = body.as_bytes();
    let mut statements = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, 0, 0);
    while i < bytes.len() {
        if let Some(next) = skip_non_code(bytes, i) {
            i = next;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth -= 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    // A block ends its statement unless a `;` or `)` follows (`int a[] = {..};`).
                    let next = bytes[i + 1..].iter().find(|b| !b.is_ascii_whitespace());
                    if !matches!(next, Some(b';' | b')' | b',' | b'.')) {
                        statements.push((start, i + 1));
                        start = i + 1;
                    }
                }
            }
            b';' if depth == 0 => {
                statements.push((start, i + 1));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !body[start..].trim().is_empty() {
        statements.push((start, body.len()));
    }
    // Each from its first character (leading blanks and comments are left where they are).
    statements
        .into_iter()
        .map(|(start, end)| {
            let text = &body[start..end];
            (start + text.len() - text.trim_start().len(), end)
        })
        .collect()
}

/// Where `word` starts as a whole word in `code`, outside literals and comments.
fn word_starts(code: &str, word: &str) -> Vec<usize> {
    crate::source_scan::code_words(code, word)
}

/// The bodies (from after `{` to the matching `}`) of the functions of a Rust test program whose
/// names start with `test`, and of `main`.
fn rust_test_bodies(program: &str) -> Vec<(usize, usize)> {
    let bytes = program.as_bytes();
    let mut bodies = Vec::new();
    for at in word_starts(program, "fn") {
        let rest = program[at + 2..].trim_start();
        if !(rest.starts_with("test") || rest.starts_with("main")) {
            continue;
        }
        let Some(brace) = program[at..].find('{').map(|n| at + n) else {
            continue;
        };
        if let Some(close) = matching(bytes, brace, b'{', b'}') {
            bodies.push((brace + 1, close));
        }
    }
    bodies
}

/// Whitespace runs as one space.
fn collapse(code: &str) -> String {
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A case as (name, expected, check, tolerance).
    type Case = (String, Value, CallCheck, Option<f64>);

    fn cases(suite: &TestSuite) -> (&str, Vec<Case>) {
        let TestSuite::Calls { setup, cases, .. } = suite else {
            panic!("not calls: {suite:?}")
        };
        (
            setup,
            cases
                .iter()
                .map(|c| (c.name.clone(), c.expected.clone(), c.check, c.tolerance))
                .collect(),
        )
    }

    #[test]
    fn cpp_asserts_become_calls_and_the_driver_keeps_declarations() {
        let test = r#"#undef NDEBUG
#include<assert.h>
bool issame(vector<float> a,vector<float>b){
    for (int i=0;i<a.size();i++) if (abs(a[i]-b[i])>1e-4) return false;
    return true;
}
int main(){
    vector<float> a={1.0, 2.0};
    assert (f(a, 0.3)==true);
    assert (issame(g({1.0, 2.0}) , {3.9, -4.0}));
    assert (abs(h(3.5) - 0.5) < 1e-4);
    assert (not f({1}, 2));
    assert (k("a\"b") == "x");
    assert (f({}, 1));
}
"#;
        let suite = cpp_calls(test).unwrap();
        let (driver, cases) = cases(&suite);
        assert!(driver.contains("vector<float> a={1.0, 2.0};\n    (void)sizeof((f(a, 0.3)==true) ? 1 : 0); WASMEVAL_CASE(0, wasmeval_calls::compared<decltype(true)>(f(a, 0.3)));"), "{driver}");
        assert!(driver.contains("WASMEVAL_CASE(1, g({1.0, 2.0}));"));
        assert!(
            driver.contains("(void)sizeof((not f({1}, 2)) ? 1 : 0); WASMEVAL_CASE(3, f({1}, 2));")
        );
        assert!(!driver.contains("assert ("), "{driver}");
        use CallCheck::*;
        assert_eq!(
            cases,
            [
                ("0: f(a, 0.3)==true".into(), json!(true), Equals, None),
                // issame takes `vector<float>`s: the literal is converted to floats.
                (
                    "1: issame(g({1.0, 2.0}) , {3.9, -4.0})".into(),
                    json!([f64::from(3.9f32), -4.0]),
                    Equals,
                    Some(1e-4)
                ),
                (
                    "2: abs(h(3.5) - 0.5) < 1e-4".into(),
                    json!(0.5),
                    Equals,
                    Some(1e-4)
                ),
                ("3: not f({1}, 2)".into(), Value::Null, Falsy, None),
                ("4: k(\"a\\\"b\") == \"x\"".into(), json!("x"), Equals, None),
                ("5: f({}, 1)".into(), Value::Null, Truthy, None),
            ]
        );
    }

    #[test]
    fn regression_issue_33_cpp_compares_a_float_as_its_double_against_a_double_literal() {
        // `float f(long n) { return n / 5.0f; }` against `assert(f(6) == (1.2))`: g++ promotes
        // the float, and 1.2f is not 1.2. The driver reports the value in the type `==` compares
        // in, and a float literal is read as the float it is.
        let test = "}\nint main() {\n    auto candidate = f;\n    assert(candidate((6)) == (1.2));\n    assert(candidate((6)) == (1.2f));\n    assert((1.2f) == candidate((6)));\n    assert(candidate((1)) == ('a'));\n    assert(candidate((7)) == (float(-1)));\n    assert(candidate((8)) == (std::vector<float>({(float)0.1f, (float)2})));\n    assert(candidate((9)) == ((float)0.1));\n}\n";
        let suite = cpp_calls(test).unwrap();
        let (driver, cases) = cases(&suite);
        assert!(
            driver.contains("(void)sizeof((candidate((6)) == (1.2)) ? 1 : 0); WASMEVAL_CASE(0, wasmeval_calls::compared<decltype((1.2))>(candidate((6))));"),
            "{driver}"
        );
        assert!(
            driver.contains(
                "WASMEVAL_CASE(2, wasmeval_calls::compared<decltype((1.2f))>(candidate((6))));"
            ),
            "{driver}"
        );
        assert!(
            driver.contains(
                "WASMEVAL_CASE(3, wasmeval_calls::compared<decltype(('a'))>(candidate((1))));"
            ),
            "{driver}"
        );
        // A vector is compared as it is.
        assert!(
            driver.contains("WASMEVAL_CASE(5, candidate((8)));"),
            "{driver}"
        );
        let float = |x: f32| json!(f64::from(x));
        let expected: Vec<&Value> = cases.iter().map(|c| &c.1).collect();
        assert_eq!(
            expected,
            [
                &json!(1.2),
                &float(1.2),
                &float(1.2),
                &json!("a"),
                &json!(-1),
                &json!([f64::from(0.1f32), 2]),
                &float(0.1),
            ]
        );
        // The host reads what calls.hpp writes for 1.2f (the shortest text of the double it
        // promotes to) as that double exactly: serde_json's float_roundtrip.
        let reported: Value = serde_json::from_str("1.2000000476837158").unwrap();
        assert_eq!(reported.as_f64(), Some(f64::from(1.2f32)));
        let reported: Value = serde_json::from_str("988.3853149414063").unwrap();
        assert_eq!(reported.as_f64(), Some(988.3853149414063));
        // Rust compares an f32 with an f32 (the literal's type is inferred): its literals are
        // left as written, as its driver reports an f32 by its shortest text.
        assert_eq!(literal("1.2f32", Dialect::Rust), Some(json!(1.2)));
        assert_eq!(literal("1.2f", Dialect::Cpp), Some(float(1.2)));
        assert_eq!(
            literal("16777217.0f", Dialect::Cpp),
            Some(json!(16777216.0))
        );
        assert_eq!(
            literal("(float)16777217", Dialect::Cpp),
            Some(json!(16777216.0))
        );
        assert_eq!(literal("(float)3", Dialect::Cpp), Some(json!(3)));
        assert_eq!(literal("(float)1e39", Dialect::Cpp), None);
    }

    #[test]
    fn multipl_e_empty_containers_and_maps_are_literals() {
        let test = "}\nint main() {\n    auto candidate = f;\n    assert(candidate((\"x\")) == (std::vector<std::string>()));\n    assert(candidate((\"x\")) == (std::string()));\n    assert(candidate((\"a b b\")) == (std::map<std::string,long>({{\"b\", 2}, {\"a\", 1}})));\n    assert(candidate((\"\")) == (std::map<std::string,long>()));\n}\n";
        let (_, cpp) = cases(&cpp_calls(test).unwrap());
        let expected: Vec<&Value> = cpp.iter().map(|c| &c.1).collect();
        assert_eq!(
            expected,
            [
                &json!([]),
                &json!(""),
                &json!({"$dict": [["b", 2], ["a", 1]]}),
                &json!({"$dict": []})
            ]
        );
        // MultiPL-E's casts of list items.
        let test = "int main() { assert(f(1) == (std::vector<std::string>({(std::string)\"a\", (std::string)\"b\"}))); assert(f(2) == (std::vector<long>({(long)-1, (long)2}))); }";
        let (_, cast) = cases(&cpp_calls(test).unwrap());
        assert_eq!(cast[0].1, json!(["a", "b"]));
        assert_eq!(cast[1].1, json!([-1, 2]));
        assert!(cpp_calls("int main() { assert(f(1) == (1)+2); }").is_none());
        // A `pair<..>()` or a `tuple` is not read.
        assert!(cpp_calls("int main() { assert(f(1) == (std::pair<long, long>())); }").is_none());
        assert!(cpp_calls("int main() { assert(f(1) == std::make_tuple(1, 2)); }").is_none());
        let program = "}\n\nfn main() {\n    let candidate = f;\n    assert_eq!(candidate(1), Vec::<(isize, isize)>::new());\n    assert_eq!(candidate(2), HashMap::from([(String::from(\"a\"), 2), (String::from(\"b\"), 1)]));\n    assert_eq!(candidate(3), HashMap::from([]));\n    assert_eq!(candidate(4), HashMap::new());\n}\n";
        let (_, rust) = cases(&rust_calls(program).unwrap());
        let expected: Vec<&Value> = rust.iter().map(|c| &c.1).collect();
        assert_eq!(
            expected,
            [
                &json!([]),
                &json!({"$dict": [["a", 2], ["b", 1]]}),
                &json!({"$dict": []}),
                &json!({"$dict": []})
            ]
        );
    }

    #[test]
    fn cpp_maps_compare_as_dicts_and_unconvertible_tests_stay_whole() {
        let test = "bool issame(map<char,int> a,map<char,int> b){ return a==b; }\nint main(){ assert (issame(histogram(\"a b\"), {{'a',1},{'b',1}})); }";
        let (_, cases) = cases(&cpp_calls(test).unwrap());
        assert_eq!(cases[0].1, json!({"$dict": [["a", 1], ["b", 1]]}));
        // In a loop, against a variable, or a shape not listed: the test is left whole.
        for test in [
            "int main(){ for (int i=0;i<3;i++) { assert (f(i) == i); } }",
            "int main(){ int x = 3; assert (f(1) == x); }",
            "int main(){ assert (f(1) != 2); }",
            "int main(){ assert (f(1) == 2); assert (g(1) <= 2); }",
        ] {
            assert!(cpp_calls(test).is_none(), "{test}");
        }
    }

    #[test]
    fn rust_asserts_become_calls() {
        let program = r#"mod tests {
    use super::*;
    pub fn test_f() {
        let v: Vec<i32> = vec![];
        assert_eq!(f(vec![1, 2], 3), vec![-1, 2]);
        assert!(g("x".to_string()) == Some("y".to_string()));
        assert!(h(vec![]) == None);
        assert!((p(1.5) - 0.5).abs() < 1e-6);
        assert!(!q(1));
        assert!(q(2));
        assert_eq!(t(1), (1.5, 2));
        assert_eq!(
            f(vec![], 1),
            vec![]
        );
    }
}
fn main() { tests::test_f(); }
"#;
        let suite = rust_calls(program).unwrap();
        let (driver, cases) = cases(&suite);
        assert!(driver.contains("let v: Vec<i32> = vec![];\n        if false { assert_eq!(f(vec![1, 2], 3), vec![-1, 2]); loop {} } crate::__wasmeval_calls::case(0, || f(vec![1, 2], 3));"), "{driver}");
        assert!(driver.contains("fn main() { tests::test_f(); }"));
        let expected: Vec<Value> = cases.iter().map(|c| c.1.clone()).collect();
        assert_eq!(
            expected,
            [
                json!([-1, 2]),
                json!("y"),
                Value::Null,
                json!(0.5),
                Value::Null,
                Value::Null,
                json!({"$tuple": [1.5, 2]}),
                json!([]),
            ]
        );
        assert_eq!(cases[3].3, Some(1e-6));
        assert_eq!(
            (cases[4].2, cases[5].2),
            (CallCheck::Falsy, CallCheck::Truthy)
        );
        assert!(
            rust_calls("mod tests { pub fn test_f() { let x = 1; assert_eq!(f(1), x); } }")
                .is_none()
        );
        assert!(
            rust_calls("mod tests { pub fn test_f() { for i in 0..3 { assert!(f(i)); } } }")
                .is_none()
        );
    }

    #[test]
    fn literals_of_both_dialects() {
        assert_eq!(literal("-3", Dialect::Cpp), Some(json!(-3)));
        assert_eq!(literal("2.5f", Dialect::Cpp), Some(json!(2.5)));
        assert_eq!(literal("10LL", Dialect::Cpp), Some(json!(10)));
        assert_eq!(literal("'a'", Dialect::Cpp), Some(json!("a")));
        assert_eq!(
            literal("{{1,2},{}}", Dialect::Cpp),
            Some(json!([[1, 2], []]))
        );
        assert_eq!(literal("vector<int>{1}", Dialect::Cpp), Some(json!([1])));
        assert_eq!(literal("string(\"ab\")", Dialect::Cpp), Some(json!("ab")));
        assert_eq!(literal("x", Dialect::Cpp), None);
        assert_eq!(literal("f(1)", Dialect::Cpp), None);
        assert_eq!(literal("3_i64", Dialect::Rust), Some(json!(3)));
        assert_eq!(
            literal("String::from(\"a\\u{e9}\")", Dialect::Rust),
            Some(json!("aé"))
        );
        assert_eq!(
            literal("vec![\"a\", \"b\".to_string(),]", Dialect::Rust),
            Some(json!(["a", "b"]))
        );
        assert_eq!(literal("Some(-1.5)", Dialect::Rust), Some(json!(-1.5)));
        assert_eq!(
            literal("(1, \"a\")", Dialect::Rust),
            Some(json!({"$tuple": [1, "a"]}))
        );
        assert_eq!(literal("v_empty", Dialect::Rust), None);
    }
}

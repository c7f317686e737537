//! Judging an `io` case: the program's standard output against the expected output, compared
//! exactly, by whitespace-separated tokens, or with numeric tokens within a tolerance. A mismatch
//! comes with a short description of the first difference, for `wrong_answer` messages.
//!
//! Judging a `calls` case: the value the guest returned against the expected value
//! ([`compare_values`]), both first put in [`canonical`] form (sets and dicts in any order).

use crate::task::OutputComparison;
use serde_json::Value;
use std::cmp::Ordering;

/// Longest excerpt of either output quoted in a mismatch description.
const EXCERPT_CHARS: usize = 60;

/// Compares `actual` with `expected`; `Err` describes the first difference in one short line.
pub fn compare_output(
    expected: &str,
    actual: &str,
    comparison: OutputComparison,
    tolerance: f64,
) -> Result<(), String> {
    match comparison {
        OutputComparison::Exact => compare_exact(expected, actual),
        OutputComparison::Whitespace => compare_tokens(expected, actual, |e, a| e == a),
        OutputComparison::Epsilon => compare_tokens(expected, actual, |e, a| {
            e == a || numbers_close(e, a, tolerance)
        }),
    }
}

fn compare_exact(expected: &str, actual: &str) -> Result<(), String> {
    // One trailing newline is a convention of the test file, not of the program.
    let strip = |s: &str| s.strip_suffix('\n').unwrap_or(s).to_owned();
    let (expected, actual) = (strip(expected), strip(actual));
    if expected == actual {
        return Ok(());
    }
    let line = expected
        .split('\n')
        .zip(actual.split('\n'))
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    let nth = |s: &str| s.split('\n').nth(line).map(excerpt);
    Err(match (nth(&expected), nth(&actual)) {
        (Some(e), Some(a)) => format!("line {}: expected {e}, got {a}", line + 1),
        (Some(e), None) => format!("line {}: expected {e}, got end of output", line + 1),
        (None, Some(a)) => format!("line {}: expected end of output, got {a}", line + 1),
        (None, None) => "outputs differ".into(),
    })
}

fn compare_tokens(
    expected: &str,
    actual: &str,
    same: impl Fn(&str, &str) -> bool,
) -> Result<(), String> {
    let mut expected_tokens = expected.split_whitespace();
    let mut actual_tokens = actual.split_whitespace();
    let mut position = 0usize;
    loop {
        position += 1;
        match (expected_tokens.next(), actual_tokens.next()) {
            (None, None) => return Ok(()),
            (Some(e), Some(a)) if same(e, a) => {}
            (Some(e), Some(a)) => {
                return Err(format!(
                    "token {position}: expected {}, got {}",
                    excerpt(e),
                    excerpt(a)
                ))
            }
            (Some(e), None) => {
                return Err(format!(
                    "token {position}: expected {}, got end of output",
                    excerpt(e)
                ))
            }
            (None, Some(a)) => {
                return Err(format!(
                    "token {position}: expected end of output, got {}",
                    excerpt(a)
                ))
            }
        }
    }
}

/// Whose `==` a `calls` case means: the test's own operator in the test's language, so that a
/// host-side comparison says what the test would have said (docs/formats.md, "equal").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Equality {
    /// Python's `==`: numbers by value across `int`, `float` and `bool` (`0 == False`,
    /// `1 == 1.0`), NaN equal to nothing, a tuple never equal to a list. Also C and C++'s `==`
    /// (a `bool` converts to 0 or 1; a float is promoted, which `calls.hpp` reports exactly) and
    /// Rust's and Go's, whose types make every other mix a compile error.
    Python,
    /// Ruby's `==` and Lua's: numbers by value (`1 == 1.0`), but `true` is no number, and NaN is
    /// equal to nothing.
    NumbersOnly,
    /// node's `assert.deepStrictEqual` and `strictEqual` (`Object.is` on primitives): no
    /// conversions, NaN equal to NaN, `-0` not equal to `0`.
    JavaScriptStrict,
    /// node's `assert.deepEqual` and `equal` (`==` on primitives): `22 == "22"`, `1 == true`,
    /// NaN equal to NaN.
    JavaScriptLoose,
}

/// Compares a `calls` case's return value, as the guest reported it, with the expected value, by
/// `equality`: numbers by value (an integer equals the same float; floats within `tolerance`;
/// integers beyond 64 bits, `{"$int": "<digits>"}`, exactly), everything else structurally; tagged
/// objects (`{"$tuple": ..}`) compare like any object, so a tuple never equals a list. `Err` says
/// where the first difference is (`[2].name: expected 3, got 4`).
pub fn compare_values(
    expected: &Value,
    actual: &Value,
    tolerance: f64,
    equality: Equality,
) -> Result<(), String> {
    compare_values_at(expected, actual, tolerance, equality, &mut String::new())
}

fn compare_values_at(
    expected: &Value,
    actual: &Value,
    tolerance: f64,
    equality: Equality,
    path: &mut String,
) -> Result<(), String> {
    let differ = |path: &str| {
        // Compact JSON, shortened like other excerpts.
        let shown = |v: &Value| {
            let text = v.to_string();
            let mut short: String = text.chars().take(EXCERPT_CHARS).collect();
            if short.len() < text.len() {
                short.push('…');
            }
            short
        };
        let at = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        Err(format!(
            "{at}expected {}, got {}",
            shown(expected),
            shown(actual)
        ))
    };
    if let Some(same) = scalars_equal(expected, actual, tolerance, equality) {
        return if same { Ok(()) } else { differ(path) };
    }
    match (expected, actual) {
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return differ(path);
            }
            for (i, (e, a)) in e.iter().zip(a).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                compare_values_at(e, a, tolerance, equality, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Value::Object(e), Value::Object(a)) => {
            if e.len() != a.len() || e.keys().any(|k| !a.contains_key(k)) {
                return differ(path);
            }
            for (key, e) in e {
                let len = path.len();
                path.push_str(&format!(".{key}"));
                compare_values_at(e, &a[key], tolerance, equality, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (e, a) if e == a => Ok(()),
        _ => differ(path),
    }
}

/// A number as the comparison sees it.
#[derive(Debug, Clone, PartialEq)]
enum Number {
    Int(i128),
    /// An integer beyond `i128`, as its canonical decimal digits (`-` and no leading zeros).
    Big(String),
    Float(f64),
}

impl Number {
    /// A JSON number, a `{"$int": "<digits>"}` or a `{"$float": "nan" | "inf" | "-inf"}`.
    fn of(value: &Value) -> Option<Number> {
        match value {
            Value::Number(n) => Some(
                n.as_i64()
                    .map(|i| Number::Int(i.into()))
                    .or_else(|| n.as_u64().map(|u| Number::Int(u.into())))
                    .unwrap_or_else(|| Number::Float(n.as_f64().unwrap_or(f64::NAN))),
            ),
            Value::Object(fields) if fields.len() == 1 => match fields.iter().next()? {
                (tag, Value::String(digits)) if tag == "$int" => Number::of_digits(digits),
                (tag, Value::String(name)) if tag == "$float" => match name.as_str() {
                    "nan" => Some(Number::Float(f64::NAN)),
                    "inf" => Some(Number::Float(f64::INFINITY)),
                    "-inf" => Some(Number::Float(f64::NEG_INFINITY)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// An integer written in decimal digits, with an optional sign.
    fn of_digits(text: &str) -> Option<Number> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if let Ok(n) = text.parse::<i128>() {
            return Some(Number::Int(n));
        }
        let digits = digits.trim_start_matches('0');
        Some(Number::Big(format!(
            "{}{digits}",
            if negative { "-" } else { "" }
        )))
    }

    fn as_f64(&self) -> f64 {
        match self {
            Number::Int(i) => *i as f64,
            Number::Big(digits) => digits.parse().unwrap_or(f64::NAN),
            Number::Float(f) => *f,
        }
    }

    /// A float's exact value as an integer, when it has one (every finite integral `f64` does).
    fn integral(f: f64) -> Option<Number> {
        (f.is_finite() && f.fract() == 0.0).then(|| {
            // Rust writes a float's exact decimal expansion at any precision.
            Number::of_digits(&format!("{f:.0}")).unwrap_or(Number::Float(f))
        })
    }
}

/// JavaScript's `ToNumber` of a string, as `==` applies it: surrounding whitespace ignored, the
/// empty string 0, decimal, `0x`/`0o`/`0b` integers and `Infinity`; anything else NaN.
fn javascript_number(text: &str) -> f64 {
    let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if text.is_empty() {
        return 0.0;
    }
    let radix = |prefix: [&str; 2], radix: u32| {
        let digits = text
            .strip_prefix(prefix[0])
            .or_else(|| text.strip_prefix(prefix[1]))?;
        u128::from_str_radix(digits, radix).ok().map(|n| n as f64)
    };
    if let Some(n) = radix(["0x", "0X"], 16)
        .or_else(|| radix(["0o", "0O"], 8))
        .or_else(|| radix(["0b", "0B"], 2))
    {
        return n;
    }
    let unsigned = text.trim_start_matches(['+', '-']);
    if unsigned == "Infinity" && text.len() - unsigned.len() <= 1 {
        return if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    // Rust also reads "inf", "nan" and "1_0"; JavaScript reads none of them.
    let decimal = text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    match text.parse::<f64>() {
        Ok(n) if decimal && unsigned != "." => n,
        _ => f64::NAN,
    }
}

/// Whether two scalars are equal under `equality`, or `None` when either is a container (or
/// a kind the rule does not convert), which compares structurally.
fn scalars_equal(
    expected: &Value,
    actual: &Value,
    tolerance: f64,
    equality: Equality,
) -> Option<bool> {
    use Equality::*;
    let operand = |value: &Value, other: &Value| -> Option<Number> {
        if let Some(number) = Number::of(value) {
            return Some(number);
        }
        let other_is_number = Number::of(other).is_some();
        match (value, equality) {
            (Value::Bool(b), Python) if other_is_number => Some(Number::Int((*b).into())),
            (Value::Bool(b), JavaScriptLoose)
                if other_is_number || matches!(other, Value::String(_)) =>
            {
                Some(Number::Int((*b).into()))
            }
            (Value::String(s), JavaScriptLoose)
                if other_is_number || matches!(other, Value::Bool(_)) =>
            {
                Some(Number::Float(javascript_number(s)))
            }
            _ => None,
        }
    };
    let (Some(e), Some(a)) = (operand(expected, actual), operand(actual, expected)) else {
        // Two containers, or a scalar no rule converts (compared as JSON, so a string never
        // equals a number, nor `true` a number, unless the rule above said so).
        return match (expected, actual) {
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_))
                if !(is_number_tag(expected) || is_number_tag(actual)) =>
            {
                None
            }
            _ => Some(expected == actual),
        };
    };
    Some(numbers_equal(&e, &a, tolerance, equality))
}

fn is_number_tag(value: &Value) -> bool {
    matches!(value, Value::Object(_)) && Number::of(value).is_some()
}

fn numbers_equal(e: &Number, a: &Number, tolerance: f64, equality: Equality) -> bool {
    use Number::*;
    let javascript = matches!(
        equality,
        Equality::JavaScriptStrict | Equality::JavaScriptLoose
    );
    let (ef, af) = (e.as_f64(), a.as_f64());
    if ef.is_nan() || af.is_nan() {
        // NaN equals nothing in Python, Ruby, Lua and C; node's deep equalities say NaN is NaN.
        return javascript && ef.is_nan() && af.is_nan();
    }
    if equality == Equality::JavaScriptStrict
        && ef == 0.0
        && af == 0.0
        && ef.is_sign_negative() != af.is_sign_negative()
    {
        return false; // Object.is(-0, 0) is false
    }
    if tolerance > 0.0 {
        if let (Int(e), Int(a)) = (e, a) {
            return e == a || (e - a).unsigned_abs() as f64 <= tolerance;
        }
        return ef == af || (ef - af).abs() <= tolerance;
    }
    match (e, a) {
        (Float(e), Float(a)) => e == a,
        // An integer and a float are equal exactly when their values are, as Python's `==`
        // says (2.3416728348467684e16 is not 23416728348467685, though converting the integer
        // to a float would make them so).
        (Float(f), int) | (int, Float(f)) => Number::integral(*f).as_ref() == Some(int),
        (e, a) => e == a,
    }
}

/// Whether both tokens are finite numbers within `tolerance`, absolutely or relative to the
/// expected value (so that large magnitudes are judged by their significant digits).
fn numbers_close(expected: &str, actual: &str, tolerance: f64) -> bool {
    let (Ok(e), Ok(a)) = (expected.parse::<f64>(), actual.parse::<f64>()) else {
        return false;
    };
    if !e.is_finite() || !a.is_finite() {
        return false;
    }
    let difference = (e - a).abs();
    difference <= tolerance || difference <= tolerance * e.abs()
}

/// A token or line quoted for a message, shortened on a character boundary.
fn excerpt(text: &str) -> String {
    let mut shown: String = text.chars().take(EXCERPT_CHARS).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    format!("{shown:?}")
}

/// The tags of Python values JSON lacks; a one-key object with one of these keys is a tag.
const TAGS: [&str; 5] = ["$tuple", "$set", "$dict", "$float", "$int"];

/// A `calls` value in the form both sides are compared in: the items of a `$set` and the pairs of
/// a `$dict` sorted (by [`order`]), and a `$dict` whose keys are all strings written as the object
/// it stands for (unless that object would read as a tag), so that a task may write a set or a
/// dict in any order and a string-keyed dict either way. Everything else is kept as it is.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Object(fields) => {
            let tag = (fields.len() == 1)
                .then(|| fields.iter().next())
                .flatten()
                .filter(|(key, _)| TAGS.contains(&key.as_str()));
            match tag {
                Some((key, Value::Array(items))) if key == "$set" => {
                    let mut items: Vec<Value> = items.iter().map(canonical).collect();
                    items.sort_by(order);
                    serde_json::json!({ "$set": items })
                }
                Some((key, Value::Array(pairs))) if key == "$dict" => {
                    let mut pairs: Vec<Value> = pairs.iter().map(canonical).collect();
                    let pair = |v: &Value| match v {
                        Value::Array(kv) if kv.len() == 2 => Some((kv[0].clone(), kv[1].clone())),
                        _ => None,
                    };
                    let string_keys = pairs
                        .iter()
                        .all(|p| matches!(pair(p), Some((Value::String(_), _))));
                    let looks_like_tag = pairs.len() == 1
                        && matches!(pair(&pairs[0]), Some((Value::String(k), _)) if TAGS.contains(&k.as_str()));
                    if string_keys && !looks_like_tag {
                        return Value::Object(
                            pairs
                                .iter()
                                .filter_map(pair)
                                .map(|(k, v)| (k.as_str().unwrap_or_default().to_owned(), v))
                                .collect(),
                        );
                    }
                    // Sorted by key, then by the whole pair.
                    pairs.sort_by(|a, b| match (a, b) {
                        (Value::Array(a), Value::Array(b)) if !a.is_empty() && !b.is_empty() => {
                            order(&a[0], &b[0]).then_with(|| order(&a[1..].into(), &b[1..].into()))
                        }
                        _ => order(a, b),
                    });
                    serde_json::json!({ "$dict": pairs })
                }
                _ => Value::Object(
                    fields
                        .iter()
                        .map(|(key, value)| (key.clone(), canonical(value)))
                        .collect(),
                ),
            }
        }
        other => other.clone(),
    }
}

/// A total order on JSON values for sorting sets and dict keys: by kind (null, numbers and
/// booleans, strings, arrays, objects), numbers by value with `false` and `true` as 0 and 1 (so
/// `1`, `1.0` and `True` sort alike, as a Python set holds them, and floats within a tolerance sort
/// next to each other), strings, arrays and objects (by sorted keys) item by item.
fn order(a: &Value, b: &Value) -> Ordering {
    let numeric = |v: &Value| match v {
        Value::Bool(b) => Some(Number::Int((*b).into())),
        other => Number::of(other),
    };
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Bool(_) | Value::Number(_) => 1,
        _ if numeric(v).is_some() => 1,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    };
    if let (Some(x), Some(y)) = (numeric(a), numeric(b)) {
        let by_value = match (&x, &y) {
            (Number::Int(x), Number::Int(y)) => x.cmp(y),
            _ => x.as_f64().total_cmp(&y.as_f64()),
        };
        // Equal values: a boolean first, then by the JSON text, so that the order is total.
        return by_value
            .then_with(|| matches!(b, Value::Bool(_)).cmp(&matches!(a, Value::Bool(_))))
            .then_with(|| a.to_string().cmp(&b.to_string()));
    }
    match (a, b) {
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Array(a), Value::Array(b)) => a
            .iter()
            .zip(b)
            .map(|(a, b)| order(a, b))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| a.len().cmp(&b.len())),
        (Value::Object(a), Value::Object(b)) => {
            // serde_json's maps iterate in key order.
            a.iter()
                .zip(b)
                .map(|((ka, va), (kb, vb))| ka.cmp(kb).then_with(|| order(va, vb)))
                .find(|o| o.is_ne())
                .unwrap_or_else(|| a.len().cmp(&b.len()))
        }
        _ => rank(a).cmp(&rank(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use OutputComparison::*;

    fn cv(expected: &Value, actual: &Value, tolerance: f64) -> Result<(), String> {
        compare_values(expected, actual, tolerance, Equality::Python)
    }

    fn equal(expected: Value, actual: Value, equality: Equality) -> bool {
        compare_values(&canonical(&expected), &canonical(&actual), 0.0, equality).is_ok()
    }

    #[test]
    fn exact_ignores_one_trailing_newline_only() {
        assert_eq!(compare_output("1 2\n", "1 2", Exact, 0.0), Ok(()));
        assert_eq!(
            compare_output("1 2\n", "1  2\n", Exact, 0.0),
            Err("line 1: expected \"1 2\", got \"1  2\"".into())
        );
        assert_eq!(
            compare_output("a\nb\n", "a\n", Exact, 0.0),
            Err("line 2: expected \"b\", got end of output".into())
        );
        assert_eq!(
            compare_output("a\n", "a\nb\n", Exact, 0.0),
            Err("line 2: expected end of output, got \"b\"".into())
        );
    }

    #[test]
    fn whitespace_compares_tokens() {
        assert_eq!(
            compare_output("1 2\n3", " 1\t2 3\n\n", Whitespace, 0.0),
            Ok(())
        );
        assert_eq!(
            compare_output("1 2 3", "1 2 4", Whitespace, 0.0),
            Err("token 3: expected \"3\", got \"4\"".into())
        );
        assert_eq!(
            compare_output("1.0", "1", Whitespace, 0.1),
            Err("token 1: expected \"1.0\", got \"1\"".into())
        );
    }

    #[test]
    fn epsilon_accepts_close_numbers_only() {
        assert_eq!(
            compare_output("0.333333", "0.3333333333", Epsilon, 1e-5),
            Ok(())
        );
        assert_eq!(
            compare_output("mean 2.5", "mean 2.500001", Epsilon, 1e-5),
            Ok(())
        );
        assert!(compare_output("0.3333", "0.3334", Epsilon, 1e-5).is_err());
        // Relative tolerance for large values.
        assert_eq!(
            compare_output("1e12", "1000000000001", Epsilon, 1e-5),
            Ok(())
        );
        assert!(compare_output("nan", "nan2", Epsilon, 1e-5).is_err());
        assert_eq!(compare_output("inf", "inf", Epsilon, 1e-5), Ok(()));
        assert!(compare_output("inf", "1e400", Epsilon, 1e-5).is_err());
        assert!(compare_output("yes", "no", Epsilon, 1e-5).is_err());
    }

    #[test]
    fn values_compare_by_structure_and_numbers_by_value() {
        assert_eq!(cv(&json!([1, 2.0]), &json!([1.0, 2]), 0.0), Ok(()));
        assert_eq!(
            cv(&json!({"$tuple": [1, 2]}), &json!([1, 2]), 0.0),
            Err("expected {\"$tuple\":[1,2]}, got [1,2]".into())
        );
        assert_eq!(
            cv(
                &json!([{"a": 1}, {"a": 2}]),
                &json!([{"a": 1}, {"a": 3}]),
                0.0
            ),
            Err("[1].a: expected 2, got 3".into())
        );
        assert!(cv(&json!(0.1), &json!(0.10000001), 0.0).is_err());
        assert_eq!(cv(&json!(0.1), &json!(0.10000001), 1e-6), Ok(()));
        // Python: `True == 1`, but `True != 2`.
        assert!(cv(&json!(true), &json!(1), 0.0).is_ok());
        assert!(cv(&json!(true), &json!(2), 0.0).is_err());
        // An integer equals a float only when their values are equal, as in Python.
        assert!(cv(
            &json!(23416728348467685i64),
            &json!(2.3416728348467684e16),
            0.0
        )
        .is_err());
        assert!(cv(&json!(4), &json!(4.0), 0.0).is_ok());
        assert!(cv(&json!(4.5), &json!(4), 0.0).is_err());
        assert!(cv(
            &json!(23416728348467685i64),
            &json!(2.3416728348467684e16),
            1e-6
        )
        .is_ok());
        assert!(cv(&json!(null), &json!("None"), 0.0).is_err());
        assert_eq!(cv(&json!(u64::MAX), &json!(u64::MAX), 0.0), Ok(()));
    }

    #[test]
    fn each_language_has_its_own_equality() {
        use Equality::*;
        // Python: `0 == False`, `1 == 1.0 == True`, but `"1" != 1` and `[1] != (1,)`.
        for (e, a) in [
            (json!(0), json!(false)),
            (json!(false), json!(0)),
            (json!(1.0), json!(true)),
            (json!([0, 1]), json!([false, true])),
            (json!({"$set": [false, 2]}), json!({"$set": [2, 0]})),
        ] {
            assert!(equal(e.clone(), a.clone(), Python), "{e} == {a}");
            assert!(
                !equal(e.clone(), a.clone(), NumbersOnly),
                "{e} != {a} in Ruby"
            );
        }
        assert!(equal(json!(0.0), json!(-0.0), Python));
        assert!(equal(json!(1), json!(1.0), NumbersOnly));
        for (e, a) in [
            (json!(2), json!(true)),
            (json!("1"), json!(1)),
            (json!([1]), json!({"$tuple": [1]})),
            (json!({"$float": "nan"}), json!({"$float": "nan"})),
        ] {
            assert!(!equal(e.clone(), a.clone(), Python), "{e} != {a}");
        }
        // node: deepStrictEqual converts nothing, says NaN is NaN and -0 is not 0.
        assert!(equal(
            json!({"$float": "nan"}),
            json!({"$float": "nan"}),
            JavaScriptStrict
        ));
        assert!(!equal(json!(0), json!(-0.0), JavaScriptStrict));
        assert!(!equal(json!(22), json!("22"), JavaScriptStrict));
        assert!(!equal(json!(1), json!(true), JavaScriptStrict));
        // deepEqual is `==` on primitives, item by item.
        for (e, a) in [
            (json!(22), json!("22")),
            (json!([1, 2]), json!(["1", " 2 "])),
            (json!(1), json!(true)),
            (json!("1"), json!(true)),
            (json!(0), json!("")),
            (json!(0), json!(-0.0)),
            (json!(255), json!("0xff")),
        ] {
            assert!(equal(e.clone(), a.clone(), JavaScriptLoose), "{e} == {a}");
        }
        for (e, a) in [
            (json!(null), json!(0)),
            (json!("1.0"), json!("1")),
            (json!(1), json!("1_0")),
            (json!(1), json!("inf")),
            (json!([1]), json!("1")),
        ] {
            assert!(!equal(e.clone(), a.clone(), JavaScriptLoose), "{e} != {a}");
        }
    }

    #[test]
    fn integers_beyond_64_bits_compare_exactly() {
        let big = |digits: &str| json!({ "$int": digits });
        let two_65 = "36893488147419103232";
        assert!(equal(big(two_65), big(two_65), Equality::Python));
        assert!(!equal(
            big(two_65),
            big("36893488147419103233"),
            Equality::Python
        ));
        // The float 2**65 is exactly that integer; its neighbours are not.
        assert!(equal(
            big(two_65),
            json!(3.6893488147419103e19),
            Equality::Python
        ));
        assert!(!equal(
            big("36893488147419103233"),
            json!(3.6893488147419103e19),
            Equality::Python
        ));
        // A small value written as a tag is still that number.
        assert!(equal(big("-5"), json!(-5), Equality::Python));
        assert!(equal(big("+007"), json!(7.0), Equality::Python));
        let beyond_i128 = format!("1{}", "0".repeat(45));
        // 1e45 as a float is 999999999999999929757289024535551219930759168, not 10**45.
        assert!(!equal(big(&beyond_i128), json!(1e45), Equality::Python));
        assert!(equal(
            big("999999999999999929757289024535551219930759168"),
            json!(1e45),
            Equality::Python
        ));
        assert!(!equal(
            big(&beyond_i128),
            big(&format!("{beyond_i128}1")),
            Equality::Python
        ));
        assert!(cv(&big(two_65), &big("36893488147419103233"), 2.0).is_ok());
        // A dict that looks like the tag is a dict (a candidate's forgery), never the number.
        assert!(!equal(
            json!({"$dict": [["$int", "5"]]}),
            json!(5),
            Equality::Python
        ));
        assert!(!equal(
            json!(5),
            json!({"$dict": [["$int", "5"]]}),
            Equality::Python
        ));
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "x".repeat(200);
        let message = compare_output("y", &long, Whitespace, 0.0).unwrap_err();
        assert!(message.len() < 100, "{message}");
        assert!(message.ends_with("…\""), "{message}");
    }
}

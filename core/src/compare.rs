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

/// Compares a `calls` case's return value, as the guest reported it, with the expected value:
/// numbers by value (an integer equals the same float, floats within `tolerance`), everything else
/// structurally; tagged objects (`{"$tuple": ..}`) compare like any object, so a tuple never equals
/// a list. `Err` says where the first difference is (`[2].name: expected 3, got 4`).
pub fn compare_values(
    expected: &serde_json::Value,
    actual: &serde_json::Value,
    tolerance: f64,
) -> Result<(), String> {
    compare_values_at(expected, actual, tolerance, &mut String::new())
}

fn compare_values_at(
    expected: &serde_json::Value,
    actual: &serde_json::Value,
    tolerance: f64,
    path: &mut String,
) -> Result<(), String> {
    use serde_json::Value;
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
    match (expected, actual) {
        (Value::Number(e), Value::Number(a)) => {
            let int = |n: &serde_json::Number| {
                n.as_i64()
                    .map(i128::from)
                    .or_else(|| n.as_u64().map(i128::from))
            };
            let (ef, af) = (
                e.as_f64().unwrap_or(f64::NAN),
                a.as_f64().unwrap_or(f64::NAN),
            );
            let same = match (int(e), int(a)) {
                (Some(e), Some(a)) => e == a || (e - a).unsigned_abs() as f64 <= tolerance,
                // An integer and a float are equal exactly when their values are, as Python's
                // `==` says (2.3416728348467684e16 is not 23416728348467685, though converting
                // the integer to a float would make them so); a tolerance compares as floats.
                (Some(i), None) | (None, Some(i)) if tolerance == 0.0 => {
                    let f = if int(e).is_some() { af } else { ef };
                    f.fract() == 0.0 && f.abs() < 1.7e38 && f as i128 == i
                }
                _ => ef == af || (ef - af).abs() <= tolerance,
            };
            if same {
                Ok(())
            } else {
                differ(path)
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return differ(path);
            }
            for (i, (e, a)) in e.iter().zip(a).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                compare_values_at(e, a, tolerance, path)?;
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
                compare_values_at(e, &a[key], tolerance, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (e, a) if e == a => Ok(()),
        _ => differ(path),
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
const TAGS: [&str; 4] = ["$tuple", "$set", "$dict", "$float"];

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

/// A total order on JSON values for sorting sets and dict keys: by kind (null, booleans, numbers,
/// strings, arrays, objects), numbers by value (so `1` and `1.0` sort alike, and floats within a
/// tolerance sort next to each other), strings, arrays and objects (by sorted keys) item by item.
fn order(a: &Value, b: &Value) -> Ordering {
    let rank = |v: &Value| match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
    };
    match (a, b) {
        (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                let (a, b) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
                a.total_cmp(&b)
            }
        },
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
    use OutputComparison::*;

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
        use serde_json::json;
        assert_eq!(
            compare_values(&json!([1, 2.0]), &json!([1.0, 2]), 0.0),
            Ok(())
        );
        assert_eq!(
            compare_values(&json!({"$tuple": [1, 2]}), &json!([1, 2]), 0.0),
            Err("expected {\"$tuple\":[1,2]}, got [1,2]".into())
        );
        assert_eq!(
            compare_values(
                &json!([{"a": 1}, {"a": 2}]),
                &json!([{"a": 1}, {"a": 3}]),
                0.0
            ),
            Err("[1].a: expected 2, got 3".into())
        );
        assert!(compare_values(&json!(0.1), &json!(0.10000001), 0.0).is_err());
        assert_eq!(
            compare_values(&json!(0.1), &json!(0.10000001), 1e-6),
            Ok(())
        );
        assert!(compare_values(&json!(true), &json!(1), 0.0).is_err());
        // An integer equals a float only when their values are equal, as in Python.
        assert!(compare_values(
            &json!(23416728348467685i64),
            &json!(2.3416728348467684e16),
            0.0
        )
        .is_err());
        assert!(compare_values(&json!(4), &json!(4.0), 0.0).is_ok());
        assert!(compare_values(&json!(4.5), &json!(4), 0.0).is_err());
        assert!(compare_values(
            &json!(23416728348467685i64),
            &json!(2.3416728348467684e16),
            1e-6
        )
        .is_ok());
        assert!(compare_values(&json!(null), &json!("None"), 0.0).is_err());
        assert_eq!(
            compare_values(&json!(u64::MAX), &json!(u64::MAX), 0.0),
            Ok(())
        );
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "x".repeat(200);
        let message = compare_output("y", &long, Whitespace, 0.0).unwrap_err();
        assert!(message.len() < 100, "{message}");
        assert!(message.ends_with("…\""), "{message}");
    }
}

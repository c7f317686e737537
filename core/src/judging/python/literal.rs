//! A `calls` case as the Python assertion it stands for, for the isolated judge: a case whose
//! returned value is not plain data (a `Counter`, a complex number, an object of the candidate's)
//! cannot be compared on the host, so the test's own `==` compares it there
//! (`evaluation::python`).

use crate::task::{CallCase, CallCheck};
use serde_json::Value;

/// The name the assertion gives the returned value, and the helper that words its failure.
const VALUE: &str = "__wasmeval_value";
const SHOWN: &str = "__wasmeval_shown";

/// Setup code the assertions of [`call_as_assertion`] need after their suite's own.
pub const ASSERTION_SETUP: &str = "def __wasmeval_shown(expected, value):
    try:
        text = repr(value)
    except BaseException:
        text = '(a value whose repr failed)'
    if type(text) is not str:
        text = '(a value whose repr is not a str)'
    if len(text) > 100:
        text = text[:100] + '...'
    return 'expected ' + expected + ', got ' + text
";

/// The prefix of the message such an assertion fails with (Python's exception name), which the
/// host removes: the rest reads as the host's own comparison would.
pub const FAILURE_PREFIX: &str = "AssertionError: ";

/// `case` of a `calls` suite calling `entry_point` (whose tolerance is `tolerance` unless the case
/// has its own), as Python code that calls it and asserts what the case requires of its value:
/// `==` the expected value (within the tolerance for a number), or true or false.
pub fn call_as_assertion(entry_point: &str, case: &CallCase, tolerance: f64) -> String {
    let args: Vec<String> = case.args.iter().map(python_literal).collect();
    let call = format!("{VALUE} = {entry_point}({})\n", args.join(", "));
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let (condition, wanted) = match case.check {
        CallCheck::Truthy => (VALUE.to_owned(), "a true value".to_owned()),
        CallCheck::Falsy => (format!("not {VALUE}"), "a false value".to_owned()),
        CallCheck::Equals | CallCheck::LooselyEquals => {
            let expected = python_literal(&case.expected);
            let shown: String = expected.chars().take(100).collect();
            let tolerance = case.tolerance.unwrap_or(tolerance);
            let condition = if tolerance > 0.0 && is_number(&case.expected) {
                format!("{VALUE} == {expected} or abs({VALUE} - {expected}) <= {tolerance:?}")
            } else {
                format!("{VALUE} == {expected}")
            };
            (condition, shown)
        }
        CallCheck::EvalPlus(rule) => {
            let expected = python_literal(&case.expected);
            let shown: String = expected.chars().take(100).collect();
            let condition = crate::judging::evalplus::python_condition(
                rule,
                VALUE,
                &expected,
                &case.args,
                case.tolerance.unwrap_or(tolerance),
            );
            (condition, shown)
        }
    };
    format!(
        "{call}assert {condition}, {SHOWN}({}, {VALUE})\n",
        quoted(&wanted)
    )
}

fn is_number(value: &Value) -> bool {
    match value {
        Value::Number(_) => true,
        Value::Object(fields) if fields.len() == 1 => {
            fields.contains_key("$float") || fields.contains_key("$int")
        }
        _ => false,
    }
}

/// A `calls` value (an argument or an expected value, in the JSON form of docs/formats.md: tags
/// for tuples, sets, dicts with other keys than strings, non-finite floats and integers beyond 64
/// bits) as a Python expression that makes it.
pub fn python_literal(value: &Value) -> String {
    literal(value, false)
}

/// `hashable`: the value is a set's item or a dict's key, where a set is a frozenset.
fn literal(value: &Value, hashable: bool) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            // Rust's shortest form that reads back as the same float, which Python reads alike.
            (_, _, Some(f)) => format!("{f:?}"),
            _ => n.to_string(),
        },
        // A JSON string is a Python string literal of the same text (serde writes no `\/`).
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Array(items) => format!("[{}]", items_of(items, false)),
        Value::Object(fields) => {
            if let (1, Some((tag, inner))) = (fields.len(), fields.iter().next()) {
                match (tag.as_str(), inner) {
                    ("$tuple", Value::Array(items)) => {
                        return match items.len() {
                            1 => format!("({},)", literal(&items[0], hashable)),
                            _ => format!("({})", items_of(items, hashable)),
                        };
                    }
                    ("$set", Value::Array(items)) => {
                        return match (items.is_empty(), hashable) {
                            (true, true) => "frozenset()".into(),
                            (true, false) => "set()".into(),
                            (false, true) => format!("frozenset({{{}}})", items_of(items, true)),
                            (false, false) => format!("{{{}}}", items_of(items, true)),
                        };
                    }
                    ("$dict", Value::Array(pairs)) => {
                        let pairs: Vec<String> = pairs
                            .iter()
                            .map(|pair| match pair {
                                Value::Array(kv) if kv.len() == 2 => {
                                    format!("{}: {}", literal(&kv[0], true), literal(&kv[1], false))
                                }
                                other => literal(other, false),
                            })
                            .collect();
                        return format!("{{{}}}", pairs.join(", "));
                    }
                    ("$float", Value::String(name))
                        if ["nan", "inf", "-inf"].contains(&name.as_str()) =>
                    {
                        return format!("float('{name}')");
                    }
                    ("$int", Value::String(digits))
                        if !digits.is_empty()
                            && digits
                                .strip_prefix('-')
                                .unwrap_or(digits)
                                .bytes()
                                .all(|b| b.is_ascii_digit()) =>
                    {
                        return format!("int('{digits}')");
                    }
                    _ => {}
                }
            }
            let fields: Vec<String> = fields
                .iter()
                .map(|(key, item)| {
                    format!(
                        "{}: {}",
                        serde_json::to_string(key).unwrap_or_default(),
                        literal(item, false)
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

fn items_of(items: &[Value], hashable: bool) -> String {
    items
        .iter()
        .map(|item| literal(item, hashable))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_values_become_the_python_literals_they_stand_for() {
        let cases = [
            (json!(null), "None"),
            (
                json!([true, false, 3, -4, 1.5, 1e300, -0.0]),
                "[True, False, 3, -4, 1.5, 1e300, -0.0]",
            ),
            (json!("a\"b\n\u{e9}"), "\"a\\\"b\\n\u{e9}\""),
            (json!({"$tuple": [1]}), "(1,)"),
            (json!({"$tuple": []}), "()"),
            (json!({"$set": []}), "set()"),
            (json!({"$set": [{"$set": [1]}]}), "{frozenset({1})}"),
            (
                json!({"$dict": [[{"$tuple": [1, 2]}, "a"]]}),
                "{(1, 2): \"a\"}",
            ),
            (json!({"a": {"$float": "nan"}}), "{\"a\": float('nan')}"),
            (
                json!({"$int": "-123456789012345678901234567890"}),
                "int('-123456789012345678901234567890')",
            ),
            (json!({"$int": "12x"}), "{\"$int\": \"12x\"}"),
        ];
        for (value, literal) in cases {
            assert_eq!(python_literal(&value), literal, "{value}");
        }
    }

    #[test]
    fn a_case_becomes_a_call_and_an_assertion_on_its_value() {
        let case =
            |args: Value, expected: Value, check: CallCheck, tolerance: Option<f64>| CallCase {
                name: "c".into(),
                args: serde_json::from_value(args).unwrap(),
                expected,
                check,
                tolerance,
            };
        let equals = case(
            json!([1, {"$tuple": [2]}]),
            json!({"a": 1}),
            CallCheck::Equals,
            None,
        );
        assert_eq!(
            call_as_assertion("f", &equals, 0.0),
            "__wasmeval_value = f(1, (2,))\nassert __wasmeval_value == {\"a\": 1}, \
             __wasmeval_shown(\"{\\\"a\\\": 1}\", __wasmeval_value)\n"
        );
        let close = case(json!([]), json!(0.5), CallCheck::Equals, Some(1e-6));
        assert!(call_as_assertion("f", &close, 0.0)
            .contains("assert __wasmeval_value == 0.5 or abs(__wasmeval_value - 0.5) <= 1e-6,"));
        let falsy = case(json!([]), Value::Null, CallCheck::Falsy, None);
        assert!(call_as_assertion("f", &falsy, 0.0).contains("assert not __wasmeval_value, "));
    }
}

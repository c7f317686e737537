//! Samples in the shapes other tools leave them, as the JSON Lines records wasmeval reads:
//! bigcode-evaluation-harness's `generations.json` (a list of programs per task, in the task
//! file's order) and a folder of program files named by task (`HumanEval_0.py`, or a folder per
//! task holding several, as EvalPlus writes them). The runner reads the files; these functions
//! see names and text only.

use super::jsonl::FormatError;
use crate::task::{Task, TaskId};
use serde_json::json;
#[cfg(test)]
use serde_json::Value;

/// Whether `text` (a `.json` file's start) is a bigcode `generations.json`: a list of lists.
pub fn looks_like_generations(text: &str) -> bool {
    let mut rest = text.trim_start().chars().filter(|c| !c.is_whitespace());
    rest.next() == Some('[') && rest.next() == Some('[')
}

/// The records of a bigcode `generations.json`: the `i`-th list holds the programs generated for
/// the task file's `i`-th task (bigcode's generations include the prompt, so each is a
/// `solution`). More lists than tasks is an error naming both counts.
pub fn generations_records(
    file: &str,
    text: &str,
    tasks: &[Task],
) -> Result<Vec<String>, FormatError> {
    let lists: Vec<Vec<String>> = serde_json::from_str(text).map_err(|e| {
        FormatError::new(
            file,
            e.line() as u64,
            format!("a generations.json is a list of lists of programs, one list per task: {e}"),
        )
    })?;
    if lists.len() > tasks.len() {
        return Err(FormatError::new(
            file,
            1,
            format!(
                "{} lists of generations for {} tasks: bigcode's lists follow the task file's order, \
                 so give the task file they were generated from",
                lists.len(),
                tasks.len()
            ),
        ));
    }
    Ok(lists
        .iter()
        .zip(tasks)
        .flat_map(|(programs, task)| {
            programs
                .iter()
                .map(move |p| json!({"task_id": task.id.0, "solution": p}).to_string())
        })
        .collect())
}

/// The task a program file answers, from its path inside the samples folder (`/`-separated,
/// without the folder): its name without the extension (`HumanEval_0.py`, `HumanEval/0.py`), or
/// else its folder's (`HumanEval_0/3.py`, EvalPlus's layout). Names match ids with every run of
/// other characters than letters and digits read as one `_`, and without regard to case.
pub fn task_for_path<'t>(path: &str, tasks: &'t [Task]) -> Option<&'t TaskId> {
    let without_extension = match path.rsplit_once('.') {
        Some((stem, extension)) if !extension.contains('/') => stem,
        _ => path,
    };
    let find = |name: &str| {
        let wanted = normalise(name);
        tasks
            .iter()
            .map(|t| &t.id)
            .find(|id| normalise(&id.0) == wanted)
    };
    find(without_extension).or_else(|| find(without_extension.rsplit_once('/')?.0))
}

/// A folder's program file as a record: its task, its contents as the `solution`, and its path.
pub fn file_record(task: &TaskId, path: &str, contents: &str) -> String {
    json!({"task_id": task.0, "solution": contents, "file": path}).to_string()
}

fn normalise(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tasks() -> Vec<Task> {
        ["HumanEval/0", "HumanEval/1", "Mbpp/11"]
            .iter()
            .map(|id| Task {
                id: TaskId((*id).into()),
                ..Task::default()
            })
            .collect()
    }

    #[test]
    fn files_are_matched_to_tasks_by_their_name_or_their_folder() {
        let tasks = tasks();
        let id = |path: &str| task_for_path(path, &tasks).map(|id| id.0.as_str());
        assert_eq!(id("HumanEval_0.py"), Some("HumanEval/0"));
        assert_eq!(id("humaneval-1.js"), Some("HumanEval/1"));
        assert_eq!(id("HumanEval/1.py"), Some("HumanEval/1"));
        assert_eq!(id("Mbpp_11/3.py"), Some("Mbpp/11"));
        assert_eq!(id("HumanEval_10.py"), None);
        assert_eq!(id("notes.txt"), None);
    }

    #[test]
    fn generations_follow_the_task_order_and_too_many_lists_are_refused() {
        let tasks = tasks();
        assert!(looks_like_generations(" [\n [\"a\"]]"));
        assert!(!looks_like_generations("[{\"task_id\": 1}]"));
        let records = generations_records("g.json", r#"[["a", "b"], ["c"]]"#, &tasks).unwrap();
        assert_eq!(records.len(), 3);
        let first: Value = serde_json::from_str(&records[2]).unwrap();
        assert_eq!(first, json!({"task_id": "HumanEval/1", "solution": "c"}));
        let error = generations_records("g.json", r#"[[], [], [], []]"#, &tasks).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("4 lists of generations for 3 tasks"),
            "{error}"
        );
    }
}

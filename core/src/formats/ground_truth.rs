//! What RL datasets hold as a task's ground truth, read as a task that a model's answer (a whole
//! program) is judged against. The Python package's reward functions take it.
//!
//! Accepted, as JSON (an object, an array, or a string holding JSON text, as datasets store
//! `input_output` and verl's `ground_truth`):
//! - a task record in any format `wasmeval run` reads (human-eval, MBPP, MultiPL-E, wasmeval's);
//! - a list of assert strings (MBPP's `test_list`), or an object with `test_list` and optionally
//!   `test_setup_code`, `test_imports` and `challenge_test_list` (an MBPP row, whole or not):
//!   read as MBPP reads them (host-judged calls where the asserts allow);
//! - stdin/stdout pairs `{"inputs": [...], "outputs": [...]}` (APPS's and TACO's `input_output`,
//!   verl's and PRIME's code sets), also inside a row's `input_output`, or code contests'
//!   `public_tests`, `private_tests`, `generated_tests` (`{"input": [...], "output": [...]}`), or
//!   a list of `{"input", "output"}` objects: an `io` suite compared by whitespace-separated tokens;
//! - the same with `fn_name`: LeetCode-style call tests, see [`calls_suite`];
//! - a verl row (`reward_model.ground_truth` holds one of the above).
//!
//! A task read from pairs or asserts has no prompt to continue (its statement, when the row has
//! one, is its `description`), so an answer is always the whole program. Its language is the
//! row's `language` when it names one, else the language of the answer's fence, else Python.

use super::jsonl::python_json;
use super::tasks::parse_task;
use crate::task::{CallCase, IoCase, Language, OutputComparison, Task, TaskId, TestSuite};
use serde_json::{Map, Value};

/// The shapes a ground truth may take, for error messages.
pub const ACCEPTED: &str = "a ground truth is a task record (any format `wasmeval run` reads), \
    a list of assert strings (MBPP's `test_list`), an object with `test_list` (and \
    `test_setup_code`, `test_imports`), stdin/stdout pairs {\"inputs\": [...], \"outputs\": \
    [...]} (with `fn_name` for call tests; also as a row's `input_output`, or code contests' \
    `public_tests`/`private_tests`/`generated_tests`), or a verl row with \
    `reward_model.ground_truth`; as a dict, a list or JSON text";

/// The imports APPS's and PRIME's checkers (and verl's `prime_code`) put before every Python
/// program they judge by `inputs`/`outputs`, so that a program relying on them (`Counter`,
/// `List` in a LeetCode signature, `sys.stdin`) runs here as it ran there. Their
/// `sys.setrecursionlimit(6*10**5)` is left out: the interpreter's own stack ends far sooner.
pub const PAIRS_PRELUDE: &str = "from string import *\nfrom re import *\nfrom datetime import *\n\
from collections import *\nfrom heapq import *\nfrom bisect import *\nfrom copy import *\n\
from math import *\nfrom random import *\nfrom statistics import *\nfrom itertools import *\n\
from functools import *\nfrom operator import *\nfrom io import *\nfrom sys import *\n\
from json import *\nfrom builtins import *\nfrom typing import *\nimport string\nimport re\n\
import datetime\nimport collections\nimport heapq\nimport bisect\nimport copy\nimport math\n\
import random\nimport statistics\nimport itertools\nimport functools\nimport operator\n\
import io\nimport sys\nimport json\n";

/// Nesting of JSON text inside JSON strings (and rows inside rows) that is followed.
const MAX_DEPTH: u32 = 3;

/// The task a ground truth stands for. `answer_language` is the language the answer's fence
/// names (`answers::fence_language`), used for stdin/stdout pairs when the row names none.
pub fn task_from_ground_truth(
    text: &str,
    answer_language: Option<Language>,
) -> Result<Task, String> {
    // As Python's `json` writes it (a record of MBPP+ holds `-Infinity`), as task files are read.
    let value =
        python_json(text).map_err(|e| format!("not JSON ({e}): {}; {ACCEPTED}", excerpt(text)))?;
    read(value, answer_language, 0)
}

fn read(value: Value, answer_language: Option<Language>, depth: u32) -> Result<Task, String> {
    if depth > MAX_DEPTH {
        return Err(format!("JSON text nested too deeply; {ACCEPTED}"));
    }
    match value {
        Value::String(text) => {
            let inner = python_json(&text).map_err(|_| {
                format!(
                    "a string that is not JSON text: {}; {ACCEPTED}",
                    excerpt(&text)
                )
            })?;
            read(inner, answer_language, depth + 1)
        }
        Value::Array(items) => read_list(items, answer_language),
        Value::Object(fields) => read_record(fields, answer_language, depth),
        other => Err(format!(
            "{} is not a ground truth; {ACCEPTED}",
            kind(&other)
        )),
    }
}

/// A list: assert strings, or `{"input", "output"}` pairs.
fn read_list(items: Vec<Value>, answer_language: Option<Language>) -> Result<Task, String> {
    if items.is_empty() {
        return Err(format!("an empty list has no tests; {ACCEPTED}"));
    }
    if items.iter().all(Value::is_string) {
        return asserts_task(Map::new(), Value::Array(items));
    }
    let pairs: Option<(Vec<Value>, Vec<Value>)> = items
        .iter()
        .map(|item| Some((item.get("input")?.clone(), item.get("output")?.clone())))
        .collect::<Option<Vec<_>>>()
        .map(|pairs| pairs.into_iter().unzip());
    match pairs {
        Some((inputs, outputs)) => {
            let pairs = Map::from_iter([
                ("inputs".to_owned(), Value::Array(inputs)),
                ("outputs".to_owned(), Value::Array(outputs)),
            ]);
            pairs_task(&Map::new(), &pairs, answer_language)
        }
        None => Err(format!(
            "a list of neither assert strings nor {{\"input\", \"output\"}} objects; {ACCEPTED}"
        )),
    }
}

fn read_record(
    fields: Map<String, Value>,
    answer_language: Option<Language>,
    depth: u32,
) -> Result<Task, String> {
    // A verl row: the ground truth is in `reward_model`.
    if let Some(inner) = fields
        .get("reward_model")
        .and_then(|r| r.get("ground_truth"))
        .or_else(|| fields.get("ground_truth"))
    {
        return read(inner.clone(), answer_language, depth + 1);
    }
    if let Some(pairs) = fields.get("input_output") {
        let pairs = match pairs {
            Value::String(text) => serde_json::from_str(text)
                .map_err(|e| format!("`input_output` is not JSON text ({e}): {}", excerpt(text)))?,
            other => other.clone(),
        };
        let Value::Object(pairs) = pairs else {
            return Err(format!(
                "`input_output` is {}, not {{\"inputs\": [...], \"outputs\": [...]}}",
                kind(&pairs)
            ));
        };
        return pairs_task(&fields, &pairs, answer_language);
    }
    if fields.contains_key("inputs") && fields.contains_key("outputs") {
        return pairs_task(&fields, &fields, answer_language);
    }
    let contest_tests = ["public_tests", "private_tests", "generated_tests"];
    if contest_tests.iter().any(|k| fields.contains_key(*k))
        || (fields.get("input").is_some_and(Value::is_array)
            && fields.get("output").is_some_and(Value::is_array))
    {
        let mut inputs = Vec::new();
        let mut outputs = Vec::new();
        let whole = Value::Object(fields.clone());
        let groups: Vec<&Value> = match contest_tests.iter().any(|k| fields.contains_key(*k)) {
            true => contest_tests
                .iter()
                .filter_map(|k| fields.get(*k))
                .collect(),
            false => vec![&whole],
        };
        for group in groups {
            let list = |key: &str| -> Result<Vec<Value>, String> {
                match group.get(key) {
                    Some(Value::Array(items)) => Ok(items.clone()),
                    None | Some(Value::Null) => Ok(Vec::new()),
                    Some(other) => Err(format!("`{key}` is {}, not a list", kind(other))),
                }
            };
            inputs.extend(list("input")?);
            outputs.extend(list("output")?);
        }
        let pairs = Map::from_iter([
            ("inputs".to_owned(), Value::Array(inputs)),
            ("outputs".to_owned(), Value::Array(outputs)),
        ]);
        return pairs_task(&fields, &pairs, answer_language);
    }
    if let Some(list) = fields.get("test_list") {
        let list = list.clone();
        return asserts_task(fields, list);
    }
    let record = Value::Object(fields).to_string();
    parse_task(&record).map_err(|e| format!("{e}; {ACCEPTED}"))
}

/// An MBPP task from its asserts (`test_list`) and whatever else of an MBPP row `fields` holds;
/// the missing fields (id, description, reference code) are filled in.
fn asserts_task(mut fields: Map<String, Value>, list: Value) -> Result<Task, String> {
    let Value::Array(items) = &list else {
        return Err(format!(
            "`test_list` is {}, not a list of assert strings",
            kind(&list)
        ));
    };
    if items.is_empty() || !items.iter().all(Value::is_string) {
        return Err(format!(
            "`test_list` must be a non-empty list of assert strings; {ACCEPTED}"
        ));
    }
    // A column a row does not use is null in a dataset of mixed rows (Hugging Face's).
    fields.retain(|_, value| !value.is_null());
    let id = record_id(&fields);
    fields.insert("task_id".into(), Value::String(id));
    for key in ["text", "prompt"] {
        if fields.get(key).is_some_and(|v| !v.is_string()) {
            fields.remove(key);
        }
    }
    if !fields.contains_key("text") && !fields.contains_key("prompt") {
        fields.insert("text".into(), Value::String(String::new()));
    }
    if !fields.get("code").is_some_and(Value::is_string) {
        fields.insert("code".into(), Value::String(String::new()));
    }
    fields.insert("test_list".into(), list);
    parse_task(&Value::Object(fields).to_string()).map_err(|e| format!("{e}; {ACCEPTED}"))
}

/// A task from `inputs` and `outputs` in `pairs`, with the id, statement and language of the
/// row `fields`: stdin/stdout cases, or call cases with `fn_name`.
fn pairs_task(
    fields: &Map<String, Value>,
    pairs: &Map<String, Value>,
    answer_language: Option<Language>,
) -> Result<Task, String> {
    let list = |key: &str| -> Result<&Vec<Value>, String> {
        match pairs.get(key) {
            Some(Value::Array(items)) => Ok(items),
            Some(other) => Err(format!("`{key}` is {}, not a list", kind(other))),
            None => Err(format!("`{key}` is missing; {ACCEPTED}")),
        }
    };
    let (inputs, outputs) = (list("inputs")?, list("outputs")?);
    if inputs.len() != outputs.len() {
        return Err(format!(
            "{} inputs but {} outputs: each input needs its output",
            inputs.len(),
            outputs.len()
        ));
    }
    if inputs.is_empty() {
        return Err(format!("no inputs and outputs: no tests; {ACCEPTED}"));
    }
    let language = [fields.get("language"), pairs.get("language")]
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find_map(Language::parse)
        .or(answer_language)
        .unwrap_or(Language::Python);
    let fn_name = match pairs.get("fn_name") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) if name.is_empty() => None,
        Some(Value::String(name)) => Some(name.as_str()),
        Some(other) => return Err(format!("`fn_name` is {}, not a name", kind(other))),
    };
    let (language, tests) = match fn_name {
        Some(name) => (Language::Python, calls_suites(name, inputs, outputs)?),
        None => (language, vec![io_suite(inputs, outputs)?]),
    };
    let description = ["question", "description", "text", "problem", "prompt"]
        .iter()
        .find_map(|k| fields.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
        .to_owned();
    Ok(Task {
        id: TaskId(record_id(fields)),
        language,
        prompt: String::new(),
        description,
        // The function the answer defines (its block is the one picked among several).
        entry_point: fn_name.map(str::to_owned),
        prelude: match language {
            Language::Python => PAIRS_PRELUDE.to_owned(),
            _ => String::new(),
        },
        tests,
        ..Task::default()
    })
}

/// A stdin or stdout of the pairs: text, or a list of lines (as some APPS rows give them).
fn pair_text(value: &Value, what: &str, i: usize) -> Result<String, String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Array(lines) if lines.iter().all(Value::is_string) => Ok(lines
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n")),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(format!(
            "{what}[{i}] is {}, not text (or a list of lines)",
            kind(other)
        )),
    }
}

fn io_suite(inputs: &[Value], outputs: &[Value]) -> Result<TestSuite, String> {
    let cases = inputs
        .iter()
        .zip(outputs)
        .enumerate()
        .map(|(i, (input, output))| {
            Ok(IoCase {
                name: format!("test {}", i + 1),
                stdin: pair_text(input, "inputs", i)?,
                stdout: pair_text(output, "outputs", i)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(TestSuite::Io {
        group: String::new(),
        compare: OutputComparison::Whitespace,
        tolerance: crate::task::DEFAULT_TOLERANCE,
        cases,
    })
}

/// How a call case's expected value is written, which decides how the returned value is put
/// before the host compares them (see [`calls_suites`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrapping {
    /// Anything but a one-item list: compared as it is.
    None,
    /// `[x]`, `x` not a list: `x` or `[x]` passes.
    Value,
    /// `[x]`, `x` a list: `x` or `[x]` passes.
    List,
}

/// LeetCode-style call tests (`fn_name`), as APPS's checker runs them: the function is the
/// method `fn_name` of a fresh `Solution()` when the program defines that class with it, else the
/// program's top-level function `fn_name`. An input is the list of arguments (APPS), or text with
/// one JSON value per line (PRIME's and verl's sets, whose outputs are then JSON text too). The
/// returned value is compared on the host with Python's `==` rules, after APPS's two allowances:
/// a tuple is a list (JSON has none), and an expected `[x]` (APPS wraps most outputs in a list)
/// also passes a returned `x`. The second needs the expected value's shape in the guest: cases
/// are grouped in up to three suites by it (see [`Wrapping`]), each calling its own wrapper, so
/// the guest learns whether an expected value is a one-item list, never the value. (One case
/// APPS passes and this does not: an expected `[[y]]` when `[y]` is returned.)
pub fn calls_suites(
    fn_name: &str,
    inputs: &[Value],
    outputs: &[Value],
) -> Result<Vec<TestSuite>, String> {
    let valid = fn_name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && fn_name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !valid {
        return Err(format!("`fn_name` `{fn_name}` is not a Python name"));
    }
    let texts = inputs.iter().all(Value::is_string);
    let mut groups: Vec<(Wrapping, Vec<CallCase>)> = Vec::new();
    for (i, (input, output)) in inputs.iter().zip(outputs).enumerate() {
        let args = match input {
            Value::String(text) => text
                .lines()
                .filter(|line| !line.trim().is_empty())
                .enumerate()
                .map(|(n, line)| {
                    serde_json::from_str(line).map_err(|e| {
                        format!(
                            "inputs[{i}] line {}: not a JSON value ({e}): {}",
                            n + 1,
                            excerpt(line)
                        )
                    })
                })
                .collect::<Result<Vec<Value>, String>>()?,
            Value::Array(args) => args.clone(),
            other => vec![other.clone()],
        };
        let expected = match output {
            Value::String(text) if texts => {
                serde_json::from_str(text).unwrap_or_else(|_| output.clone())
            }
            other => other.clone(),
        };
        let wrapping = match &expected {
            Value::Array(items) if items.len() == 1 => match items[0].is_array() {
                true => Wrapping::List,
                false => Wrapping::Value,
            },
            _ => Wrapping::None,
        };
        let case = CallCase {
            name: format!("test {}", i + 1),
            args,
            expected,
            check: Default::default(),
            tolerance: None,
        };
        match groups.iter_mut().find(|(w, _)| *w == wrapping) {
            Some((_, cases)) => cases.push(case),
            None => groups.push((wrapping, vec![case])),
        }
    }
    let setup = format!(
        "def _wasmeval_returned(args, wrapped, wrapped_list):\n\
         \x20   solution = globals().get(\"Solution\")\n\
         \x20   if isinstance(solution, type) and hasattr(solution, \"{fn_name}\"):\n\
         \x20       function = getattr(solution(), \"{fn_name}\")\n\
         \x20   elif \"{fn_name}\" in globals():\n\
         \x20       function = globals()[\"{fn_name}\"]\n\
         \x20   else:\n\
         \x20       raise NameError(\"the program defines no function `{fn_name}` and no class \
         `Solution` with that method\")\n\
         \x20   value = function(*args)\n\
         \x20   if isinstance(value, tuple):\n\
         \x20       value = list(value)\n\
         \x20   if isinstance(value, list):\n\
         \x20       value = [list(item) if isinstance(item, tuple) else item for item in value]\n\
         \x20   if wrapped and not (isinstance(value, list) and len(value) == 1\n\
         \x20                       and (not wrapped_list or isinstance(value[0], list))):\n\
         \x20       value = [value]\n\
         \x20   return value\n"
    );
    Ok(groups
        .into_iter()
        .map(|(wrapping, cases)| {
            let (entry_point, flags) = match wrapping {
                Wrapping::None => ("_wasmeval_call", "False, False"),
                Wrapping::Value => ("_wasmeval_call_wrapped", "True, False"),
                Wrapping::List => ("_wasmeval_call_wrapped_list", "True, True"),
            };
            TestSuite::Calls {
                setup: format!(
                    "{setup}\n\ndef {entry_point}(*args):\n    \
                     return _wasmeval_returned(args, {flags})\n"
                ),
                entry_point: entry_point.to_owned(),
                tolerance: 0.0,
                cases,
            }
        })
        .collect())
}

/// A row's id: `task_id`, `problem_id`, `id`, `name` or `question_id`, else `ground_truth`.
fn record_id(fields: &Map<String, Value>) -> String {
    ["task_id", "problem_id", "id", "name", "question_id"]
        .iter()
        .find_map(|k| match fields.get(*k)? {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or_else(|| "ground_truth".to_owned())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The start of `text`, quoted, for a message.
fn excerpt(text: &str) -> String {
    let shown: String = text.chars().take(60).collect();
    match shown.len() < text.len() {
        true => format!("{shown:?}…"),
        false => format!("{shown:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_json(value: Value) -> Result<Task, String> {
        task_from_ground_truth(&value.to_string(), None)
    }

    /// Issue 33 item 6: a ground truth that is MBPP's list of asserts was refused ("not a JSON
    /// object").
    #[test]
    fn regression_a_list_of_asserts_is_an_mbpp_task() {
        let asserts = json!(["assert add(1, 2) == 3", "assert add(0, 0) == 0"]);
        for text in [asserts.to_string(), json!(asserts.to_string()).to_string()] {
            let task = task_from_ground_truth(&text, None).unwrap();
            assert_eq!(task.language, Language::Python);
            assert_eq!(task.prompt, "");
            let TestSuite::Calls {
                entry_point, cases, ..
            } = &task.tests[0]
            else {
                panic!("expected calls: {:?}", task.tests)
            };
            assert_eq!((entry_point.as_str(), cases.len()), ("add", 2));
        }
        // With the row's setup and imports, as MBPP and sanitized MBPP give them.
        let row = json!({"test_list": ["assert math.isclose(area(1), math.pi)"],
                         "test_imports": ["import math"], "test_setup_code": "x = 1",
                         "prompt": [{"role": "user", "content": "chat"}]});
        let task = read_json(row).unwrap();
        let TestSuite::Assertions { setup, cases } = &task.tests[0] else {
            panic!("expected assertions: {:?}", task.tests)
        };
        assert_eq!((setup.as_str(), cases.len()), ("import math\nx = 1", 1));
        assert_eq!(task.id.0, "ground_truth");
        // Columns a row does not use are null in a dataset of mixed rows.
        let mixed = json!({"task_id": 3, "text": null, "prompt": "p", "code": "def f(): return 1",
                           "test_list": ["assert f() == 1"], "test_setup_code": null,
                           "test_imports": null, "challenge_test_list": null});
        assert_eq!(read_json(mixed).unwrap().case_count(), 1);
    }

    #[test]
    fn a_task_record_is_read_as_run_reads_it() {
        let mbpp = json!({"task_id": 2, "text": "Write a function.", "code": "def f(): pass",
                          "test_list": ["assert f() is None"], "test_setup_code": "",
                          "challenge_test_list": []});
        let task = read_json(mbpp.clone()).unwrap();
        assert_eq!(
            (task.id.0.as_str(), task.prompt.as_str()),
            ("2", "Write a function.")
        );
        let again = read_json(json!(mbpp.to_string())).unwrap();
        assert_eq!(task, again);
        let humaneval = json!({"task_id": "H/0", "prompt": "def f():\n", "entry_point": "f",
                               "canonical_solution": "    return 1\n",
                               "test": "def check(c):\n    assert c() == 1\n"});
        assert_eq!(
            read_json(humaneval).unwrap().entry_point.as_deref(),
            Some("f")
        );
        // A verl row carries it in `reward_model`.
        let row = json!({"data_source": "mbpp", "prompt": [],
                         "reward_model": {"style": "rule", "ground_truth": ["assert f() == 1"]}});
        assert_eq!(read_json(row).unwrap().case_count(), 1);
    }

    #[test]
    fn stdin_stdout_pairs_are_io_cases() {
        let apps = json!({"problem_id": 7, "question": "Print the sum.\ndef f(x):\n",
                          "input_output": json!({"inputs": ["1 2\n", ["3", "4"]],
                                                 "outputs": ["3\n", ["7"]]}).to_string()});
        let task = read_json(apps).unwrap();
        assert_eq!(task.id.0, "7");
        // The statement is the description: an answer is never appended to it.
        assert_eq!(
            (task.prompt.as_str(), task.description.as_str()),
            ("", "Print the sum.\ndef f(x):\n")
        );
        assert_eq!(task.prelude, PAIRS_PRELUDE);
        let TestSuite::Io { compare, cases, .. } = &task.tests[0] else {
            panic!("expected io")
        };
        assert_eq!(*compare, OutputComparison::Whitespace);
        assert_eq!(
            (cases[1].stdin.as_str(), cases[1].stdout.as_str()),
            ("3\n4", "7")
        );
        // verl's and PRIME's shape; the answer's language when the row names none.
        let pairs = json!({"inputs": ["1\n"], "outputs": ["1\n"]}).to_string();
        let task = task_from_ground_truth(&pairs, Some(Language::Cpp)).unwrap();
        assert_eq!((task.language, task.prelude.as_str()), (Language::Cpp, ""));
        let named = json!({"inputs": ["1\n"], "outputs": ["1\n"], "language": "rust"});
        assert_eq!(
            task_from_ground_truth(&named.to_string(), Some(Language::Cpp))
                .unwrap()
                .language,
            Language::Rust
        );
        // Code contests' test groups, and a list of pairs.
        let contest = json!({"name": "1_A", "description": "d",
                             "public_tests": {"input": ["1\n"], "output": ["2\n"]},
                             "private_tests": {"input": ["2\n"], "output": ["4\n"]},
                             "generated_tests": {"input": [], "output": []}});
        assert_eq!(read_json(contest).unwrap().case_count(), 2);
        let list = json!([{"input": "1", "output": "2"}, {"input": "2", "output": "4"}]);
        assert_eq!(read_json(list).unwrap().case_count(), 2);
    }

    #[test]
    fn fn_name_pairs_are_host_judged_calls_grouped_by_wrapping() {
        // APPS: inputs are argument lists, outputs mostly wrapped in a list.
        let apps = json!({"fn_name": "add", "inputs": [[1, 2], [[1], [2]], [3, 4]],
                          "outputs": [[3], [[1, 2]], 7]});
        let task = read_json(apps).unwrap();
        assert_eq!(task.language, Language::Python);
        assert_eq!(task.entry_point.as_deref(), Some("add"));
        let suites: Vec<(&str, Vec<&str>)> = task
            .tests
            .iter()
            .map(|suite| match suite {
                TestSuite::Calls {
                    entry_point, cases, ..
                } => (
                    entry_point.as_str(),
                    cases.iter().map(|c| c.name.as_str()).collect(),
                ),
                other => panic!("expected calls: {other:?}"),
            })
            .collect();
        assert_eq!(
            suites,
            [
                ("_wasmeval_call_wrapped", vec!["test 1"]),
                ("_wasmeval_call_wrapped_list", vec!["test 2"]),
                ("_wasmeval_call", vec!["test 3"]),
            ]
        );
        // PRIME's and verl's: one JSON value per line, outputs as JSON text.
        let prime = json!({"fn_name": "twoSum", "inputs": ["[2, 7, 11]\n9\n"],
                           "outputs": ["[0, 1]"]});
        let task = read_json(json!(prime.to_string())).unwrap();
        let TestSuite::Calls { cases, setup, .. } = &task.tests[0] else {
            panic!("expected calls")
        };
        assert_eq!(cases[0].args, vec![json!([2, 7, 11]), json!(9)]);
        assert_eq!(cases[0].expected, json!([0, 1]));
        assert!(setup.contains("getattr(solution(), \"twoSum\")"), "{setup}");
        // A name that is not one is refused before it reaches the setup code.
        let bad = json!({"fn_name": "f\")\nimport os", "inputs": [[1]], "outputs": [1]});
        assert!(read_json(bad).unwrap_err().contains("is not a Python name"));
    }

    #[test]
    fn a_record_as_pythons_json_writes_it_is_read_as_task_files_are() {
        // MBPP+'s Mbpp/404 holds `-Infinity` among its inputs: Python's `json.dumps` writes it
        // bare, and verl's and TRL's ground truths are such text (it was "not JSON").
        let record = r#"{"task_id": "Mbpp/404", "prompt": "Write a function to find the minimum of two numbers.", "entry_point": "minimum", "canonical_solution": "def minimum(a,b):\n    return min(a, b)\n", "base_input": [[1, 2]], "plus_input": [[-Infinity, Infinity], [36893488147419103233, 0]], "atol": 0, "test": "", "code": "", "assertion": ""}"#;
        let task = task_from_ground_truth(record, None).unwrap();
        assert_eq!(task.id.0, "Mbpp/404");
        // The same record as a JSON string inside JSON (verl's `ground_truth` column).
        let quoted = serde_json::to_string(record).unwrap();
        assert_eq!(task_from_ground_truth(&quoted, None).unwrap().id, task.id);
    }

    #[test]
    fn an_unusable_ground_truth_says_which_shapes_are_accepted() {
        for (text, start) in [
            ("task_id,completion\nH/0,x", "not JSON"),
            ("\"assert f(1) == 2\"", "a string that is not JSON text"),
            ("42", "a number is not a ground truth"),
            ("[]", "an empty list has no tests"),
            ("[1, 2]", "a list of neither assert strings"),
            (r#"{"question": "q"}"#, "this record has a prompt"),
            (
                r#"{"inputs": ["1"], "outputs": []}"#,
                "1 inputs but 0 outputs",
            ),
            (
                r#"{"input_output": "{\"inputs\": 3, \"outputs\": []}"}"#,
                "`inputs` is a number",
            ),
            (
                r#"{"fn_name": "f", "inputs": ["1\nx"], "outputs": ["1"]}"#,
                "inputs[0] line 2",
            ),
        ] {
            let error = task_from_ground_truth(text, None).unwrap_err();
            assert!(error.starts_with(start), "{text}: {error}");
            if !start.contains("inputs") {
                assert!(
                    error.contains("a list of assert strings (MBPP's `test_list`)"),
                    "{error}"
                );
            }
        }
    }
}

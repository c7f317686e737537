//! A model's answer (chat text) as a sample: the code in it, and whether that code is a whole
//! program or a completion of the task's prompt. Shared by the server's SandboxFusion `/submit`
//! and the Python package's reward functions, so both read an answer the same way.
//!
//! The code is found as `wasmeval generate` finds it ([`crate::generation::extract_code`]: a
//! fenced block, preferring the task's language and the block that names the entry point; the
//! rest of an answer whose fence never closes; else the whole answer). It is a completion,
//! appended to the prompt, only when the prompt is code that a completion continues: when the
//! prompt defines the function the tests call (human-eval, HumanEval-X, MultiPL-E) and the answer
//! does not define it again. A prompt in prose (MBPP's `text`, APPS's question, a task read from
//! a ground truth, which has none) is no program to continue, so the answer is the whole program.
//! "Defines" is read in the language's own definition syntax ([`defined_functions`]), never from
//! a word of the prompt's text.

use crate::generation::{extract_code, ExtractionRule};
use crate::sample::{Sample, SampleCode};
use crate::task::{Language, Task, TestSuite};

/// How the code was found in an answer (SandboxFusion's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extraction {
    /// A fenced block (```` ```lang ... ``` ````).
    Fenced,
    /// A fence that was opened and never closed: the rest of the answer.
    IncompleteFenced,
    /// No fence: the whole answer.
    Heuristic,
    /// Nothing but whitespace.
    Empty,
}

impl Extraction {
    /// SandboxFusion's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Extraction::Fenced => "fenced",
            Extraction::IncompleteFenced => "incomplete_fenced",
            Extraction::Heuristic => "heuristic",
            Extraction::Empty => "empty",
        }
    }
}

/// `answer` as a sample of `task`: the extracted code is a completion appended to the prompt when
/// the prompt is code that defines the function the tests call ([`prompt_is_code`]) and the code
/// does not define that function itself; otherwise it is a whole program.
pub fn sample_from_answer(task: &Task, answer: &str, index: u64) -> (Sample, Extraction) {
    let names = entry_points(task);
    // Among several blocks, the one that defines the entry point, not one that calls it.
    let hint = names.first().map(|name| match task.language {
        Language::Python | Language::Ruby => format!("def {name}"),
        Language::Rust => format!("fn {name}"),
        Language::Go => format!("func {name}"),
        _ => name.clone(),
    });
    let extracted = extract_code(answer, task.language, hint.as_deref());
    let extraction = match extracted.rule {
        ExtractionRule::FenceInLanguage | ExtractionRule::Fence => Extraction::Fenced,
        ExtractionRule::OpenFence => Extraction::IncompleteFenced,
        ExtractionRule::WholeAnswer if answer.trim().is_empty() => Extraction::Empty,
        ExtractionRule::WholeAnswer => Extraction::Heuristic,
    };
    let code = extracted.code;
    let continued = continued_names(task, &names);
    let completes_prompt = !continued.is_empty()
        && !defined_functions(&code, task.language)
            .iter()
            .any(|name| continued.contains(name));
    let code = match completes_prompt {
        true => SampleCode::Completion(code),
        false => SampleCode::Solution(code),
    };
    let sample = Sample {
        index,
        task_id: task.id.clone(),
        model: None,
        code,
        info: Default::default(),
    };
    (sample, extraction)
}

/// The language the answer's first fence is tagged with (```` ```cpp ````), when wasmeval knows
/// the tag: what a task without a language of its own (stdin/stdout pairs) runs the answer as.
pub fn fence_language(answer: &str) -> Option<Language> {
    answer.lines().find_map(|line| {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let trimmed = line.trim_start_matches(' ');
        let fence = ["```", "~~~"].iter().find(|f| trimmed.starts_with(**f))?;
        if indent > 3 {
            return None;
        }
        let tag = trimmed.trim_start_matches(fence.chars().next().unwrap_or('`'));
        let word = tag
            .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
            .next()
            .unwrap_or("");
        // The first fence decides, tagged or not.
        Some(Language::parse(word))
    })?
}

/// Whether `task`'s prompt is code that a completion continues: it defines, in the task's
/// language, the function its tests call (the task's entry point, or a `calls` or `alternatives`
/// suite's), or, when the tests name none, any function. MBPP's description, an APPS question or
/// an empty prompt is not.
pub fn prompt_is_code(task: &Task) -> bool {
    !continued_names(task, &entry_points(task)).is_empty()
}

/// The names the prompt defines that a whole program would define again: the entry points it
/// defines, or when the tests name no entry point every function it defines. Empty when the
/// prompt is not code a completion continues.
fn continued_names(task: &Task, entry_points: &[String]) -> Vec<String> {
    let defined = defined_functions(&task.prompt, task.language);
    match entry_points.is_empty() {
        true => defined,
        false => defined
            .into_iter()
            .filter(|name| entry_points.contains(name))
            .collect(),
    }
}

/// The functions the tests call: the task's entry point, then each suite's, without repeats.
fn entry_points(task: &Task) -> Vec<String> {
    let mut names: Vec<String> = task.entry_point.iter().cloned().collect();
    for suite in &task.tests {
        let name = match suite {
            TestSuite::Calls { entry_point, .. } | TestSuite::Alternatives { entry_point, .. } => {
                entry_point
            }
            TestSuite::Assertions { .. } | TestSuite::Io { .. } => continue,
        };
        if !name.is_empty() && !names.contains(name) {
            names.push(name.clone());
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

/// The names of the functions `code` defines, in `language`'s definition syntax, read line by
/// line (methods too: a LeetCode prompt's `def twoSum(self, ...)` inside `class Solution`):
/// Python's and Ruby's `def`, JavaScript's and TypeScript's `function` and `const name = (...) =>`
/// (`let`, `var`, `function`), Lua's `function` and `name = function`, Rust's `fn`, Go's `func`
/// (methods too), and in C, C++ and Java a name and its parameters after a return type, with a
/// body (`{`) before any `;`. Prose defines nothing: "Write a function add(a, b)." has no return
/// type before the name, or no body after it.
pub fn defined_functions(code: &str, language: Language) -> Vec<String> {
    let mut names = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let found = match language {
            Language::Python => python_definition(line),
            Language::Ruby => ruby_definition(line),
            Language::Javascript | Language::Typescript => javascript_definition(line),
            Language::Lua => lua_definition(line),
            Language::Rust => after_keyword(line, "fn"),
            Language::Go => go_definition(line),
            Language::C | Language::Cpp | Language::Java => c_like_definition(&lines[i..]),
        };
        if let Some(name) = found {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

fn is_identifier_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The identifier at the start of `text`, when there is one.
fn leading_identifier(text: &str) -> Option<&str> {
    let end = text
        .find(|c: char| !is_identifier_char(c))
        .unwrap_or(text.len());
    let name = &text[..end];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// `def name(` (or `async def name(`), at any indentation.
fn python_definition(line: &str) -> Option<String> {
    let line = line.trim_start();
    let line = line.strip_prefix("async ").map_or(line, str::trim_start);
    let rest = line.strip_prefix("def ")?.trim_start();
    let name = leading_identifier(rest)?;
    rest[name.len()..]
        .trim_start()
        .starts_with('(')
        .then(|| name.to_owned())
}

/// `def name`, `def self.name`, followed by `(`, a space or the end of the line.
fn ruby_definition(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("def ")?.trim_start();
    let rest = rest.strip_prefix("self.").unwrap_or(rest);
    let name = rest
        .find(|c: char| !(is_identifier_char(c) || c == '?' || c == '!'))
        .map_or(rest, |end| &rest[..end]);
    let after = &rest[name.len()..];
    (!name.is_empty() && (after.is_empty() || after.starts_with(['(', ' ', '\t', ';'])))
        .then(|| name.to_owned())
}

/// `keyword name` (`fn add(`, `fn add<T>(`) at any indentation, after modifiers such as `pub`.
fn after_keyword(line: &str, keyword: &str) -> Option<String> {
    let mut words = line.trim_start();
    loop {
        let word_end = words
            .find(|c: char| c.is_whitespace())
            .unwrap_or(words.len());
        let word = &words[..word_end];
        let rest = words[word_end..].trim_start();
        if word == keyword {
            let name = leading_identifier(rest)?;
            let after = rest[name.len()..].trim_start();
            return after.starts_with(['(', '<']).then(|| name.to_owned());
        }
        // Modifiers before the keyword: `pub`, `pub(crate)`, `async`, `export`, `local`...
        let modifier = word.starts_with("pub")
            || matches!(
                word,
                "async" | "const" | "unsafe" | "extern" | "export" | "default" | "local"
            )
            || word.starts_with("extern");
        if !modifier || rest.is_empty() {
            return None;
        }
        words = rest;
    }
}

/// `function name(`, `function* name(`, `async function name(`, or `const name = ` (`let`, `var`)
/// followed by a function or an arrow function.
fn javascript_definition(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    let trimmed = trimmed
        .strip_prefix("export ")
        .unwrap_or(trimmed)
        .trim_start();
    let trimmed = trimmed
        .strip_prefix("default ")
        .unwrap_or(trimmed)
        .trim_start();
    let trimmed = trimmed
        .strip_prefix("async ")
        .unwrap_or(trimmed)
        .trim_start();
    if let Some(rest) = trimmed.strip_prefix("function") {
        let rest = rest.trim_start().trim_start_matches('*').trim_start();
        let name = leading_identifier(rest)?;
        let after = rest[name.len()..].trim_start();
        return after.starts_with(['(', '<']).then(|| name.to_owned());
    }
    let rest = ["const ", "let ", "var "]
        .iter()
        .find_map(|keyword| trimmed.strip_prefix(keyword))?
        .trim_start();
    let name = leading_identifier(rest)?;
    let after = rest[name.len()..].trim_start();
    // A type annotation (TypeScript) before `=`.
    let after = match after.strip_prefix(':') {
        Some(typed) => &typed[typed.find('=')?..],
        None => after,
    };
    let value = after.strip_prefix('=')?.trim_start();
    let value = value.strip_prefix("async").unwrap_or(value).trim_start();
    (value.starts_with("function") || value.starts_with('(') || value.contains("=>"))
        .then(|| name.to_owned())
}

/// `function name(` (`local function`, `function M.name(`, `function M:name(`) or
/// `name = function` (`local name = function`).
fn lua_definition(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    let trimmed = trimmed
        .strip_prefix("local ")
        .unwrap_or(trimmed)
        .trim_start();
    if let Some(rest) = trimmed.strip_prefix("function ") {
        let rest = rest.trim_start();
        let end = rest.find('(')?;
        let path = rest[..end].trim_end();
        let name = path.rsplit(['.', ':']).next()?;
        return leading_identifier(name)
            .filter(|n| n.len() == name.len())
            .map(str::to_owned);
    }
    let name = leading_identifier(trimmed)?;
    let value = trimmed[name.len()..].trim_start().strip_prefix('=')?;
    value
        .trim_start()
        .starts_with("function")
        .then(|| name.to_owned())
}

/// `func name(`, `func name[T any](`, or a method `func (r T) name(`.
fn go_definition(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("func")?;
    if !rest.starts_with([' ', '\t', '(']) {
        return None;
    }
    let mut rest = rest.trim_start();
    if rest.starts_with('(') {
        rest = rest[rest.find(')')? + 1..].trim_start();
    }
    let name = leading_identifier(rest)?;
    rest[name.len()..]
        .trim_start()
        .starts_with(['(', '['])
        .then(|| name.to_owned())
}

/// Words that start a statement, not a declaration, in C, C++ and Java.
const C_STATEMENT_WORDS: [&str; 16] = [
    "return",
    "if",
    "else",
    "while",
    "for",
    "switch",
    "case",
    "do",
    "new",
    "throw",
    "delete",
    "sizeof",
    "goto",
    "using",
    "typedef",
    "co_return",
];

/// A function definition starting on `lines[0]` in C, C++ or Java: a return type (one or more
/// words: `long long`, `public static boolean`, `std::vector<int>`, `char *`), the name, `(`,
/// then the parameters and a body (`{`) before any `;`, on this line or the next few.
fn c_like_definition(lines: &[&str]) -> Option<String> {
    let line = lines[0];
    let code = line.split("//").next().unwrap_or("");
    let trimmed = code.trim_start();
    if trimmed.starts_with(['#', '*', '/']) {
        return None;
    }
    let open = trimmed.find('(')?;
    let head = trimmed[..open].trim_end();
    let name_start = head.rfind(|c: char| !is_identifier_char(c)).map_or(0, |i| {
        i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let name = leading_identifier(&head[name_start..])?;
    let return_type = head[..name_start].trim();
    // A return type: words, `::`, template brackets, pointers and references; no sentence.
    let first = return_type.split_whitespace().next()?;
    if C_STATEMENT_WORDS.contains(&first)
        || C_STATEMENT_WORDS.contains(&name)
        || !return_type
            .chars()
            .all(|c| is_identifier_char(c) || " \t:<>,*&[]".contains(c))
        || return_type.split_whitespace().count() > 6
    {
        return None;
    }
    // Parameters, then a body before any `;`, within this line and the next four.
    let rest: Vec<&str> = std::iter::once(&trimmed[open..])
        .chain(lines.iter().skip(1).take(4).copied())
        .collect();
    let rest = rest.join("\n");
    let mut depth = 0i32;
    for c in rest.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '{' if depth == 0 => return Some(name.to_owned()),
            ';' => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::{CallCase, TaskId};

    fn task(language: Language, prompt: &str, entry_point: Option<&str>) -> Task {
        Task {
            id: TaskId("t".into()),
            language,
            prompt: prompt.into(),
            entry_point: entry_point.map(Into::into),
            ..Task::default()
        }
    }

    fn is_solution(task: &Task, answer: &str) -> bool {
        matches!(
            sample_from_answer(task, answer, 0).0.code,
            SampleCode::Solution(_)
        )
    }

    #[test]
    fn code_is_taken_from_the_fenced_block_of_the_tasks_language() {
        let python = task(Language::Python, "", None);
        let (sample, extraction) = sample_from_answer(
            &python,
            "Here:\n```python\ndef f():\n    return 1\n```\nDone.",
            0,
        );
        assert_eq!(
            sample.code,
            SampleCode::Solution("def f():\n    return 1\n".into())
        );
        assert_eq!(extraction, Extraction::Fenced);
        let (sample, _) =
            sample_from_answer(&python, "```text\nusage\n```\n```python\nx = 1\n```", 0);
        assert_eq!(sample.code, SampleCode::Solution("x = 1\n".into()));
        // Among blocks of the language, the one defining the entry point, not one calling it.
        let add = task(Language::Python, "Add two numbers.", Some("add"));
        let (sample, _) = sample_from_answer(
            &add,
            "Use it so:\n```python\nprint(add(1, 2))\n```\nDefined so:\n```python\ndef add(a, b):\n    return a + b\n```",
            0,
        );
        assert_eq!(
            sample.code,
            SampleCode::Solution("def add(a, b):\n    return a + b\n".into())
        );
        let extraction = |answer: &str| sample_from_answer(&python, answer, 0).1;
        assert_eq!(extraction("```py\nx = 1\n"), Extraction::IncompleteFenced);
        assert_eq!(extraction("    return 1\n"), Extraction::Heuristic);
        assert_eq!(extraction("  "), Extraction::Empty);
    }

    #[test]
    fn a_completion_of_a_prompt_that_defines_the_entry_point_is_appended() {
        let humaneval = task(
            Language::Python,
            "def add(a, b):\n    \"\"\"Add.\"\"\"\n",
            Some("add"),
        );
        assert!(prompt_is_code(&humaneval));
        assert!(!is_solution(&humaneval, "    return a + b\n"));
        assert!(!is_solution(&humaneval, "```python\n    return a + b\n```"));
        // The answer defines the entry point again: a whole program.
        assert!(is_solution(
            &humaneval,
            "```python\ndef add(a, b):\n    return a + b\n```"
        ));
        // A call is no definition (the old rule took ` add(` for one).
        assert!(!is_solution(
            &humaneval,
            "    return 0 if a == b else add(b, a)\n"
        ));
    }

    /// Issue 33 item 6: MBPP's `text` is English, so the canonical `code` (plain or fenced) is the
    /// whole program, not a completion appended to the sentence ("SyntaxError, line 1").
    #[test]
    fn regression_an_answer_to_a_prose_prompt_is_the_whole_program() {
        let mut mbpp = task(
            Language::Python,
            "Write a function to find the similar elements from the given two tuple lists.",
            None,
        );
        mbpp.tests = vec![TestSuite::Calls {
            setup: String::new(),
            entry_point: "similar_elements".into(),
            tolerance: 0.0,
            cases: vec![CallCase {
                name: "assert 1".into(),
                args: vec![],
                expected: serde_json::Value::Null,
                check: Default::default(),
                tolerance: None,
            }],
        }];
        assert!(!prompt_is_code(&mbpp));
        let code = "def similar_elements(a, b):\n    return tuple(set(a) & set(b))\n";
        assert!(is_solution(&mbpp, code));
        assert!(is_solution(&mbpp, &format!("```python\n{code}```")));
        // Even a code that does not define the function the tests call.
        assert!(is_solution(&mbpp, "similar_elements = lambda a, b: ()\n"));
        // MBPP+ gives its prompt as a docstring: no definition, so not a prompt to continue.
        let plus = task(
            Language::Python,
            "\"\"\"\nWrite a function.\nassert similar_elements((1,), (1,)) == (1,)\n\"\"\"\n",
            Some("similar_elements"),
        );
        assert!(!prompt_is_code(&plus));
        // A prompt that names the function in prose defines nothing, in any language.
        for language in [
            Language::Python,
            Language::Cpp,
            Language::Java,
            Language::Go,
        ] {
            let prose = task(
                language,
                "Write a function add(a, b) that returns the sum.\nExample: add(1, 2) == 3\n",
                Some("add"),
            );
            assert!(!prompt_is_code(&prose), "{language}");
        }
        assert!(!prompt_is_code(&task(Language::Python, "", Some("add"))));
    }

    #[test]
    fn prompts_define_functions_in_their_languages_syntax() {
        let cases: &[(Language, &str, &[&str])] = &[
            (Language::Python, "from typing import List\n\n\ndef has_close(numbers: List[float]) -> bool:\n    \"\"\"x\"\"\"\n", &["has_close"]),
            (Language::Python, "class Solution:\n    def twoSum(self, nums):\n        ", &["twoSum"]),
            (Language::Python, "async def fetch ():\n", &["fetch"]),
            (Language::Cpp, "#include<vector>\nusing namespace std;\nbool has_close_elements(vector<float> numbers, float threshold){\n", &["has_close_elements"]),
            (Language::Cpp, "long long string_length(std::string string) {\n", &["string_length"]),
            (Language::Cpp, "std::vector<long> f(\n    long n,\n    long m) {\n", &["f"]),
            (Language::C, "int add(int a, int b);\nint main(void) { return add(1, 2); }\n", &["main"]),
            (Language::Java, "class Problem {\n    public static long strlen(String string) {\n", &["strlen"]),
            (Language::Go, "package main\n\nfunc HasClose(numbers []float64) bool {\n", &["HasClose"]),
            (Language::Go, "func (s *S) Len() int {\nfunc Map[T any](x T) T {\n", &["Len", "Map"]),
            (Language::Rust, "pub fn f<T>(x: T) -> T {\nasync fn g() {}\nlet x = fnord(1);\n", &["f", "g"]),
            (Language::Javascript, "function strlen(string){\n", &["strlen"]),
            (Language::Javascript, "const hasClose = (numbers, threshold) => {\n", &["hasClose"]),
            (Language::Typescript, "function strlen(string: string): number {\nconst g: (x: number) => number = (x) => x;\n", &["strlen", "g"]),
            (Language::Lua, "local function strlen(string)\nfunction M.add(a, b)\nsub = function(a, b)\n", &["strlen", "add", "sub"]),
            (Language::Ruby, "def strlen(string)\ndef self.empty?\n", &["strlen", "empty?"]),
        ];
        for (language, code, expected) in cases {
            assert_eq!(
                defined_functions(code, *language),
                expected.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "{language}: {code}"
            );
        }
        let prose: &[(Language, &str)] = &[
            (
                Language::Cpp,
                "Write a function add(a, b) that returns a + b.\nReturn add(1, 2);",
            ),
            (Language::Cpp, "if (x) {\nreturn f(x) {\n"),
            (
                Language::Python,
                "Define a function named def(x).\nundef f(x):",
            ),
            (Language::Go, "function f() {\nfuncs(x)"),
            (Language::Rust, "the fn keyword: fn is short\n"),
        ];
        for (language, text) in prose {
            assert_eq!(
                defined_functions(text, *language),
                Vec::<String>::new(),
                "{text}"
            );
        }
    }

    #[test]
    fn the_first_fence_names_the_answers_language() {
        assert_eq!(
            fence_language("Sure:\n```cpp\nint main() {}\n```"),
            Some(Language::Cpp)
        );
        assert_eq!(fence_language("~~~c++ title=x\n~~~"), Some(Language::Cpp));
        assert_eq!(fence_language("```\nx\n```\n```rust\n```"), None);
        assert_eq!(fence_language("```text\nx\n```"), None);
        assert_eq!(fence_language("print(1)"), None);
    }

    #[test]
    fn without_an_entry_point_a_prompt_that_defines_a_function_is_continued() {
        let io = task(
            Language::Python,
            "def main():\n    n = int(input())\n",
            None,
        );
        assert!(prompt_is_code(&io));
        assert!(!is_solution(&io, "    print(n * 2)\nmain()\n"));
        assert!(is_solution(
            &io,
            "```python\ndef main():\n    print(int(input()) * 2)\nmain()\n```"
        ));
        let statement = task(Language::Python, "Read n and print 2n.", None);
        assert!(is_solution(&statement, "print(int(input()) * 2)\n"));
    }
}

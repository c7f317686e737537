//! Python samples: the candidate and every assertion, alternative and `calls` case run in one
//! interpreter under the harness (`guests/python/harness.py`), judged by
//! [`crate::judging::python`]; `io` cases run the program as a script, one execution each.

use super::{Guest, Job, JobFile, Preload, Run, RunWithin};
use crate::judging::python::literal::{call_as_assertion, ASSERTION_SETUP, FAILURE_PREFIX};
use crate::judging::python::{harness_suites, judge_cases, judge_trust, record, Layout};
use crate::judging::token::Token;
use crate::judging::CaseLog;
use crate::results::{JudgedBy, Verdict};
use crate::sample::Sample;
use crate::task::{AssertionCase, Task, TestSuite};

/// The harness's source; front ends compile it once with [`compile_job`] and pass the bytecode.
pub const HARNESS: &str = include_str!("../../../guests/python/harness.py");

/// Environment of every Python execution, after the runtime's own: no hash randomisation, no
/// bytecode files, home and temporary files in the execution's `/tmp`.
pub const ENV: [(&str, &str); 4] = [
    ("HOME", "/tmp"),
    ("TMPDIR", "/tmp"),
    ("PYTHONHASHSEED", "0"),
    ("PYTHONDONTWRITEBYTECODE", "1"),
];

/// How a whole program runs: as `python /job/program.py` would, but in its own `/tmp`, so that
/// the files it writes and reads by relative paths are its scratch folder's (WASI starts in `/`).
/// The task's prelude, when it has one, runs first in the same globals (`/job/prelude.py`).
///
/// A program that ends normally runs its `atexit` functions, flushes its output and exits at
/// once, skipping the interpreter's finalisation, as the harness does: tearing down the modules
/// cost about 52 M of a trivial program's 55 M fuel, and more with every module loaded. What is
/// lost is what finalisation alone would print (a `__del__` run at shutdown). A program that
/// raises, or calls `sys.exit`, ends as before.
const RUN_IN_TMP: &str = "import os, sys
def _wasmeval_leave(run_exitfuncs=__import__('atexit')._run_exitfuncs, exit=os._exit,
                    streams=(sys.stdout, sys.stderr)):
    run_exitfuncs()
    for stream in (sys.stdout, sys.stderr) + streams:
        try:
            stream.flush()
        except BaseException:
            pass
    exit(0)
os.chdir('/tmp')
sys.argv[:] = ['/job/program.py']
if os.path.exists('/job/prelude.py'):
    exec(compile(open('/job/prelude.py', encoding='utf-8').read(), '/job/prelude.py', 'exec'))
__file__ = '/job/program.py'
exec(compile(open(__file__, encoding='utf-8').read(), __file__, 'exec'))
_wasmeval_leave()
";

/// The job that compiles [`HARNESS`] to the interpreter's bytecode and writes it, as `marshal`
/// bytes, to stdout. Why: CPython for wasm32 spends about 90 M fuel compiling the harness's
/// source, more than starting the interpreter and running a short program together; loading the
/// bytecode costs a fraction of that on every run.
///
/// Loading and running it are still a large part of a small sample's fuel, so the bytecode is
/// made small:
/// - three of it ([`harness_part`]), each without the code the others need only ([`PARTS`]: the
///   partner's server, the judge's door; their lines left blank, so that line numbers stay): the
///   judge's, the partner's, and `alone`'s, for the host-judged `calls` tasks that most
///   benchmarks' tests become (1.0 M fuel less per sample than the whole);
/// - without docstrings (`optimize=2`; the harness has no `assert`), and with each function's
///   location table reduced to "every instruction is on the function's first line", a tenth of
///   the full table (0.8 M fuel less per judge and partner): a traceback through the harness
///   names its functions and their first lines; everything else behaves alike (the candidate's
///   code, compiled in the guest, keeps its own line numbers).
pub fn compile_job() -> Job {
    let script = r#"import marshal, sys, types

def compact(code):
    # One entry per 8 code units: "no columns, line delta 0" (the location table's format of
    # CPython 3.11 and later, Objects/locations.md).
    units, table = len(code.co_code) // 2, bytearray()
    while units > 0:
        table += bytes((0x80 | (13 << 3) | (min(8, units) - 1), 0))
        units -= 8
    consts = tuple(compact(c) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)

source = open('/job/harness.py', encoding='utf-8').read()
partner, judge, end = (source.index(marker) for marker in sys.argv[1:])

def without(start, stop):
    # The lines left blank, so that line numbers stay.
    return source[:start] + "\n" * source.count("\n", start, stop) + source[stop:]

parts = [marshal.dumps(compact(compile(text, 'harness.py', 'exec', optimize=2)))
         for text in (without(partner, judge), without(judge, end), without(partner, end))]
sys.stdout.buffer.write(b"".join(len(part).to_bytes(8, 'little') for part in parts[:2]) + b"".join(parts))
sys.stdout.flush()
"#;
    let mut args = vec!["-c".to_owned(), script.to_owned()];
    args.extend(PARTS.iter().map(|marker| (*marker).to_owned()));
    job(
        args,
        vec![JobFile::new("harness.py", HARNESS)],
        Preload::Standard,
    )
}

/// Where the partner's code, then the judge's, begin in [`HARNESS`], and where they end (see
/// [`compile_job`]).
const PARTS: [&str; 3] = [
    "    # ---- The partner's code",
    "    # ---- The judge's code",
    "    # ---- End of the partner's and the judge's code",
];

/// The bytecode that `mode`'s harness loads, out of `compile_job`'s output: the lengths of the
/// judge's and the partner's (8 bytes each, little-endian), then the judge's, the partner's and
/// `alone`'s.
fn harness_part<'a>(code: &'a [u8], mode: &str) -> &'a [u8] {
    let length = |at: usize| {
        let bytes = code.get(at..at + 8)?.try_into().ok()?;
        usize::try_from(u64::from_le_bytes(bytes)).ok()
    };
    let part = || {
        let (judge, partner) = (length(0)?, length(8)?);
        let start = 16
            + match mode {
                "judge" => 0,
                "partner" => judge,
                _ => judge.checked_add(partner)?,
            };
        let end = match mode {
            "judge" => start.checked_add(judge)?,
            "partner" => start.checked_add(partner)?,
            _ => code.len(),
        };
        code.get(start..end)
    };
    part().unwrap_or(code)
}

/// The source that loads the harness's bytecode (from `/job/harness.bin`).
const LOAD_HARNESS: &str =
    "import marshal\nexec(marshal.loads(open('/job/harness.bin', 'rb').read()))\n";

/// A Python job with `args` after `argv[0]` and `files` in `/job`, starting from `preload`.
fn job(args: Vec<String>, files: Vec<JobFile>, preload: Preload) -> Job {
    Job {
        guest: Guest::Python,
        args,
        env: ENV.map(|(k, v)| (k.to_owned(), v.to_owned())).to_vec(),
        files,
        scratch: true,
        stdin: Vec::new(),
        preload,
    }
}

/// Packages whose import alone costs seconds of fuel (`import pandas` 4.4 G, `import
/// matplotlib.pyplot` 7 G; scikit-learn's 13 G is over the default budget of 10 G): a sample
/// that imports one of them starts from the image with all of them imported.
pub const SCIENTIFIC_PACKAGES: [&str; 5] = ["numpy", "pandas", "scipy", "sklearn", "matplotlib"];

/// The start image of `sample`'s executions: [`Preload::Scientific`] when its program, its task's
/// prelude or its tests' code has an `import` or `from` statement, at the start of a line, of one
/// of [`SCIENTIFIC_PACKAGES`]; [`Preload::Standard`] otherwise. The rule is lexical, so the
/// runner and the browser choose alike; a miss (`__import__("numpy")`) only costs fuel.
pub fn preload(task: &Task, sample: &Sample) -> Preload {
    let program = sample.program(task);
    let mut sources = vec![program.as_str(), task.prelude.as_str()];
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { setup, cases } => {
                sources.push(setup);
                sources.extend(cases.iter().map(|c| c.code.as_str()));
            }
            TestSuite::Alternatives { sets, .. } => {
                for set in sets {
                    sources.push(&set.setup);
                    sources.extend(set.cases.iter().map(|c| c.code.as_str()));
                }
            }
            TestSuite::Calls { setup, .. } => sources.push(setup),
            TestSuite::Io { .. } => {}
        }
    }
    let scientific = sources
        .iter()
        .any(|code| imported_packages(code).any(|package| SCIENTIFIC_PACKAGES.contains(&package)));
    if scientific {
        Preload::Scientific
    } else {
        Preload::Standard
    }
}

/// The top-level packages that `code`'s `import a.b as c, d` and `from a.b import x` statements
/// name, one statement per line (relative imports name none).
fn imported_packages(code: &str) -> impl Iterator<Item = &str> {
    code.lines().flat_map(|line| {
        let mut words = line.trim_start().splitn(2, char::is_whitespace);
        let (keyword, rest) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let names: Vec<&str> = match keyword {
            "import" => rest.split(',').collect(),
            "from" => vec![rest],
            _ => Vec::new(),
        };
        names.into_iter().filter_map(|name| {
            let dotted = name.split_whitespace().next()?;
            dotted
                .split('.')
                .next()
                .filter(|package| !package.is_empty())
        })
    })
}

/// The candidate as job files: `program.py`, and the task's prelude, when it has one, as
/// `prelude.py` (the harness and [`RUN_IN_TMP`] run it first, in the candidate's globals).
///
/// A program that may start or wait for threads gets [`THREADS`] at the head of its prelude (it
/// leaves no name behind); only those that name an executor pay for importing
/// concurrent.futures. Programs that do not pay nothing.
fn candidate_files(task: &Task, sample: &Sample) -> Vec<JobFile> {
    let mut files = Vec::new();
    let program = sample.program(task);
    let executors = program.contains("concurrent") || program.contains("Executor");
    let waits = ["thread", "Thread", "queue", "Queue", "Timer"];
    let prelude = match executors || waits.iter().any(|word| program.contains(word)) {
        true => {
            let flag = if executors { "True" } else { "False" };
            format!("{THREADS}_install({flag})\ndel _install\n{}", task.prelude)
        }
        false => task.prelude.clone(),
    };
    if !prelude.is_empty() {
        files.push(JobFile::new("prelude.py", prelude));
    }
    files.push(JobFile::new("program.py", program));
    files
}

/// Threads without threads (`guests/python/threads.py`, defining `_install(executors)`): each
/// thread runs to its end when it starts; a wait no other thread can end is a "deadlock"
/// `RuntimeError`.
pub const THREADS: &str = include_str!("../../../guests/python/threads.py");

/// The harness in `mode` ("alone" or "judge"), reporting with `token`, loading its bytecode from
/// `/job/harness.bin`.
fn harness_args(mode: &str, token: &Token) -> Vec<String> {
    let source = format!("{LOAD_HARNESS}_wasmeval_main({mode:?})()\n");
    vec!["-c".into(), source, token.as_str().into(), "/job".into()]
}

/// The partner's first turn: load the harness and answer the judge's calls.
fn partner_setup() -> String {
    format!("{LOAD_HARNESS}_wasmeval_main('partner')\n")
}

/// Runs and judges `task`'s harness suites for `sample` into `log`, through `run`. Returns the
/// `alternatives` sets shown, if any.
///
/// Cases that one execution cannot judge faithfully are judged again by another (ARCHITECTURE.md,
/// "Python's `==`"): a `calls` case whose value is not plain data (`isolate`: a `Counter` is
/// plain, a complex number or an object of the candidate's is not) runs as the assertion it
/// stands for in the isolated judge, where the test's own `==` compares the value; an assertion
/// case that passed the candidate a value of the judge's that cannot cross (`alone`: a function
/// of the test's) runs again in the candidate's process, judged there (`judged_by: guest`).
pub fn run_case_suites<E>(
    task: &Task,
    sample: &Sample,
    token: &Token,
    harness_code: &[u8],
    run: &mut RunWithin<'_, E>,
    log: &mut CaseLog,
) -> Result<Option<String>, E> {
    let harness_cases = task
        .tests
        .iter()
        .any(|s| !matches!(s, TestSuite::Io { .. }));
    // A task without suites still runs the harness: a program that does not load fails.
    if !harness_cases && super::has_io_suites(task) {
        return Ok(None);
    }
    let harness = |mode: &str| JobFile::new("harness.bin", harness_part(harness_code, mode));
    let apart = has_guest_judged_suites(task);
    let execution = if apart {
        run_judge(&judge_jobs(task, task, sample, token, &harness), run, log)?
    } else {
        run(
            Run::Alone(&alone_job(task, sample, token, &harness("alone"))),
            log,
        )?
    };
    let layout = Layout {
        isolated: apart,
        ..Layout::of(task)
    };
    let mut verdicts = judge_cases(&layout, token, &execution);
    let alone = if apart {
        std::mem::take(&mut verdicts.alone)
    } else {
        Vec::new()
    };
    let again: Vec<usize> = verdicts.isolate.iter().chain(&alone).copied().collect();
    log.measure(
        &execution,
        &verdicts.own_stdout,
        verdicts.failing_besides(&layout, &again),
    );
    let isolate = std::mem::take(&mut verdicts.isolate);
    if let Some((again, map)) = calls_as_assertions(task, &isolate) {
        let jobs = judge_jobs(&again, task, sample, token, &harness);
        let execution = run_judge(&jobs, run, log)?;
        let layout = Layout {
            isolated: true,
            ..Layout::of(&again)
        };
        let judged = judge_cases(&layout, token, &execution);
        log.measure(
            &execution,
            &judged.own_stdout,
            judged.failing_besides(&layout, &[]),
        );
        for (mut case, index) in judged.cases.into_iter().zip(map) {
            if case.verdict == Verdict::WrongAnswer {
                case.message = case.message.map(|m| {
                    m.strip_prefix(FAILURE_PREFIX)
                        .map(str::to_owned)
                        .unwrap_or(m)
                });
            }
            case.name.clone_from(&verdicts.cases[index].name);
            case.judged_by = Some(JudgedBy::Isolated);
            verdicts.cases[index] = case;
        }
    }
    if let Some((again, map)) = assertions_alone(task, &alone) {
        let job = alone_job(&again, sample, token, &harness("alone"));
        let execution = run(Run::Alone(&job), log)?;
        let layout = Layout::of(&again);
        let judged = judge_cases(&layout, token, &execution);
        log.measure(
            &execution,
            &judged.own_stdout,
            judged.failing_besides(&layout, &[]),
        );
        for (mut case, index) in judged.cases.into_iter().zip(map) {
            case.judged_by = Some(JudgedBy::Guest);
            verdicts.cases[index] = case;
        }
    }
    Ok(record(&layout, verdicts, log).alternative)
}

/// The judge and partner of `tests`'s harness suites (a task, or cases of it made again) for
/// `sample` of `task`. The judge also gets what it trusts of `task` (entry points, prelude and
/// prompt): the names the tests use are resolved there, not taken from the candidate.
fn judge_jobs(
    tests: &Task,
    task: &Task,
    sample: &Sample,
    token: &Token,
    harness: &dyn Fn(&str) -> JobFile,
) -> (Job, Job) {
    let suites = serde_json::to_vec(&harness_suites(tests)).unwrap_or_default();
    let trust = serde_json::to_vec(&judge_trust(task)).unwrap_or_default();
    let preload = preload(task, sample);
    let judge = job(
        harness_args("judge", token),
        vec![
            JobFile::new("tests.json", suites),
            JobFile::new("trusted.json", trust),
            harness("judge"),
        ],
        preload,
    );
    // No token, no tests: the partner only answers calls.
    let mut files = candidate_files(task, sample);
    files.push(harness("partner"));
    (judge, job(Vec::new(), files, preload))
}

/// Runs `jobs` (from [`judge_jobs`]) as a judge and its partner.
fn run_judge<E>(
    jobs: &(Job, Job),
    run: &mut RunWithin<'_, E>,
    log: &CaseLog,
) -> Result<crate::judging::Execution, E> {
    let setup = partner_setup();
    run(
        Run::Judge {
            judge: &jobs.0,
            partner: &jobs.1,
            setup: &setup,
        },
        log,
    )
}

/// The harness alone with the candidate, running `task`'s harness suites for `sample`.
fn alone_job(task: &Task, sample: &Sample, token: &Token, harness: &JobFile) -> Job {
    let tests = serde_json::to_vec(&harness_suites(task)).unwrap_or_default();
    let mut files = candidate_files(task, sample);
    files.push(JobFile::new("tests.json", tests));
    files.push(harness.clone());
    job(harness_args("alone", token), files, preload(task, sample))
}

/// The harness alone with `sample`, running `task`'s harness suites and reporting with `token`,
/// from `harness_code` (what [`compile_job`] made): for a front end that reads the report itself,
/// such as the reference outputs of [`crate::reference_outputs`].
pub fn alone_harness_job(task: &Task, sample: &Sample, token: &Token, harness_code: &[u8]) -> Job {
    let harness = JobFile::new("harness.bin", harness_part(harness_code, "alone"));
    alone_job(task, sample, token, &harness)
}

/// `task` with only the `calls` cases at `indices` (of its [`Layout`]), each as the assertion it
/// stands for ([`call_as_assertion`]) in an `assertions` suite per `calls` suite; with, for each
/// of its cases, the index it replaces. `None` without such cases.
fn calls_as_assertions(task: &Task, indices: &[usize]) -> Option<(Task, Vec<usize>)> {
    let mut tests = Vec::new();
    let mut map = Vec::new();
    let mut index = 0;
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { cases, .. } => index += cases.len(),
            TestSuite::Alternatives { sets, .. } => {
                index += sets.iter().map(|set| set.cases.len()).sum::<usize>()
            }
            TestSuite::Calls {
                setup,
                entry_point,
                tolerance,
                cases,
            } => {
                let mut again = Vec::new();
                for case in cases {
                    if indices.contains(&index) && is_identifier(entry_point) {
                        again.push(AssertionCase {
                            name: case.name.clone(),
                            code: call_as_assertion(entry_point, case, *tolerance),
                        });
                        map.push(index);
                    }
                    index += 1;
                }
                if !again.is_empty() {
                    tests.push(TestSuite::Assertions {
                        setup: format!("{setup}\n{ASSERTION_SETUP}"),
                        cases: again,
                    });
                }
            }
            TestSuite::Io { .. } => {}
        }
    }
    (!map.is_empty()).then(|| {
        (
            Task {
                tests,
                ..task.clone()
            },
            map,
        )
    })
}

/// `task` with only the cases of its `assertions` suites at `indices` (of its [`Layout`]), with
/// the index each replaces; `None` without such cases. (A case of an `alternatives` set is not
/// run again: its set's namespace is bound in the judge.)
fn assertions_alone(task: &Task, indices: &[usize]) -> Option<(Task, Vec<usize>)> {
    let mut tests = Vec::new();
    let mut map = Vec::new();
    let mut index = 0;
    for suite in &task.tests {
        match suite {
            TestSuite::Assertions { setup, cases } => {
                let mut again = Vec::new();
                for case in cases {
                    if indices.contains(&index) {
                        again.push(case.clone());
                        map.push(index);
                    }
                    index += 1;
                }
                if !again.is_empty() {
                    tests.push(TestSuite::Assertions {
                        setup: setup.clone(),
                        cases: again,
                    });
                }
            }
            TestSuite::Alternatives { sets, .. } => {
                index += sets.iter().map(|set| set.cases.len()).sum::<usize>()
            }
            TestSuite::Calls { cases, .. } => index += cases.len(),
            TestSuite::Io { .. } => {}
        }
    }
    (!map.is_empty()).then(|| {
        (
            Task {
                tests,
                ..task.clone()
            },
            map,
        )
    })
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The whole program, run as a script for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(
        vec!["-c".into(), RUN_IN_TMP.into()],
        candidate_files(task, sample),
        preload(task, sample),
    )
}

/// Whether `task` has suites whose verdicts the harness decides (`assertions`, `alternatives`):
/// those run in a judge instance apart from the candidate. `calls` cases, judged on the host, do
/// not need one.
fn has_guest_judged_suites(task: &Task) -> bool {
    task.tests.iter().any(|s| {
        matches!(
            s,
            TestSuite::Assertions { .. } | TestSuite::Alternatives { .. }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task_and_sample(task: serde_json::Value, solution: &str) -> (Task, Sample) {
        let task: Task = serde_json::from_value(task).expect("a task");
        let sample: Sample = serde_json::from_value(
            serde_json::json!({"index": 0, "task_id": task.id, "solution": solution}),
        )
        .expect("a sample");
        (task, sample)
    }

    #[test]
    fn each_mode_loads_its_own_part_of_the_compiled_harness() {
        let mut code = Vec::new();
        code.extend(3u64.to_le_bytes());
        code.extend(2u64.to_le_bytes());
        code.extend(b"JJJPPaaaa");
        assert_eq!(harness_part(&code, "judge"), b"JJJ");
        assert_eq!(harness_part(&code, "partner"), b"PP");
        assert_eq!(harness_part(&code, "alone"), b"aaaa");
        // Anything else is loaded whole (and fails to load, as it would have).
        assert_eq!(harness_part(b"short", "judge"), b"short");
        let mut wrong = 99u64.to_le_bytes().to_vec();
        wrong.extend(0u64.to_le_bytes());
        assert_eq!(harness_part(&wrong, "judge"), wrong.as_slice());
    }

    #[test]
    fn import_statements_name_their_top_level_packages() {
        let code = "import numpy as np, os.path\n  from scipy.stats import norm\nfrom . import x\n\
                    x = 'import pandas'\nimportlib = 1\nfrom\timport sklearn\n";
        let names: Vec<&str> = imported_packages(code).collect();
        assert_eq!(names, ["numpy", "os", "scipy", "import"]);
    }

    #[test]
    fn a_scientific_import_anywhere_a_sample_runs_chooses_the_scientific_image() {
        let task = |tests: serde_json::Value| serde_json::json!({"id": "t", "language": "python", "prompt": "", "tests": tests});
        let assertions = serde_json::json!([{"kind": "assertions",
            "cases": [{"name": "one", "code": "assert f() == 1"}]}]);
        let (t, s) = task_and_sample(task(assertions.clone()), "def f():\n    return 1\n");
        assert_eq!(preload(&t, &s), Preload::Standard);
        assert_eq!(whole_program(&t, &s).preload, Preload::Standard);
        let (t, s) = task_and_sample(
            task(assertions),
            "def f():\n    import pandas as pd\n    return 1\n",
        );
        assert_eq!(preload(&t, &s), Preload::Scientific);
        assert_eq!(whole_program(&t, &s).preload, Preload::Scientific);
        let in_tests = serde_json::json!([{"kind": "assertions", "setup": "from numpy import isclose",
            "cases": [{"name": "one", "code": "assert isclose(f(), 1)"}]}]);
        let (t, s) = task_and_sample(task(in_tests), "def f():\n    return 1\n");
        assert_eq!(preload(&t, &s), Preload::Scientific);
        let in_a_string = serde_json::json!([{"kind": "calls", "entry_point": "f",
            "cases": [{"name": "one", "args": ["import numpy"], "expected": 1}]}]);
        let (t, s) = task_and_sample(task(in_a_string), "def f(x):\n    return 1\n");
        assert_eq!(preload(&t, &s), Preload::Standard);
    }

    #[test]
    fn only_the_judge_gets_the_tests_and_what_it_trusts_of_the_task() {
        let task = serde_json::json!({"id": "t", "language": "python", "entry_point": "f",
            "prompt": "def g(x):\n    return x\n\ndef f(x):\n    \"\"\"doc\"\"\"\n",
            "tests": [{"kind": "assertions", "cases": [{"name": "one", "code": "assert g(f(1)) == 2"}]}]});
        let (task, sample) = task_and_sample(task, "def f(x):\n    return 2 * x\n");
        let token = Token::from_random_bytes([7; 16]);
        let mut log = CaseLog::new();
        let mut jobs = Vec::new();
        let mut run = |run: Run<'_>, _: &CaseLog| -> Result<crate::judging::Execution, ()> {
            if let Run::Judge { judge, partner, .. } = run {
                jobs.push((judge.clone(), partner.clone()));
            }
            Err(())
        };
        assert!(run_case_suites(&task, &sample, &token, b"", &mut run, &mut log).is_err());
        let (judge, partner) = &jobs[0];
        let names = |job: &Job| job.files.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(judge), ["tests.json", "trusted.json", "harness.bin"]);
        assert_eq!(names(partner), ["program.py", "harness.bin"]);
        let trusted: serde_json::Value = serde_json::from_slice(&judge.files[1].bytes).unwrap();
        assert_eq!(trusted["entry_points"], serde_json::json!(["f"]));
        assert_eq!(trusted["sources"][0]["code"], task.prompt.as_str());
    }

    #[test]
    fn the_scientific_image_is_used_only_when_it_exists_and_starts_within_the_memory_limit() {
        let (mib, image) = (1 << 20, Some(125 << 20));
        let cases = [
            (Preload::Scientific, 512 * mib, image, Preload::Scientific),
            (Preload::Scientific, 125 * mib, image, Preload::Scientific),
            (Preload::Scientific, 100 * mib, image, Preload::Standard),
            (Preload::Scientific, 512 * mib, None, Preload::Standard),
            (Preload::Standard, 512 * mib, image, Preload::Standard),
        ];
        for (asked, limit, start, expected) in cases {
            let chosen = asked.available(limit, start);
            assert_eq!(chosen, expected, "{asked:?} under {limit} bytes, {start:?}");
        }
    }
}

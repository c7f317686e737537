//! Python samples: the candidate and every assertion, alternative and `calls` case run in one
//! interpreter under the harness (`guests/python/harness.py`), judged by
//! [`crate::judging::python`]; `io` cases run the program as a script, one execution each.

use super::{Guest, Job, JobFile, Run, RunWithin};
use crate::judging::python::{harness_suites, judge, Layout};
use crate::judging::token::Token;
use crate::judging::CaseLog;
use crate::sample::Sample;
use crate::task::{Task, TestSuite};

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
pub fn compile_job() -> Job {
    let script = "import marshal, sys\n\
                  source = open('/job/harness.py', encoding='utf-8').read()\n\
                  sys.stdout.buffer.write(marshal.dumps(compile(source, 'harness.py', 'exec')))\n\
                  sys.stdout.flush()\n";
    job(
        vec!["-c".into(), script.into()],
        vec![JobFile::new("harness.py", HARNESS)],
    )
}

/// A Python job with `args` after `argv[0]` and `files` in `/job`.
fn job(args: Vec<String>, files: Vec<JobFile>) -> Job {
    Job {
        guest: Guest::Python,
        args,
        env: ENV.map(|(k, v)| (k.to_owned(), v.to_owned())).to_vec(),
        files,
        scratch: true,
        stdin: Vec::new(),
    }
}

/// The candidate as job files: `program.py`, and the task's prelude, when it has one, as
/// `prelude.py` (the harness and [`RUN_IN_TMP`] run it first, in the candidate's globals).
fn candidate_files(task: &Task, sample: &Sample) -> Vec<JobFile> {
    let mut files = Vec::new();
    if !task.prelude.is_empty() {
        files.push(JobFile::new("prelude.py", task.prelude.as_str()));
    }
    files.push(JobFile::new("program.py", sample.program(task)));
    files
}

/// The harness in `mode` ("alone" or "judge"), reporting with `token`, loading its bytecode from
/// `/job/harness.bin`.
fn harness_args(mode: &str, token: &Token) -> Vec<String> {
    let source = format!(
        "import marshal\nexec(marshal.loads(open('/job/harness.bin', 'rb').read()))\n\
         _wasmeval_main({mode:?})()\n"
    );
    vec!["-c".into(), source, token.as_str().into(), "/job".into()]
}

/// The partner's first turn: load the harness and answer the judge's calls.
const PARTNER_SETUP: &str = "import marshal\n\
                             exec(marshal.loads(open('/job/harness.bin', 'rb').read()))\n\
                             _wasmeval_main('partner')\n";

/// Runs and judges `task`'s harness suites for `sample` into `log`, through `run`. Returns the
/// `alternatives` sets shown, if any.
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
    let tests = serde_json::to_vec(&harness_suites(task)).unwrap_or_default();
    let harness = JobFile::new("harness.bin", harness_code);
    let execution = if has_guest_judged_suites(task) {
        // The tests in a judge instance of their own, the candidate in a partner instance.
        let judge = job(
            harness_args("judge", token),
            vec![JobFile::new("tests.json", tests), harness.clone()],
        );
        // No token, no tests: the partner only answers calls.
        let mut files = candidate_files(task, sample);
        files.push(harness);
        let partner = job(Vec::new(), files);
        run(
            Run::Judge {
                judge: &judge,
                partner: &partner,
                setup: PARTNER_SETUP,
            },
            log,
        )?
    } else {
        let mut files = candidate_files(task, sample);
        files.push(JobFile::new("tests.json", tests));
        files.push(harness);
        run(Run::Alone(&job(harness_args("alone", token), files)), log)?
    };
    Ok(judge(&Layout::of(task), token, &execution, log).alternative)
}

/// The whole program, run as a script for `io` cases.
pub fn whole_program(task: &Task, sample: &Sample) -> Job {
    job(
        vec!["-c".into(), RUN_IN_TMP.into()],
        candidate_files(task, sample),
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

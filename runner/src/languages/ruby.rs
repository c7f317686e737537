//! Ruby samples: CRuby 3.4 for WASI (npm's `@ruby/3.4-wasm-wasi`, installed by
//! `scripts/install-ruby-runtime`), a reactor the host drives through its exports
//! (`sandbox/ruby_abi.rs`): start-up without RubyGems, then a script of evaluations.
//!
//! - **Case suites** (assertions and `calls`) run in one execution per sample: the harness
//!   (`guests/ruby/harness.rb`, with its `test/unit` stand-in `guests/ruby/test_unit.rb`), the
//!   candidate with the suites' setup, then one step per case: an assertion case's test code and
//!   the `Test::Unit::TestCase` tests it defines, or a call of the entry point with the case's
//!   arguments (as Ruby literals; the expected value stays on the host). After each step the
//!   host writes the step's report behind a token the guest never holds; judging is
//!   `wasmeval_core::judging::ruby`'s.
//! - **io** cases run the program alone (`Wasmeval.main`), its exit status the process's.

use super::{execute, fresh_token, Context, LanguageRoute, Program};
use crate::sandbox::ruby_abi::RubyScript;
use crate::sandbox::{cache, temp_folder, Entry, Folder, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::judging::calls::{Expected, Truthiness};
use wasmeval_core::judging::ruby::{judge, literal, Check};
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Sample, Task, TestSuite};
use wasmtime::Module;

/// The harness, written into every job folder.
const HARNESS: &str = include_str!("../../../guests/ruby/harness.rb");
/// The `test/unit` stand-in, at `/job/lib/test/unit.rb`.
const TEST_UNIT: &str = include_str!("../../../guests/ruby/test_unit.rb");

/// `ruby-init`'s arguments: no RubyGems (it costs ~600 M fuel per start, and nothing can be
/// installed anyway: the standard library is all there is), UTF-8 text, and an empty `-e`
/// script so that the interpreter does not read one from stdin.
const INIT_ARGS: [&str; 4] = ["ruby", "--disable-gems", "-EUTF-8:UTF-8", "-e_=0"];

/// The first evaluation of every script: the harness.
const LOAD_HARNESS: &str = r##""#{load '/job/harness.rb'}""##;

/// `runtime.json`, written by `scripts/install-ruby-runtime`.
#[derive(Debug, Deserialize)]
struct Manifest {
    /// The module file, relative to the runtime folder.
    module: PathBuf,
}

/// The loaded Ruby guest, compiled for the sandbox's engine (and cached).
pub struct RubyRuntime {
    module: Module,
    sha256: String,
}

/// The Ruby guest found in its folder, its machine code cached or still to compile.
pub struct FoundRuby(cache::Found<Manifest>);

impl FoundRuby {
    /// The module's size in bytes when it has to be compiled first.
    pub fn to_compile(&self) -> Option<u64> {
        self.0.to_compile()
    }

    /// The runtime, its module compiled (once, then cached in `cache_dir`) when needed.
    pub fn load(self, sandbox: &Sandbox, cache_dir: &Path) -> anyhow::Result<RubyRuntime> {
        let installed = self.0.load(sandbox.engine(), cache_dir)?;
        Ok(RubyRuntime {
            module: installed.module,
            sha256: installed.sha256,
        })
    }
}

impl RubyRuntime {
    /// Finds the runtime in `dir` and looks its module up in the cache in `cache_dir`.
    pub fn find(sandbox: &Sandbox, dir: &Path, cache_dir: &Path) -> anyhow::Result<FoundRuby> {
        Ok(FoundRuby(cache::find_installed(
            sandbox.engine(),
            dir,
            cache_dir,
            "Ruby runtime (run scripts/setup or scripts/install-ruby-runtime)",
            |m: &Manifest| Ok(m.module.clone()),
        )?))
    }

    /// SHA-256 of the guest module, hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The guest running `script` with `job` read-only at `/job`, a fresh `/tmp` per execution,
    /// no environment and no other folder.
    fn program(&self, script: RubyScript, job: tempfile::TempDir) -> Program {
        Program {
            module: self.module.clone(),
            entry: Entry::Ruby,
            invocation: Invocation {
                args: INIT_ARGS.iter().map(|a| a.to_string()).collect(),
                preopens: vec![Preopen {
                    host: job.path().to_owned(),
                    guest: "/job".into(),
                    writable: false,
                }],
                ruby: script,
                ..Invocation::default()
            },
            scratch: true,
            interpreter: Some("Ruby"),
            job: Some(job),
        }
    }

    /// A job folder with the harness, its `test/unit` and `program` as `program.rb`.
    fn job(program: &str) -> anyhow::Result<tempfile::TempDir> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("harness.rb"), HARNESS)?;
        std::fs::create_dir_all(job.path().join("lib/test"))?;
        std::fs::write(job.path().join("lib/test/unit.rb"), TEST_UNIT)?;
        std::fs::write(job.path().join("program.rb"), program)?;
        Ok(job)
    }
}

/// A case of the script: its name and what its step checks.
enum Case<'t> {
    Assertion(&'t str),
    Call(&'t str, Expected),
}

impl LanguageRoute for RubyRuntime {
    fn run_case_suites(
        &self,
        cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
        log: &mut CaseLog,
    ) -> anyhow::Result<Option<String>> {
        let mut program = task.with_prelude(sample.program(task));
        let mut evals = vec![
            LOAD_HARNESS.to_owned(),
            r##""#{Wasmeval.load_program('/job/program.rb')}""##.to_owned(),
        ];
        let mut cases = Vec::new();
        let mut case_files = Vec::new();
        for suite in &task.tests {
            match suite {
                TestSuite::Assertions {
                    setup,
                    cases: suite,
                } => {
                    program.push('\n');
                    program.push_str(setup);
                    for case in suite {
                        let file = format!("case_{}.rb", case_files.len());
                        evals.push(format!(
                            r##""#{{Wasmeval.assertion_case('/job/{file}')}}""##
                        ));
                        case_files.push((file, case.code.clone()));
                        cases.push(Case::Assertion(&case.name));
                    }
                }
                TestSuite::Calls {
                    setup,
                    entry_point,
                    tolerance,
                    cases: suite,
                } => {
                    program.push('\n');
                    program.push_str(setup);
                    let name = literal(&serde_json::Value::from(entry_point.as_str()));
                    for case in suite {
                        let args = literal(&serde_json::Value::from(case.args.clone()));
                        evals.push(format!(r##""#{{Wasmeval.call({name}, {args})}}""##));
                        let expected = Expected::of(case, *tolerance, Truthiness::Ruby);
                        cases.push(Case::Call(&case.name, expected));
                    }
                }
                // Run by the shared io route.
                TestSuite::Io { .. } => {}
                // MBUPP's alternatives are Python's.
                TestSuite::Alternatives { sets, .. } => {
                    wasmeval_core::evaluation::refuse_alternatives(sets, log)
                }
            }
        }
        if cases.is_empty() {
            return Ok(None);
        }
        let job = Self::job(&program)?;
        for (file, code) in &case_files {
            std::fs::write(job.path().join(file), code)?;
        }
        let token = fresh_token()?;
        let script = RubyScript {
            token: Some(token.as_str().to_owned()),
            evals,
        };
        let execution = execute(cx, &self.program(script, job), &[], Vec::new(), log)?;
        let checks: Vec<(&str, Check<'_>)> = cases
            .iter()
            .map(|case| match case {
                Case::Assertion(name) => (*name, Check::Assertion),
                Case::Call(name, expected) => (*name, Check::Call(expected)),
            })
            .collect();
        judge(&execution, &token, &checks, log);
        Ok(None)
    }

    fn whole_program(
        &self,
        _cx: &Context<'_>,
        task: &Task,
        sample: &Sample,
    ) -> anyhow::Result<Result<Program, Outcome>> {
        let job = Self::job(&task.with_prelude(sample.program(task)))?;
        let script = RubyScript {
            token: None,
            evals: vec![
                LOAD_HARNESS.to_owned(),
                r##""#{Wasmeval.main('/job/program.rb')}""##.to_owned(),
            ],
        };
        Ok(Ok(self.program(script, job)))
    }
}

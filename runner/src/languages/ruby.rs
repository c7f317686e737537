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
//! - **io** cases run the program alone (`__wasmeval_main`), its exit status the process's.
//!
//! The steps are private methods of Ruby's top-level object, whose singleton class the harness
//! freezes before the candidate loads: the evaluations below call them with that object as `self`,
//! so a program that removes or replaces the `Wasmeval` module does not change what they run.

use super::{execute, fresh_token, Context, LanguageRoute, Program};
use crate::sandbox::ruby_abi::RubyScript;
use crate::sandbox::{cache, temp_folder, Entry, Folder, Invocation, Preopen, Sandbox};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use wasmeval_core::judging::calls::{Expected, Operators};
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

/// The first evaluation of every script: the harness, from the instruction sequence compiled
/// when the runtime loaded (see [`compile_harness`]).
const LOAD_HARNESS: &str = r##""#{
RubyVM::InstructionSequence.load_from_binary(File.binread('/job/harness.bin')).eval
'loaded'
}""##;

/// The evaluation of [`compile_harness`]'s run: the harness and its `test/unit` as instruction
/// sequences on stdout, the harness's length first (8 bytes, little-endian).
const COMPILE_HARNESS: &str = r##""#{
harness = RubyVM::InstructionSequence.compile_file('/job/harness.rb').to_binary
test_unit = RubyVM::InstructionSequence.compile_file('/job/lib/test/unit.rb').to_binary
$stdout.binmode.write([harness.bytesize].pack('Q<'), harness, test_unit)
$stdout.flush
'compiled'
}""##;

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
    /// The harness and its `test/unit` stand-in as Ruby instruction sequences
    /// (`RubyVM::InstructionSequence#to_binary`), compiled once per process by the guest
    /// ([`compile_harness`]) and loaded by every run: compiling their source cost each run about
    /// 37 M fuel, loading them 7 M.
    harness: Vec<u8>,
    test_unit: Vec<u8>,
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
        let mut runtime = RubyRuntime {
            module: installed.module,
            sha256: installed.sha256,
            harness: Vec::new(),
            test_unit: Vec::new(),
        };
        (runtime.harness, runtime.test_unit) = compile_harness(sandbox, &runtime)?;
        Ok(runtime)
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

    /// A job folder with the compiled harness and `test/unit` (and the latter's source, which a
    /// program's `require 'test/unit'` finds already loaded) and `program` as `program.rb`.
    fn job(&self, program: &str) -> anyhow::Result<tempfile::TempDir> {
        let job = temp_folder(Folder::Job)?;
        std::fs::write(job.path().join("harness.bin"), &self.harness)?;
        std::fs::create_dir_all(job.path().join("lib/test"))?;
        std::fs::write(job.path().join("lib/test/unit.rb"), TEST_UNIT)?;
        std::fs::write(job.path().join("lib/test/unit.bin"), &self.test_unit)?;
        std::fs::write(job.path().join("program.rb"), program)?;
        Ok(job)
    }
}

/// The harness and its `test/unit` compiled to instruction sequences by a run of the guest on
/// their sources alone (no program: nothing of a sample's takes part), for
/// [`RubyRuntime::harness`].
fn compile_harness(sandbox: &Sandbox, runtime: &RubyRuntime) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let limits = crate::sandbox::HARNESS_COMPILATION;
    let job = temp_folder(Folder::Job)?;
    std::fs::write(job.path().join("harness.rb"), HARNESS)?;
    std::fs::create_dir_all(job.path().join("lib/test"))?;
    std::fs::write(job.path().join("lib/test/unit.rb"), TEST_UNIT)?;
    let script = RubyScript {
        token: None,
        evals: vec![COMPILE_HARNESS.to_owned()],
    };
    let program = runtime.program(script, job);
    let (invocation, _scratch) = super::prepared(&program)?;
    let execution = sandbox.run(&program.module, program.entry, &invocation, &limits)?;
    let stdout = &execution.output.stdout;
    let harness_length = stdout
        .get(..8)
        .and_then(|header| header.try_into().ok())
        .map(u64::from_le_bytes)
        .and_then(|length| usize::try_from(length).ok());
    match (&execution.exit, harness_length) {
        (crate::sandbox::Exit::Code(0), Some(length)) if stdout.len() > 8 + length => Ok((
            stdout[8..8 + length].to_vec(),
            stdout[8 + length..].to_vec(),
        )),
        (exit, _) => anyhow::bail!(
            "the Ruby runtime could not compile the harness ({exit:?}): {}",
            String::from_utf8_lossy(&execution.output.stderr)
        ),
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
            r##""#{__wasmeval_load_program('/job/program.rb')}""##.to_owned(),
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
                            r##""#{{__wasmeval_assertion_case('/job/{file}')}}""##
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
                        evals.push(format!(r##""#{{__wasmeval_call({name}, {args})}}""##));
                        let expected = Expected::of(case, *tolerance, Operators::Ruby);
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
        let job = self.job(&program)?;
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
        let job = self.job(&task.with_prelude(sample.program(task)))?;
        let script = RubyScript {
            token: None,
            evals: vec![
                LOAD_HARNESS.to_owned(),
                r##""#{__wasmeval_main('/job/program.rb')}""##.to_owned(),
            ],
        };
        Ok(Ok(self.program(script, job)))
    }
}

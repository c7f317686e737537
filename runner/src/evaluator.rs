//! The evaluator: picks a sample's [`LanguageRoute`] by its task's language and evaluates it
//! ([`crate::languages::evaluate`]) with the run's sandbox, limits and caches.

use crate::languages::javascript::JsRuntime;
use crate::languages::lua::LuaRuntime;
use crate::languages::python::PythonRuntime;
use crate::languages::ruby::RubyRuntime;
use crate::languages::typescript::TypeScript;
use crate::languages::{self, Context, LanguageRoute};
use crate::sandbox::{Limits, Sandbox};
use crate::toolchain::{CompileLimits, Toolchains};
use anyhow::Context as _;
use std::path::PathBuf;
use wasmeval_core::judging::{Execution, Outcome};
use wasmeval_core::{Language, Sample, SampleCode, SampleResult, Task, TaskId};

/// Whether samples of `language` can be run by this build.
pub fn can_run(language: Language) -> bool {
    matches!(
        language,
        Language::Python
            | Language::Rust
            | Language::C
            | Language::Cpp
            | Language::Javascript
            | Language::Typescript
            | Language::Go
            | Language::Ruby
            | Language::Lua
    )
}

/// Everything needed to run samples: the sandbox and the guests and compilers the run needs.
pub struct Evaluator<'a> {
    /// The sandbox.
    pub sandbox: &'a Sandbox,
    /// The Python interpreter, when the run has Python samples.
    pub python: Option<PythonRuntime>,
    /// The JavaScript guest, when the run has JavaScript samples.
    pub javascript: Option<JsRuntime>,
    /// TypeScript: the JavaScript guest behind a type stripper, when JavaScript is loaded (a clone
    /// of `javascript` sharing its compiled module, so that [`Evaluator::route`] can lend it).
    pub typescript: Option<TypeScript>,
    /// The Ruby guest, when the run has Ruby samples.
    pub ruby: Option<RubyRuntime>,
    /// The Lua guest, when the run has Lua samples.
    pub lua: Option<LuaRuntime>,
    /// The compilers, when the run has compiled samples.
    pub toolchains: Option<Toolchains>,
    /// Where compiled modules' machine code is cached.
    pub module_cache: PathBuf,
    /// The budget of each sample (shared by its executions) and the limits of each execution.
    pub limits: Limits,
    /// Limits of each compilation.
    pub compile_limits: CompileLimits,
}

impl<'a> Evaluator<'a> {
    /// An evaluator with every runtime this machine has (for a server or a library, which do not
    /// know their samples' languages in advance): a missing one leaves its languages out, says
    /// why on stderr, and the languages that can run are returned with it. `helper` is the
    /// `wasmeval` executable that confines compilers (`__confined-exec`).
    pub fn with_every_runtime(
        sandbox: &'a Sandbox,
        runtime: &crate::cli::RuntimeArgs,
        limits: Limits,
        allow_unconfined_compilation: bool,
        helper: &std::path::Path,
    ) -> (Evaluator<'a>, Vec<Language>) {
        use crate::sandbox::cache;
        let module_cache = runtime.module_cache_dir();
        let mut languages = Vec::new();
        // Found first, loaded after: what is not in the cache yet is announced in one line.
        let python = PythonRuntime::find(sandbox, &runtime.runtime_dir(), &module_cache);
        let javascript = JsRuntime::find(sandbox, &runtime.js_runtime_dir(), &module_cache);
        let ruby = RubyRuntime::find(sandbox, &runtime.ruby_runtime_dir(), &module_cache);
        let lua = LuaRuntime::find(sandbox, &runtime.lua_runtime_dir(), &module_cache);
        cache::announce(
            &[
                python.as_ref().ok().and_then(|p| p.to_compile()),
                javascript.as_ref().ok().and_then(|js| js.to_compile()),
                ruby.as_ref().ok().and_then(|rb| rb.to_compile()),
                lua.as_ref().ok().and_then(|lua| lua.to_compile()),
            ],
            &module_cache,
        );
        let python = match python.and_then(|p| p.load(sandbox, &module_cache)) {
            Ok(python) => {
                languages.push(Language::Python);
                Some(python)
            }
            Err(error) => {
                eprintln!("wasmeval: no Python: {error:#}");
                None
            }
        };
        let javascript = match javascript.and_then(|js| js.load(sandbox, &module_cache)) {
            Ok(js) => {
                languages.extend([Language::Javascript, Language::Typescript]);
                Some(js)
            }
            Err(error) => {
                eprintln!("wasmeval: no JavaScript: {error:#}");
                None
            }
        };
        let ruby = match ruby.and_then(|rb| rb.load(sandbox, &module_cache)) {
            Ok(ruby) => {
                languages.push(Language::Ruby);
                Some(ruby)
            }
            Err(error) => {
                eprintln!("wasmeval: no Ruby: {error:#}");
                None
            }
        };
        let lua = match lua.and_then(|lua| lua.load(sandbox, &module_cache)) {
            Ok(lua) => {
                languages.push(Language::Lua);
                Some(lua)
            }
            Err(error) => {
                eprintln!("wasmeval: no Lua: {error:#}");
                None
            }
        };
        let toolchains = match Toolchains::detect_with_helper(
            &runtime.compiled_dir(),
            allow_unconfined_compilation,
            helper,
        ) {
            Ok(toolchains) => {
                if toolchains.rust_version().is_ok() {
                    languages.push(Language::Rust);
                }
                if toolchains.c_compiler_identity().is_some() {
                    languages.extend([Language::C, Language::Cpp]);
                }
                if toolchains.go_version().is_ok() {
                    languages.push(Language::Go);
                }
                Some(toolchains)
            }
            Err(error) => {
                eprintln!("wasmeval: no compilers: {error:#}");
                None
            }
        };
        let evaluator = Evaluator {
            sandbox,
            python,
            typescript: javascript.clone().map(TypeScript::new),
            javascript,
            ruby,
            lua,
            toolchains,
            module_cache,
            limits,
            compile_limits: CompileLimits::default(),
        };
        (evaluator, languages)
    }

    /// Runs `sample` against every suite of `task`; `Err` only when the host fails.
    /// Static metrics of the sample's code come with it.
    pub fn evaluate(&self, task: &Task, sample: &Sample) -> anyhow::Result<SampleResult> {
        self.evaluate_within(task, sample, self.limits)
    }

    /// [`Evaluator::evaluate`] with other limits (the server's lowered ones).
    pub fn evaluate_within(
        &self,
        task: &Task,
        sample: &Sample,
        limits: Limits,
    ) -> anyhow::Result<SampleResult> {
        let route = self.route(task.language)?;
        let cx = Context {
            sandbox: self.sandbox,
            limits: limits.for_task(task.time_limit),
            compile_limits: self.compile_limits,
            module_cache: &self.module_cache,
        };
        languages::evaluate(route, &cx, task, sample)
    }

    /// The route of `language`'s samples, when its guest or compiler is loaded.
    /// Runs `code`, a whole program in `language`, once on `stdin` with `files` in its `/tmp`
    /// (SandboxFusion's `run_code`): its build, when it does not build, or its execution and the
    /// files of `fetch` it left.
    pub fn run_program(
        &self,
        language: Language,
        code: &str,
        stdin: Vec<u8>,
        files: &[(PathBuf, Vec<u8>)],
        fetch: &[PathBuf],
        limits: Limits,
    ) -> anyhow::Result<ProgramRun> {
        let route = self.route(language)?;
        let cx = Context {
            sandbox: self.sandbox,
            limits,
            compile_limits: self.compile_limits,
            module_cache: &self.module_cache,
        };
        let task = Task {
            id: TaskId("run_code".into()),
            language,
            ..Task::default()
        };
        let sample = Sample {
            index: 0,
            task_id: task.id.clone(),
            model: None,
            code: SampleCode::Solution(code.to_owned()),
            info: Default::default(),
        };
        let started = std::time::Instant::now();
        let program = match route.whole_program(&cx, &task, &sample)? {
            Ok(program) => program,
            Err(outcome) => {
                return Ok(ProgramRun::NotBuilt {
                    outcome,
                    seconds: started.elapsed().as_secs_f64(),
                })
            }
        };
        let compile_seconds = started.elapsed().as_secs_f64();
        let (execution, fetched) =
            languages::execute_with_files(&cx, &program, stdin, files, fetch)?;
        Ok(ProgramRun::Ran {
            compile_seconds,
            execution,
            fetched,
        })
    }

    fn route(&self, language: Language) -> anyhow::Result<&dyn LanguageRoute> {
        fn loaded<'r, T: LanguageRoute>(
            route: &'r Option<T>,
            what: &str,
        ) -> anyhow::Result<&'r dyn LanguageRoute> {
            route
                .as_ref()
                .map(|route| route as &dyn LanguageRoute)
                .with_context(|| format!("the {what} is not loaded"))
        }
        match language {
            Language::Python => loaded(&self.python, "Python runtime"),
            Language::Javascript => loaded(&self.javascript, "JavaScript runtime"),
            Language::Typescript => loaded(&self.typescript, "JavaScript runtime"),
            Language::Ruby => loaded(&self.ruby, "Ruby runtime"),
            Language::Lua => loaded(&self.lua, "Lua runtime"),
            Language::Rust | Language::C | Language::Cpp | Language::Go => {
                loaded(&self.toolchains, "compilers")
            }
            other => anyhow::bail!("samples in {other} cannot be run yet"),
        }
    }
}

/// What [`Evaluator::run_program`] did.
pub enum ProgramRun {
    /// The program did not build (a compile error or timeout), after `seconds`.
    NotBuilt {
        /// Why.
        outcome: Outcome,
        /// Time spent building.
        seconds: f64,
    },
    /// It built (in `compile_seconds`) and ran.
    Ran {
        /// Time spent building (loading, for an interpreter).
        compile_seconds: f64,
        /// The execution.
        execution: Execution,
        /// The requested files that existed afterwards.
        fetched: languages::ScratchFiles,
    },
}

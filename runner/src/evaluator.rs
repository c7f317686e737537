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

/// The interpreter guests of the languages a run wants, each found in its runtime folder and
/// loaded: `None` when not wanted, `Some(Err)` when missing or not loadable. The one place that
/// finds and loads them, for `run` (which needs every one it wants) and for servers and
/// embedders (which take what there is).
pub(crate) struct Interpreters {
    pub python: Option<anyhow::Result<PythonRuntime>>,
    /// JavaScript's, which TypeScript shares.
    pub javascript: Option<anyhow::Result<JsRuntime>>,
    pub ruby: Option<anyhow::Result<RubyRuntime>>,
    pub lua: Option<anyhow::Result<LuaRuntime>>,
}

impl Interpreters {
    /// Finds the runtimes of the languages `wanted` accepts, announces in one line the modules
    /// that are not in the cache yet, then loads them (compiling those). With `all_or_none`, a
    /// runtime that is not installed is an error before anything is compiled.
    pub(crate) fn load(
        sandbox: &Sandbox,
        runtime: &crate::cli::RuntimeArgs,
        wanted: impl Fn(Language) -> bool,
        all_or_none: bool,
    ) -> anyhow::Result<Interpreters> {
        use crate::sandbox::cache;
        let cache_dir = runtime.module_cache_dir();
        fn found<F>(
            wanted: bool,
            all_or_none: bool,
            find: impl FnOnce() -> anyhow::Result<F>,
        ) -> anyhow::Result<Option<anyhow::Result<F>>> {
            match wanted {
                false => Ok(None),
                true => match find() {
                    Err(error) if all_or_none => Err(error),
                    found => Ok(Some(found)),
                },
            }
        }
        let python = found(wanted(Language::Python), all_or_none, || {
            PythonRuntime::find(sandbox, &runtime.runtime_dir(), &cache_dir)
        })?;
        let javascript = found(
            wanted(Language::Javascript) || wanted(Language::Typescript),
            all_or_none,
            || JsRuntime::find(sandbox, &runtime.js_runtime_dir(), &cache_dir),
        )?;
        let ruby = found(wanted(Language::Ruby), all_or_none, || {
            RubyRuntime::find(sandbox, &runtime.ruby_runtime_dir(), &cache_dir)
        })?;
        let lua = found(wanted(Language::Lua), all_or_none, || {
            LuaRuntime::find(sandbox, &runtime.lua_runtime_dir(), &cache_dir)
        })?;
        fn to_compile<F>(
            found: &Option<anyhow::Result<F>>,
            size: fn(&F) -> Option<u64>,
        ) -> Option<u64> {
            size(found.as_ref()?.as_ref().ok()?)
        }
        cache::announce(
            &[
                to_compile(&python, |p| p.to_compile()),
                to_compile(&javascript, |js| js.to_compile()),
                to_compile(&ruby, |rb| rb.to_compile()),
                to_compile(&lua, |lua| lua.to_compile()),
            ],
            &cache_dir,
        );
        Ok(Interpreters {
            python: python.map(|p| p.and_then(|p| p.load(sandbox, &cache_dir))),
            javascript: javascript.map(|js| js.and_then(|js| js.load(sandbox, &cache_dir))),
            ruby: ruby.map(|rb| rb.and_then(|rb| rb.load(sandbox, &cache_dir))),
            lua: lua.map(|lua| lua.and_then(|lua| lua.load(sandbox, &cache_dir))),
        })
    }
}

impl<'a> Evaluator<'a> {
    /// An evaluator with every runtime this machine has (for a server or a library, which do not
    /// know their samples' languages in advance): a missing one leaves its languages out, says
    /// why to `notice` (`serve` prints it on stderr, the Python package logs it as a warning),
    /// and the languages that can run are returned with it. `helper` is the `wasmeval`
    /// executable that confines compilers (`__confined-exec`).
    pub fn with_every_runtime(
        sandbox: &'a Sandbox,
        runtime: &crate::cli::RuntimeArgs,
        limits: Limits,
        allow_unconfined_compilation: bool,
        helper: &std::path::Path,
        notice: &mut dyn FnMut(String),
    ) -> (Evaluator<'a>, Vec<Language>) {
        let module_cache = runtime.module_cache_dir();
        let mut languages = Vec::new();
        let interpreters = Interpreters::load(sandbox, runtime, |_| true, false)
            .expect("a runtime that is missing is left out, not an error");
        // A runtime that is missing or cannot load leaves its languages out, and says why.
        fn available<T>(
            runtime: Option<anyhow::Result<T>>,
            name: &str,
            runs: &[Language],
            languages: &mut Vec<Language>,
            notice: &mut dyn FnMut(String),
        ) -> Option<T> {
            match runtime? {
                Ok(runtime) => {
                    languages.extend(runs);
                    Some(runtime)
                }
                Err(error) => {
                    notice(format!("no {name}: {error:#}"));
                    None
                }
            }
        }
        let python = available(
            interpreters.python,
            "Python",
            &[Language::Python],
            &mut languages,
            notice,
        );
        let javascript = available(
            interpreters.javascript,
            "JavaScript",
            &[Language::Javascript, Language::Typescript],
            &mut languages,
            notice,
        );
        let ruby = available(
            interpreters.ruby,
            "Ruby",
            &[Language::Ruby],
            &mut languages,
            notice,
        );
        let lua = available(
            interpreters.lua,
            "Lua",
            &[Language::Lua],
            &mut languages,
            notice,
        );
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
                notice(format!("no compilers: {error:#}"));
                None
            }
        };
        let evaluator = Evaluator {
            sandbox,
            python,
            typescript: javascript
                .clone()
                .map(|js| TypeScript::new(js, Some(helper.to_owned()))),
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
            limits: limits.for_task(task.language, task.time_limit),
            compile_limits: self.compile_limits,
            module_cache: &self.module_cache,
        };
        languages::evaluate(route, &cx, task, sample)
    }

    /// The route of `language`'s samples, when its guest or compiler is loaded.
    /// Runs `code`, a whole program in `language`, once on `stdin` with `files` in its `/tmp`
    /// (SandboxFusion's `run_code`): its build (under `compile_limits`), when it does not build,
    /// or its execution and the files of `fetch` it left.
    #[allow(clippy::too_many_arguments)]
    pub fn run_program(
        &self,
        language: Language,
        code: &str,
        stdin: Vec<u8>,
        files: &[(PathBuf, Vec<u8>)],
        fetch: &[PathBuf],
        limits: Limits,
        compile_limits: CompileLimits,
    ) -> anyhow::Result<ProgramRun> {
        let route = self.route(language)?;
        let cx = Context {
            sandbox: self.sandbox,
            limits,
            compile_limits,
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

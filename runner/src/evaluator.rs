//! The evaluator: picks a sample's [`LanguageRoute`] by its task's language and evaluates it
//! ([`crate::languages::evaluate`]) with the run's sandbox, limits and caches.

use crate::languages::javascript::JsRuntime;
use crate::languages::python::PythonRuntime;
use crate::languages::{self, Context, LanguageRoute};
use crate::sandbox::{Limits, Sandbox};
use crate::toolchain::{CompileLimits, Toolchains};
use anyhow::Context as _;
use std::path::PathBuf;
use wasmeval_core::{Language, Sample, SampleResult, Task};

/// Whether samples of `language` can be run by this build.
pub fn can_run(language: Language) -> bool {
    matches!(
        language,
        Language::Python | Language::Rust | Language::C | Language::Cpp | Language::Javascript
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
    /// The compilers, when the run has compiled samples.
    pub toolchains: Option<Toolchains>,
    /// Where compiled modules' machine code is cached.
    pub module_cache: PathBuf,
    /// The budget of each sample (shared by its executions) and the limits of each execution.
    pub limits: Limits,
    /// Limits of each compilation.
    pub compile_limits: CompileLimits,
}

impl Evaluator<'_> {
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
            limits,
            compile_limits: self.compile_limits,
            module_cache: &self.module_cache,
        };
        languages::evaluate(route, &cx, task, sample)
    }

    /// The route of `language`'s samples, when its guest or compiler is loaded.
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
            Language::Rust | Language::C | Language::Cpp => loaded(&self.toolchains, "compilers"),
            other => anyhow::bail!("samples in {other} cannot be run yet"),
        }
    }
}

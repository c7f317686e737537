//! The SandboxFusion-compatible API, in SandboxFusion's request and response shapes (its PyPI
//! client, `sandbox-fusion`, and verl's reward code work by changing the endpoint), run by the
//! same sandbox as everything else: `POST /run_code` runs a program; `GET /v1/ping`; and
//! `GET /list_datasets`, `POST /list_ids`, `/get_prompts`, `/get_prompt_by_id` and `/submit` serve
//! the task sets the server loaded, each a "dataset" named by its file (the file name without its
//! extensions; `demo` for `--demo`), or the rows a request brings (`config.provided_data`).
//!
//! What SandboxFusion's server (bytedance/SandboxFusion, `sandbox/server/sandbox_api.py` and
//! `sandbox/runners/base.py`) answers for each outcome, and so what this module answers:
//! - exited 0: `Success`, `run_result` `Finished` with `return_code` 0;
//! - exited non-zero (an exception: 1; `exit(n)`: n): `Failed`, `Finished` with that code;
//! - killed by a signal (abort, an uncaught C++ exception, a segfault): `Failed`, `Finished` with
//!   the negative signal number, here the trap's ([`trap_signal`]);
//! - out of time: `Failed`, `TimeLimitExceeded`, `return_code` null;
//! - more than 128 KiB on stdout or stderr: `TimeLimitExceeded` too (SandboxFusion's asyncio
//!   reader stops reading past 2 x 64 KiB, the program blocks on its pipe until `run_timeout`);
//! - a compile error: `Failed`, `compile_result` `Finished` with a non-zero code, no `run_result`;
//!   out of compile time: `compile_result` `TimeLimitExceeded`;
//! - a request it cannot run (a language it has no runtime for): `SandboxError`. A command's
//!   `Error` status never reaches a client with `Failed`: SandboxFusion turns it into
//!   `SandboxError`, and its client rejects the pair.
//!
//! Malformed requests get FastAPI's 422 (`{"detail": [{"loc": ["body", ..], "msg": ..}]}`), as
//! SandboxFusion's pydantic models give; so does a limit above the server's maximum
//! (`--max-memory`, `--max-run-timeout`), which is never silently lowered.
//!
//! Admission: these routes wait in the queue ([`super::queue::WorkQueue::enqueue`]) rather than
//! refuse; a request no worker took within its own `compile_timeout + run_timeout` gets 504
//! (which verl's reward code retries), and one past the queue's room 503.

use super::queue::{Answer, NotStarted, Work};
use super::ServerState;
use crate::evaluator::ProgramRun;
use crate::toolchain::CompileLimits;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Component, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use wasmeval_core::judging::Exit;
use wasmeval_core::{CaseResult, Language, Task, TestSuite, Verdict};

/// The maxima SandboxFusion's requests are held to, and the defaults its fields have.
#[derive(Debug, Clone, Copy)]
pub struct Maxima {
    /// The largest `memory_limit_MB`, in bytes (`--max-memory`); also what `-1` (SandboxFusion's
    /// "no limit") gets.
    pub memory: u64,
    /// The largest `run_timeout` and `compile_timeout`, in seconds (`--max-run-timeout`).
    pub run_timeout: f64,
    /// Bytes a program may write to its files (`--disk`).
    pub disk: u64,
}

/// SandboxFusion's defaults for `compile_timeout` and `run_timeout` (its `RunCodeRequest`).
const DEFAULT_TIMEOUT: f64 = 10.0;

/// The wall-clock backstop of a run, as a multiple of its `run_timeout`, in real time. The fuel
/// budget (the deterministic limit) is `run_timeout` native seconds; an interpreter in the
/// sandbox runs slower than natively (CPython about 5 times: bench/README.md), so an endless loop
/// is ended by this clock, with the same `TimeLimitExceeded`. A run that waited for its worker
/// gets less, down to `run_timeout` itself, so that its answer comes within [`CLIENT_MARGIN`] of
/// `compile_timeout + run_timeout` from its arrival when it can.
pub const WALL_PER_RUN_TIMEOUT: f64 = 2.0;

/// How much of the time a client waits past `compile_timeout + run_timeout` a run may use: verl's
/// reward code waits 10 s more (`API_TIMEOUT`); the other 5 s are left for the build (the wall
/// clock starts after it) and the answer's way back.
pub const CLIENT_MARGIN: Duration = Duration::from_secs(5);

/// What SandboxFusion reads of a stream before its program blocks (asyncio's reader pauses past
/// twice its 64 KiB limit): more than this on stdout or stderr is a `TimeLimitExceeded`.
pub const STREAM_LIMIT: u64 = 2 * 65_536;

/// Fuel per second of `language` run natively as SandboxFusion runs it: core's one table.
pub use wasmeval_core::evaluation::fuel_per_native_second;

/// The limits of one run of `run_timeout` seconds in `language` with `memory` bytes: the fuel of
/// that many native seconds, the wall clock [`WALL_PER_RUN_TIMEOUT`] times it, each stream at
/// most [`STREAM_LIMIT`].
pub fn run_limits(
    language: Language,
    run_timeout: f64,
    memory: u64,
    disk: u64,
) -> crate::sandbox::Limits {
    crate::sandbox::Limits {
        fuel: (fuel_per_native_second(language) * run_timeout) as u64,
        memory,
        timeout: Duration::from_secs_f64(run_timeout * WALL_PER_RUN_TIMEOUT),
        // Both streams together; a stream past its own limit is found afterwards.
        output: 2 * STREAM_LIMIT,
        disk,
        fuel_from_time_limit: false,
        sleep_limit: Some(Duration::from_secs_f64(run_timeout)),
    }
}

/// The compiler's limits for `compile_timeout` seconds: that much CPU, in whole seconds
/// (RLIMIT_CPU), the server's memory and output limits.
pub fn compile_limits(compile_timeout: f64) -> CompileLimits {
    CompileLimits {
        cpu_seconds: (compile_timeout.ceil() as u64).max(1),
        ..CompileLimits::default()
    }
}

/// A 4xx or 5xx of SandboxFusion's routes, in FastAPI's shapes.
pub(super) enum SfError {
    /// 422: FastAPI's validation error, at `loc` (the body's path).
    Invalid {
        loc: Vec<String>,
        msg: String,
        input: Value,
    },
    /// Another status, with FastAPI's `{"detail": message}`.
    Status(StatusCode, String),
    /// 503: the queue is full (with `Retry-After`).
    Full,
    /// 504: no worker took the request within its timeout.
    NotStarted(f64),
}

impl SfError {
    fn invalid(loc: &str, msg: impl Into<String>, input: Value) -> SfError {
        SfError::Invalid {
            loc: loc.split('.').map(str::to_owned).collect(),
            msg: msg.into(),
            input,
        }
    }
}

impl IntoResponse for SfError {
    fn into_response(self) -> Response {
        match self {
            SfError::Invalid { loc, msg, input } => {
                let mut path = vec![Value::from("body")];
                path.extend(loc.into_iter().filter(|p| !p.is_empty()).map(|p| {
                    p.parse::<u64>()
                        .map_or_else(|_| Value::from(p), Value::from)
                }));
                let detail =
                    json!([{"type": "value_error", "loc": path, "msg": msg, "input": input}]);
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Json(json!({ "detail": detail })),
                )
                    .into_response()
            }
            SfError::Status(status, message) => {
                (status, Json(json!({ "detail": message }))).into_response()
            }
            SfError::Full => {
                let mut response = (
                    StatusCode::SERVICE_UNAVAILABLE,
                    Json(json!({"detail": "the queue is full (--wait-queue); retry later"})),
                )
                    .into_response();
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(1));
                response
            }
            SfError::NotStarted(seconds) => (
                StatusCode::GATEWAY_TIMEOUT,
                Json(json!({"detail": format!(
                    "no worker was free within the request's {seconds} s (compile_timeout + \
                     run_timeout); retry"
                )})),
            )
                .into_response(),
        }
    }
}

/// `body` as a `T`, or FastAPI's 422 naming the field at fault.
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, SfError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
        let path = error.path().to_string();
        SfError::invalid(
            if path == "." { "" } else { &path },
            error.inner().to_string(),
            Value::Null,
        )
    })
}

/// Queues `work` and waits for its answer, giving it up (504) when no worker took it within
/// `seconds`; a full queue is a 503.
async fn queued(state: &ServerState, work: Work, seconds: f64) -> Result<Option<Answer>, SfError> {
    let ticket = state.queue.enqueue(work).map_err(|_| SfError::Full)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(seconds);
    ticket
        .answer_by(deadline)
        .await
        .map_err(|NotStarted| SfError::NotStarted(seconds))
}

/// A number of seconds as SandboxFusion's `float` fields take it: positive, at most `max`.
fn seconds(field: &str, value: f64, max: f64) -> Result<f64, SfError> {
    if !value.is_finite() || value <= 0.0 {
        return Err(SfError::invalid(
            field,
            "Input should be greater than 0",
            json!(value),
        ));
    }
    if value > max {
        return Err(SfError::invalid(
            field,
            format!(
                "Input should be less than or equal to {max} (this server's --max-run-timeout)"
            ),
            json!(value),
        ));
    }
    Ok(value)
}

/// SandboxFusion's `RunCodeRequest` (fields it does not know are ignored, as its server does).
#[derive(Deserialize)]
pub(super) struct RunCodeRequest {
    code: String,
    language: String,
    #[serde(default)]
    stdin: Option<String>,
    #[serde(default = "default_timeout")]
    compile_timeout: f64,
    #[serde(default = "default_timeout")]
    run_timeout: f64,
    /// An integer (pydantic's `int`: a float without a fraction passes); `null` does not.
    #[serde(default = "no_memory_limit", rename = "memory_limit_MB")]
    memory_limit_mb: Value,
    /// Path to base64 content; a `null` content is skipped, as SandboxFusion does.
    #[serde(default)]
    files: BTreeMap<String, Option<String>>,
    #[serde(default)]
    fetch_files: Vec<String>,
}

fn default_timeout() -> f64 {
    DEFAULT_TIMEOUT
}

fn no_memory_limit() -> Value {
    json!(-1)
}

/// Every language name SandboxFusion's `RunCodeRequest` accepts.
const SANDBOX_FUSION_LANGUAGES: [&str; 29] = [
    "python",
    "cpp",
    "nodejs",
    "go",
    "go_test",
    "java",
    "php",
    "csharp",
    "bash",
    "typescript",
    "sql",
    "rust",
    "cuda",
    "lua",
    "R",
    "perl",
    "D_ut",
    "ruby",
    "scala",
    "julia",
    "pytest",
    "junit",
    "kotlin_script",
    "jest",
    "verilog",
    "python_gpu",
    "lean",
    "swift",
    "racket",
];

/// The names this server runs, in SandboxFusion's spelling (and `c`, which it does not have).
const RUN_HERE: &str = "python, nodejs, typescript, cpp, c, rust, go, ruby and lua";

/// SandboxFusion's language names to wasmeval's.
fn language(name: &str) -> Option<Language> {
    match name {
        "python" => Some(Language::Python),
        "nodejs" | "js" | "javascript" => Some(Language::Javascript),
        "typescript" | "ts" => Some(Language::Typescript),
        "cpp" => Some(Language::Cpp),
        "c" => Some(Language::C),
        "rust" => Some(Language::Rust),
        "go" => Some(Language::Go),
        "ruby" => Some(Language::Ruby),
        "lua" => Some(Language::Lua),
        _ => None,
    }
}

/// Whether SandboxFusion builds `language`'s programs in a step of their own (`compile_result`).
fn compiled(language: Language) -> bool {
    matches!(
        language,
        Language::C | Language::Cpp | Language::Rust | Language::Go
    )
}

/// A SandboxError response: SandboxFusion's shape for what the sandbox cannot do.
fn sandbox_error(message: impl Into<String>) -> Json<Value> {
    Json(json!({
        "status": "SandboxError",
        "message": message.into(),
        "compile_result": null,
        "run_result": null,
        "executor_pod_name": null,
        "files": {},
    }))
}

/// A path of `files` or `fetch_files` as a path inside the program's `/tmp`: relative, or under
/// `/tmp`; never `..`.
fn scratch_path(path: &str) -> Option<PathBuf> {
    let relative = path.strip_prefix("/tmp/").unwrap_or(path);
    let relative = PathBuf::from(relative);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    (plain && !relative.as_os_str().is_empty()).then_some(relative)
}

/// `memory_limit_MB` in bytes: at most `max`; zero or negative (SandboxFusion's "no limit")
/// is `max`; not an integer (`null`, a string, a fraction) is a 422, as in SandboxFusion.
fn memory_limit(value: &Value, max: u64) -> Result<u64, SfError> {
    let megabytes = match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        _ => None,
    };
    let Some(megabytes) = megabytes else {
        return Err(SfError::invalid(
            "memory_limit_MB",
            "Input should be a valid integer",
            value.clone(),
        ));
    };
    if megabytes <= 0 {
        return Ok(max);
    }
    let bytes = (megabytes as u64).saturating_mul(1 << 20);
    if bytes > max {
        return Err(SfError::invalid(
            "memory_limit_MB",
            format!(
                "Input should be less than or equal to {} (this server's --max-memory)",
                max >> 20
            ),
            value.clone(),
        ));
    }
    Ok(bytes)
}

pub(super) async fn run_code(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, SfError> {
    let request: RunCodeRequest = parse(&body)?;
    let maxima = state.sandbox_fusion;
    let Some(language) = language(&request.language) else {
        if !SANDBOX_FUSION_LANGUAGES.contains(&request.language.as_str()) {
            return Err(SfError::invalid(
                "language",
                format!(
                    "Input should be one of SandboxFusion's languages: {}",
                    SANDBOX_FUSION_LANGUAGES.join(", ")
                ),
                json!(request.language),
            ));
        }
        return Ok(sandbox_error(format!(
            "wasmeval cannot run `{}`: it runs {RUN_HERE}",
            request.language
        )));
    };
    let run_timeout = seconds("run_timeout", request.run_timeout, maxima.run_timeout)?;
    let compile_timeout = seconds(
        "compile_timeout",
        request.compile_timeout,
        maxima.run_timeout,
    )?;
    let memory = memory_limit(&request.memory_limit_mb, maxima.memory)?;
    if !state.languages.contains(&language) {
        return Ok(sandbox_error(format!(
            "this server has no runtime for `{}`",
            request.language
        )));
    }
    let mut files = Vec::new();
    for (path, content) in &request.files {
        let Some(relative) = scratch_path(path) else {
            return Ok(sandbox_error(format!(
                "file `{path}`: give a path relative to the working folder (/tmp), without `..`"
            )));
        };
        // SandboxFusion writes only the files whose content is a string.
        let Some(content) = content else { continue };
        match base64::engine::general_purpose::STANDARD.decode(content) {
            Ok(bytes) => files.push((relative, bytes)),
            Err(_) => return Ok(sandbox_error(format!("file `{path}`: not base64"))),
        }
    }
    let mut fetch = Vec::new();
    for path in &request.fetch_files {
        match scratch_path(path) {
            Some(relative) => fetch.push((path.clone(), relative)),
            None => {
                return Ok(sandbox_error(format!(
                    "fetch_files `{path}`: give a path relative to the working folder (/tmp), \
                     without `..`"
                )))
            }
        }
    }
    let mut limits = run_limits(language, run_timeout, memory, maxima.disk);
    let compile = compile_limits(compile_timeout);
    let evaluator = state.evaluator.clone();
    let stdin = request.stdin.unwrap_or_default().into_bytes();
    let code = request.code;
    let answer_by = std::time::Instant::now()
        + Duration::from_secs_f64(compile_timeout + run_timeout)
        + CLIENT_MARGIN;
    let work: Work = Box::new(move || {
        // The time waited comes off the backstop's extra, never off run_timeout itself.
        let left = answer_by.saturating_duration_since(std::time::Instant::now());
        limits.timeout = limits
            .timeout
            .min(left)
            .max(Duration::from_secs_f64(run_timeout));
        let fetch_paths: Vec<PathBuf> = fetch.iter().map(|(_, p)| p.clone()).collect();
        let run = evaluator.run_program(
            language,
            &code,
            stdin,
            &files,
            &fetch_paths,
            limits,
            compile,
        )?;
        Ok(response(run, &fetch, compiled(language), compile_timeout))
    });
    match queued(&state, work, compile_timeout + run_timeout).await? {
        Some(Ok(value)) => Ok(Json(value)),
        // The request's own fault (a memory limit the interpreter cannot start in): the
        // program did not start, as SandboxFusion's interpreter fails under a small RLIMIT_AS.
        Some(Err(error)) if error.bad_request => Ok(Json(json!({
            "status": "Failed",
            "message": "",
            "compile_result": null,
            "run_result": command("Finished", 0.0, Some(1), "", &error.message),
            "executor_pod_name": null,
            "files": {},
        }))),
        Some(Err(error)) => Ok(sandbox_error(error.message)),
        None => Ok(sandbox_error("the run was dropped")),
    }
}

/// SandboxFusion's `CommandRunResult`.
fn command(status: &str, seconds: f64, code: Option<i32>, stdout: &str, stderr: &str) -> Value {
    json!({
        "status": status,
        "execution_time": seconds,
        "return_code": code,
        "stdout": stdout,
        "stderr": stderr,
    })
}

/// The signal a native program would have died of where the guest trapped, negated as Python's
/// `subprocess` reports it: SIGABRT (6) for `abort()` and an uncaught C++ exception (wasm's
/// `unreachable`), SIGSEGV (11) for a bad access or an exhausted stack, SIGFPE (8) for an integer
/// division by zero or overflow.
pub fn trap_signal(trap: &str) -> i32 {
    if trap.contains("out of bounds") || trap.contains("stack") || trap.contains("null") {
        -11
    } else if trap.contains("divide by zero") || trap.contains("integer overflow") {
        -8
    } else {
        -6
    }
}

/// Text as SandboxFusion decodes a stream: UTF-8, else its `[DecodeError]` note.
fn decoded(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(error) => format!(
            "[DecodeError] 'utf-8' codec can't decode byte 0x{:02x} in position {}: invalid start byte",
            bytes[error.valid_up_to()],
            error.valid_up_to()
        ),
    }
}

/// At most [`STREAM_LIMIT`] bytes of a stream, as SandboxFusion's reader holds them.
fn head(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(STREAM_LIMIT as usize)]
}

/// SandboxFusion's `RunCodeResponse` of `run`; `fetch` maps requested paths to scratch paths;
/// interpreted languages have no `compile_result`, as in SandboxFusion. A build that failed
/// after `compile_timeout` seconds is a `TimeLimitExceeded`, as SandboxFusion's clock says
/// (clang's crash handler turns running out of CPU into an exit code).
fn response(
    run: ProgramRun,
    fetch: &[(String, PathBuf)],
    compiled: bool,
    compile_timeout: f64,
) -> Value {
    match run {
        ProgramRun::NotBuilt { outcome, seconds } => {
            let message = outcome.message.unwrap_or_default();
            let (status, code) = match outcome.verdict {
                Verdict::Timeout => ("TimeLimitExceeded", None),
                _ if compiled && seconds >= compile_timeout => ("TimeLimitExceeded", None),
                _ => ("Finished", Some(1)),
            };
            let result = command(status, seconds, code, "", &message);
            // An interpreted program that cannot be read (TypeScript that does not strip) is,
            // in SandboxFusion, its interpreter's failure: a run that exited 1.
            let (compile_result, run_result) = match compiled {
                true => (result, Value::Null),
                false => (Value::Null, result),
            };
            json!({
                "status": "Failed",
                "message": "",
                "compile_result": compile_result,
                "run_result": run_result,
                "executor_pod_name": null,
                "files": {},
            })
        }
        ProgramRun::Ran {
            compile_seconds,
            execution,
            fetched,
        } => {
            let output = &execution.output;
            let flooded = matches!(execution.exit, Exit::OutputLimit)
                || output.stdout.len() as u64 > STREAM_LIMIT
                || output.stderr.len() as u64 > STREAM_LIMIT;
            let (status, return_code) = match &execution.exit {
                _ if flooded => ("TimeLimitExceeded", None),
                Exit::Code(code) => ("Finished", Some(*code)),
                Exit::OutOfFuel | Exit::WallTimeout | Exit::VirtualTimeout => {
                    ("TimeLimitExceeded", None)
                }
                Exit::Trap(trap) => ("Finished", Some(trap_signal(trap))),
                // A program whose static data does not fit: killed as it starts.
                Exit::MemoryAtStart(_) => ("Finished", Some(-11)),
                // Writing past the disk limit fails the program's write: it ends with an error.
                Exit::DiskLimit(_) | Exit::OutputLimit => ("Finished", Some(1)),
            };
            let mut stderr = decoded(head(&output.stderr));
            if !matches!(execution.exit, Exit::Code(_)) || flooded {
                let why = match flooded {
                    true => format!(
                        "wasmeval: more than {STREAM_LIMIT} bytes on a stream, where \
                         SandboxFusion's program blocks until its run_timeout"
                    ),
                    false => {
                        let outcome = wasmeval_core::judging::Outcome::of_cut_short(&execution);
                        format!("wasmeval: {}", outcome.message.unwrap_or_default())
                    }
                };
                if !stderr.is_empty() && !stderr.ends_with('\n') {
                    stderr.push('\n');
                }
                stderr.push_str(&why);
                stderr.push('\n');
            }
            let success = return_code == Some(0);
            let mut files = serde_json::Map::new();
            for (asked, relative) in fetch {
                if let Some((_, bytes)) = fetched.iter().find(|(p, _)| p == relative) {
                    files.insert(
                        asked.clone(),
                        Value::from(base64::engine::general_purpose::STANDARD.encode(bytes)),
                    );
                }
            }
            let compile_result = match compiled {
                true => command("Finished", compile_seconds, Some(0), "", ""),
                false => Value::Null,
            };
            json!({
                "status": if success { "Success" } else { "Failed" },
                "message": "",
                "compile_result": compile_result,
                "run_result": command(
                    status,
                    execution.wall.as_secs_f64(),
                    return_code,
                    &decoded(head(&output.stdout)),
                    &stderr,
                ),
                "executor_pod_name": null,
                "files": files,
            })
        }
    }
}

/// `GET /v1/ping`: SandboxFusion's liveness answer.
pub(super) async fn ping() -> Json<Value> {
    Json(json!("pong"))
}

/// `POST /run_jupyter`: not run here; SandboxFusion's answer for what its sandbox cannot do.
pub(super) async fn run_jupyter() -> Json<Value> {
    Json(json!({
        "status": "SandboxError",
        "message": format!("wasmeval has no Jupyter kernel: run code with /run_code ({RUN_HERE})"),
        "driver": null,
        "cells": [],
        "executor_pod_name": null,
        "files": {},
    }))
}

/// SandboxFusion's `TestConfig`, the parts used here (the rest is accepted and ignored).
#[derive(Deserialize, Default)]
pub(super) struct TestConfig {
    /// The language a stdin/stdout task's answer is run in.
    #[serde(default)]
    language: Option<String>,
    #[serde(default)]
    compile_timeout: Option<f64>,
    #[serde(default)]
    run_timeout: Option<f64>,
    /// Dataset rows given in the request (one, or a list), in any task format `--tasks` reads.
    #[serde(default)]
    provided_data: Option<Value>,
}

/// SandboxFusion's `GetPromptsRequest` and `GetPromptByIdRequest`.
#[derive(Deserialize)]
pub(super) struct PromptsRequest {
    dataset: String,
    #[serde(default)]
    config: TestConfig,
    #[serde(default)]
    offset: usize,
    #[serde(default = "no_limit")]
    limit: usize,
    #[serde(default)]
    id: Option<Value>,
}

fn no_limit() -> usize {
    usize::MAX
}

/// SandboxFusion's `SubmitRequest`.
#[derive(Deserialize)]
pub(super) struct SubmitRequest {
    dataset: String,
    id: Value,
    completion: String,
    #[serde(default)]
    config: TestConfig,
}

/// The tasks a request names: the rows of `config.provided_data` when it has them, else the
/// loaded dataset `name`, or a 404 naming the datasets there are.
fn dataset(state: &ServerState, name: &str, config: &TestConfig) -> Result<Vec<Task>, SfError> {
    if let Some(rows) = &config.provided_data {
        let rows = match rows {
            Value::Array(rows) => rows.clone(),
            row => vec![row.clone()],
        };
        return rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                wasmeval_core::formats::tasks::parse_task(&row.to_string()).map_err(|e| {
                    SfError::invalid(&format!("config.provided_data.{i}"), e, Value::Null)
                })
            })
            .collect();
    }
    match state.datasets.iter().find(|(n, _)| n == name) {
        Some((_, range)) => Ok(state.tasks[range.clone()].to_vec()),
        None => Err(SfError::Status(
            StatusCode::NOT_FOUND,
            format!(
                "no dataset `{name}` on this server; it has: {} (or give the rows as \
                 config.provided_data)",
                state
                    .datasets
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

/// Whether every suite of `task` is stdin/stdout, so its answer may be in any language.
fn stdio_only(task: &Task) -> bool {
    !task.tests.is_empty()
        && task
            .tests
            .iter()
            .all(|suite| matches!(suite, TestSuite::Io { .. }))
}

/// SandboxFusion's `Prompt` of a task: its prompt, or its statement when the prompt is empty.
fn prompt(task: &Task) -> Value {
    let text = match task.prompt.trim().is_empty() {
        true => &task.description,
        false => &task.prompt,
    };
    json!({
        "id": task.id.0,
        "prompt": text,
        "labels": {
            "language": task.language.to_string(),
            "entry_point": task.entry_point,
            "title": task.title,
        },
    })
}

/// An id as SandboxFusion's clients send it (a string or a number).
fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `GET /list_datasets`: the datasets' names.
pub(super) async fn list_datasets(State(state): State<Arc<ServerState>>) -> Json<Value> {
    Json(json!(state
        .datasets
        .iter()
        .map(|(name, _)| name.as_str())
        .collect::<Vec<_>>()))
}

/// `POST /list_ids`: the ids of a dataset.
pub(super) async fn list_ids(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, SfError> {
    let request: PromptsRequest = parse(&body)?;
    let tasks = dataset(&state, &request.dataset, &request.config)?;
    Ok(Json(json!(tasks
        .iter()
        .map(|t| t.id.0.as_str())
        .collect::<Vec<_>>())))
}

pub(super) async fn get_prompts(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, SfError> {
    let request: PromptsRequest = parse(&body)?;
    let tasks = dataset(&state, &request.dataset, &request.config)?;
    Ok(Json(Value::Array(
        tasks
            .iter()
            .skip(request.offset)
            .take(request.limit)
            .map(prompt)
            .collect(),
    )))
}

pub(super) async fn get_prompt_by_id(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, SfError> {
    let request: PromptsRequest = parse(&body)?;
    let tasks = dataset(&state, &request.dataset, &request.config)?;
    let id = id_text(request.id.as_ref().unwrap_or(&Value::Null));
    match tasks.iter().find(|t| t.id.0 == id) {
        Some(task) => Ok(Json(prompt(task))),
        None => Err(SfError::Status(
            StatusCode::NOT_FOUND,
            format!("no id `{id}` in dataset `{}`", request.dataset),
        )),
    }
}

/// `POST /get_metrics` and `/get_metrics_function`: SandboxFusion's answers for a dataset
/// without metrics of its own.
pub(super) async fn get_metrics() -> Json<Value> {
    Json(json!({}))
}

pub(super) async fn get_metrics_function() -> Json<Value> {
    Json(json!({ "function": null }))
}

/// The `exec_info` of `case`: the `RunCodeResponse` SandboxFusion gives for a run that ended so
/// (a wrong answer ran and exited 0; an exception exited 1, a trap with its signal; a timeout or
/// an output flood is `TimeLimitExceeded`; a compile error has no run). A case with a run of its
/// own (an `io` case) shows that run's exit code, stdout, stderr and time; the time is its fuel
/// in native-equivalent seconds of `language` (deterministic, unlike a wall clock), the others'
/// is 0.
fn exec_info(case: &CaseResult, language: Language) -> Value {
    let message = case.message.as_deref().unwrap_or_default();
    let own = case.run.as_ref();
    let seconds = own.map_or(0.0, |run| {
        run.fuel as f64 / fuel_per_native_second(language).max(1.0)
    });
    let stdout = own.map_or("", |run| run.stdout.as_str());
    let stderr = |fallback: &str| own.map_or(fallback.to_owned(), |run| run.stderr.clone());
    let (status, run, compile) = match case.verdict {
        Verdict::Passed | Verdict::WrongAnswer => (
            "Success",
            command("Finished", seconds, Some(0), stdout, &stderr("")),
            Value::Null,
        ),
        Verdict::RuntimeError | Verdict::MemoryLimit => {
            let code = match (
                own.and_then(|run| run.exit_code),
                message.strip_prefix("trap: "),
            ) {
                (Some(code), _) => code,
                (None, Some(trap)) => trap_signal(trap),
                (None, None) => 1,
            };
            (
                "Failed",
                command("Finished", seconds, Some(code), stdout, &stderr(message)),
                Value::Null,
            )
        }
        Verdict::Timeout | Verdict::OutputLimit => (
            "Failed",
            command("TimeLimitExceeded", seconds, None, stdout, &stderr(message)),
            Value::Null,
        ),
        Verdict::CompileError => (
            "Failed",
            Value::Null,
            command("Finished", 0.0, Some(1), "", message),
        ),
        Verdict::HarnessError | Verdict::UnsupportedLanguage => {
            return json!({
                "status": "SandboxError",
                "message": message,
                "compile_result": null,
                "run_result": null,
                "executor_pod_name": null,
                "files": {},
            })
        }
    };
    let compile = match (compiled(language), compile.is_null()) {
        (true, true) => command("Finished", 0.0, Some(0), "", ""),
        _ => compile,
    };
    json!({
        "status": status,
        "message": "",
        "compile_result": compile,
        "run_result": run,
        "executor_pod_name": null,
        "files": {},
    })
}

/// Evaluates `completion` for task `id` of `dataset` (or of `config.provided_data`) as
/// SandboxFusion's `/submit` does: the code extracted from the answer is a whole solution when
/// it defines the task's entry point, else a completion of the prompt; a stdin/stdout task runs
/// it in `config.language` when given; `config.run_timeout` (else the task's `time_limit`, else
/// 10 s) is each case's share of the budget. The answer is an `EvalResult` with a test per case.
pub(super) async fn submit(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, SfError> {
    let request: SubmitRequest = parse(&body)?;
    let tasks = dataset(&state, &request.dataset, &request.config)?;
    let id = id_text(&request.id);
    let found = match (&request.config.provided_data, tasks.len()) {
        // One row given: it is the task, whatever its id.
        (Some(_), 1) => tasks.into_iter().next(),
        _ => tasks.into_iter().find(|t| t.id.0 == id),
    };
    let Some(mut task) = found else {
        return Err(SfError::Status(
            StatusCode::NOT_FOUND,
            format!("no id `{id}` in dataset `{}`", request.dataset),
        ));
    };
    if let Some(name) = &request.config.language {
        let Some(asked) = language(name).or_else(|| Language::parse(name)) else {
            return Err(SfError::invalid(
                "config.language",
                format!("wasmeval cannot run `{name}`: it runs {RUN_HERE}"),
                json!(name),
            ));
        };
        if asked != task.language {
            if !stdio_only(&task) {
                return Err(SfError::Status(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "task `{id}` is tested in {}; config.language `{name}` cannot run its tests \
                         (only a stdin/stdout task runs in any language)",
                        task.language
                    ),
                ));
            }
            task.language = asked;
        }
    }
    if !state.languages.contains(&task.language) {
        return Err(SfError::Status(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("this server cannot run {} samples", task.language),
        ));
    }
    let maxima = state.sandbox_fusion;
    let run_timeout = match request.config.run_timeout {
        Some(value) => seconds("config.run_timeout", value, maxima.run_timeout)?,
        None => task
            .time_limit
            .filter(|s| s.is_finite() && *s > 0.0)
            .unwrap_or(DEFAULT_TIMEOUT)
            .min(maxima.run_timeout),
    };
    let compile_timeout = match request.config.compile_timeout {
        Some(value) => seconds("config.compile_timeout", value, maxima.run_timeout)?,
        None => DEFAULT_TIMEOUT,
    };
    // Each case's share: the budget of the sample is run_timeout's per case.
    let cases = task.case_count().max(1) as f64;
    let mut limits = crate::sandbox::Limits {
        memory: state.evaluator.limits.memory,
        output: state.evaluator.limits.output,
        ..run_limits(task.language, run_timeout * cases, 0, maxima.disk)
    };
    // A dataset's sample is judged as `run` judges it: the fuel decides, not the clock. The
    // backstop of `run_limits` (twice run_timeout, for /run_code's clients, who wait little)
    // ended HumanEval+'s HumanEval/15 and /139 (5 s natively) on a loaded machine while `run`
    // passed them on the same fuel.
    limits.timeout = limits.timeout.max(wasmeval_core::evaluation::wall_backstop(
        limits.fuel,
        run_timeout * cases,
    ));
    // A stdin/stdout case runs on its own, as a SandboxFusion test does: it may sleep
    // run_timeout; cases run together share their sum.
    if stdio_only(&task) {
        limits.sleep_limit = Some(Duration::from_secs_f64(run_timeout));
    }
    let (sample, extraction) =
        wasmeval_core::formats::answers::sample_from_answer(&task, &request.completion, 0);
    let extracted_type = extraction.as_str();
    let code = match &sample.code {
        wasmeval_core::SampleCode::Completion(code) | wasmeval_core::SampleCode::Solution(code) => {
            code.clone()
        }
    };
    let evaluator = state.evaluator.clone();
    let work: Work = Box::new(move || {
        let result = evaluator.evaluate_within(&task, &sample, limits)?;
        let full_code = sample.program(&task);
        let tests: Vec<Value> = result
            .cases
            .iter()
            .map(|case| {
                json!({
                    "passed": case.verdict == Verdict::Passed,
                    "exec_info": exec_info(case, task.language),
                    "test_info": {
                        "name": case.name,
                        "verdict": case.verdict.as_str(),
                        "message": case.message,
                        "judged_by": case.judged_by,
                    },
                })
            })
            .collect();
        Ok(json!({
            "id": id,
            "accepted": result.verdict == Verdict::Passed,
            "extracted_code": code,
            "full_code": full_code,
            "test_code": null,
            "tests": tests,
            "extracted_type": extracted_type,
            "extra": {"verdict": result.verdict.as_str(), "message": result.message, "fuel": result.fuel},
        }))
    });
    match queued(&state, work, compile_timeout + run_timeout * cases).await? {
        Some(Ok(value)) => Ok(Json(value)),
        Some(Err(error)) => Err(SfError::Status(error.status(), error.message)),
        None => Err(SfError::Status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the evaluation was dropped".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_working_folder() {
        assert_eq!(scratch_path("a/b.txt"), Some(PathBuf::from("a/b.txt")));
        assert_eq!(scratch_path("/tmp/x"), Some(PathBuf::from("x")));
        for bad in ["../x", "/etc/passwd", "a/../../x", "", "/tmp/../etc"] {
            assert_eq!(scratch_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn language_names_are_sandbox_fusions() {
        assert_eq!(language("nodejs"), Some(Language::Javascript));
        assert_eq!(language("typescript"), Some(Language::Typescript));
        assert_eq!(language("cpp"), Some(Language::Cpp));
        assert_eq!(language("go"), Some(Language::Go));
        assert_eq!(language("ruby"), Some(Language::Ruby));
        assert_eq!(language("lua"), Some(Language::Lua));
        assert_eq!(language("go_test"), None);
        // Every name this server runs but `c` and the aliases is one of SandboxFusion's.
        for name in [
            "python",
            "nodejs",
            "typescript",
            "cpp",
            "rust",
            "go",
            "ruby",
            "lua",
        ] {
            assert!(SANDBOX_FUSION_LANGUAGES.contains(&name), "{name}");
            assert!(RUN_HERE.contains(name), "{name}");
        }
    }

    #[test]
    fn regression_memory_limit_mb_is_honoured_up_to_the_maximum_and_null_is_refused() {
        // Issue 34: 1024 MB was silently capped at 512 MiB, and null was accepted.
        let max = 2048 << 20;
        assert_eq!(memory_limit(&json!(1024), max).ok(), Some(1024 << 20));
        assert_eq!(memory_limit(&json!(1024.0), max).ok(), Some(1024 << 20));
        assert_eq!(memory_limit(&json!(-1), max).ok(), Some(max));
        for bad in [json!(null), json!("1024"), json!(1.5), json!(4096)] {
            assert!(
                matches!(memory_limit(&bad, max), Err(SfError::Invalid { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn regression_run_timeout_sets_the_fuel_of_that_many_native_seconds() {
        // Issue 34: the budget stayed the default fuel (0.2-0.45 s of CPython) at run_timeout=10.
        let limits = run_limits(Language::Python, 10.0, 1 << 30, 1 << 20);
        assert_eq!(limits.fuel, crate::sandbox::Limits::fuel_for_seconds(10.0));
        assert_eq!(limits.timeout, Duration::from_secs(20));
        assert_eq!(limits.memory, 1 << 30);
        assert_eq!(compile_limits(0.01).cpu_seconds, 1);
        assert_eq!(compile_limits(10.0).cpu_seconds, 10);
    }

    #[test]
    fn traps_are_the_signals_a_native_program_dies_of() {
        assert_eq!(
            trap_signal("wasm trap: wasm `unreachable` instruction executed"),
            -6
        );
        assert_eq!(trap_signal("wasm trap: out of bounds memory access"), -11);
        assert_eq!(trap_signal("wasm trap: call stack exhausted"), -11);
        assert_eq!(trap_signal("wasm trap: integer divide by zero"), -8);
    }
}

//! The SandboxFusion-compatible API, in SandboxFusion's request and response shapes (its PyPI
//! client, `sandbox-fusion`, works by changing the endpoint), run by the same sandbox as
//! everything else: `POST /run_code` runs a program; `POST /get_prompts`, `/get_prompt_by_id` and
//! `/submit` serve the task sets the server loaded, each a "dataset" named by its file (the file
//! name without its extensions; `demo` for `--demo`).
//!
//! Statuses as SandboxFusion's: the response's `Success` (built and exited 0), `Failed` (did not
//! build, or a non-zero exit, a timeout, a trap) or `SandboxError` (the request cannot be run here:
//! a language wasmeval does not run, a bad file path, a host failure); each command's `Finished`
//! (exited, with its code), `Error` (did not build; trapped; a limit other than time) or
//! `TimeLimitExceeded` (fuel, wall clock or virtual time).

use super::queue::Refused;
use super::{answer, busy, parse_body, ApiError, ServerState};
use crate::evaluator::ProgramRun;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Component, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use wasmeval_core::judging::Exit;
use wasmeval_core::{Language, Verdict};

/// SandboxFusion's `RunCodeRequest` (fields it does not know are ignored, as its server does).
#[derive(Deserialize)]
pub(super) struct RunCodeRequest {
    code: String,
    language: String,
    #[serde(default)]
    stdin: Option<String>,
    #[serde(default)]
    compile_timeout: Option<f64>,
    #[serde(default)]
    run_timeout: Option<f64>,
    #[serde(default, rename = "memory_limit_MB")]
    memory_limit_mb: Option<i64>,
    /// Path to base64 content (`null` content: an empty file).
    #[serde(default)]
    files: BTreeMap<String, Option<String>>,
    #[serde(default)]
    fetch_files: Vec<String>,
}

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

pub(super) async fn run_code(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: RunCodeRequest = parse_body(&body)?;
    let Some(language) = language(&request.language) else {
        return Ok(sandbox_error(format!(
            "wasmeval cannot run `{}`: it runs python, nodejs, typescript, cpp, c, rust and go",
            request.language
        )));
    };
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
        let bytes = match content {
            Some(content) => match base64::engine::general_purpose::STANDARD.decode(content) {
                Ok(bytes) => bytes,
                Err(_) => return Ok(sandbox_error(format!("file `{path}`: not base64"))),
            },
            None => Vec::new(),
        };
        files.push((relative, bytes));
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
    // Timeouts and memory only lower the server's limits.
    let maxima = state.evaluator.limits;
    let mut limits = maxima;
    if let Some(seconds) = request.run_timeout.filter(|s| s.is_finite() && *s > 0.0) {
        limits.timeout = Duration::from_secs_f64(seconds.min(1e6)).min(maxima.timeout);
    }
    if let Some(megabytes) = request.memory_limit_mb.filter(|m| *m > 0) {
        limits.memory = (megabytes as u64)
            .saturating_mul(1 << 20)
            .min(maxima.memory);
    }
    let _ = request.compile_timeout; // compilations have the server's own limits
    let evaluator = state.evaluator.clone();
    let stdin = request.stdin.unwrap_or_default().into_bytes();
    let code = request.code;
    let receiver = state
        .queue
        .submit(Box::new(move || {
            let fetch_paths: Vec<PathBuf> = fetch.iter().map(|(_, p)| p.clone()).collect();
            let run =
                evaluator.run_program(language, &code, stdin, &files, &fetch_paths, limits)?;
            let compiled = matches!(
                language,
                Language::C | Language::Cpp | Language::Rust | Language::Go
            );
            Ok(response(run, &fetch, compiled))
        }))
        .map_err(|(Refused::Full, _)| busy())?;
    match receiver.await {
        Ok(Ok(value)) => Ok(Json(value)),
        Ok(Err(error)) => Ok(sandbox_error(error.message)),
        Err(_) => Ok(sandbox_error("the run was dropped")),
    }
}

/// SandboxFusion's `RunCodeResponse` of `run`; `fetch` maps requested paths to scratch paths;
/// interpreted languages have no `compile_result`, as in SandboxFusion.
fn response(run: ProgramRun, fetch: &[(String, PathBuf)], compiled: bool) -> Value {
    match run {
        ProgramRun::NotBuilt { outcome, seconds } => {
            let status = match outcome.verdict {
                Verdict::Timeout => "TimeLimitExceeded",
                _ => "Error",
            };
            json!({
                "status": "Failed",
                "message": "",
                "compile_result": {
                    "status": status,
                    "execution_time": seconds,
                    "return_code": 1,
                    "stdout": "",
                    "stderr": outcome.message.unwrap_or_default(),
                },
                "run_result": null,
                "executor_pod_name": null,
                "files": {},
            })
        }
        ProgramRun::Ran {
            compile_seconds,
            execution,
            fetched,
        } => {
            let (status, return_code) = match &execution.exit {
                Exit::Code(code) => ("Finished", Some(*code)),
                Exit::OutOfFuel | Exit::WallTimeout | Exit::VirtualTimeout => {
                    ("TimeLimitExceeded", None)
                }
                _ => ("Error", None),
            };
            let mut stderr = String::from_utf8_lossy(&execution.output.stderr).into_owned();
            if !matches!(execution.exit, Exit::Code(_)) {
                let outcome = wasmeval_core::judging::Outcome::of_cut_short(&execution);
                if let Some(message) = outcome.message {
                    stderr.push_str(&format!("\nwasmeval: {message}\n"));
                }
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
            let compile_result = compiled.then(|| {
                json!({
                    "status": "Finished",
                    "execution_time": compile_seconds,
                    "return_code": 0,
                    "stdout": "",
                    "stderr": "",
                })
            });
            json!({
                "status": if success { "Success" } else { "Failed" },
                "message": "",
                "compile_result": compile_result,
                "run_result": {
                    "status": status,
                    "execution_time": execution.wall.as_secs_f64(),
                    "return_code": return_code,
                    "stdout": String::from_utf8_lossy(&execution.output.stdout),
                    "stderr": stderr,
                },
                "executor_pod_name": null,
                "files": files,
            })
        }
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
    }
}

/// SandboxFusion's `GetPromptsRequest` and `GetPromptByIdRequest` (its `config` is accepted and
/// not used).
#[derive(Deserialize)]
pub(super) struct PromptsRequest {
    dataset: String,
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
}

/// The tasks of `dataset`, or a 404 naming the datasets there are.
fn dataset<'s>(state: &'s ServerState, name: &str) -> Result<&'s [wasmeval_core::Task], ApiError> {
    match state.datasets.iter().find(|(n, _)| n == name) {
        Some((_, range)) => Ok(&state.tasks[range.clone()]),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no dataset `{name}` on this server; it has: {}",
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

/// SandboxFusion's `Prompt` of a task.
fn prompt(task: &wasmeval_core::Task) -> Value {
    json!({
        "id": task.id.0,
        "prompt": task.prompt,
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

pub(super) async fn get_prompts(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: PromptsRequest = parse_body(&body)?;
    let tasks = dataset(&state, &request.dataset)?;
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
) -> Result<Json<Value>, ApiError> {
    let request: PromptsRequest = parse_body(&body)?;
    let tasks = dataset(&state, &request.dataset)?;
    let id = id_text(request.id.as_ref().unwrap_or(&Value::Null));
    match tasks.iter().find(|t| t.id.0 == id) {
        Some(task) => Ok(Json(prompt(task))),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no id `{id}` in dataset `{}`", request.dataset),
        )),
    }
}

/// Evaluates `completion` for task `id` of `dataset` as SandboxFusion's `/submit` does: the code
/// extracted from the answer is a whole solution when it defines the task's entry point, else a
/// completion of the prompt; the answer is an `EvalResult` with a test per case.
pub(super) async fn submit(
    State(state): State<Arc<ServerState>>,
    body: axum::body::Bytes,
) -> Result<Json<Value>, ApiError> {
    let request: SubmitRequest = parse_body(&body)?;
    let tasks = dataset(&state, &request.dataset)?;
    let id = id_text(&request.id);
    let Some(task) = tasks.iter().find(|t| t.id.0 == id).cloned() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no id `{id}` in dataset `{}`", request.dataset),
        ));
    };
    if !state.languages.contains(&task.language) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("this server cannot run {} samples", task.language),
        ));
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
    let receiver = state
        .queue
        .submit(Box::new(move || {
            let result = evaluator.evaluate(&task, &sample)?;
            let full_code = sample.program(&task);
            let tests: Vec<Value> = result
                .cases
                .iter()
                .map(|case| {
                    let passed = case.verdict == Verdict::Passed;
                    json!({
                        "passed": passed,
                        "exec_info": {
                            "status": if passed { "Success" } else { "Failed" },
                            "message": case.message.clone().unwrap_or_default(),
                            "compile_result": null,
                            "run_result": {
                                "status": if case.verdict == Verdict::Timeout { "TimeLimitExceeded" } else { "Finished" },
                                "execution_time": result.wall_us as f64 / 1e6,
                                "return_code": if passed { 0 } else { 1 },
                                "stdout": result.stdout,
                                "stderr": result.stderr,
                            },
                            "executor_pod_name": null,
                            "files": {},
                        },
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
        }))
        .map_err(|(Refused::Full, _)| busy())?;
    answer(receiver).await
}

//! `wasmeval serve`'s HTTP side: the native JSON API (`/api/v1`) and the static site, on axum.
//!
//! Invariants (ARCHITECTURE.md, "The server"):
//! - Sandbox work runs on the [`queue`]'s worker threads, never on the async runtime's; the queue
//!   is bounded: the native API's requests find a full queue refused at once (429 with
//!   `Retry-After`), SandboxFusion's wait in it (bounded by `--wait-queue`, 503 past it) and get
//!   504 when no worker took them within their own timeout ([`sandbox_fusion`]).
//! - A request's limits only lower the server's (`--fuel`, `--memory`, ... are maxima).
//! - Bodies over `--max-body` get 413; a malformed body gets 400 naming the JSON path at fault.
//! - With a bearer token, every route that carries data (the API, SandboxFusion's routes,
//!   `/bundle.json`) answers only requests that carry it; the site's own files (HTML, wasm, JS)
//!   are public. Without `--cors`, no CORS headers.
//! - The same verdicts as `wasmeval run`: one evaluation is `Evaluator::evaluate_within`.

pub mod connections;
pub mod queue;
pub mod sandbox_fusion;

use crate::evaluator::Evaluator;
use crate::sandbox::Limits;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query as UrlQuery, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use queue::{Refused, Work, WorkQueue};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use wasmeval_core::{Language, Sample, SampleCode, Task, TaskId};

/// What every handler shares.
pub struct ServerState {
    /// The loaded tasks, in file order.
    pub tasks: Vec<Task>,
    /// Each task's position in `tasks`.
    pub by_id: HashMap<TaskId, usize>,
    /// The task files as SandboxFusion's datasets: a name and its tasks' range in `tasks`.
    pub datasets: Vec<(String, std::ops::Range<usize>)>,
    /// Evaluates samples; its limits are the server's maxima.
    pub evaluator: Arc<Evaluator<'static>>,
    /// The workers and the bounded queue in front of them.
    pub queue: WorkQueue,
    /// Languages this server can run.
    pub languages: Vec<Language>,
    /// The bearer token the API requires, if any.
    pub token: Option<String>,
    /// The maxima of SandboxFusion's requests (`--max-memory`, `--max-run-timeout`).
    pub sandbox_fusion: sandbox_fusion::Maxima,
}

/// The router: the API under `/api/v1`, `bundle` (the site's data, when there is one) at
/// `/bundle.json`, and the built site's files from `site` for every other path.
pub fn router(
    state: Arc<ServerState>,
    max_body: usize,
    site: Option<PathBuf>,
    bundle: Option<Arc<Vec<u8>>>,
    cors: Option<HeaderValue>,
) -> Router {
    let api = Router::new()
        .route("/health", get(health))
        .route("/tasks", get(tasks))
        .route("/tasks/{id}", get(task))
        .route("/evaluate", post(evaluate))
        // Batches stream: the body limit applies per line, not to the whole body.
        .route(
            "/evaluate/batch",
            post(evaluate_batch).layer(DefaultBodyLimit::disable()),
        )
        .layer(axum::extract::Extension(MaxLine(max_body)))
        // On the routes only (`route_layer`): a layer would also guard the router's fallback,
        // which a merge makes the site's.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            require_token,
        ))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state.clone());
    // SandboxFusion's API at the root, where its clients look for it, and the bundle: both carry
    // tasks with their tests and expected values, so both need the token (the site's own files,
    // below, hold no data and are public).
    let mut data = Router::new()
        .route("/run_code", post(sandbox_fusion::run_code))
        .route("/run_jupyter", post(sandbox_fusion::run_jupyter))
        .route("/list_datasets", get(sandbox_fusion::list_datasets))
        .route("/list_ids", post(sandbox_fusion::list_ids))
        .route("/get_prompts", post(sandbox_fusion::get_prompts))
        .route("/get_prompt_by_id", post(sandbox_fusion::get_prompt_by_id))
        .route("/submit", post(sandbox_fusion::submit))
        .route("/get_metrics", post(sandbox_fusion::get_metrics))
        .route(
            "/get_metrics_function",
            post(sandbox_fusion::get_metrics_function),
        );
    if let Some(bundle) = bundle {
        data = data.route(
            "/bundle.json",
            get(move || {
                let bundle = bundle.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        bundle.as_ref().clone(),
                    )
                }
            }),
        );
    }
    let data = data
        // On the routes only (`route_layer`): a layer would also guard the router's fallback,
        // which a merge makes the site's.
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            require_token,
        ))
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state.clone());
    // SandboxFusion's liveness probe carries no data: public, for a readiness probe.
    let mut app = Router::new()
        .route("/v1/ping", get(sandbox_fusion::ping))
        .nest("/api/v1", api)
        .merge(data);
    if let Some(site) = site {
        // ServeDir resolves paths inside `site` only (`..`, encoded slashes and absolute paths
        // are refused), and serves no directory listing; `confine_to_site` refuses what a
        // symbolic link in the folder would lead out of it.
        let root = Arc::new(site.canonicalize().unwrap_or_else(|_| site.clone()));
        app = app.merge(
            Router::new()
                .fallback_service(tower_http::services::ServeDir::new(site))
                .layer(axum::middleware::from_fn_with_state(root, confine_to_site)),
        );
    }
    if let Some(origin) = cors {
        app = app.layer(
            tower_http::cors::CorsLayer::new()
                .allow_origin(origin)
                .allow_methods([axum::http::Method::GET, axum::http::Method::POST])
                .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION]),
        );
    }
    app
}

/// 404 for a path whose file, links resolved, is not inside the site folder `root` (canonical).
async fn confine_to_site(
    State(root): State<Arc<PathBuf>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let path = percent_encoding::percent_decode_str(request.uri().path()).decode_utf8_lossy();
    // A path that does not exist is ServeDir's to refuse; one that does must resolve inside.
    match std::fs::canonicalize(root.join(path.trim_start_matches('/'))) {
        Ok(real) if !real.starts_with(root.as_path()) => StatusCode::NOT_FOUND.into_response(),
        _ => next.run(request).await,
    }
}

/// An API error: a status and a JSON body `{"error": .., "path": ..}`.
struct ApiError {
    status: StatusCode,
    message: String,
    path: Option<String>,
    retry_after: Option<u64>,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            path: None,
            retry_after: None,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "error": self.message });
        if let Some(path) = self.path {
            body["path"] = Value::from(path);
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// 401 unless the request carries the server's bearer token (when it has one).
async fn require_token(
    State(state): State<Arc<ServerState>>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(token) = &state.token {
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        // Compared in constant time: the token is a secret.
        let matches = given.is_some_and(|given| {
            given.len() == token.len()
                && given
                    .bytes()
                    .zip(token.bytes())
                    .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                    == 0
        });
        if !matches {
            return ApiError::new(
                StatusCode::UNAUTHORIZED,
                "this server needs `Authorization: Bearer <token>`",
            )
            .into_response();
        }
    }
    next.run(request).await
}

async fn health(State(state): State<Arc<ServerState>>) -> Json<Value> {
    let limits = state.evaluator.limits;
    Json(json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "languages": state.languages.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "tasks": state.tasks.len(),
        "limits": limits_json(&limits),
        "queue": {
            "depth": state.queue.depth(),
            "capacity": state.queue.capacity(),
            "wait_capacity": state.queue.patient_capacity(),
            "workers": state.queue.workers(),
        },
        "sandbox_fusion": {
            "max_memory": state.sandbox_fusion.memory,
            "max_run_timeout": state.sandbox_fusion.run_timeout,
        },
    }))
}

fn limits_json(limits: &Limits) -> Value {
    json!({
        "fuel": limits.fuel,
        "memory": limits.memory,
        "timeout_ms": limits.timeout.as_millis() as u64,
        "output": limits.output,
        "disk": limits.disk,
        // Whether a task's reference time limit sets its samples' fuel instead (as in `run`).
        "fuel_from_time_limit": limits.fuel_from_time_limit,
    })
}

#[derive(Deserialize)]
struct TasksQuery {
    #[serde(default = "first_page")]
    page: usize,
    #[serde(default = "default_per_page")]
    per_page: usize,
    /// A `--where` query, as `wasmeval report` takes it.
    #[serde(default, rename = "where")]
    selection: Option<String>,
}

fn first_page() -> usize {
    1
}

fn default_per_page() -> usize {
    50
}

/// The tasks, a page at a time, selected as `report --where` selects them.
async fn tasks(
    State(state): State<Arc<ServerState>>,
    query: Result<UrlQuery<TasksQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    // A malformed query string (`page=two`) is answered in JSON, as every error here.
    let UrlQuery(query) =
        query.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))?;
    let selection = match &query.selection {
        Some(text) => wasmeval_core::query::Query::parse(text)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("`where`: {e}")))?,
        None => wasmeval_core::query::Query::default(),
    };
    let per_page = query.per_page.clamp(1, 500);
    let page = query.page.max(1);
    let selected: Vec<&Task> = state
        .tasks
        .iter()
        .filter(|t| selection.matches_task(t))
        .collect();
    let shown: Vec<Value> = selected
        .iter()
        .skip((page - 1).saturating_mul(per_page))
        .take(per_page)
        .map(|t| {
            json!({
                "id": t.id,
                "title": t.title,
                "language": t.language.to_string(),
                "entry_point": t.entry_point,
                "cases": t.case_count(),
            })
        })
        .collect();
    Ok(Json(json!({
        "total": selected.len(),
        "page": page,
        "per_page": per_page,
        "tasks": shown,
    })))
}

async fn task(
    State(state): State<Arc<ServerState>>,
    UrlPath(id): UrlPath<String>,
) -> Result<Json<Task>, ApiError> {
    let found = state.by_id.get(&TaskId(id.clone())).copied();
    match found {
        Some(index) => Ok(Json(state.tasks[index].clone())),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no task `{id}` on this server (GET /api/v1/tasks lists them)"),
        )),
    }
}

/// `POST /api/v1/evaluate`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvaluateRequest {
    /// A task of this server...
    #[serde(default)]
    task_id: Option<String>,
    /// ... or one given inline, in wasmeval's own format.
    #[serde(default)]
    task: Option<Task>,
    /// Appended to the task's prompt...
    #[serde(default)]
    completion: Option<String>,
    /// ... or the whole program.
    #[serde(default)]
    solution: Option<String>,
    #[serde(default)]
    model: Option<String>,
    /// Lower limits than the server's, for this sample.
    #[serde(default)]
    limits: Option<RequestLimits>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RequestLimits {
    fuel: Option<u64>,
    memory: Option<u64>,
    timeout_ms: Option<u64>,
    output: Option<u64>,
    disk: Option<u64>,
}

impl RequestLimits {
    /// `maxima` lowered where this asks for less; never raised.
    fn within(&self, maxima: Limits) -> Limits {
        Limits {
            fuel: self.fuel.map_or(maxima.fuel, |v| v.min(maxima.fuel)),
            memory: self.memory.map_or(maxima.memory, |v| v.min(maxima.memory)),
            timeout: self.timeout_ms.map_or(maxima.timeout, |ms| {
                Duration::from_millis(ms.max(1)).min(maxima.timeout)
            }),
            output: self.output.map_or(maxima.output, |v| v.min(maxima.output)),
            disk: self.disk.map_or(maxima.disk, |v| v.min(maxima.disk)),
            // A request's own fuel is a maximum that a task's time limit does not raise.
            fuel_from_time_limit: maxima.fuel_from_time_limit && self.fuel.is_none(),
            sleep_limit: maxima.sleep_limit,
        }
    }
}

/// Reads an evaluate request (`body`, one JSON object) into the work it asks for: an error names
/// the JSON path at fault or what is missing.
fn prepare(state: &ServerState, body: &[u8], index: u64) -> Result<Work, ApiError> {
    let request: EvaluateRequest = parse_body(body)?;
    let task = match (request.task, request.task_id) {
        (Some(task), None) => task,
        (None, Some(id)) => match state.by_id.get(&TaskId(id.clone())) {
            Some(&index) => state.tasks[index].clone(),
            None => {
                return Err(ApiError::new(
                    StatusCode::NOT_FOUND,
                    format!("no task `{id}` on this server (GET /api/v1/tasks lists them)"),
                ))
            }
        },
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "give exactly one of `task_id` and `task`",
            ))
        }
    };
    let code = match (request.completion, request.solution) {
        (Some(completion), None) => SampleCode::Completion(completion),
        (None, Some(solution)) => SampleCode::Solution(solution),
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "give exactly one of `completion` and `solution`",
            ))
        }
    };
    if !state.languages.contains(&task.language) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("this server cannot run {} samples", task.language),
        ));
    }
    let limits = request
        .limits
        .map_or(state.evaluator.limits, |l| l.within(state.evaluator.limits));
    // A client's task cannot buy a budget past what the server allows any run.
    let mut task = task;
    task.time_limit = task
        .time_limit
        .map(|seconds| seconds.min(state.sandbox_fusion.run_timeout));
    let sample = Sample {
        index,
        task_id: task.id.clone(),
        model: request.model,
        code,
        info: Default::default(),
    };
    let evaluator = state.evaluator.clone();
    Ok(Box::new(move || {
        let result = evaluator.evaluate_within(&task, &sample, limits)?;
        let result = wasmeval_core::SampleResult {
            code: Some(sample.program(&task)),
            ..result
        };
        Ok(serde_json::to_value(result)?)
    }))
}

/// `body` read as a `T`, or a 400 naming the JSON path at fault.
fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| ApiError {
        path: Some(error.path().to_string()),
        ..ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("malformed request at `{}`: {}", error.path(), error.inner()),
        )
    })
}

/// A queued job's answer as a response: its JSON, a 400 when the request cannot be run as asked
/// (a memory limit the interpreter cannot start in), or a 500 when the host failed.
async fn answer(
    receiver: tokio::sync::oneshot::Receiver<Result<Value, queue::JobError>>,
) -> Result<Json<Value>, ApiError> {
    match receiver.await {
        Ok(Ok(value)) => Ok(Json(value)),
        Ok(Err(error)) => Err(ApiError::new(error.status(), error.message)),
        Err(_) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the evaluation was dropped",
        )),
    }
}

/// A 429: every worker busy and the queue full.
fn busy() -> ApiError {
    ApiError {
        retry_after: Some(1),
        ..ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "every worker is busy and the queue is full; retry later",
        )
    }
}

/// Evaluates one sample: the same JSON object as one line of results.jsonl.
async fn evaluate(
    State(state): State<Arc<ServerState>>,
    axum::extract::Extension(max_body): axum::extract::Extension<MaxLine>,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    // A body over --max-body (413), or one that did not arrive, is answered in JSON too.
    let body = body.map_err(|e| match e.status() {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the body is over --max-body ({} bytes); POST /api/v1/evaluate/batch takes \
                 many requests, one a line",
                max_body.0
            ),
        ),
        status => ApiError::new(status, e.body_text()),
    })?;
    let work = prepare(&state, &body, 0)?;
    let receiver = state
        .queue
        .submit(work)
        .map_err(|(Refused::Full, _)| busy())?;
    // Dropping the receiver (a client that leaves) tells the queue to skip the job.
    answer(receiver).await
}

/// Evaluates JSON Lines of evaluate requests, answering JSON Lines as each finishes: a result
/// (its `index` the request's line, from 0) or `{"line": n, "error": .., "path": ..}`. It holds
/// at most as many requests in flight as there are workers and reads no further while they run,
/// so a client can send thousands of lines and the server's memory stays bounded; a full queue
/// (other clients) makes it wait, not refuse. A line longer than `--max-body` ends the batch with
/// an error line. A client that leaves stops the reading.
async fn evaluate_batch(
    State(state): State<Arc<ServerState>>,
    axum::extract::Extension(max_line): axum::extract::Extension<MaxLine>,
    body: axum::body::Body,
) -> Response {
    use futures_util::StreamExt;
    let (sender, mut receiver) = tokio::sync::mpsc::channel::<Vec<u8>>(16);
    tokio::spawn(async move {
        let in_flight = Arc::new(tokio::sync::Semaphore::new(state.queue.workers()));
        let mut stream = body.into_data_stream();
        let mut pending: Vec<u8> = Vec::new();
        let mut line_number = 0u64;
        let mut ended = false;
        while !ended && !sender.is_closed() {
            let chunk = match stream.next().await {
                Some(Ok(chunk)) => chunk,
                Some(Err(_)) => break,
                None => {
                    ended = true;
                    bytes::Bytes::new()
                }
            };
            pending.extend_from_slice(&chunk);
            loop {
                let line = match pending.iter().position(|&b| b == b'\n') {
                    Some(at) => pending.drain(..=at).collect::<Vec<u8>>(),
                    None if ended && !pending.is_empty() => std::mem::take(&mut pending),
                    None => break,
                };
                let number = line_number;
                line_number += 1;
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let work = match prepare(&state, &line, number) {
                    Ok(work) => work,
                    Err(error) => {
                        let _ = sender.send(error_line(number, error)).await;
                        continue;
                    }
                };
                let Ok(permit) = in_flight.clone().acquire_owned().await else {
                    return;
                };
                let mut work = work;
                let receiver = loop {
                    match state.queue.submit(work) {
                        Ok(receiver) => break receiver,
                        Err((Refused::Full, refused)) => {
                            // Wait for room rather than refuse: the batch is back-pressured.
                            work = refused;
                            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        }
                    }
                };
                let sender = sender.clone();
                tokio::spawn(async move {
                    let line = match receiver.await {
                        Ok(Ok(value)) => json_line(&value),
                        Ok(Err(error)) => {
                            error_line(number, ApiError::new(error.status(), error.message))
                        }
                        Err(_) => return,
                    };
                    let _ = sender.send(line).await;
                    drop(permit);
                });
            }
            if pending.len() > max_line.0 {
                let error = ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("a line over --max-body ({} bytes)", max_line.0),
                );
                let _ = sender.send(error_line(line_number, error)).await;
                break;
            }
        }
        // Every request in flight answers before the stream ends.
        let _ = in_flight
            .acquire_many_owned(state.queue.workers() as u32)
            .await;
    });
    let stream = futures_util::stream::poll_fn(move |cx| {
        receiver
            .poll_recv(cx)
            .map(|line| line.map(Ok::<_, std::convert::Infallible>))
    });
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::from_stream(stream),
    )
        .into_response()
}

/// The longest line a batch may hold (`--max-body`).
#[derive(Clone, Copy)]
pub struct MaxLine(pub usize);

fn json_line(value: &Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(value).unwrap_or_default();
    line.push(b'\n');
    line
}

fn error_line(line: u64, error: ApiError) -> Vec<u8> {
    let mut body = json!({ "line": line, "error": error.message });
    if let Some(path) = error.path {
        body["path"] = Value::from(path);
    }
    json_line(&body)
}

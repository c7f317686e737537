//! The page's side of the browser sandbox (`browser-sandbox/`): one module worker
//! (`sandbox/worker.js`) kept while it is useful (its guests stay compiled), a request per run,
//! and the wall-clock backstop: when a run outlives its time limit after the worker started it,
//! the page terminates the worker (`Worker.terminate`) and the run is a `timeout` with cause
//! `wall`, so an endless loop never freezes the tab. Cancel terminates it the same way.

use js_sys::{Promise, Reflect};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasmeval_core::judging::{CaseLog, Outcome};
use wasmeval_core::{Language, Sample, SampleCode, SampleResult, Task, TimeoutCause};

/// The guests a site ships, as `report --site DIR --with-runtimes` lays them out.
pub const GUESTS: [(Language, &str); 2] = [
    (Language::Python, "runtimes/python/guest.json"),
    (Language::Javascript, "runtimes/js/guest.json"),
];

/// The limits of a run in this browser: `wasmeval run`'s defaults.
pub const LIMITS: Limits = Limits::RUN_DEFAULTS;

/// A run's limits, as the worker reads them (core's).
pub use wasmeval_core::evaluation::BrowserLimits as Limits;

/// The limits of runs in this browser: [`LIMITS`], with the page's `?timeout=SECONDS` and
/// `?fuel=UNITS` when it was opened with them (a teacher's shorter or longer demo, or a test of the
/// backstop). Read once, by [`remember_url_limits`] on start: the app rewrites the URL to name
/// the view.
pub fn limits() -> Limits {
    URL_LIMITS.with(|l| l.get()).unwrap_or(LIMITS)
}

/// Reads `?timeout=SECONDS` and `?fuel=UNITS` (`1e11` allowed) of the page's URL as it was
/// opened.
pub fn remember_url_limits() {
    let number = |name: &str| {
        crate::browser::url_parameter(name)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|t| t.is_finite() && *t > 0.0)
    };
    let limits = Limits {
        timeout_ms: number("timeout").map_or(LIMITS.timeout_ms, |t| (t * 1000.0).ceil() as u64),
        fuel: number("fuel").map_or(LIMITS.fuel, |f| f as u64),
        ..LIMITS
    };
    if limits != LIMITS {
        URL_LIMITS.with(|l| l.set(Some(limits)));
    }
    FUEL_FROM_URL.with(|f| f.set(number("fuel").is_some()));
}

/// `limits` for a sample of `task`: its reference time limit's budget, as `wasmeval run` gives
/// it when no `--fuel` is given, unless the page's URL set the fuel.
pub fn limits_for(task: &Task, limits: Limits) -> Limits {
    match FUEL_FROM_URL.with(|f| f.get()) {
        true => limits,
        false => limits.for_task(task.language, task.time_limit),
    }
}

thread_local! {
    static WORKER: RefCell<Option<web_sys::Worker>> = const { RefCell::new(None) };
    static URL_LIMITS: std::cell::Cell<Option<Limits>> = const { std::cell::Cell::new(None) };
    static FUEL_FROM_URL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The worker, started when there is none.
fn worker() -> Result<web_sys::Worker, String> {
    if let Some(worker) = WORKER.with(|w| w.borrow().clone()) {
        return Ok(worker);
    }
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("sandbox/worker.js", &options)
        .map_err(|e| format!("this browser cannot start the sandbox's worker: {e:?}"))?;
    WORKER.with(|w| *w.borrow_mut() = Some(worker.clone()));
    Ok(worker)
}

/// Stops the worker (a run past its time, or cancelled); the next run starts a new one.
pub fn terminate() {
    if let Some(worker) = WORKER.with(|w| w.borrow_mut().take()) {
        worker.terminate();
    }
}

/// What came back from the worker.
pub struct Answer {
    /// The result.
    pub result: SampleResult,
    /// Bytes the worker has downloaded since it started.
    pub downloaded: u64,
}

/// Evaluates `code`, a whole program for `task`, in this browser. `Err` when the sandbox could
/// not run it (a missing guest, a cancelled run).
pub async fn evaluate(
    task: &Task,
    code: &str,
    limits: Limits,
    on_progress: impl Fn(String) + 'static,
) -> Result<Answer, String> {
    let sample = Sample {
        index: 0,
        task_id: task.id.clone(),
        model: None,
        code: SampleCode::Solution(code.to_owned()),
        info: Default::default(),
    };
    let runtimes = page_base() + "runtimes/";
    let request = serde_json::json!({
        "task": task, "sample": sample, "limits": limits, "runtimes": runtimes,
    })
    .to_string();
    let worker = worker()?;
    let timeout_ms = limits.timeout_ms;
    // The worker answers twice: `started` once its guest is loaded (the clock starts then:
    // downloading and compiling a guest is not the program's time), then the answer.
    let on_progress = std::rc::Rc::new(on_progress);
    let answer = Promise::new(&mut |resolve, _reject| {
        let on_progress = on_progress.clone();
        let on_message = {
            let resolve = resolve.clone();
            let timer = RefCell::new(None::<i32>);
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
                let data = event.data();
                if let Some(loading) = Reflect::get(&data, &"loading".into())
                    .ok()
                    .filter(JsValue::is_object)
                {
                    on_progress(progress_text(&loading));
                    return;
                }
                if Reflect::get(&data, &"started".into()).is_ok_and(|v| v.is_truthy()) {
                    on_progress("Running in this browser's sandbox…".into());
                    let resolve = resolve.clone();
                    let stop = Closure::once_into_js(move || {
                        terminate();
                        let _ = resolve.call1(&JsValue::NULL, &JsValue::from_str("wall"));
                    });
                    let id = web_sys::window().and_then(|w| {
                        w.set_timeout_with_callback_and_timeout_and_arguments_0(
                            stop.unchecked_ref(),
                            i32::try_from(timeout_ms).unwrap_or(i32::MAX),
                        )
                        .ok()
                    });
                    *timer.borrow_mut() = id;
                    return;
                }
                if let (Some(window), Some(id)) = (web_sys::window(), timer.borrow_mut().take()) {
                    window.clear_timeout_with_handle(id);
                }
                let _ = resolve.call1(&JsValue::NULL, &data);
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let _ = worker.post_message(&JsValue::from_str(&request));
    });
    let data = JsFuture::from(answer).await.map_err(|e| format!("{e:?}"))?;
    if data.as_string().as_deref() == Some("wall") {
        return Ok(Answer {
            result: stopped_by_the_page(&sample, timeout_ms),
            downloaded: 0,
        });
    }
    if let Some(error) = Reflect::get(&data, &"error".into())
        .ok()
        .and_then(|e| e.as_string())
    {
        return Err(error);
    }
    let text = Reflect::get(&data, &"ok".into())
        .ok()
        .and_then(|t| t.as_string())
        .ok_or("the sandbox's worker answered nothing")?;
    let answer: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("the worker's answer: {e}"))?;
    let result = serde_json::from_value(answer["result"].clone())
        .map_err(|e| format!("the worker's result: {e}"))?;
    Ok(Answer {
        result,
        downloaded: answer["downloaded"].as_u64().unwrap_or(0),
    })
}

/// "Loading python.wasm… 45.1 of 130.8 MB" from the worker's `{url, received, total}`.
fn progress_text(loading: &JsValue) -> String {
    let field = |key: &str| Reflect::get(loading, &key.into()).ok();
    let url = field("url").and_then(|u| u.as_string()).unwrap_or_default();
    let name = url.rsplit('/').next().unwrap_or(&url).to_owned();
    let received = field("received").and_then(|r| r.as_f64()).unwrap_or(0.0) / 1e6;
    match field("total").and_then(|t| t.as_f64()) {
        Some(total) => format!(
            "Loading the interpreter ({name}, once; then cached)… {received:.1} of {:.1} MB",
            total / 1e6
        ),
        None => format!("Loading the interpreter ({name}, once; then cached)… {received:.1} MB"),
    }
}

/// The result of a run the page stopped after `timeout_ms`: a `timeout` with cause `wall`.
fn stopped_by_the_page(sample: &Sample, timeout_ms: u64) -> SampleResult {
    let mut log = CaseLog::new();
    log.fail_without_cases(Outcome::timeout(
        Some(TimeoutCause::Wall),
        format!(
            "the page stopped the run after {} s of wall-clock time (the sandbox's worker was terminated)",
            timeout_ms as f64 / 1000.0
        ),
    ));
    log.finish(SampleResult::for_sample(sample))
}

/// The folder of the page's URL (where `runtimes/` is), ending in `/`.
fn page_base() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let without_query = href.split(['?', '#']).next().unwrap_or("").to_owned();
    match without_query.rfind('/') {
        Some(slash) => without_query[..=slash].to_owned(),
        None => without_query,
    }
}

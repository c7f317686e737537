//! The playground: pick a task of the bundle (or a program with stdin), edit code and run it on
//! the `wasmeval serve` that served the page, with the same sandbox, limits and verdicts as
//! `wasmeval run`, or, on a static host whose site ships guests (`--with-runtimes`), a Python or
//! JavaScript task's code in this browser (`sandbox_worker`); the view says which. On a static
//! host without guests it says what it needs instead.
//!
//! A task's code goes to `POST api/v1/evaluate` with the bundle's task inline, so the cases run are
//! the ones the page shows; a program with stdin goes to `POST run_code` (SandboxFusion's API).
//! The draft lives in the store, so it survives a switch of view; the run belongs to this view.

use super::sample_detail::result_view;
use super::use_store;
use crate::browser;
use crate::sandbox_worker;
use crate::state::{Action, Draft, Health, Server};
use serde::Deserialize;
use wasmeval_core::{Language, SampleResult, Task};
use yew::prelude::*;

/// Where a run stands.
#[derive(Clone, PartialEq)]
enum Run {
    /// Nothing run yet.
    Idle,
    /// Waiting for the server (aborting the controller cancels the request) or, with no
    /// controller, for the browser's sandbox (cancelling terminates its worker).
    Running(Option<web_sys::AbortController>),
    /// A task's sample, judged.
    Judged(Box<SampleResult>),
    /// A program run on its stdin.
    Ran(Box<ProgramRun>),
    /// The run could not be done, and why.
    Failed(String),
}

/// What `run_code` answers (SandboxFusion's `RunCodeResponse`), the fields shown.
#[derive(Clone, PartialEq, Deserialize)]
struct ProgramRun {
    status: String,
    #[serde(default)]
    message: String,
    compile_result: Option<Execution>,
    run_result: Option<Execution>,
}

/// One execution of a `run_code` answer.
#[derive(Clone, PartialEq, Deserialize)]
struct Execution {
    status: String,
    execution_time: Option<f64>,
    return_code: Option<i64>,
    #[serde(default)]
    stdout: String,
    #[serde(default)]
    stderr: String,
}

/// What runs the code.
#[derive(Clone, PartialEq)]
enum Host {
    /// The `wasmeval serve` that served the page.
    Server(Health),
    /// This browser's sandbox, for these languages.
    Browser(Vec<Language>),
}

/// The playground view.
#[function_component(Playground)]
pub fn playground() -> Html {
    let store = use_store();
    let run = use_state(|| Run::Idle);
    // What the browser's sandbox says while a run starts (a guest's download).
    let progress = use_state(|| None::<String>);
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let host = match &store.server {
        Server::Probing => {
            return html! { <p class="hint" data-testid="playground-probing">{ "Looking for a wasmeval server…" }</p> }
        }
        Server::Absent => return explanation(),
        Server::Browser(languages) => Host::Browser(languages.clone()),
        Server::Locked => {
            return html! {
                <section class="playground" data-testid="playground-unavailable">
                    <h2>{ "Playground" }</h2>
                    <p>{ "This wasmeval server requires a token for its API (it was started with --token), and the page cannot send one. Run the playground on a server started on loopback without --token, for example `wasmeval serve --demo`." }</p>
                </section>
            }
        }
        Server::Present(health) => Host::Server(health.clone()),
    };
    let draft = store.draft.clone();
    let task = draft
        .task
        .as_ref()
        .and_then(|id| data.bundle.tasks.iter().find(|t| &t.id == id))
        .cloned();
    let set_draft = {
        let store = store.clone();
        Callback::from(move |draft: Draft| store.dispatch(Action::Draft(draft)))
    };
    let on_task = {
        let (set_draft, data, draft) = (set_draft.clone(), data.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let id = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let next = match data.bundle.tasks.iter().find(|t| t.id.0 == id) {
                Some(task) => Draft::for_task(task),
                None => Draft {
                    task: None,
                    ..draft.clone()
                },
            };
            set_draft.emit(next);
        })
    };
    let on_language = {
        let (set_draft, draft) = (set_draft.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let name = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(language) = Language::parse(&name) {
                set_draft.emit(Draft {
                    language,
                    ..draft.clone()
                });
            }
        })
    };
    let on_code = {
        let (set_draft, draft) = (set_draft.clone(), draft.clone());
        Callback::from(move |code: String| {
            set_draft.emit(Draft {
                code,
                ..draft.clone()
            })
        })
    };
    let on_stdin = {
        let (set_draft, draft) = (set_draft.clone(), draft.clone());
        Callback::from(move |e: InputEvent| {
            let stdin = e
                .target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                .value();
            set_draft.emit(Draft {
                stdin,
                ..draft.clone()
            })
        })
    };
    let start = {
        let (run, draft, task, host, progress) = (
            run.clone(),
            draft.clone(),
            task.clone(),
            host.clone(),
            progress.clone(),
        );
        Callback::from(move |()| {
            if matches!(*run, Run::Running(_)) {
                return;
            }
            match (&host, &task) {
                (Host::Browser(_), Some(task)) => {
                    start_in_browser(run.clone(), progress.clone(), &draft, task)
                }
                _ => start_run(run.clone(), &draft, task.as_ref()),
            }
        })
    };
    let on_run = {
        let start = start.clone();
        Callback::from(move |_: MouseEvent| start.emit(()))
    };
    let on_cancel = {
        let run = run.clone();
        Callback::from(move |_: MouseEvent| match &*run {
            Run::Running(Some(controller)) => controller.abort(),
            Run::Running(None) => {
                sandbox_worker::terminate();
                run.set(Run::Failed("Cancelled.".into()));
            }
            _ => {}
        })
    };
    let running = matches!(*run, Run::Running(_));
    let languages: Vec<Language> = match &host {
        Host::Server(health) => health
            .languages
            .iter()
            .filter_map(|name| Language::parse(name))
            .collect(),
        Host::Browser(languages) => languages.clone(),
    };
    let in_browser = matches!(host, Host::Browser(_));
    // In the browser only a task's code runs (its cases judged as `run` judges them).
    let runnable = languages.contains(&draft.language) && !(in_browser && task.is_none());
    let (place, limits_hint) = match &host {
        Host::Server(health) => (
            "on the server",
            format!(
                "The wasmeval server that served this page (version {}) runs it in its sandbox: at most {} fuel, {} MiB of memory, {} s.",
                health.version,
                group_digits(health.limits.fuel),
                health.limits.memory >> 20,
                health.limits.timeout_ms as f64 / 1000.0,
            ),
        ),
        Host::Browser(_) => {
            let limits = sandbox_worker::limits();
            (
                "in this browser",
                format!(
                    "wasmeval's sandbox, built for WebAssembly, runs it here: no server, and the code never leaves the page. At most {} fuel, {} MiB of memory, {} s, as `wasmeval run`. The first run of a language downloads its interpreter once.",
                    group_digits(limits.fuel),
                    limits.memory >> 20,
                    limits.timeout_ms as f64 / 1000.0,
                ),
            )
        }
    };
    let not_runnable = if in_browser && task.is_none() {
        "A program with stdin runs on `wasmeval serve`; pick a task to run its code in this browser."
            .to_owned()
    } else if in_browser {
        format!(
            "{} needs `wasmeval serve`: this browser runs Python and JavaScript.",
            draft.language.title()
        )
    } else {
        format!(
            "This server cannot run {}: it has no runtime for it.",
            draft.language
        )
    };
    html! {
        <section class="playground" data-testid="playground" aria-busy={running.to_string()}>
            <h2>{ "Playground" }</h2>
            <p class="hint">
                <strong data-testid="playground-where">{ format!("Runs {place}.") }</strong>
                { " " }{ limits_hint }
            </p>
            <div class="menus">
                <label class="filter">
                    <span>{ "task" }</span>
                    <select data-testid="playground-task" onchange={on_task}>
                        <option value="" selected={task.is_none()}>{ "program with stdin" }</option>
                        { for data.bundle.tasks.iter().map(|t| html! {
                            <option value={t.id.0.clone()} selected={task.as_ref().is_some_and(|s| s.id == t.id)}>
                                { task_label(t) }
                            </option>
                        }) }
                    </select>
                </label>
                if task.is_some() {
                    <span class="filter"><span>{ "language" }</span>{ draft.language.as_str() }</span>
                } else {
                    <label class="filter">
                        <span>{ "language" }</span>
                        <select data-testid="playground-language" onchange={on_language}>
                            { for languages.iter().map(|&l| html! {
                                <option value={l.as_str()} selected={l == draft.language}>{ l.as_str() }</option>
                            }) }
                        </select>
                    </label>
                }
            </div>
            if let Some(task) = &task {
                <p class="hint">{ format!(
                    "The whole program runs against the task's {} test cases; the task's prompt is filled in.",
                    task.case_count()
                ) }</p>
            }
            <CodeEditor value={AttrValue::from(draft.code.clone())} oninput={on_code} onrun={start} />
            if task.is_none() {
                <p class="hint">{ "The program runs once on this input; the answer shows its output, exit code and time." }</p>
                <label class="stdin">
                    <span>{ "stdin" }</span>
                    <textarea data-testid="playground-stdin" rows="3" spellcheck="false"
                        value={draft.stdin.clone()} oninput={on_stdin} />
                </label>
            }
            <div class="actions">
                if running {
                    <button data-testid="playground-run" disabled=true>{ "Running…" }</button>
                    <button data-testid="playground-cancel" onclick={on_cancel}>{ "Cancel" }</button>
                } else if runnable {
                    <button data-testid="playground-run" onclick={on_run} title="Ctrl+Enter">{ "Run" }</button>
                } else {
                    <p class="error" data-testid="playground-not-runnable">{ not_runnable }</p>
                }
            </div>
            <div data-testid="playground-result" role="status" aria-live="polite">
                { outcome(&run, progress.as_deref(), &task.as_ref().map(Task::case_tests).unwrap_or_default()) }
            </div>
        </section>
    }
}

/// What the page says on a static host, where nothing can run code.
fn explanation() -> Html {
    html! {
        <section class="playground" data-testid="playground-unavailable">
            <h2>{ "Playground" }</h2>
            <p>{ "The playground runs code in wasmeval's sandbox on a server. This page was opened from a static host, which cannot run code." }</p>
            <p>{ "To use it, start the server on your machine and open the address it prints:" }</p>
            <ul>
                <li><code>{ "wasmeval serve --demo" }</code>{ ": the demo's tasks and results;" }</li>
                <li><code>{ "wasmeval serve --results out/demo" }</code>{ ": a run of your own." }</li>
            </ul>
            <p class="hint">{ "Everything else on this page works without a server." }</p>
        </section>
    }
}

/// `1234567` as `1,234,567`.
fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A task in the menu: its id, and its title when it has one.
fn task_label(task: &Task) -> String {
    if task.title.is_empty() {
        task.id.0.clone()
    } else {
        format!("{} — {}", task.id.0, task.title)
    }
}

/// Sends the draft to the server and records the answer in `run`.
fn start_run(run: UseStateHandle<Run>, draft: &Draft, task: Option<&Task>) {
    let Ok(controller) = web_sys::AbortController::new() else {
        run.set(Run::Failed("this browser cannot make requests".into()));
        return;
    };
    let signal = controller.signal();
    run.set(Run::Running(Some(controller)));
    let (url, body) = match task {
        Some(task) => (
            "api/v1/evaluate",
            serde_json::json!({ "task": task, "solution": draft.code }),
        ),
        None => (
            "run_code",
            serde_json::json!({
                "code": draft.code,
                "language": draft.language.as_str(),
                "stdin": draft.stdin,
            }),
        ),
    };
    let judged = task.is_some();
    wasm_bindgen_futures::spawn_local(async move {
        let answer = browser::post_json(url, &body.to_string(), &signal).await;
        let next = match answer {
            Err(_) if signal.aborted() => Run::Failed("Cancelled.".into()),
            Err(message) => Run::Failed(message),
            Ok(text) if judged => match serde_json::from_str::<SampleResult>(&text) {
                Ok(result) => Run::Judged(Box::new(result)),
                Err(e) => Run::Failed(format!("the server's answer is not a result: {e}")),
            },
            Ok(text) => match serde_json::from_str::<ProgramRun>(&text) {
                Ok(ran) => Run::Ran(Box::new(ran)),
                Err(e) => Run::Failed(format!("the server's answer is not a run: {e}")),
            },
        };
        run.set(next);
    });
}

/// Runs the draft, a whole program for `task`, in this browser's sandbox and records the result
/// in `run`.
fn start_in_browser(
    run: UseStateHandle<Run>,
    progress: UseStateHandle<Option<String>>,
    draft: &Draft,
    task: &Task,
) {
    run.set(Run::Running(None));
    progress.set(None);
    let (task, code) = (task.clone(), draft.code.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let shown = progress.clone();
        let on_progress = move |text: String| shown.set(Some(text));
        let answer = sandbox_worker::evaluate(
            &task,
            &code,
            sandbox_worker::limits_for(&task, sandbox_worker::limits()),
            on_progress,
        );
        let next = match answer.await {
            Ok(answer) => Run::Judged(Box::new(answer.result)),
            Err(message) => Run::Failed(message),
        };
        // A cancelled run's answer never comes (its worker is gone), so this is the live run's.
        run.set(next);
    });
}

/// The run's outcome.
fn outcome(run: &Run, progress: Option<&str>, tests: &[(String, String)]) -> Html {
    match run {
        Run::Idle => html! {},
        Run::Running(None) => html! {
            <p class="hint" data-testid="playground-progress">
                { progress.unwrap_or("Starting this browser's sandbox…") }
            </p>
        },
        Run::Running(Some(_)) => html! { <p class="hint">{ "Running in the sandbox…" }</p> },
        Run::Failed(message) => {
            html! { <p class="error" data-testid="playground-error">{ message }</p> }
        }
        Run::Judged(result) => html! {
            <>
                <h3>{ "Result " }<span class={format!("verdict {}", result.verdict.as_str())}
                    data-testid="playground-verdict">{ result.verdict.as_str() }</span></h3>
                { result_view(result, None, tests) }
            </>
        },
        Run::Ran(ran) => {
            let verdict = match ran.status.as_str() {
                "Success" => "passed",
                _ => "failed",
            };
            html! {
                <>
                    <h3>{ "Result " }<span class={format!("verdict {verdict}")} data-testid="playground-verdict">{ &ran.status }</span></h3>
                    if !ran.message.is_empty() { <p class="message"><code>{ &ran.message }</code></p> }
                    { execution("build", ran.compile_result.as_ref()) }
                    { execution("run", ran.run_result.as_ref()) }
                </>
            }
        }
    }
}

fn execution(name: &str, execution: Option<&Execution>) -> Html {
    let Some(e) = execution else {
        return html! {};
    };
    let mut figures = vec![("status", e.status.clone())];
    if let Some(code) = e.return_code {
        figures.push(("exit code", code.to_string()));
    }
    if let Some(seconds) = e.execution_time {
        figures.push(("time", format!("{:.1} ms", seconds * 1000.0)));
    }
    html! {
        <>
            <h4>{ name }</h4>
            <dl class="figures">
                { for figures.iter().map(|(k, v)| html! { <><dt>{ *k }</dt><dd>{ v }</dd></> }) }
            </dl>
            if !e.stdout.is_empty() { <h4>{ "stdout" }</h4><pre class="excerpt">{ &e.stdout }</pre> }
            if !e.stderr.is_empty() { <h4>{ "stderr" }</h4><pre class="excerpt">{ &e.stderr }</pre> }
        </>
    }
}

/// What [`CodeEditor`] edits.
#[derive(Properties, PartialEq)]
struct CodeEditorProps {
    /// The code.
    value: AttrValue,
    /// Called with the new code on every edit.
    oninput: Callback<String>,
    /// Ctrl+Enter (or Cmd+Enter).
    onrun: Callback<()>,
}

/// A plain textarea with a line-number gutter that scrolls with it. Tab indents by four spaces;
/// Escape and then Tab leaves the editor, as keyboard users expect of a code editor.
#[function_component(CodeEditor)]
fn code_editor(props: &CodeEditorProps) -> Html {
    let gutter = use_node_ref();
    let escaped = use_mut_ref(|| false);
    let lines = props.value.split('\n').count();
    let onkeydown = {
        let (oninput, onrun, escaped) =
            (props.oninput.clone(), props.onrun.clone(), escaped.clone());
        Callback::from(move |e: KeyboardEvent| {
            let key = e.key();
            if key == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                onrun.emit(());
                return;
            }
            if key == "Escape" {
                *escaped.borrow_mut() = true;
                return;
            }
            let leave = std::mem::take(&mut *escaped.borrow_mut());
            if key != "Tab" || leave || e.shift_key() || e.ctrl_key() || e.alt_key() || e.meta_key()
            {
                return;
            }
            e.prevent_default();
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            // Selection offsets are in UTF-16 units, as `setRangeText` takes them.
            let start = area.selection_start().ok().flatten().unwrap_or(0);
            let end = area.selection_end().ok().flatten().unwrap_or(start);
            if area
                .set_range_text_with_start_and_end_and_mode("    ", start, end, "end")
                .is_ok()
            {
                oninput.emit(area.value());
            }
        })
    };
    let oninput = {
        let oninput = props.oninput.clone();
        Callback::from(move |e: InputEvent| {
            oninput.emit(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            )
        })
    };
    let onscroll = {
        let gutter = gutter.clone();
        Callback::from(move |e: Event| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            if let Some(gutter) = gutter.cast::<web_sys::Element>() {
                gutter.set_scroll_top(area.scroll_top());
            }
        })
    };
    let numbers: String = (1..=lines).map(|n| format!("{n}\n")).collect();
    html! {
        <div class="editor">
            <pre class="gutter" aria-hidden="true" ref={gutter}>{ numbers }</pre>
            <textarea data-testid="playground-code" aria-label="code (Tab indents; Escape then Tab leaves; Ctrl+Enter runs)"
                spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off" rows="16"
                value={props.value.clone()} {oninput} {onkeydown} {onscroll} />
        </div>
    }
}

//! One sample in detail: its code with line numbers, each test case's verdict and message, the
//! output excerpts, and what it cost (fuel, time, memory, output); "Edit and run" opens it in the
//! playground when a server can run it.

use super::use_store;
use crate::state::{Action, Server};
use wasmeval_core::{SampleResult, Task};
use yew::prelude::*;

/// What [`SampleDetail`] shows.
#[derive(Properties, PartialEq)]
pub struct SampleDetailProps {
    /// The sample's result.
    pub result: SampleResult,
    /// Its task, when the bundle has it.
    #[prop_or_default]
    pub task: Option<Task>,
    /// The sample before it in the list, by index.
    #[prop_or_default]
    pub previous: Option<u64>,
    /// The sample after it in the list, by index.
    #[prop_or_default]
    pub next: Option<u64>,
}

/// The detail of one sample.
#[function_component(SampleDetail)]
pub fn sample_detail(props: &SampleDetailProps) -> Html {
    let store = use_store();
    let r = &props.result;
    let back = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Action::Sample(None)))
    };
    // Only where a server, or this browser's sandbox for the task's language, can run it, and
    // only the whole program (not a long one's start).
    let language = store
        .data
        .as_ref()
        .and_then(|data| data.bundle.tasks.iter().find(|t| t.id == r.task_id))
        .map(|t| t.language);
    let editable = match (&store.server, &r.code, &r.code_sha256) {
        (Server::Present(_), Some(code), None) => Some(code.clone()),
        (Server::Browser(languages), Some(code), None)
            if language.is_some_and(|l| languages.contains(&l)) =>
        {
            Some(code.clone())
        }
        _ => None,
    };
    let edit = editable.map(|code| {
        let (store, task_id) = (store.clone(), r.task_id.clone());
        Callback::from(move |_: MouseEvent| {
            store.dispatch(Action::EditAndRun {
                task_id: task_id.clone(),
                code: code.clone(),
            })
        })
    });
    let step = |to: Option<u64>| {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| {
            if to.is_some() {
                store.dispatch(Action::Sample(to))
            }
        })
    };
    let tests: Vec<(String, String)> = props
        .task
        .as_ref()
        .map(Task::case_tests)
        .unwrap_or_default();
    let language = props.task.as_ref().map(|t| t.language).unwrap_or_default();
    // Numbered as its run's samples file numbers it, as `wasmeval show --sample N` takes it.
    let number = store.sample_number(r.index);
    html! {
        <article class="sample" data-testid="sample-detail">
            <nav class="steps" aria-label="samples">
                <button class="link" onclick={back}>{ "← all samples" }</button>
                <button onclick={step(props.previous)} disabled={props.previous.is_none()} data-testid="previous-sample">{ "Previous" }</button>
                <button onclick={step(props.next)} disabled={props.next.is_none()} data-testid="next-sample">{ "Next" }</button>
            </nav>
            <h2>{ format!("Sample {} of {}", number.number, r.task_id.0) }
                if let Some(model) = &r.model { { format!(" by {model}") } }
                if let Some(run) = number.run.filter(|run| Some(run) != r.model.as_ref()) { { format!(" (run {run})") } }</h2>
            if let Some(edit) = edit {
                <button data-testid="edit-and-run" onclick={edit}>{ "Edit and run" }</button>
            }
            { result_view(r, Some(language), &tests) }
            if let Some(task) = &props.task {
                <details class="task" data-testid="task-detail">
                    <summary>{ format!("Task {}: prompt and reference", task.id.0) }</summary>
                    if !task.prompt.is_empty() {
                        <h3>{ "Prompt" }</h3>
                        { code_block(Some(&task.prompt), task.language) }
                    }
                    if let Some(reference) = task.references.first() {
                        <h3>{ "Reference solution" }</h3>
                        { code_block(Some(&reference.code), task.language) }
                    }
                </details>
            }
        </article>
    }
}

/// A sample's figures, message, code (`with_code`: highlighted as `language`), cases (with each one's test, from `tests`:
/// name and text, when known) and output excerpts: what the detail view and the playground
/// (whose editor shows the code) show of a result.
pub fn result_view(
    r: &SampleResult,
    with_code: Option<wasmeval_core::Language>,
    tests: &[(String, String)],
) -> Html {
    let test_of = |name: &str| {
        tests
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, text)| text.clone())
    };
    let mut figures = vec![
        ("verdict", r.verdict.as_str().to_owned()),
        ("fuel", r.fuel.to_string()),
        ("wall time", format!("{:.1} ms", r.wall_us as f64 / 1000.0)),
        (
            "peak memory",
            format!("{:.1} MiB", r.peak_memory as f64 / 1048576.0),
        ),
        ("output", format!("{} bytes", r.output_bytes)),
    ];
    // How the sample was generated, when the samples file said (`wasmeval generate` does).
    if let Some(attempt) = r.info.attempt {
        figures.push(("attempt", attempt.to_string()));
    }
    if let Some(rate) = r.info.rate() {
        figures.push(("generation", format!("{rate:.1} tokens/s")));
    }
    html! {
        <>
            <dl class="figures">
                { for figures.iter().map(|(k, v)| html! { <><dt>{ *k }</dt><dd>{ v }</dd></> }) }
            </dl>
            if let Some(message) = &r.message { <p class="message"><code>{ message }</code></p> }
            if let Some(language) = with_code {
                <h3>{ "Code" }</h3>
                { code_block(r.code.as_deref(), language) }
            }
            <h3>{ format!("Test cases ({})", r.cases.len()) }</h3>
            <div class="table-scroll">
            <table data-testid="cases">
                <thead><tr><th>{ "case" }</th><th>{ "verdict" }</th><th>{ "message" }</th>
                    if !tests.is_empty() { <th>{ "test" }</th> }</tr></thead>
                <tbody>
                    { for r.cases.iter().map(|c| html! {
                        <tr>
                            <td>{ &c.name }</td>
                            <td><span class={format!("verdict {}", c.verdict.as_str())}>{ c.verdict.as_str() }</span></td>
                            <td><code>{ c.message.clone().unwrap_or_default() }</code></td>
                            if !tests.is_empty() {
                                <td><pre class="test">{ test_of(&c.name).unwrap_or_default() }</pre></td>
                            }
                        </tr>
                    }) }
                </tbody>
            </table>
            </div>
            if !tests.is_empty() {
                <p class="scroll-hint">{ "← scroll the table sideways →" }</p>
            }
            { excerpt("stdout", &r.stdout) }
            { excerpt("stderr", &r.stderr) }
            { grading_view(r) }
        </>
    }
}

/// The LLM judge's grades, level probabilities and report (`wasmeval grade`), when the sample
/// has them.
fn grading_view(r: &SampleResult) -> Html {
    let Some(grading) = &r.info.grading else {
        return html! {};
    };
    let levels = |p: &[f64; 4]| {
        p.iter()
            .enumerate()
            .map(|(i, p)| format!("{}: {:.0}%", i + 1, p * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    };
    html! {
        <section data-testid="grading">
            <h3>{ format!("Graded by {}", grading.model) }</h3>
            if let Some(grades) = &r.info.grades {
                <p>{ format!("accuracy {}, completeness {} (of 4)", grades.accuracy, grades.completeness) }</p>
            }
            if let Some(why) = &grading.ungraded { <p class="message">{ format!("Ungraded: {why}") }</p> }
            if let Some(d) = &grading.distribution {
                <p class="hint">{ format!("level probabilities: accuracy {}; completeness {}", levels(&d.accuracy), levels(&d.completeness)) }</p>
            }
            if let Some(report) = &grading.report { { excerpt("Evaluator's report", report) } }
        </section>
    }
}

/// The program with line numbers (not part of the selectable text), highlighted as `language`
/// (crate::highlight).
pub(super) fn code_block(code: Option<&str>, language: wasmeval_core::Language) -> Html {
    match code {
        None => html! { <p class="hint">{ "This bundle does not carry the sample's code." }</p> },
        Some(code) => html! {
            <pre class="code" data-testid="code"><code>
                { for crate::highlight::highlight(code, language).into_iter().enumerate().map(|(i, pieces)| html! {
                    <span class="line"><span class="number" aria-hidden="true">{ i + 1 }</span>
                        { for pieces.into_iter().map(|(kind, text)| match kind {
                            crate::highlight::Kind::Plain => html! { { text } },
                            kind => html! { <span class={kind.class()}>{ text }</span> },
                        }) }
                        { "\n" }</span>
                }) }
            </code></pre>
        },
    }
}

fn excerpt(name: &str, text: &str) -> Html {
    if text.is_empty() {
        return html! {};
    }
    html! {
        <>
            <h3>{ name }</h3>
            <pre class="excerpt">{ text }</pre>
        </>
    }
}

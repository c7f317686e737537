//! One sample in detail: its code with line numbers, each test case's verdict and message, the
//! output excerpts, and what it cost (fuel, time, memory, output).

use super::use_store;
use crate::state::Action;
use wasmeval_core::SampleResult;
use yew::prelude::*;

/// What [`SampleDetail`] shows.
#[derive(Properties, PartialEq)]
pub struct SampleDetailProps {
    /// The sample's result.
    pub result: SampleResult,
}

/// The detail of one sample.
#[function_component(SampleDetail)]
pub fn sample_detail(props: &SampleDetailProps) -> Html {
    let store = use_store();
    let r = &props.result;
    let back = Callback::from(move |_: MouseEvent| store.dispatch(Action::Sample(None)));
    let figures = [
        ("verdict", r.verdict.as_str().to_owned()),
        ("fuel", r.fuel.to_string()),
        ("wall time", format!("{:.1} ms", r.wall_us as f64 / 1000.0)),
        (
            "peak memory",
            format!("{:.1} MiB", r.peak_memory as f64 / 1048576.0),
        ),
        ("output", format!("{} bytes", r.output_bytes)),
    ];
    html! {
        <article class="sample" data-testid="sample-detail">
            <button class="link" onclick={back}>{ "← all samples" }</button>
            <h2>{ format!("Sample {} of {}", r.index, r.task_id.0) }
                if let Some(model) = &r.model { { format!(" by {model}") } }</h2>
            <dl class="figures">
                { for figures.iter().map(|(k, v)| html! { <><dt>{ *k }</dt><dd>{ v }</dd></> }) }
            </dl>
            if let Some(message) = &r.message { <p class="message"><code>{ message }</code></p> }
            <h3>{ "Code" }</h3>
            { code_block(r.code.as_deref()) }
            <h3>{ format!("Test cases ({})", r.cases.len()) }</h3>
            <table data-testid="cases">
                <thead><tr><th>{ "case" }</th><th>{ "verdict" }</th><th>{ "message" }</th></tr></thead>
                <tbody>
                    { for r.cases.iter().map(|c| html! {
                        <tr>
                            <td>{ &c.name }</td>
                            <td><span class={format!("verdict {}", c.verdict.as_str())}>{ c.verdict.as_str() }</span></td>
                            <td><code>{ c.message.clone().unwrap_or_default() }</code></td>
                        </tr>
                    }) }
                </tbody>
            </table>
            { excerpt("stdout", &r.stdout) }
            { excerpt("stderr", &r.stderr) }
        </article>
    }
}

/// The program with line numbers (numbers are not part of the selectable text).
fn code_block(code: Option<&str>) -> Html {
    match code {
        None => html! { <p class="hint">{ "This bundle does not carry the sample's code." }</p> },
        Some(code) => html! {
            <pre class="code" data-testid="code"><code>
                { for code.lines().enumerate().map(|(i, line)| html! {
                    <span class="line"><span class="number" aria-hidden="true">{ i + 1 }</span>{ line }{ "\n" }</span>
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

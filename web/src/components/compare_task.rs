//! One task's samples of the models compared, opened in place from Compare: each model's
//! telling sample (its verdict, message, failing cases with their tests and expected values, its
//! program), the two programs as a diff, the prompt, and the `wasmeval show` command that prints
//! the same. Everything shown is core's `show::show`, as the command line's.

use super::sample_detail::code_block;
use super::use_store;
use super::Store;
use crate::browser;
use crate::state::{Action, Place, View};
use wasmeval_core::show::{self, Selection, Shown, ShownSample};
use wasmeval_core::{TaskId, Verdict};
use yew::prelude::*;

/// What [`TaskPair`] shows.
#[derive(Properties, PartialEq)]
pub struct TaskPairProps {
    /// The task.
    pub task: TaskId,
    /// The models compared (one or two).
    pub models: Vec<String>,
}

/// Failing cases shown per sample; the sample's page has them all.
const CASES: usize = 4;

/// A task's samples of the models compared, in place.
#[function_component(TaskPair)]
pub fn task_pair(props: &TaskPairProps) -> Html {
    let store = use_store();
    let node = use_node_ref();
    {
        // Opened from a list above, or by a link: brought into view, only as far as needed.
        let node = node.clone();
        use_effect_with(props.task.clone(), move |_| {
            if let Some(element) = node.cast::<web_sys::Element>() {
                browser::scroll_into_view(&element);
            }
        });
    }
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let selection = Selection {
        task: Some(props.task.clone()),
        models: props.models.clone(),
        sample: None,
    };
    let shown = show::show(
        &data.bundle.tasks,
        &data.bundle.results,
        &data.bundle.runs,
        &selection,
    );
    let close = {
        let store = store.clone();
        Callback::from(move |_: MouseEvent| store.dispatch(Action::CompareTask(None)))
    };
    let body = match &shown {
        Err(error) => html! { <p class="hint">{ error.to_string() }</p> },
        Ok(shown) => pair(&store, shown, &props.models),
    };
    html! {
        <section class="task-pair" data-testid="task-pair" ref={node}>
            <div class="pair-head">
                <h3>{ format!("{}{}", props.task, shown.as_ref().ok().filter(|s| !s.title.is_empty()).map(|s| format!(": {}", s.title)).unwrap_or_default()) }</h3>
                <button class="link" onclick={close} data-testid="pair-close">{ "Close" }</button>
            </div>
            { body }
        </section>
    }
}

/// The tallies, the command, each model's telling sample, the diff and the prompt.
fn pair(store: &Store, shown: &Shown, models: &[String]) -> Html {
    let tallies: Vec<String> = shown
        .models
        .iter()
        .map(|t| {
            let model = t.model.as_deref().unwrap_or("(no model)");
            format!("{model} passed {} of {}", t.passed, t.samples)
        })
        .collect();
    let side = |tally: &show::ModelTally| {
        let own: Vec<&ShownSample> = shown
            .samples
            .iter()
            .filter(|s| s.model == tally.model)
            .collect();
        let telling = own.iter().find(|s| s.index == tally.telling);
        let others: Vec<&&ShownSample> = own.iter().filter(|s| s.index != tally.telling).collect();
        html! {
            <div class="side">
                if let Some(sample) = telling {
                    { sample_view(store, sample, shown.language) }
                }
                if !others.is_empty() {
                    <p class="others">{ format!("{} other sample(s): ", others.len()) }
                        { for others.iter().take(12).map(|s| html! {
                            <>{ sample_link(store, s, &format!("{} {}", s.number.number, s.verdict.as_str())) }{ " " }</>
                        }) }
                    </p>
                }
            </div>
        }
    };
    html! {
        <>
            <p data-testid="pair-tallies">{ tallies.join(" · ") }</p>
            <p class="command" data-testid="pair-command">{ command(store, &shown.task_id, models) }</p>
            <div class="side-by-side" data-testid="side-by-side">
                { for shown.models.iter().map(side) }
            </div>
            if let Some(diff) = &shown.diff {
                <h4>{ "The two programs" }</h4>
                if diff.unified.is_empty() {
                    <p class="hint">{ "The same program." }</p>
                } else {
                    <pre class="diff" data-testid="pair-diff">
                        { for diff.unified.lines().map(|line| {
                            let class = match line.as_bytes().first() {
                                Some(b'@') => "hunk",
                                Some(b'+') if line.starts_with("+++") => "file",
                                Some(b'-') if line.starts_with("---") => "file",
                                Some(b'+') => "added",
                                Some(b'-') => "removed",
                                _ => "same",
                            };
                            html! { <span class={class}>{ line }{ "\n" }</span> }
                        }) }
                    </pre>
                }
            }
            if !shown.prompt.is_empty() {
                <details class="task">
                    <summary>{ "Prompt" }</summary>
                    { code_block(Some(&shown.prompt), shown.language) }
                </details>
            }
        </>
    }
}

/// A sample: a link to its page, its verdict and message, its failing cases, its program.
fn sample_view(store: &Store, s: &ShownSample, language: wasmeval_core::Language) -> Html {
    let failing: Vec<&show::ShownCase> = s
        .cases
        .iter()
        .filter(|c| c.verdict != Verdict::Passed)
        .collect();
    html! {
        <>
            <h4>{ sample_link(store, s, &s.label()) }{ " " }
                <span class={format!("verdict {}", s.verdict.as_str())}>{ s.verdict.as_str() }</span>
                { format!(" · {} of {} cases", s.cases_passed(), s.cases.len()) }
            </h4>
            if let Some(message) = &s.message { <p class="message"><code>{ message }</code></p> }
            if !failing.is_empty() {
                <ul class="failing" data-testid="pair-failing">
                    { for failing.iter().take(CASES).map(|c| html! {
                        <li>
                            <span class={format!("verdict {}", c.verdict.as_str())}>{ c.verdict.as_str() }</span>
                            { format!(" {}", c.name) }
                            <dl>
                                { for [("message", &c.message), ("test", &c.test), ("expected", &c.expected), ("output", &c.output)]
                                    .into_iter()
                                    .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
                                    .map(|(k, v)| html! { <><dt>{ k }</dt><dd><pre>{ v }</pre></dd></> }) }
                            </dl>
                        </li>
                    }) }
                    if failing.len() > CASES {
                        <li class="hint">{ format!("and {} more on the sample's page", failing.len() - CASES) }</li>
                    }
                </ul>
            }
            { code_block(s.code.as_deref(), language) }
        </>
    }
}

/// A link to the sample's page in Samples.
fn sample_link(store: &Store, s: &ShownSample, text: &str) -> Html {
    let bundle = browser::url_parameter("bundle");
    let index = s.index;
    let href = store.link(bundle.as_deref(), |next| {
        next.view = View::Samples;
        next.sample = Some(index);
    });
    let (store, place) = (store.clone(), Place::parse(&href));
    let onclick = Callback::from(move |e: MouseEvent| {
        if browser::plain_click(&e) {
            e.prevent_default();
            store.dispatch(Action::Go(place.clone()));
        }
    });
    html! { <a {href} {onclick} data-testid={format!("pair-sample-{index}")}>{ text }</a> }
}

/// `wasmeval show RUN --task T --model A --model B`: the command line's view of the same.
fn command(store: &Store, task: &TaskId, models: &[String]) -> String {
    let runs = store
        .data
        .as_ref()
        .map(|d| match &d.bundle.about {
            Some(about) if !about.name.is_empty() => about.name.replace(" + ", " "),
            _ => d.source.clone(),
        })
        .unwrap_or_default();
    let mut command = format!("wasmeval show {runs} --task {}", quote(&task.0));
    for model in models {
        command.push_str(&format!(" --model {}", quote(model)));
    }
    command
}

/// `text` as a shell word.
fn quote(text: &str) -> String {
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./:+=@".contains(c));
    if plain && !text.is_empty() {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

//! Every selected sample, a page at a time, filtered by verdict, with the failures counted by
//! cause per model; choosing one opens its detail, which steps to the previous and next.

use super::data_table::{DataTable, Exports};
use super::sample_detail::SampleDetail;
use super::use_store;
use crate::state::Action;

use wasmeval_core::report::Table;
use wasmeval_core::{SampleResult, Verdict};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Samples per page.
const PAGE: usize = 100;

/// The samples page.
#[function_component(Samples)]
pub fn samples() -> Html {
    let store = use_store();
    let verdict = use_state(|| None::<Verdict>);
    let page = use_state(|| 0usize);
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    // The selection is core's (Prepared::select_results); the verdict menu narrows it.
    let selected: Vec<&SampleResult> = data
        .prepared
        .select_results(&data.bundle.tasks, &data.bundle.results, &store.query)
        .into_iter()
        .map(|i| &data.bundle.results[i as usize])
        .filter(|r| verdict.is_none_or(|v| r.verdict == v))
        .collect();
    if let Some(index) = store.sample {
        if let Some(result) = data.bundle.results.iter().find(|r| r.index == index) {
            // Previous and next step through the list as it is filtered.
            let at = selected.iter().position(|r| r.index == index);
            let step = |to: Option<usize>| to.and_then(|i| selected.get(i)).map(|r| r.index);
            let previous = step(at.and_then(|i| i.checked_sub(1)));
            let next = step(at.map(|i| i + 1));
            let task = data
                .bundle
                .tasks
                .iter()
                .find(|t| t.id == result.task_id)
                .cloned();
            return html! {
                <SampleDetail result={result.clone()} {task} {previous} {next} />
            };
        }
    }
    let failures = wasmeval_core::report::failures_by_cause(
        &data.prepared,
        &data.bundle.tasks,
        &data.bundle.results,
        &store.query,
        &data.choices.models,
    );
    let pages = selected.len().div_ceil(PAGE).max(1);
    let current = (*page).min(pages - 1);
    let export = Table {
        headers: [
            "index",
            "number",
            "run",
            "task",
            "model",
            "verdict",
            "cases",
            "cases_passed",
            "message",
            "fuel",
            "wall_us",
            "peak_memory",
        ]
        .map(String::from)
        .to_vec(),
        rows: selected
            .iter()
            .map(|r| {
                let passed = r
                    .cases
                    .iter()
                    .filter(|c| c.verdict == Verdict::Passed)
                    .count();
                let number = store.sample_number(r.index);
                vec![
                    r.index.to_string(),
                    number.number.to_string(),
                    number.run.unwrap_or_default(),
                    r.task_id.0.clone(),
                    r.model.clone().unwrap_or_default(),
                    r.verdict.as_str().to_owned(),
                    r.cases.len().to_string(),
                    passed.to_string(),
                    r.message.clone().unwrap_or_default(),
                    r.fuel.to_string(),
                    r.wall_us.to_string(),
                    r.peak_memory.to_string(),
                ]
            })
            .collect(),
    };
    let on_verdict = {
        let (verdict, page) = (verdict.clone(), page.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            verdict.set(Verdict::ALL.into_iter().find(|v| v.as_str() == value));
            page.set(0);
        })
    };
    let go = |to: usize| {
        let page = page.clone();
        Callback::from(move |_: MouseEvent| page.set(to))
    };
    html! {
        <>
            if !failures.rows.is_empty() {
                <details class="failures" open=true>
                    <summary>{ "Failures by cause" }</summary>
                    <DataTable table={failures} name="failures"
                        caption={Some(AttrValue::from("failing samples of the selection, by cause and model (wasmeval report --by failure)"))} />
                </details>
            }
            <p class="pickers">
                <label class="filter"><span>{ "Verdict" }</span>
                    <select onchange={on_verdict} data-testid="verdict-filter">
                        // Every option says whether it is the one chosen: without it on "all", the
                        // menu showed the last verdict while listing every sample.
                        <option value="" selected={verdict.is_none()}>{ "all" }</option>
                        { for Verdict::ALL.iter().map(|v| html! {
                            <option value={v.as_str()} selected={*verdict == Some(*v)}>{ v.as_str() }</option>
                        }) }
                    </select>
                </label>
                { format!(" {} samples", selected.len()) }
            </p>
            <div class="table-scroll">
                <table data-testid="samples">
                    <thead><tr>
                        { for ["#", "task", "model", "verdict", "cases passed", "message", "fuel", "time (ms)"].iter().map(|h| html! { <th scope="col">{ *h }</th> }) }
                    </tr></thead>
                    <tbody>
                        { for selected.iter().skip(current * PAGE).take(PAGE).map(|r| {
                            let number = numbered(&store, r);
                            let store = store.clone();
                            let index = r.index;
                            let open = Callback::from(move |_: MouseEvent| store.dispatch(Action::Sample(Some(index))));
                            let passed = r.cases.iter().filter(|c| c.verdict == Verdict::Passed).count();
                            html! {
                                <tr>
                                    <td><button class="link" onclick={open} data-testid={format!("sample-{index}")}>{ number }</button></td>
                                    <td>{ &r.task_id.0 }</td>
                                    <td>{ r.model.clone().unwrap_or_default() }</td>
                                    <td><span class={format!("verdict {}", r.verdict.as_str())}>{ r.verdict.as_str() }</span></td>
                                    <td class="num">{ format!("{passed}/{}", r.cases.len()) }</td>
                                    <td class="message" title={r.message.clone().unwrap_or_default()}>{ short(r.message.as_deref().unwrap_or_default()) }</td>
                                    <td class="num">{ r.fuel }</td>
                                    <td class="num">{ format!("{:.1}", r.wall_us as f64 / 1000.0) }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            <Exports table={export} name="samples" />
            if pages > 1 {
                <nav class="pages" aria-label="pages">
                    <button onclick={go(current.saturating_sub(1))} disabled={current == 0}>{ "Previous" }</button>
                    { format!(" page {} of {pages} ", current + 1) }
                    <button onclick={go(current + 1)} disabled={current + 1 >= pages}>{ "Next" }</button>
                </nav>
            }
        </>
    }
}

/// The sample's number as its run's samples file gives it (`wasmeval show --sample N`), with
/// the run when the bundle combines several and its model is not named after it.
pub fn numbered(store: &crate::components::Store, r: &SampleResult) -> String {
    let number = store.sample_number(r.index);
    match &number.run {
        Some(run) if Some(run) != r.model.as_ref() => format!("{} of {run}", number.number),
        _ => number.number.to_string(),
    }
}

/// A message as the list shows it: its first 80 characters (the whole one is the cell's title).
fn short(message: &str) -> String {
    const SHOWN: usize = 80;
    if message.chars().count() <= SHOWN {
        return message.to_owned();
    }
    let start: String = message.chars().take(SHOWN).collect();
    format!("{start}…")
}

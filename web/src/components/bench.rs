//! `?bench=N`: times, in this browser, filtering and rescoring a synthetic bundle of N results
//! through the same reducer the page uses, and shows the figures as JSON (read by
//! `tests/browser/bench.mjs`).

use crate::browser::now_ms;
use crate::state::{Action, State};
use wasmeval_core::facets::Facet;
use wasmeval_core::synthetic;
use yew::prelude::*;

/// What [`Bench`] runs.
#[derive(Properties, PartialEq)]
pub struct BenchProps {
    /// The `bench` parameter: how many results.
    pub size: AttrValue,
}

/// The selections timed, as typed in the query box.
const QUERIES: [&str; 4] = [
    "",
    "topic=strings",
    "year=2015..2019;cyclomatic=..5",
    "source=textbook|web;topic=lists|math;model=model-a|model-b",
];

/// The benchmark page.
#[function_component(Bench)]
pub fn bench(props: &BenchProps) -> Html {
    let figures = use_state(|| None::<String>);
    {
        let (figures, size) = (figures.clone(), props.size.clone());
        use_effect_with((), move |_| {
            figures.set(Some(run(size.parse().unwrap_or(100_000))))
        });
    }
    html! {
        <section>
            <h1>{ "wasmeval: filter and rescore benchmark" }</h1>
            <pre data-testid="bench">{ (*figures).clone().unwrap_or_else(|| "running…".into()) }</pre>
        </section>
    }
}

/// Runs the benchmark on `size` results; the figures as JSON.
fn run(size: u64) -> String {
    let bundle = synthetic::bundle(size, 1);
    let results = bundle.results.len();
    let text = serde_json::to_string(&bundle).unwrap_or_default();
    let start = now_ms();
    let mut state = State::default().apply(Action::Loaded {
        source: "synthetic".into(),
        text,
    });
    let load_ms = now_ms() - start;
    let mut steps = Vec::new();
    for (i, query) in QUERIES.iter().enumerate() {
        let start = now_ms();
        state = state.apply(Action::Query((*query).into()));
        if i == 2 {
            state = state.apply(Action::GroupBy(vec![Facet::Topic, Facet::Model]));
        }
        steps.push(serde_json::json!({
            "query": query,
            "group_by": state.group_by.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "ms": now_ms() - start,
            "samples": state.report.as_ref().map_or(0, |r| r.overall.samples),
        }));
    }
    let worst = steps
        .iter()
        .filter_map(|s| s["ms"].as_f64())
        .fold(0.0f64, f64::max);
    serde_json::to_string_pretty(&serde_json::json!({
        "results": results,
        "parse_and_first_score_ms": load_ms,
        "filter_and_rescore": steps,
        "worst_ms": worst,
    }))
    .unwrap_or_default()
}

//! The selection and the grouping, shared by every view: a query box in the command line's
//! `--where` syntax, one menu per metadata field that edits its term in that box, and the
//! facets to group by. The equivalent command line is shown, so a view can be reproduced.

use super::use_store;
use crate::state::Action;
use wasmeval_core::facets::{Bucket, ComplexityMetric, Facet};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The filter bar.
#[function_component(Filters)]
pub fn filters() -> Html {
    let store = use_store();
    let text = use_state(|| store.query_text.clone());
    // At a phone's width the bar folds behind a button (CSS decides when it shows).
    let open = use_state(|| false);
    {
        // The box follows the store when a menu edits the query.
        let text = text.clone();
        use_effect_with(store.query_text.clone(), move |query| {
            text.set(query.clone())
        });
    }
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let choices = &data.choices;
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let apply = {
        let (store, text) = (store.clone(), text.clone());
        Callback::from(move |_: ()| store.dispatch(Action::Query((*text).clone())))
    };
    let on_key = {
        let apply = apply.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                apply.emit(())
            }
        })
    };
    let on_change = apply.reform(|_: Event| ());

    let menu = |field: &'static str, label: &'static str, values: Vec<String>| {
        let store = store.clone();
        let current = store.term(field).unwrap_or_default();
        let onchange = Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            store.dispatch(Action::SetTerm {
                field: field.into(),
                value,
            })
        });
        html! {
            <label class="filter">
                <span>{ label }</span>
                <select data-testid={format!("filter-{field}")} {onchange}>
                    <option value="" selected={current.is_empty()}>{ "all" }</option>
                    { for values.into_iter().map(|v| html! {
                        <option selected={v == current} value={v.clone()}>{ v }</option>
                    }) }
                </select>
            </label>
        }
    };
    let years: Vec<String> = choices.years.iter().map(u32::to_string).collect();
    // The complexity buckets the bundle's tasks fall in, as ranges of the query syntax (core
    // defines the buckets; the distribution says which hold tasks).
    let present: Vec<&str> = data
        .bundle
        .metrics
        .distributions
        .iter()
        .filter(|d| d.facet == "complexity")
        .flat_map(|d| d.counts.iter().map(|(label, _)| label.as_str()))
        .collect();
    let buckets: Vec<String> = ComplexityMetric::Cyclomatic
        .buckets()
        .iter()
        .filter(|bucket| present.contains(&bucket.label().as_str()))
        .map(Bucket::query_range)
        .collect();
    let by = store.group_by.clone();
    let group_menu = |slot: usize| {
        let store = store.clone();
        let current = by.get(slot).map(ToString::to_string).unwrap_or_default();
        let onchange = Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut facets = store.group_by.clone();
            facets.truncate(slot);
            if let Ok(facet) = value.parse::<Facet>() {
                facets.push(facet);
            }
            store.dispatch(Action::GroupBy(facets))
        });
        let testid = if slot == 0 { "group-by" } else { "group-by-2" };
        html! {
            <select data-testid={testid} {onchange} disabled={slot > by.len()}>
                <option value="" selected={current.is_empty()}>{ if slot == 0 { "nothing" } else { "—" } }</option>
                { for Facet::ALL.iter().map(|f| {
                    let name = f.to_string();
                    html! { <option selected={name == current} value={name.clone()}>{ name }</option> }
                }) }
            </select>
        }
    };
    // Why nothing is selected, in the command line's words (core's `explain_empty`).
    let empty_selection = match (&store.report, &store.data) {
        (Some(report), Some(data))
            if (report.tasks == 0 || report.overall.samples == 0)
                && store.query != wasmeval_core::query::Query::default() =>
        {
            wasmeval_core::query::explain_empty(
                &store.query,
                &data.bundle.tasks,
                &data.choices.models,
            )
        }
        _ => Vec::new(),
    };
    let command = format!(
        "wasmeval report RESULTS{}{}{}",
        // The selection in force: a query that does not parse changes nothing shown.
        match store.query_text_in_force() {
            "" => String::new(),
            query => format!(" --where '{query}'"),
        },
        by.iter().map(|f| format!(" --by {f}")).collect::<String>(),
        if store.intervals { " --ci" } else { "" }
    );
    let on_intervals = {
        let store = store.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            store.dispatch(Action::Intervals(on))
        })
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    // What the folded bar says it holds.
    let summary = match store.query_text.trim() {
        "" => "all tasks".to_owned(),
        query => query.to_owned(),
    };

    html! {
        <section class={classes!("filters", open.then_some("open"))} aria-label="selection">
            <button class="filters-toggle" data-testid="filters-toggle" onclick={toggle}
                aria-expanded={if *open { "true" } else { "false" }}>
                { if *open { "Hide filters" } else { "Filters" } }
                <span class="summary">{ format!(" · {summary}") }</span>
            </button>
            <div class="filters-body">
            <div class="query">
                <label for="query">{ "Select" }</label>
                <input id="query" data-testid="query" type="text" value={(*text).clone()}
                    placeholder="topic=strings|lists;year=2018..;cyclomatic=..5;model=m"
                    oninput={on_input} onkeydown={on_key} onchange={on_change}
                    aria-invalid={store.query_error.is_some().then_some("true")} />
                <span class="group">
                    <label>{ "Group by" }</label>{ group_menu(0) }{ group_menu(1) }
                </span>
                <label class="intervals" title="pass@k's 95% interval: a bootstrap over tasks (docs/metrics.md)">
                    <input type="checkbox" data-testid="intervals" checked={store.intervals}
                        onchange={on_intervals} />
                    { " 95% intervals" }
                </label>
            </div>
            if let Some(error) = &store.query_error {
                <p class="error" role="alert" data-testid="query-error">
                    { error }
                    <br />
                    { match store.query_text_in_force() {
                        "" => "The numbers below are still those of every task (no valid selection yet).".to_owned(),
                        query => format!("The numbers below are still those of the last valid selection, `{query}`."),
                    } }
                </p>
            }
            if !empty_selection.is_empty() {
                <div class="warning" role="status" data-testid="empty-selection">
                    { for empty_selection.iter().map(|line| html! { <p>{ format!("The selection is empty: {line}") }</p> }) }
                </div>
            }
            <div class="menus">
                { menu("source", "Source", choices.sources.clone()) }
                { menu("topic", "Topic", choices.topics.clone()) }
                { menu("year", "Year", years) }
                { menu("language", "Language", choices.languages.clone()) }
                { menu("difficulty", "Difficulty", choices.difficulties.clone()) }
                { menu("cyclomatic", "Cyclomatic", buckets) }
                { menu("model", "Model", choices.models.clone()) }
            </div>
            <p class="command"><code data-testid="command">{ command }</code></p>
            </div>
        </section>
    }
}

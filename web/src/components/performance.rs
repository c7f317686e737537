//! Performance by scenario (ScenEval's Figs. 10 to 12): one rate of each model per topic, per
//! bucket of cyclomatic and of cognitive complexity, and per year, over the current selection.

use super::bar_chart::{rate_in_force, BarChart, RatePicker};
use super::data_table::DataTable;
use super::use_store;
use crate::charts::{facet_has_values, series_from_groups, Rate};
use crate::state::report;
use wasmeval_core::facets::{ComplexityMetric, Facet};
use yew::prelude::*;

/// The facets charted, each against the model.
const FACETS: [Facet; 4] = [
    Facet::Topic,
    Facet::Complexity(ComplexityMetric::Cyclomatic),
    Facet::Complexity(ComplexityMetric::Cognitive),
    Facet::Year,
];

/// The performance page.
#[function_component(Performance)]
pub fn performance() -> Html {
    let store = use_store();
    let rate = use_state(|| Rate::PassAt(1));
    // Rescored only when the data or the selection changes, not when another rate is charted.
    let reports = use_memo(
        (store.data.clone(), store.query.clone(), store.intervals),
        |(data, query, intervals)| match data {
            Some(data) => FACETS
                .iter()
                .map(|&facet| {
                    let by_facet = report(data, query, &[facet, Facet::Model], *intervals);
                    (facet, by_facet)
                })
                .collect(),
            None => Vec::new(),
        },
    );
    let rates = store
        .report
        .as_ref()
        .map(|r| Rate::offered(&r.overall))
        .unwrap_or_default();
    let chosen = rate_in_force(*rate, &rates);
    let name = chosen.name();
    // A facet no selected task has a value of would chart one "(none)" bar per model.
    let (charted, absent): (Vec<_>, Vec<_>) = reports
        .iter()
        .partition(|(_, by_facet)| facet_has_values(&by_facet.groups));
    let absent: Vec<String> = absent.iter().map(|(f, _)| facet_name(*f)).collect();
    html! {
        <>
            <RatePicker label="Rate" rates={rates} rate={rate.clone()} testid="performance-rate" />
            if !absent.is_empty() {
                <p class="hint" data-testid="performance-absent">
                    { format!("No selected task has a {}, so {} not charted.", absent.join(" or a "),
                        if absent.len() == 1 { "it is" } else { "they are" }) }
                </p>
            }
            { for charted.iter().map(|(facet, by_facet)| {
                let (table, values) = by_facet.table_with_values();
                let slug = facet.to_string().replace(':', "-");
                html! {
                    <section class="performance">
                        <BarChart series={series_from_groups(&by_facet.groups, chosen)}
                            title={format!("{name} by {facet}, per model")} y_label={name.clone()}
                            y_max={Some(1.0)} testid={Some(AttrValue::from(format!("performance-{slug}")))} />
                        <details>
                            <summary>{ "Table" }</summary>
                            <DataTable table={table} values={Some(values)} key_columns={2}
                                name={format!("by-{slug}")} />
                        </details>
                    </section>
                }
            }) }
        </>
    }
}

/// A facet as the page names it (`cyclomatic complexity`, not `complexity:cyclomatic`).
fn facet_name(facet: Facet) -> String {
    match facet {
        Facet::Topic => "topic".into(),
        Facet::Year => "year".into(),
        Facet::Complexity(ComplexityMetric::Cyclomatic) => "cyclomatic complexity".into(),
        Facet::Complexity(ComplexityMetric::Cognitive) => "cognitive complexity".into(),
        other => other.to_string(),
    }
}

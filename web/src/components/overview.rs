//! Overview: every metric of the selection per group (the command line's `wasmeval report`
//! table, with the same digits), a chart of one rate per group, and the verdicts.

use super::bar_chart::{rate_in_force, BarChart, RatePicker};
use super::data_table::DataTable;
use super::use_store;
use crate::charts::{series_from_groups, Rate};
use wasmeval_core::report::Table;
use wasmeval_core::Verdict;
use yew::prelude::*;

/// The overview page.
#[function_component(Overview)]
pub fn overview() -> Html {
    let store = use_store();
    let rate = use_state(|| Rate::PassAt(1));
    let Some(report) = store.report.clone() else {
        return html! {};
    };
    let (table, values) = report.table_with_values();
    let json = serde_json::to_string_pretty(&*report).unwrap_or_default();
    let rates = Rate::offered(&report.overall);
    let chosen = rate_in_force(*rate, &rates);
    let name = chosen.name();
    let verdicts = verdict_table(&report);
    html! {
        <>
            <h2 data-testid="headline">{ report.headline() }</h2>
            if report.overall.samples == 0 {
                <p class="hint" data-testid="empty">
                    { "No sample matches this selection: loosen the query or the menus above." }
                </p>
            }
            if report.results_without_task > 0 {
                <p class="warning">{ format!("{} results name a task the bundle does not have; they are not scored.", report.results_without_task) }</p>
            }
            if let Some(line) = wasmeval_core::results::judged_by_line(&report.judged_by) {
                <p class="hint" data-testid="judged-by"
                    title="Host: plain data compared with an expected value the guest never saw. Isolated judge: the tests ran in an interpreter apart from the candidate's. In the candidate's process: a candidate that reaches the harness's token could forge the report.">
                    { line }
                </p>
            }
            <DataTable table={table} values={Some(values)} key_columns={report.facets.len().max(1)}
                name="overview" json={Some(AttrValue::from(json))}
                caption={Some(AttrValue::from("Every metric per group (pass@k only where every unit has k samples)"))} />
            if !report.hidden_columns().is_empty() {
                <p class="hint" data-testid="hidden-columns">
                    { format!("Not shown: {}.", report.hidden_columns().join("; ")) }
                </p>
            }
            if !report.groups.is_empty() {
                <RatePicker label="Chart" rates={rates} rate={rate.clone()} testid="overview-rate" />
                <BarChart series={series_from_groups(&report.groups, chosen)}
                    title={format!("{name} by {}", report.facets.join(" and "))}
                    y_label={name.clone()} y_max={Some(1.0)} testid={Some(AttrValue::from("overview-chart"))} />
            }
            <DataTable table={verdicts} key_columns={report.facets.len().max(1)} name="verdicts"
                caption={Some(AttrValue::from("Samples by verdict"))} />
        </>
    }
}

/// How many samples of each group ended with each verdict.
fn verdict_table(report: &wasmeval_core::report::Report) -> Table {
    let mut headers: Vec<String> = if report.facets.is_empty() {
        vec!["group".into()]
    } else {
        report.facets.clone()
    };
    headers.extend(Verdict::ALL.iter().map(|v| v.as_str().to_owned()));
    let row = |keys: Vec<String>, m: &wasmeval_core::metrics::Metrics| {
        let mut cells = keys;
        cells.extend(Verdict::ALL.iter().map(|v| m.samples_with(*v).to_string()));
        cells
    };
    let rows = if report.facets.is_empty() {
        vec![row(vec!["all".into()], &report.overall)]
    } else {
        report
            .groups
            .iter()
            .map(|g| row(g.keys.clone(), &g.metrics))
            .collect()
    };
    Table { headers, rows }
}

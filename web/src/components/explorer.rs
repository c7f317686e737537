//! The dataset explorer: the selected tasks' distributions by topic, year and complexity
//! (ScenEval's Figs. 6 to 8) and the tasks themselves with their metadata.

use super::bar_chart::BarChart;
use super::data_table::DataTable;
use super::use_store;
use crate::charts::Series;
use wasmeval_core::report::{select_tasks, Table};
use yew::prelude::*;

/// Tasks listed at most; the export has them all.
const SHOWN: usize = 500;

/// The explorer page.
#[function_component(Explorer)]
pub fn explorer() -> Html {
    let store = use_store();
    let (Some(report), Some(data)) = (store.report.clone(), store.data.clone()) else {
        return html! {};
    };
    let tasks = select_tasks(&data.bundle.tasks, &store.query);
    let mut table = Table {
        headers: [
            "task",
            "title",
            "language",
            "source",
            "topics",
            "year",
            "difficulty",
            "cyclomatic",
            "cognitive",
            "loc",
        ]
        .map(String::from)
        .to_vec(),
        rows: Vec::new(),
    };
    for task in &tasks {
        let m = &task.metadata;
        let complexity = task.complexity();
        let number = |v: Option<u32>| v.map_or("-".into(), |v| v.to_string());
        table.rows.push(vec![
            task.id.0.clone(),
            task.title.clone(),
            task.language.as_str().to_owned(),
            m.source.as_ref().map_or(String::new(), |s| match &s.name {
                Some(name) => format!("{}: {name}", s.kind.as_str()),
                None => s.kind.as_str().to_owned(),
            }),
            m.topics.join(", "),
            number(m.year),
            m.difficulty.clone().unwrap_or_default(),
            number(complexity.cyclomatic),
            number(complexity.cognitive),
            number(complexity.loc),
        ]);
    }
    let shown = Table {
        headers: table.headers.clone(),
        rows: table.rows.iter().take(SHOWN).cloned().collect(),
    };
    let all_tasks_json = AttrValue::from(serde_json::to_string_pretty(&tasks).unwrap_or_default());
    // A facet no task has (HumanEval has no topics or years) would chart one "(none)" bar.
    let none = wasmeval_core::facets::GroupKey::NONE_LABEL;
    let (charted, absent): (Vec<_>, Vec<_>) = report
        .distributions
        .iter()
        .partition(|d| d.counts.iter().any(|(label, _)| label != none));
    let absent: Vec<&str> = absent.iter().map(|d| d.facet.as_str()).collect();
    html! {
        <>
            <h2>{ format!("{} tasks selected", tasks.len()) }</h2>
            <div class="charts">
                { for charted.iter().map(|d| {
                    let series = Series {
                        categories: d.counts.iter().map(|(k, _)| k.clone()).collect(),
                        names: vec!["tasks".into()],
                        values: vec![d.counts.iter().map(|(_, n)| Some(*n as f64)).collect()],
                        ..Series::default()
                    };
                    html! {
                        <BarChart series={series} title={format!("Tasks by {}", d.facet)}
                            y_label="tasks" testid={Some(AttrValue::from(format!("distribution-{}", d.facet)))} />
                    }
                }) }
            </div>
            if !absent.is_empty() {
                <p class="hint" data-testid="facets-absent">
                    { format!("No selected task has a {}: {} left out. Group the overview by language, source, loc or cognitive instead.",
                        absent.join(" or a "), if absent.len() == 1 { "its chart is" } else { "their charts are" }) }
                </p>
            }
            if tasks.len() > SHOWN {
                <p class="hint">{ format!("The first {SHOWN} of {} tasks; Export JSON saves them all.", tasks.len()) }</p>
            }
            <DataTable table={shown} name="tasks" json={Some(all_tasks_json)} />
        </>
    }
}

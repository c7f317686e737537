//! A table of core's [`Table`] with its export buttons (CSV, JSON). Cells carry the exact number
//! behind the text they show (`data-value`), so that tests and scripts read what was computed,
//! not what was rounded for display.

use crate::browser;
use wasmeval_core::report::Table;
use yew::prelude::*;

/// What a [`DataTable`] shows.
#[derive(Properties, PartialEq)]
pub struct DataTableProps {
    /// The table's text, from core.
    pub table: Table,
    /// The number behind each cell, when known (`Report::table_with_values`).
    #[prop_or_default]
    pub values: Option<Vec<Vec<Option<f64>>>>,
    /// How many leading columns name the row's group (`data-group`).
    #[prop_or(1)]
    pub key_columns: usize,
    /// The table's `data-testid` and the exported files' base name.
    pub name: AttrValue,
    /// A caption.
    #[prop_or_default]
    pub caption: Option<AttrValue>,
    /// What "Export JSON" saves; by default the rows as objects keyed by header.
    #[prop_or_default]
    pub json: Option<AttrValue>,
}

/// A table with CSV and JSON export.
#[function_component(DataTable)]
pub fn data_table(props: &DataTableProps) -> Html {
    let table = &props.table;
    let value = |row: usize, column: usize| -> Option<String> {
        let v = props.values.as_ref()?.get(row)?.get(column)?;
        Some(v.map(|v| v.to_string()).unwrap_or_default())
    };
    html! {
        <div class="table-block">
            <div class="table-scroll">
                <table data-testid={props.name.clone()}>
                    if let Some(caption) = &props.caption { <caption>{ caption }</caption> }
                    <thead><tr>
                        { for table.headers.iter().map(|h| html! { <th scope="col">{ h }</th> }) }
                    </tr></thead>
                    <tbody>
                        { for table.rows.iter().enumerate().map(|(r, row)| html! {
                            <tr data-group={row[..props.key_columns.min(row.len())].join(" / ")}>
                                { for row.iter().enumerate().map(|(c, cell)| {
                                    let numeric = cell == "-" || cell.parse::<f64>().is_ok();
                                    html! {
                                        <td class={classes!(numeric.then_some("num"))}
                                            data-column={table.headers[c].clone()}
                                            data-value={value(r, c)}>{ cell }</td>
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <Exports table={table.clone()} name={props.name.clone()} json={props.json.clone()} />
        </div>
    }
}

/// What [`Exports`] saves.
#[derive(Properties, PartialEq)]
pub struct ExportsProps {
    /// The table, saved as CSV, and as JSON unless `json` is given.
    pub table: Table,
    /// The files' base name.
    pub name: AttrValue,
    /// What "Export JSON" saves instead of the rows.
    #[prop_or_default]
    pub json: Option<AttrValue>,
}

/// "Export CSV" and "Export JSON" buttons for a table.
#[function_component(Exports)]
pub fn exports(props: &ExportsProps) -> Html {
    let error = use_state(|| None::<String>);
    let export = |extension: &'static str| {
        let (name, error) = (props.name.clone(), error.clone());
        let (text, mime) = match extension {
            "csv" => (props.table.to_csv(), "text/csv"),
            _ => (
                props
                    .json
                    .as_ref()
                    .map_or_else(|| rows_as_json(&props.table), |j| j.to_string()),
                "application/json",
            ),
        };
        Callback::from(move |_: MouseEvent| {
            let file = format!("{name}.{extension}");
            error.set(browser::download(&file, mime, &text).err());
        })
    };
    html! {
        <div class="exports">
            <button onclick={export("csv")} data-testid={format!("{}-csv", props.name)}>{ "Export CSV" }</button>
            <button onclick={export("json")} data-testid={format!("{}-json", props.name)}>{ "Export JSON" }</button>
            if let Some(e) = &*error { <span class="error">{ e }</span> }
        </div>
    }
}

/// Rows as JSON objects keyed by header, cells as text.
fn rows_as_json(table: &Table) -> String {
    let rows: Vec<serde_json::Map<String, serde_json::Value>> = table
        .rows
        .iter()
        .map(|row| {
            table
                .headers
                .iter()
                .cloned()
                .zip(row.iter().map(|c| serde_json::Value::String(c.clone())))
                .collect()
        })
        .collect();
    serde_json::to_string_pretty(&rows).unwrap_or_default()
}

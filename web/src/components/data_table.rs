//! A table of core's [`Table`] with its export buttons (CSV, JSON). Cells carry the exact number
//! behind the text they show (`data-value`), so that tests and scripts read what was computed,
//! not what was rounded for display. A long table pages; rows can be links that open a detail
//! below themselves.

use crate::browser;
use std::rc::Rc;
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
    /// Rows per page; every row on one page when absent.
    #[prop_or_default]
    pub page_size: Option<usize>,
    /// Each row's link (by its index in `table.rows`), put on its first cell: the rows are links.
    #[prop_or_default]
    pub links: Option<Rc<Vec<String>>>,
    /// Called with a row's index when its link is clicked plainly (the page follows it itself).
    #[prop_or_default]
    pub on_open: Option<Callback<usize>>,
    /// The row shown open, with `detail` below it; its page is shown when it opens.
    #[prop_or_default]
    pub open: Option<usize>,
    /// What the open row shows below itself.
    #[prop_or_default]
    pub detail: Html,
}

/// The page of `rows` rows (`size` a page) showing the row at `position`, and how many pages.
pub fn page_of(position: usize, rows: usize, size: usize) -> (usize, usize) {
    let size = size.max(1);
    let pages = rows.div_ceil(size).max(1);
    ((position / size).min(pages - 1), pages)
}

/// Which column the rows are sorted by, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sort {
    /// The column.
    pub column: usize,
    /// Largest first.
    pub descending: bool,
}

/// The order of `table`'s rows sorted by `sort`: numbers (the exact `values` when given, else the
/// cell's text) by value with undefined ones (`-`) last either way, text in natural order
/// (`HumanEval/2` before `HumanEval/10`); ties keep their order.
pub fn sorted_order(table: &Table, values: Option<&[Vec<Option<f64>>]>, sort: Sort) -> Vec<usize> {
    use std::cmp::Ordering;
    let number = |row: usize| -> Option<f64> {
        match values.and_then(|v| v.get(row)?.get(sort.column).copied()) {
            Some(value) => value,
            None => table.rows[row].get(sort.column)?.parse().ok(),
        }
    };
    let numeric = (0..table.rows.len()).any(|r| number(r).is_some());
    let mut order: Vec<usize> = (0..table.rows.len()).collect();
    order.sort_by(|&a, &b| {
        let by_value = if numeric {
            match (number(a), number(b)) {
                (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                // Undefined last, whichever the direction.
                (Some(_), None) => return Ordering::Less,
                (None, Some(_)) => return Ordering::Greater,
                (None, None) => Ordering::Equal,
            }
        } else {
            let cell = |r: usize| table.rows[r].get(sort.column).map_or("", String::as_str);
            wasmeval_core::report::natural_cmp(cell(a), cell(b))
        };
        if sort.descending {
            by_value.reverse()
        } else {
            by_value
        }
    });
    order
}

/// A table with CSV and JSON export; a click on a column's header sorts the rows by it (again:
/// the other way).
#[function_component(DataTable)]
pub fn data_table(props: &DataTableProps) -> Html {
    let sort = use_state(|| None::<Sort>);
    let page = use_state(|| 0usize);
    let table = &props.table;
    let order: Vec<usize> = match *sort {
        Some(by) => sorted_order(table, props.values.as_deref(), by),
        None => (0..table.rows.len()).collect(),
    };
    let size = props.page_size.unwrap_or(order.len().max(1));
    // A row that opens (a click, a link, Back) shows its page.
    let open_page = props
        .open
        .and_then(|row| order.iter().position(|&r| r == row))
        .map(|at| page_of(at, order.len(), size).0);
    {
        let page = page.clone();
        use_effect_with(open_page, move |open_page| {
            if let Some(open_page) = open_page {
                page.set(*open_page);
            }
        });
    }
    let (current, pages) = page_of(*page * size, order.len(), size);
    let shown = &order[(current * size).min(order.len())..((current + 1) * size).min(order.len())];
    let go = |to: usize| {
        let page = page.clone();
        Callback::from(move |_: MouseEvent| page.set(to))
    };
    let cell_link = |row: usize, cell: &String| -> Html {
        let Some(href) = props.links.as_ref().and_then(|links| links.get(row)) else {
            return html! { { cell } };
        };
        let on_open = props.on_open.clone();
        let onclick = Callback::from(move |e: MouseEvent| {
            if let Some(on_open) = &on_open {
                if browser::plain_click(&e) {
                    e.prevent_default();
                    on_open.emit(row);
                }
            }
        });
        html! { <a href={href.clone()} {onclick}>{ cell }</a> }
    };
    let header = |column: usize, name: &String| {
        let current = sort.filter(|s| s.column == column);
        let onclick = {
            let sort = sort.clone();
            // Numbers sort largest first on the first click (a leaderboard), text A to Z.
            let numeric_first = table
                .rows
                .iter()
                .any(|r| r.get(column).is_some_and(|c| c.parse::<f64>().is_ok()));
            Callback::from(move |_: MouseEvent| {
                sort.set(Some(Sort {
                    column,
                    descending: match current {
                        Some(s) => !s.descending,
                        None => numeric_first,
                    },
                }))
            })
        };
        // What the column means (core's definitions), and that a click sorts by it.
        let help = match wasmeval_core::report::column_help(name) {
            Some(definition) => format!("{definition}. Click to sort."),
            None => "Click to sort by this column.".to_owned(),
        };
        let aria = current.map(|s| {
            if s.descending {
                "descending"
            } else {
                "ascending"
            }
        });
        let mark = current.map_or("", |s| if s.descending { " ▼" } else { " ▲" });
        html! {
            <th scope="col" aria-sort={aria}>
                <button class="sort" {onclick} title={help}>{ format!("{name}{mark}") }</button>
            </th>
        }
    };
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
                        { for table.headers.iter().enumerate().map(|(c, h)| header(c, h)) }
                    </tr></thead>
                    <tbody>
                        { for shown.iter().map(|&r| (r, &table.rows[r])).map(|(r, row)| {
                            let open = props.open == Some(r);
                            html! {
                                <>
                                <tr data-group={row[..props.key_columns.min(row.len())].join(" / ")}
                                    class={classes!(open.then_some("open"))}
                                    aria-expanded={props.links.is_some().then(|| open.to_string())}>
                                    { for row.iter().enumerate().map(|(c, cell)| {
                                        let numeric = cell == "-" || cell.parse::<f64>().is_ok();
                                        html! {
                                            <td class={classes!(numeric.then_some("num"))}
                                                data-column={table.headers[c].clone()}
                                                data-value={value(r, c)}>
                                                if c == 0 { { cell_link(r, cell) } } else { { cell } }
                                            </td>
                                        }
                                    }) }
                                </tr>
                                if open {
                                    <tr class="detail"><td colspan={table.headers.len().to_string()}>{ props.detail.clone() }</td></tr>
                                }
                                </>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            if table.headers.len() > 4 {
                <p class="scroll-hint" data-testid="scroll-hint">{ "← scroll the table sideways →" }</p>
            }
            if pages > 1 {
                <nav class="pages" aria-label="pages" data-testid={format!("{}-pages", props.name)}>
                    <button onclick={go(current.saturating_sub(1))} disabled={current == 0}>{ "Previous" }</button>
                    { format!(" page {} of {pages} ({} rows) ", current + 1, order.len()) }
                    <button onclick={go(current + 1)} disabled={current + 1 >= pages}>{ "Next" }</button>
                </nav>
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_on_the_page_of_its_position() {
        assert_eq!(page_of(0, 974, 50), (0, 20));
        assert_eq!(page_of(49, 974, 50), (0, 20));
        assert_eq!(page_of(50, 974, 50), (1, 20));
        assert_eq!(page_of(973, 974, 50), (19, 20));
        // Past the end (a page kept while the rows shrank): the last page.
        assert_eq!(page_of(5000, 974, 50), (19, 20));
        assert_eq!(page_of(0, 0, 50), (0, 1));
    }

    #[test]
    fn columns_sort_by_value_with_undefined_last_and_text_naturally() {
        let table = Table {
            headers: vec!["task".into(), "pass@1".into()],
            rows: vec![
                vec!["HumanEval/10".into(), "0.5000".into()],
                vec!["HumanEval/2".into(), "-".into()],
                vec!["HumanEval/1".into(), "0.2500".into()],
            ],
        };
        let by = |column, descending| sorted_order(&table, None, Sort { column, descending });
        assert_eq!(by(0, false), [2, 1, 0]);
        assert_eq!(by(1, true), [0, 2, 1]);
        assert_eq!(by(1, false), [2, 0, 1]);
        // Exact values decide where the text is rounded alike.
        let values = vec![
            vec![None, Some(0.25001)],
            vec![None, None],
            vec![None, Some(0.25)],
        ];
        let rounded = Table {
            rows: vec![
                vec!["a".into(), "0.2500".into()],
                vec!["b".into(), "-".into()],
                vec!["c".into(), "0.2500".into()],
            ],
            ..table.clone()
        };
        let order = sorted_order(
            &rounded,
            Some(&values),
            Sort {
                column: 1,
                descending: true,
            },
        );
        assert_eq!(order, [0, 2, 1]);
    }
}

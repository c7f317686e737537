//! One item of a blind review: the task, the code (one sample, or two side by side) and the
//! rubric's rows beside it — a column held on screen at the right of a wide screen, a panel held
//! at the bottom of a narrow one — scored by keyboard (the session's keys) or by click.

use super::review::{Change, Reviewing};
use super::sample_detail::code_block;
use super::use_store;
use crate::browser;
use crate::review_session::{key_of, Key, Row, Session};
use yew::prelude::*;

/// What [`ItemView`] shows.
#[derive(Properties, PartialEq)]
pub(super) struct ItemProps {
    pub(super) session: UseReducerHandle<Reviewing>,
    pub(super) current: Session,
}

/// One item: the task, the code, the rubric's rows.
#[function_component(ItemView)]
pub(super) fn item_view(props: &ItemProps) -> Html {
    let store = use_store();
    let rubric_ref = use_node_ref();
    {
        // The row the keys score stays in sight within the rubric's panel.
        let rubric_ref = rubric_ref.clone();
        let at = (props.current.position, props.current.row);
        use_effect_with(at, move |_| {
            let focused = rubric_ref
                .cast::<web_sys::Element>()
                .and_then(|table| table.query_selector("tr.focused").ok().flatten());
            if let Some(row) = focused {
                browser::scroll_into_view(&row);
            }
        });
    }
    let Some(data) = store.data.clone() else {
        return html! {};
    };
    let s = &props.current;
    let planned = &s.planned[s.position];
    let task = data.bundle.tasks.iter().find(|t| t.id == planned.task_id);
    let press = {
        let session = props.session.clone();
        Callback::from(move |key: Key| session.dispatch(Change::Press(key)))
    };
    let on_key = {
        let press = press.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let Some(key) = key_of(&e.key()) {
                e.prevent_default();
                press.emit(key);
            }
        })
    };
    let change = |change: fn() -> Change| {
        let session = props.session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(change()))
    };
    let side_names = if s.width() == 2 {
        ["Left", "Right"]
    } else {
        ["Code", ""]
    };
    let sample = |side: usize| {
        let index = planned.samples[side];
        let result = data
            .bundle
            .results
            .iter()
            .find(|r| r.index == index && r.task_id == planned.task_id);
        html! {
            <div class="side" data-testid={format!("review-side-{side}")}>
                <h4>
                    { side_names[side] }
                    if !s.blind {
                        if let Some(r) = result {
                            { format!(" — {} ", r.model.clone().unwrap_or_default()) }
                            <span class={format!("verdict {}", r.verdict.as_str())}>{ r.verdict.as_str() }</span>
                        }
                    }
                </h4>
                { code_block(result.and_then(|r| r.code.as_deref()), task.map(|t| t.language).unwrap_or_default()) }
            </div>
        }
    };
    html! {
        <div class="review-item" tabindex="0" onkeydown={on_key} data-testid="review-item">
            <p class="progress" data-testid="review-progress">
                { format!("{} of {}", s.position + 1, s.planned.len()) }
                { format!(" · {} scored · seed {}", s.done(), s.seed) }
                <span class="keys">{ " · keys: 1-9 score, ↑↓ row, → or Enter next, ← back" }</span>
            </p>
            <div class="review-work">
                <div class="review-code">
                    if let Some(task) = task {
                        <details class="task" open=true>
                            <summary>{ format!("Task {}", task.id.0) }</summary>
                            <pre class="code">{ if task.description.is_empty() { &task.prompt } else { &task.description } }</pre>
                        </details>
                    }
                    <div class={classes!(if s.width() == 2 { "side-by-side" } else { "single" })}>
                        { for (0..s.width()).map(sample) }
                    </div>
                </div>
                <div class="review-scores" data-testid="review-scores">
                    { rubric_rows(&props.session, s, side_names, rubric_ref) }
                    <p class="steps">
                        <button onclick={press.reform(|_: MouseEvent| Key::Previous)} disabled={s.position == 0}>{ "← Previous" }</button>
                        <button onclick={press.reform(|_: MouseEvent| Key::Next)} data-testid="review-next">{ "Next (or skip) →" }</button>
                        if s.blind {
                            <button class="link" onclick={change(|| Change::Reveal)} data-testid="review-reveal">{ "End blind mode" }</button>
                        }
                        <button onclick={change(|| Change::Finish)} data-testid="review-finish">{ "Finish" }</button>
                    </p>
                </div>
            </div>
        </div>
    }
}

/// The rubric's rows: each level a numbered button (its label in its title, and for the focused
/// row below the table), the chosen one marked; a row a line, so that all of them fit beside the
/// code.
fn rubric_rows(
    session: &UseReducerHandle<Reviewing>,
    s: &Session,
    side_names: [&str; 2],
    table_ref: NodeRef,
) -> Html {
    let set = |row: usize, digit: u8| {
        let session = session.clone();
        Callback::from(move |_: MouseEvent| session.dispatch(Change::Set(row, digit)))
    };
    let rows = s.rows();
    let button = |row: usize, digit: usize, chosen: bool, label: &str, title: String| {
        html! {
            <button class={classes!("level", chosen.then_some("chosen"))} title={title}
                aria-label={format!("{digit} {label}")} aria-pressed={chosen.to_string()}
                onclick={set(row, digit as u8)}>{ digit }</button>
        }
    };
    html! {
        <>
            <table class="rubric" data-testid="review-rubric-rows" ref={table_ref}>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, row)| {
                        let focused = i == s.row;
                        let (name, cells) = match row {
                            Row::Score { property, side } => {
                                let levels = s.rubric.property(property).map(|p| p.levels.clone()).unwrap_or_default();
                                let given = s.score(property, *side);
                                let cells: Vec<Html> = levels.iter().enumerate().map(|(l, level)| {
                                    let title = match &level.description {
                                        Some(d) => format!("{}: {d}", level.label),
                                        None => level.label.clone(),
                                    };
                                    button(i, l + 1, given == Some(level.value), &level.label, title)
                                }).collect();
                                (format!("{} · {}", property.replace('_', " "), side_names[*side]), cells)
                            }
                            Row::Better => {
                                let better = s.better[s.position];
                                let cells = [0usize, 1].iter().map(|&b| {
                                    button(i, b + 1, better == Some(b), side_names[b], side_names[b].to_owned())
                                }).collect();
                                ("Better".to_owned(), cells)
                            }
                        };
                        html! {
                            <tr class={classes!(focused.then_some("focused"))} data-row={i.to_string()}>
                                <th scope="row">{ name }</th>
                                <td>{ for cells }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            // The focused row's levels, with what each means where the rubric says.
            { scale(s, &rows, side_names) }
        </>
    }
}

/// The focused row's scale: its levels' numbers and labels (and descriptions, as a list).
fn scale(s: &Session, rows: &[Row], side_names: [&str; 2]) -> Html {
    match rows.get(s.row) {
        Some(Row::Score { property, .. }) => {
            let Some(p) = s.rubric.property(property) else {
                return html! {};
            };
            if p.levels.iter().any(|l| l.description.is_some()) {
                html! {
                    <dl class="levels" data-testid="review-levels">
                        { for p.levels.iter().enumerate().map(|(l, level)| html! {
                            <><dt>{ format!("{} {}", l + 1, level.label) }</dt><dd>{ level.description.clone().unwrap_or_default() }</dd></>
                        }) }
                    </dl>
                }
            } else {
                let levels: Vec<String> = p
                    .levels
                    .iter()
                    .enumerate()
                    .map(|(l, level)| format!("{} {}", l + 1, level.label))
                    .collect();
                html! { <p class="scale" data-testid="review-scale">{ levels.join(" · ") }</p> }
            }
        }
        Some(Row::Better) => html! {
            <p class="scale" data-testid="review-scale">{ format!("1 {} · 2 {}", side_names[0], side_names[1]) }</p>
        },
        None => html! {},
    }
}

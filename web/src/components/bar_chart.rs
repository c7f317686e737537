//! A grouped bar chart in SVG: axes with ticks, category labels written out in full, a legend,
//! each bar's samples (n) and 95% interval when known, a mark where data is missing, a tooltip
//! on each bar (`<title>`), and bars reachable with the keyboard, whose value is read out when
//! focused. Geometry, including when bars lie down, comes from [`crate::charts`]; colours from
//! the stylesheet (light and dark).

use crate::charts::{bar_layout, tick_label, Orientation, Rate, Series};
use yew::prelude::*;

/// What a [`BarChart`] draws.
#[derive(Properties, PartialEq)]
pub struct BarChartProps {
    /// The data.
    pub series: Series,
    /// The chart's title (also its accessible name).
    pub title: AttrValue,
    /// The value axis's label.
    pub y_label: AttrValue,
    /// The end of the value axis (1 for rates); by default a round value above the largest.
    #[prop_or_default]
    pub y_max: Option<f64>,
    /// `data-testid` of the figure.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// The width a chart may use: the page's, less its margins.
fn available_width() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .map_or(720.0, |w| w.min(1200.0) - 32.0)
}

/// A grouped bar chart.
#[function_component(BarChart)]
pub fn bar_chart(props: &BarChartProps) -> Html {
    let focused = use_state(|| None::<usize>);
    let series = &props.series;
    let layout = bar_layout(series, available_width(), props.y_max);
    let frame = layout.frame;
    let vertical = layout.orientation == Orientation::Vertical;
    let describe = |i: usize| {
        let bar = &layout.bars[i];
        let mut text = format!(
            "{}, {}: {}",
            series.categories[bar.category],
            series.names.get(bar.series).map_or("", String::as_str),
            format_value(bar.value)
        );
        if let Some(Some(Some([low, high]))) = series
            .intervals
            .get(bar.series)
            .map(|v| v.get(bar.category).copied())
        {
            text.push_str(&format!(" (95% interval {low:.3} to {high:.3})"));
        }
        if let Some(n) = bar.count {
            text.push_str(&format!(", n = {n}"));
        }
        text
    };
    let (plot_start, plot_end) = if vertical {
        (frame.left, frame.width - frame.right)
    } else {
        (frame.top, frame.height - frame.bottom)
    };
    let tick = |(at, value): &(f64, f64)| {
        if vertical {
            html! {
                <g class="tick">
                    <line x1={plot_start.to_string()} x2={plot_end.to_string()} y1={at.to_string()} y2={at.to_string()} />
                    <text x={(frame.left - 6.0).to_string()} y={(at + 4.0).to_string()} text-anchor="end">{ tick_label(*value) }</text>
                </g>
            }
        } else {
            html! {
                <g class="tick">
                    <line x1={at.to_string()} x2={at.to_string()} y1={plot_start.to_string()} y2={plot_end.to_string()} />
                    <text x={at.to_string()} y={(plot_end + 14.0).to_string()} text-anchor="middle">{ tick_label(*value) }</text>
                </g>
            }
        }
    };
    let label = |(at, lines): &(f64, Vec<String>)| {
        if vertical {
            let y = layout.baseline + 12.0;
            html! {
                <text class="category" x={at.to_string()} y={y.to_string()} text-anchor="end"
                    transform={format!("rotate(-35 {at} {y})")}>{ lines.concat() }</text>
            }
        } else {
            // Lines centred on the row.
            let first = at - (lines.len() as f64 - 1.0) * 6.5 + 4.0;
            html! {
                <text class="category" x={(frame.left - 8.0).to_string()} y={first.to_string()} text-anchor="end">
                    { for lines.iter().enumerate().map(|(i, line)| html! {
                        <tspan x={(frame.left - 8.0).to_string()} dy={if i == 0 { "0".to_owned() } else { "13".to_owned() }}>{ line }</tspan>
                    }) }
                </text>
            }
        }
    };
    let axis = if vertical {
        html! { <line class="axis" x1={plot_start.to_string()} x2={plot_end.to_string()}
        y1={layout.baseline.to_string()} y2={layout.baseline.to_string()} /> }
    } else {
        html! { <line class="axis" x1={layout.baseline.to_string()} x2={layout.baseline.to_string()}
        y1={plot_start.to_string()} y2={plot_end.to_string()} /> }
    };
    html! {
        <figure class="chart" data-testid={props.testid.clone()}
            data-orientation={if vertical { "vertical" } else { "horizontal" }}>
            <figcaption>{ &props.title }</figcaption>
            <svg viewBox={format!("0 0 {} {}", frame.width, frame.height)} role="group"
                aria-label={props.title.clone()} width={frame.width.to_string()}>
                if vertical {
                    <text class="axis-label" x="12" y={(frame.top + 8.0).to_string()}
                        transform={format!("rotate(-90 12 {})", frame.top + 8.0)} text-anchor="end">
                        { &props.y_label }
                    </text>
                } else {
                    <text class="axis-label" x={(frame.width - frame.right).to_string()}
                        y={(frame.height - 2.0).to_string()} text-anchor="end">{ &props.y_label }</text>
                }
                { for layout.value_ticks.iter().map(tick) }
                { axis }
                { for layout.labels.iter().map(label) }
                { for layout.bars.iter().enumerate().map(|(i, bar)| {
                    let text = describe(i);
                    let on_focus = { let f = focused.clone(); Callback::from(move |_: FocusEvent| f.set(Some(i))) };
                    let on_blur = { let f = focused.clone(); Callback::from(move |_: FocusEvent| f.set(None)) };
                    let (thickness, end) = if vertical { (bar.width, bar.y) } else { (bar.height, bar.x + bar.width) };
                    let centre = if vertical { bar.x + bar.width / 2.0 } else { bar.y + bar.height / 2.0 };
                    html! {
                        <g>
                            <rect class={format!("bar series-{}", bar.series % 8)} tabindex="0"
                                x={bar.x.to_string()} y={bar.y.to_string()}
                                width={(if vertical { (bar.width - 1.0).max(1.0) } else { bar.width }).to_string()}
                                height={(if vertical { bar.height } else { (bar.height - 1.0).max(1.0) }).to_string()}
                                aria-label={text.clone()} data-value={bar.value.to_string()}
                                data-count={bar.count.map(|n| n.to_string())}
                                onfocus={on_focus} onblur={on_blur}>
                                <title>{ text }</title>
                            </rect>
                            if let Some((low, high)) = bar.whisker {
                                { whisker(vertical, centre, low, high, thickness) }
                            }
                            if let (Some(n), true) = (bar.count, layout.counts_shown) {
                                if vertical {
                                    <text class="count" x={centre.to_string()} y={(end.min(bar.whisker.map_or(end, |w| w.1)) - 3.0).to_string()}
                                        text-anchor="middle">{ n }</text>
                                } else {
                                    <text class="count" x={(end.max(bar.whisker.map_or(end, |w| w.1)) + 4.0).to_string()}
                                        y={(centre + 3.5).to_string()}>{ n }</text>
                                }
                            }
                        </g>
                    }
                }) }
                { for layout.missing.iter().map(|m| html! {
                    <text class="missing" data-testid="missing" x={m.x.to_string()} y={(m.y + 3.5).to_string()}
                        text-anchor="middle">
                        { "–" }
                        <title>{ format!("{}, {}: no data", series.categories[m.category], series.names.get(m.series).map_or("", String::as_str)) }</title>
                    </text>
                }) }
            </svg>
            <p class="chart-focus" aria-live="polite">
                { focused.and_then(|i| (i < layout.bars.len()).then(|| describe(i))).unwrap_or_default() }
            </p>
            <p class="chart-key">
                if layout.counts_shown && layout.bars.iter().any(|b| b.count.is_some()) {
                    { "Numbers by the bars: samples (n). " }
                }
                if layout.bars.iter().any(|b| b.whisker.is_some()) {
                    { "Whiskers: 95% intervals. " }
                }
                if !layout.missing.is_empty() {
                    { "–: no data (a zero is a thin bar)." }
                }
            </p>
            if series.names.len() > 1 {
                <ul class="legend">
                    { for series.names.iter().enumerate().map(|(s, name)| html! {
                        <li><span class={format!("swatch series-{}", s % 8)}></span>{ name }</li>
                    }) }
                </ul>
            }
        </figure>
    }
}

/// An interval's whisker across a bar's end: a line from `low` to `high` along the value axis
/// at `centre`, with caps.
fn whisker(vertical: bool, centre: f64, low: f64, high: f64, thickness: f64) -> Html {
    let cap = (thickness * 0.3).clamp(2.0, 6.0);
    let line = |x1: f64, y1: f64, x2: f64, y2: f64| {
        html! { <line class="whisker" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} /> }
    };
    if vertical {
        html! { <>
            { line(centre, low, centre, high) }
            { line(centre - cap, low, centre + cap, low) }
            { line(centre - cap, high, centre + cap, high) }
        </> }
    } else {
        html! { <>
            { line(low, centre, high, centre) }
            { line(low, centre - cap, low, centre + cap) }
            { line(high, centre - cap, high, centre + cap) }
        </> }
    }
}

/// A value for a tooltip: integers as such, fractions with three decimals.
fn format_value(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value}")
    } else {
        format!("{value:.3}")
    }
}

/// What [`RatePicker`] offers.
#[derive(Properties, PartialEq)]
pub struct RatePickerProps {
    /// The label before the menu.
    pub label: AttrValue,
    /// The rates offered ([`Rate::offered`]).
    pub rates: Vec<Rate>,
    /// The chosen rate.
    pub rate: UseStateHandle<Rate>,
    /// `data-testid` of the menu.
    pub testid: AttrValue,
}

/// A menu of the rates a chart can show.
#[function_component(RatePicker)]
pub fn rate_picker(props: &RatePickerProps) -> Html {
    let onchange = {
        let (rate, rates) = (props.rate.clone(), props.rates.clone());
        Callback::from(move |e: Event| {
            let name = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Some(chosen) = rates.iter().find(|r| r.name() == name) {
                rate.set(*chosen)
            }
        })
    };
    html! {
        <label class="filter">
            <span>{ &props.label }</span>
            <select {onchange} data-testid={props.testid.clone()}>
                { for props.rates.iter().map(|r| html! {
                    <option value={r.name()} selected={*r == *props.rate}>{ r.name() }</option>
                }) }
            </select>
        </label>
    }
}

/// `chosen` when `rates` offers it, else the first rate offered (a selection may leave pass@10
/// undefined).
pub fn rate_in_force(chosen: Rate, rates: &[Rate]) -> Rate {
    if rates.contains(&chosen) {
        chosen
    } else {
        rates.first().copied().unwrap_or(Rate::AvgPassRatio)
    }
}

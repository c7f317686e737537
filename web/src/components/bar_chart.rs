//! A grouped bar chart in SVG: axes with ticks, category labels, a legend, a tooltip on each bar
//! (`<title>`), and bars reachable with the keyboard, whose value is read out when focused.
//! Geometry comes from [`crate::charts`]; colours from the stylesheet (light and dark).

use crate::charts::{bar_layout, tick_label, Frame, Series};
use yew::prelude::*;

/// What a [`BarChart`] draws.
#[derive(Properties, PartialEq)]
pub struct BarChartProps {
    /// The data.
    pub series: Series,
    /// The chart's title (also its accessible name).
    pub title: AttrValue,
    /// The y axis's label.
    pub y_label: AttrValue,
    /// The top of the y axis (1 for rates); by default a round value above the largest.
    #[prop_or_default]
    pub y_max: Option<f64>,
    /// `data-testid` of the figure.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// A grouped bar chart.
#[function_component(BarChart)]
pub fn bar_chart(props: &BarChartProps) -> Html {
    let focused = use_state(|| None::<usize>);
    let series = &props.series;
    // Room below the axis for the longest label, rotated 35 degrees (about 6 px a character).
    let longest = series
        .categories
        .iter()
        .map(|c| shorten(c).chars().count())
        .max()
        .unwrap_or(0);
    let frame = Frame {
        width: (series.categories.len() as f64 * 24.0 * series.names.len().max(1) as f64)
            .clamp(360.0, 960.0),
        bottom: 24.0 + longest as f64 * 6.0 * 0.57,
        ..Frame::default()
    };
    let layout = bar_layout(series, frame, props.y_max);
    let describe = |i: usize| {
        let bar = &layout.bars[i];
        format!(
            "{}, {}: {}",
            series.categories[bar.category],
            series.names.get(bar.series).map_or("", String::as_str),
            format_value(bar.value)
        )
    };
    let left = frame.left;
    let right = frame.width - frame.right;
    html! {
        <figure class="chart" data-testid={props.testid.clone()}>
            <figcaption>{ &props.title }</figcaption>
            <svg viewBox={format!("0 0 {} {}", frame.width, frame.height)} role="group"
                aria-label={props.title.clone()} width={frame.width.to_string()}>
                <text class="axis-label" x="12" y={(frame.top + 8.0).to_string()}
                    transform={format!("rotate(-90 12 {})", frame.top + 8.0)} text-anchor="end">
                    { &props.y_label }
                </text>
                { for layout.y_ticks.iter().map(|(y, v)| html! {
                    <g class="tick">
                        <line x1={left.to_string()} x2={right.to_string()} y1={y.to_string()} y2={y.to_string()} />
                        <text x={(left - 6.0).to_string()} y={(y + 4.0).to_string()} text-anchor="end">{ tick_label(*v) }</text>
                    </g>
                }) }
                <line class="axis" x1={left.to_string()} x2={right.to_string()}
                    y1={layout.baseline.to_string()} y2={layout.baseline.to_string()} />
                { for layout.x_labels.iter().map(|(x, label)| {
                    let y = layout.baseline + 12.0;
                    html! {
                        <text class="category" x={x.to_string()} y={y.to_string()} text-anchor="end"
                            transform={format!("rotate(-35 {x} {y})")}>{ shorten(label) }</text>
                    }
                }) }
                { for layout.bars.iter().enumerate().map(|(i, bar)| {
                    let label = describe(i);
                    let on_focus = { let f = focused.clone(); Callback::from(move |_: FocusEvent| f.set(Some(i))) };
                    let on_blur = { let f = focused.clone(); Callback::from(move |_: FocusEvent| f.set(None)) };
                    html! {
                        <rect class={format!("bar series-{}", bar.series % 8)} tabindex="0"
                            x={bar.x.to_string()} y={bar.y.to_string()}
                            width={(bar.width - 1.0).max(1.0).to_string()} height={bar.height.to_string()}
                            aria-label={label.clone()} data-value={bar.value.to_string()}
                            onfocus={on_focus} onblur={on_blur}>
                            <title>{ label }</title>
                        </rect>
                    }
                }) }
            </svg>
            <p class="chart-focus" aria-live="polite">
                { focused.and_then(|i| (i < layout.bars.len()).then(|| describe(i))).unwrap_or_default() }
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

/// A value for a tooltip: integers as such, fractions with three decimals.
fn format_value(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value}")
    } else {
        format!("{value:.3}")
    }
}

/// Long category labels cut to fit under the axis (the tooltip keeps the whole label).
fn shorten(label: &str) -> String {
    if label.chars().count() > 18 {
        label.chars().take(17).chain(['…']).collect()
    } else {
        label.to_owned()
    }
}

/// What [`RatePicker`] offers.
#[derive(Properties, PartialEq)]
pub struct RatePickerProps {
    /// The label before the menu.
    pub label: AttrValue,
    /// The chosen entry of [`crate::charts::RATES`].
    pub rate: UseStateHandle<usize>,
    /// `data-testid` of the menu.
    pub testid: AttrValue,
}

/// A menu of the rates a chart can show ([`crate::charts::RATES`]).
#[function_component(RatePicker)]
pub fn rate_picker(props: &RatePickerProps) -> Html {
    let onchange = {
        let rate = props.rate.clone();
        Callback::from(move |e: Event| {
            let i = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            rate.set(i.parse().unwrap_or(0))
        })
    };
    html! {
        <label class="filter">
            <span>{ &props.label }</span>
            <select {onchange} data-testid={props.testid.clone()}>
                { for crate::charts::RATES.iter().enumerate().map(|(i, (n, _))| html! {
                    <option value={i.to_string()} selected={i == *props.rate}>{ *n }</option>
                }) }
            </select>
        </label>
    }
}

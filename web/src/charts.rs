//! Chart geometry: scales, ticks and the layout of grouped bar charts, as plain functions with
//! no browser in sight, so that what the SVG components draw is unit-tested on the host.

use wasmeval_core::metrics::Metrics;
use wasmeval_core::report::GroupRow;

/// Maps a numeric domain onto a pixel range linearly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearScale {
    /// Domain start and end.
    pub domain: (f64, f64),
    /// Range start and end (pixels; may run backwards, as a y axis does).
    pub range: (f64, f64),
}

impl LinearScale {
    /// The pixel position of `value`.
    pub fn at(&self, value: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        if d1 == d0 {
            return r0;
        }
        r0 + (value - d0) / (d1 - d0) * (r1 - r0)
    }
}

/// About `count` round tick values covering `0..=max` (steps of 1, 2 or 5 times a power of ten),
/// and the top of the axis (the last tick, at least `max`).
pub fn ticks(max: f64, count: u32) -> (Vec<f64>, f64) {
    if max.is_nan() || max <= 0.0 || max.is_infinite() {
        return (vec![0.0, 1.0], 1.0);
    }
    let rough = max / f64::from(count.max(1));
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    let steps = (max / step).ceil() as u32;
    let values: Vec<f64> = (0..=steps).map(|i| round(f64::from(i) * step)).collect();
    let top = *values.last().unwrap_or(&1.0);
    (values, top)
}

/// Rounds away floating-point noise (`0.30000000000000004`) for labels.
fn round(value: f64) -> f64 {
    (value * 1e9).round() / 1e9
}

/// A tick's label: as few decimals as its value needs.
pub fn tick_label(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Values of several series over several categories (a grouped bar chart's data).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Category labels along the x axis.
    pub categories: Vec<String>,
    /// Series names, for the legend.
    pub names: Vec<String>,
    /// `values[series][category]`; `None` draws no bar.
    pub values: Vec<Vec<Option<f64>>>,
}

/// The outer size of a chart and its margins, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Room left of the plot for the y axis labels.
    pub left: f64,
    /// Room below the plot for the category labels.
    pub bottom: f64,
    /// Room above the plot.
    pub top: f64,
    /// Room right of the plot.
    pub right: f64,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            width: 720.0,
            height: 320.0,
            left: 48.0,
            bottom: 72.0,
            top: 12.0,
            right: 12.0,
        }
    }
}

/// One bar, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Index of its series (its colour).
    pub series: usize,
    /// Index of its category.
    pub category: usize,
    /// The value drawn.
    pub value: f64,
}

/// A grouped bar chart, laid out: bars, the y axis's ticks and the categories' label positions.
#[derive(Debug, Clone, PartialEq)]
pub struct BarLayout {
    /// The frame laid out in.
    pub frame: Frame,
    /// Bars in category order, then series order.
    pub bars: Vec<Bar>,
    /// Y-axis ticks: pixel y and value.
    pub y_ticks: Vec<(f64, f64)>,
    /// Category labels: pixel x of the group's centre and the label.
    pub x_labels: Vec<(f64, String)>,
    /// The y pixel of the value 0 (the x axis).
    pub baseline: f64,
}

/// Lays out `series` in `frame`, the y axis from 0 to a round value above the largest value
/// (or to `y_max` when given, e.g. 1 for rates).
pub fn bar_layout(series: &Series, frame: Frame, y_max: Option<f64>) -> BarLayout {
    let largest = series
        .values
        .iter()
        .flatten()
        .flatten()
        .fold(0.0f64, |m, v| m.max(*v));
    let (tick_values, top) = match y_max {
        Some(max) => ticks(max, 5),
        None => ticks(largest, 5),
    };
    let plot_bottom = frame.height - frame.bottom;
    let y = LinearScale {
        domain: (0.0, top),
        range: (plot_bottom, frame.top),
    };
    let plot_width = (frame.width - frame.left - frame.right).max(1.0);
    let categories = series.categories.len().max(1) as f64;
    let group_width = plot_width / categories;
    // A quarter of each group is space between groups.
    let inner = group_width * 0.75;
    let bar_width = inner / series.names.len().max(1) as f64;
    let mut bars = Vec::new();
    for category in 0..series.categories.len() {
        let group_left = frame.left + group_width * category as f64 + (group_width - inner) / 2.0;
        for (s, values) in series.values.iter().enumerate() {
            if let Some(Some(value)) = values.get(category) {
                let top_y = y.at(value.min(top).max(0.0));
                bars.push(Bar {
                    x: group_left + bar_width * s as f64,
                    y: top_y,
                    width: bar_width,
                    height: plot_bottom - top_y,
                    series: s,
                    category,
                    value: *value,
                });
            }
        }
    }
    BarLayout {
        frame,
        bars,
        y_ticks: tick_values.iter().map(|&v| (y.at(v), v)).collect(),
        x_labels: series
            .categories
            .iter()
            .enumerate()
            .map(|(i, label)| (frame.left + group_width * (i as f64 + 0.5), label.clone()))
            .collect(),
        baseline: plot_bottom,
    }
}

/// Reads one rate (0 to 1) of a group's metrics.
pub type RateFn = fn(&Metrics) -> Option<f64>;

/// The rates a chart can show, with their names as in reports.
pub const RATES: [(&str, RateFn); 4] = [
    ("pass@1", |m| m.pass_at_k.get(1)),
    ("avg_pass_ratio", |m| m.avg_pass_ratio),
    ("sceneval_pass_rate", |m| m.sceneval_pass_rate),
    ("solvability", |m| m.solvability),
];

/// A report's groups as chart data: the first facet's values along the x axis and, when the
/// report groups by two facets, the second facet's values as series (otherwise one series named
/// `name`). Order follows the report.
pub fn series_from_groups(groups: &[GroupRow], name: &str, rate: RateFn) -> Series {
    let mut categories: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for group in groups {
        let category = group.keys.first().cloned().unwrap_or_default();
        if !categories.contains(&category) {
            categories.push(category);
        }
        let series = group
            .keys
            .get(1)
            .cloned()
            .unwrap_or_else(|| name.to_owned());
        if !names.contains(&series) {
            names.push(series);
        }
    }
    let mut values = vec![vec![None; categories.len()]; names.len()];
    for group in groups {
        let category = group.keys.first().cloned().unwrap_or_default();
        let series = group
            .keys
            .get(1)
            .cloned()
            .unwrap_or_else(|| name.to_owned());
        let c = categories.iter().position(|x| *x == category);
        let s = names.iter().position(|x| *x == series);
        if let (Some(c), Some(s)) = (c, s) {
            values[s][c] = rate(&group.metrics);
        }
    }
    Series {
        categories,
        names,
        values,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeval_core::metrics::Metrics;

    fn group(keys: &[&str], passed: f64) -> GroupRow {
        let metrics: Metrics = serde_json::from_value(serde_json::json!({
            "samples": 1, "tasks": 1, "units": 1, "passed": 1, "verdicts": {},
            "pass_at_k": {"pass@1": passed}, "attempt_k": 3, "graded": 0
        }))
        .unwrap();
        GroupRow {
            keys: keys.iter().map(|k| k.to_string()).collect(),
            metrics,
        }
    }

    #[test]
    fn two_facets_make_categories_and_series() {
        let groups = [
            group(&["lists", "m1"], 0.5),
            group(&["lists", "m2"], 0.25),
            group(&["strings", "m2"], 1.0),
        ];
        let series = series_from_groups(&groups, "pass@1", RATES[0].1);
        assert_eq!(series.categories, ["lists", "strings"]);
        assert_eq!(series.names, ["m1", "m2"]);
        assert_eq!(
            series.values,
            [vec![Some(0.5), None], vec![Some(0.25), Some(1.0)]]
        );
        let one_facet = series_from_groups(&[group(&["lists"], 0.5)], "pass@1", RATES[0].1);
        assert_eq!(one_facet.names, ["pass@1"]);
        assert_eq!(one_facet.values, [vec![Some(0.5)]]);
    }

    #[test]
    fn ticks_are_round_and_cover_the_maximum() {
        assert_eq!(ticks(1.0, 5), (vec![0.0, 0.2, 0.4, 0.6, 0.8, 1.0], 1.0));
        assert_eq!(ticks(37.0, 5).1, 40.0);
        assert_eq!(ticks(37.0, 5).0[1], 10.0);
        assert_eq!(ticks(0.0, 5), (vec![0.0, 1.0], 1.0));
        assert_eq!(ticks(f64::NAN, 5).1, 1.0);
        assert_eq!(tick_label(0.4), "0.4");
        assert_eq!(tick_label(10.0), "10");
    }

    #[test]
    fn scales_map_ends_to_ends() {
        let y = LinearScale {
            domain: (0.0, 1.0),
            range: (300.0, 10.0),
        };
        assert_eq!(y.at(0.0), 300.0);
        assert_eq!(y.at(1.0), 10.0);
        assert_eq!(y.at(0.5), 155.0);
    }

    #[test]
    fn grouped_bars_sit_on_the_baseline_inside_their_group() {
        let series = Series {
            categories: vec!["a".into(), "b".into()],
            names: vec!["m1".into(), "m2".into()],
            values: vec![vec![Some(1.0), Some(0.5)], vec![Some(0.25), None]],
        };
        let frame = Frame {
            width: 248.0,
            height: 200.0,
            left: 40.0,
            bottom: 40.0,
            top: 0.0,
            right: 8.0,
        };
        let layout = bar_layout(&series, frame, Some(1.0));
        // The missing value draws no bar.
        assert_eq!(layout.bars.len(), 3);
        let full = &layout.bars[0];
        assert_eq!((full.y, full.height), (0.0, 160.0));
        for bar in &layout.bars {
            assert!((bar.y + bar.height - layout.baseline).abs() < 1e-9);
            let group_left = 40.0 + 100.0 * bar.category as f64;
            assert!(bar.x >= group_left && bar.x + bar.width <= group_left + 100.0);
        }
        // Series sit side by side in a group.
        assert_eq!(layout.bars[1].x, layout.bars[0].x + layout.bars[0].width);
        assert_eq!(layout.bars[1].height, 40.0);
        assert_eq!(layout.x_labels[1], (190.0, "b".to_owned()));
        assert_eq!(layout.y_ticks.first(), Some(&(160.0, 0.0)));
        assert_eq!(layout.y_ticks.last(), Some(&(0.0, 1.0)));
    }
}

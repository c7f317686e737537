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
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Series {
    /// Category labels along the category axis.
    pub categories: Vec<String>,
    /// Series names, for the legend.
    pub names: Vec<String>,
    /// `values[series][category]`; `None` is missing data, marked as such (not a zero bar).
    pub values: Vec<Vec<Option<f64>>>,
    /// How many samples each bar stands for, like `values` (empty: none shown).
    pub counts: Vec<Vec<Option<u64>>>,
    /// Each bar's 95% interval, like `values` (empty: none drawn).
    pub intervals: Vec<Vec<Option<[f64; 2]>>>,
}

impl Series {
    /// The value, count and interval of one bar.
    fn bar(&self, series: usize, category: usize) -> BarData {
        BarData {
            value: cell(&self.values, series, category),
            count: cell(&self.counts, series, category),
            interval: cell(&self.intervals, series, category),
        }
    }
}

/// `table[series][category]`, `None` when absent.
fn cell<T: Copy>(table: &[Vec<Option<T>>], series: usize, category: usize) -> Option<T> {
    table.get(series)?.get(category).copied().flatten()
}

/// What one bar shows.
#[derive(Debug, Clone, Copy, PartialEq)]
struct BarData {
    value: Option<f64>,
    count: Option<u64>,
    interval: Option<[f64; 2]>,
}

/// The outer size of a chart and its margins, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Room left of the plot (value ticks, or category labels when horizontal).
    pub left: f64,
    /// Room below the plot (category labels, or value ticks when horizontal).
    pub bottom: f64,
    /// Room above the plot.
    pub top: f64,
    /// Room right of the plot.
    pub right: f64,
}

/// Which way bars grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// Upwards from a horizontal axis: few categories with short labels.
    Vertical,
    /// Rightwards, one row per category, labels written out in full on the left: many
    /// categories or long labels, which would otherwise be cut or collide.
    Horizontal,
}

/// Categories beyond which bars lie down.
pub const MAX_VERTICAL_CATEGORIES: usize = 20;
/// Label length (characters) beyond which bars lie down.
pub const MAX_VERTICAL_LABEL: usize = 18;
/// Average width of a label character at 11 px, for room and wrapping.
const CHAR_WIDTH: f64 = 6.6;

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
    /// Samples behind it, when known.
    pub count: Option<u64>,
    /// Its interval's two ends in pixels along the value axis, when it has one.
    pub whisker: Option<(f64, f64)>,
}

/// Where a missing value would be: a mark, so that no data never reads as zero.
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    /// The mark's centre.
    pub x: f64,
    /// The mark's centre.
    pub y: f64,
    /// Index of its series.
    pub series: usize,
    /// Index of its category.
    pub category: usize,
}

/// A grouped bar chart, laid out.
#[derive(Debug, Clone, PartialEq)]
pub struct BarLayout {
    /// The frame laid out in.
    pub frame: Frame,
    /// Which way the bars grow.
    pub orientation: Orientation,
    /// Bars in category order, then series order.
    pub bars: Vec<Bar>,
    /// Marks of the missing values.
    pub missing: Vec<Missing>,
    /// Value-axis ticks: pixel position along the value axis, and value.
    pub value_ticks: Vec<(f64, f64)>,
    /// Category labels: pixel centre along the category axis, and the label's lines.
    pub labels: Vec<(f64, Vec<String>)>,
    /// The value axis's 0 in pixels (the y of the x axis, or the x of the y axis).
    pub baseline: f64,
    /// Whether bars are wide enough to carry their count.
    pub counts_shown: bool,
}

/// Lays out `series` in `width` pixels: upright bars for a few short categories, lying bars
/// otherwise; the value axis from 0 to a round value above the largest value (or interval end),
/// or to `value_max` when given (1 for rates). Zero bars are 2 px high, so they are seen.
pub fn bar_layout(series: &Series, width: f64, value_max: Option<f64>) -> BarLayout {
    let longest = series
        .categories
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(0);
    let orientation =
        if series.categories.len() > MAX_VERTICAL_CATEGORIES || longest > MAX_VERTICAL_LABEL {
            Orientation::Horizontal
        } else {
            Orientation::Vertical
        };
    let largest = (0..series.names.len())
        .flat_map(|s| (0..series.categories.len()).map(move |c| (s, c)))
        .map(|(s, c)| series.bar(s, c))
        .flat_map(|b| [b.value, b.interval.map(|i| i[1])])
        .flatten()
        .fold(0.0f64, f64::max);
    let (tick_values, top) = ticks(value_max.unwrap_or(largest), 5);
    let width = width.clamp(300.0, 1200.0);
    let names = series.names.len().max(1);
    let categories = series.categories.len();
    let mut layout = BarLayout {
        frame: Frame {
            width,
            height: 0.0,
            left: 0.0,
            bottom: 0.0,
            top: 0.0,
            right: 0.0,
        },
        orientation,
        bars: Vec::new(),
        missing: Vec::new(),
        value_ticks: Vec::new(),
        labels: Vec::new(),
        baseline: 0.0,
        counts_shown: false,
    };
    // Each category's band along the category axis: its start and the thickness of a bar.
    let bands: Vec<(f64, f64)>;
    let value_scale: LinearScale;
    match orientation {
        Orientation::Vertical => {
            let frame = Frame {
                width,
                height: 320.0,
                left: 48.0,
                // Room for the longest label, rotated 35 degrees.
                bottom: 24.0 + longest as f64 * CHAR_WIDTH * 0.57,
                top: 16.0,
                right: 12.0,
            };
            let plot_width = frame.width - frame.left - frame.right;
            // Groups no wider than their bars need: a chart of two bars is not two slabs.
            let group = (plot_width / categories.max(1) as f64).min(48.0 * names as f64 + 24.0);
            let start = frame.left + (plot_width - group * categories as f64) / 2.0;
            let inner = group * 0.75;
            let bar = inner / names as f64;
            bands = (0..categories)
                .map(|c| (start + group * c as f64 + (group - inner) / 2.0, bar))
                .collect();
            layout.labels = (0..categories)
                .map(|c| {
                    let centre = start + group * (c as f64 + 0.5);
                    (centre, vec![series.categories[c].clone()])
                })
                .collect();
            let plot_bottom = frame.height - frame.bottom;
            value_scale = LinearScale {
                domain: (0.0, top),
                range: (plot_bottom, frame.top),
            };
            layout.baseline = plot_bottom;
            layout.counts_shown = bar >= 16.0;
            layout.frame = frame;
        }
        Orientation::Horizontal => {
            // Labels in full on the left, wrapped to at most half the width.
            let label_room = (longest as f64 * CHAR_WIDTH + 12.0).min(width * 0.5);
            let per_line = (((label_room - 12.0) / CHAR_WIDTH).floor() as usize).max(4);
            let wrapped: Vec<Vec<String>> = series
                .categories
                .iter()
                .map(|c| wrap(c, per_line))
                .collect();
            let bar = 14.0;
            let mut y = 8.0;
            let mut rows = Vec::new();
            for lines in &wrapped {
                let row = (bar * names as f64 + 6.0).max(lines.len() as f64 * 13.0 + 4.0);
                rows.push((y, row));
                y += row;
            }
            let frame = Frame {
                width,
                height: y + 28.0,
                left: label_room,
                bottom: 28.0,
                top: 8.0,
                // Room for counts after the longest bar.
                right: 44.0,
            };
            bands = rows
                .iter()
                .map(|&(y, row)| (y + (row - bar * names as f64) / 2.0, bar))
                .collect();
            layout.labels = rows
                .iter()
                .zip(wrapped)
                .map(|(&(y, row), lines)| (y + row / 2.0, lines))
                .collect();
            value_scale = LinearScale {
                domain: (0.0, top),
                range: (frame.left, frame.width - frame.right),
            };
            layout.baseline = frame.left;
            layout.counts_shown = true;
            layout.frame = frame;
        }
    }
    layout.value_ticks = tick_values
        .iter()
        .map(|&v| (value_scale.at(v), v))
        .collect();
    let at = |v: f64| value_scale.at(v.clamp(0.0, top));
    for (category, &(band_start, thickness)) in bands.iter().enumerate() {
        for s in 0..series.names.len() {
            let offset = band_start + thickness * s as f64;
            let data = series.bar(s, category);
            let Some(value) = data.value else {
                let (x, y) = match orientation {
                    Orientation::Vertical => (offset + thickness / 2.0, layout.baseline - 6.0),
                    Orientation::Horizontal => (layout.baseline + 8.0, offset + thickness / 2.0),
                };
                layout.missing.push(Missing {
                    x,
                    y,
                    series: s,
                    category,
                });
                continue;
            };
            // At least 2 px: a zero is a bar, unlike a missing value.
            let length = (at(value) - layout.baseline).abs().max(2.0);
            let whisker = data.interval.map(|[low, high]| (at(low), at(high)));
            let (x, y, width, height) = match orientation {
                Orientation::Vertical => (offset, layout.baseline - length, thickness, length),
                Orientation::Horizontal => (layout.baseline, offset, length, thickness),
            };
            layout.bars.push(Bar {
                x,
                y,
                width,
                height,
                series: s,
                category,
                value,
                count: data.count,
                whisker,
            });
        }
    }
    layout
}

/// `label` in lines of at most `width` characters, broken after spaces, `/`, `-` or `_` where
/// it can, else anywhere: nothing is cut.
pub fn wrap(label: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut word = String::new();
    let flush_word = |line: &mut String, word: &mut String, lines: &mut Vec<String>| {
        while line.chars().count() + word.chars().count() > width {
            if line.is_empty() {
                let head: String = word.chars().take(width).collect();
                *word = word.chars().skip(width).collect();
                lines.push(head);
            } else {
                lines.push(std::mem::take(line).trim_end().to_owned());
            }
        }
        line.push_str(word);
        word.clear();
    };
    for c in label.chars() {
        word.push(c);
        if matches!(c, ' ' | '/' | '-' | '_') {
            flush_word(&mut line, &mut word, &mut lines);
        }
    }
    flush_word(&mut line, &mut word, &mut lines);
    if !line.trim_end().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// A rate a chart can show, named as in reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rate {
    /// pass@k.
    PassAt(u32),
    /// AvgPassRatio.
    AvgPassRatio,
    /// ScenEval's pass rate.
    SceneValPassRate,
    /// Solvability.
    Solvability,
}

impl Rate {
    /// The name in reports (`pass@10`, `avg_pass_ratio`, ...).
    pub fn name(self) -> String {
        match self {
            Rate::PassAt(k) => wasmeval_core::metrics::PassAtK::name(k),
            Rate::AvgPassRatio => "avg_pass_ratio".into(),
            Rate::SceneValPassRate => "sceneval_pass_rate".into(),
            Rate::Solvability => "solvability".into(),
        }
    }

    /// Its value in a group's metrics.
    pub fn value(self, metrics: &Metrics) -> Option<f64> {
        match self {
            Rate::PassAt(k) => metrics.pass_at_k.get(k),
            Rate::AvgPassRatio => metrics.avg_pass_ratio,
            Rate::SceneValPassRate => metrics.sceneval_pass_rate,
            Rate::Solvability => metrics.solvability,
        }
    }

    /// Its 95% interval, when the metrics carry one (pass@k scored with intervals).
    pub fn interval(self, metrics: &Metrics) -> Option<[f64; 2]> {
        match self {
            Rate::PassAt(k) => metrics.pass_at_k_interval.get(&k).copied(),
            _ => None,
        }
    }

    /// The rates `metrics` has: each pass@k it defines, then the others.
    pub fn offered(metrics: &Metrics) -> Vec<Rate> {
        let mut rates: Vec<Rate> = metrics.pass_at_k.ks().map(Rate::PassAt).collect();
        rates.extend([
            Rate::AvgPassRatio,
            Rate::SceneValPassRate,
            Rate::Solvability,
        ]);
        rates
    }
}

/// A report's groups as chart data: the first facet's values along the category axis and, when
/// the report groups by two facets, the second facet's values as series (otherwise one series
/// named after the rate). Each bar carries its samples and, when scored, its interval. Order
/// follows the report.
pub fn series_from_groups(groups: &[GroupRow], rate: Rate) -> Series {
    let name = rate.name();
    let mut categories: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let keys = |group: &GroupRow| {
        let category = group.keys.first().cloned().unwrap_or_default();
        let series = group.keys.get(1).cloned().unwrap_or_else(|| name.clone());
        (category, series)
    };
    for group in groups {
        let (category, series) = keys(group);
        if !categories.contains(&category) {
            categories.push(category);
        }
        if !names.contains(&series) {
            names.push(series);
        }
    }
    let mut values = vec![vec![None; categories.len()]; names.len()];
    let mut counts = vec![vec![None; categories.len()]; names.len()];
    let mut intervals = vec![vec![None; categories.len()]; names.len()];
    for group in groups {
        let (category, series) = keys(group);
        let c = categories.iter().position(|x| *x == category);
        let s = names.iter().position(|x| *x == series);
        if let (Some(c), Some(s)) = (c, s) {
            values[s][c] = rate.value(&group.metrics);
            counts[s][c] = Some(group.metrics.samples);
            intervals[s][c] = rate.interval(&group.metrics);
        }
    }
    Series {
        categories,
        names,
        values,
        counts,
        intervals,
    }
}

/// Whether a report's groups give their first facet a value somewhere: a facet no selected task
/// has (HumanEval has no topics or years) groups everything under "(none)", a chart of one bar
/// per model that says nothing, so the page says so in a line instead.
pub fn facet_has_values(groups: &[GroupRow]) -> bool {
    groups.iter().any(|g| {
        g.keys
            .first()
            .is_some_and(|k| k != wasmeval_core::facets::GroupKey::NONE_LABEL)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeval_core::metrics::Metrics;

    #[test]
    fn a_facet_with_only_none_has_no_values_to_chart() {
        let bundle = wasmeval_core::synthetic::bundle(200, 1);
        let by = |facet| {
            wasmeval_core::report::Report::new(
                &bundle.tasks,
                &bundle.results,
                &Default::default(),
                &[facet, wasmeval_core::facets::Facet::Model],
            )
        };
        assert!(facet_has_values(
            &by(wasmeval_core::facets::Facet::Topic).groups
        ));
        let mut bare = bundle.clone();
        for task in &mut bare.tasks {
            task.metadata.topics.clear();
        }
        let none = wasmeval_core::report::Report::new(
            &bare.tasks,
            &bare.results,
            &Default::default(),
            &[
                wasmeval_core::facets::Facet::Topic,
                wasmeval_core::facets::Facet::Model,
            ],
        );
        assert!(!none.groups.is_empty());
        assert!(!facet_has_values(&none.groups));
        assert!(!facet_has_values(&[]));
    }

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
        let series = series_from_groups(&groups, Rate::PassAt(1));
        assert_eq!(series.categories, ["lists", "strings"]);
        assert_eq!(series.names, ["m1", "m2"]);
        assert_eq!(
            series.values,
            [vec![Some(0.5), None], vec![Some(0.25), Some(1.0)]]
        );
        let one_facet = series_from_groups(&[group(&["lists"], 0.5)], Rate::PassAt(1));
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

    fn two_series(values: Vec<Vec<Option<f64>>>, categories: &[&str]) -> Series {
        Series {
            categories: categories.iter().map(|c| c.to_string()).collect(),
            names: vec!["m1".into(), "m2".into()],
            values,
            ..Series::default()
        }
    }

    #[test]
    fn grouped_bars_sit_on_the_baseline_inside_their_group() {
        let series = two_series(
            vec![vec![Some(1.0), Some(0.5)], vec![Some(0.25), None]],
            &["a", "b"],
        );
        let layout = bar_layout(&series, 800.0, Some(1.0));
        assert_eq!(layout.orientation, Orientation::Vertical);
        // The missing value draws no bar but a mark.
        assert_eq!(layout.bars.len(), 3);
        assert_eq!(
            (layout.missing[0].series, layout.missing[0].category),
            (1, 1)
        );
        let full = &layout.bars[0];
        assert_eq!(full.y, layout.frame.top);
        for bar in &layout.bars {
            assert!((bar.y + bar.height - layout.baseline).abs() < 1e-9);
        }
        // Series sit side by side in a group, and groups do not stretch to fill 800 px.
        assert_eq!(layout.bars[1].x, layout.bars[0].x + layout.bars[0].width);
        assert!(layout.bars[0].width <= 48.0);
        assert_eq!(layout.labels[1].1, ["b"]);
        assert_eq!(
            layout.value_ticks.first().map(|t| t.0),
            Some(layout.baseline)
        );
        assert_eq!(layout.value_ticks.last().map(|t| t.1), Some(1.0));
    }

    #[test]
    fn a_zero_is_a_thin_bar_and_missing_data_a_mark() {
        let series = two_series(vec![vec![Some(0.0)], vec![None]], &["a"]);
        let layout = bar_layout(&series, 600.0, Some(1.0));
        assert_eq!(layout.bars.len(), 1);
        assert_eq!(layout.bars[0].height, 2.0);
        assert_eq!(layout.missing.len(), 1);
    }

    #[test]
    fn many_or_long_categories_lie_down_with_their_labels_whole() {
        let many: Vec<String> = (0..42).map(|i| format!("HumanEval/{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let series = Series {
            categories: many.clone(),
            names: vec!["pass@1".into()],
            values: vec![vec![Some(0.5); 42]],
            counts: vec![vec![Some(10); 42]],
            intervals: vec![vec![Some([0.25, 0.75]); 42]],
        };
        let layout = bar_layout(&series, 390.0, Some(1.0));
        assert_eq!(layout.orientation, Orientation::Horizontal);
        let shown: Vec<String> = layout.labels.iter().map(|(_, l)| l.concat()).collect();
        assert_eq!(shown, names);
        // Rows do not overlap; every bar starts at the axis; whiskers bracket the bar's end.
        for pair in layout.bars.windows(2) {
            assert!(pair[0].y + pair[0].height <= pair[1].y);
        }
        for bar in &layout.bars {
            assert_eq!(bar.x, layout.baseline);
            let (low, high) = bar.whisker.unwrap();
            assert!(low < bar.x + bar.width && bar.x + bar.width < high);
        }
        assert!(layout.frame.height > 42.0 * 14.0);
        let long = two_series(
            vec![vec![Some(0.5)], vec![Some(0.5)]],
            &["textbook: Programming in Small Steps, second edition"],
        );
        let layout = bar_layout(&long, 390.0, Some(1.0));
        assert_eq!(layout.orientation, Orientation::Horizontal);
        let lines = &layout.labels[0].1;
        assert!(lines.len() > 1);
        assert_eq!(
            lines.concat().replace(' ', ""),
            "textbook:ProgramminginSmallSteps,secondedition"
        );
        assert!(lines
            .iter()
            .all(|l| l.chars().count() as f64 * CHAR_WIDTH <= layout.frame.left));
    }

    #[test]
    fn wrapping_breaks_at_separators_and_never_drops_characters() {
        assert_eq!(wrap("short", 10), ["short"]);
        assert_eq!(wrap("a/b/c/d", 4), ["a/b/", "c/d"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4), [""]);
    }
}

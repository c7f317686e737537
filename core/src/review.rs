//! Human review (issue 13): the rubrics reviewers score with, as data shared by the site and the
//! command line, and a reviewer's file of scores, checked against its rubric and the results it
//! names. Aggregates and agreement build on these ([`crate::agreement`]).

use crate::task::TaskId;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One level of a property's scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Level {
    /// The score.
    pub value: i32,
    /// Its name (`Weak accept`, `Almost accurate`).
    pub label: String,
    /// What it means, shown to the reviewer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A property a reviewer scores, on an ordered scale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Property {
    /// Its name in files and tables (`usability`).
    pub name: String,
    /// Its levels, lowest first.
    pub levels: Vec<Level>,
}

impl Property {
    /// Whether `score` is one of the levels.
    pub fn allows(&self, score: i32) -> bool {
        self.levels.iter().any(|l| l.value == score)
    }

    /// The scale's values, lowest first (the categories of an agreement measure).
    pub fn values(&self) -> Vec<i32> {
        self.levels.iter().map(|l| l.value).collect()
    }
}

/// Whether an item is one sample, or two models' samples of the same task side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// One sample at a time.
    Single,
    /// Two samples of one task, from two models, in an order the session's seed fixes; the
    /// reviewer also says which is better.
    Pairwise,
}

/// A rubric: what a review session scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rubric {
    /// Its id in files (`pairwise-developer`).
    pub id: String,
    /// Its title in the site.
    pub title: String,
    /// Single or pairwise.
    pub mode: Mode,
    /// The properties scored, in the order shown.
    pub properties: Vec<Property>,
}

fn levels(values: &[(i32, &str, &str)]) -> Vec<Level> {
    values
        .iter()
        .map(|&(value, label, description)| Level {
            value,
            label: label.to_owned(),
            description: (!description.is_empty()).then(|| description.to_owned()),
        })
        .collect()
}

fn property(name: &str, scale: &[(i32, &str, &str)]) -> Property {
    Property {
        name: name.to_owned(),
        levels: levels(scale),
    }
}

/// The even developer scale of the pairwise review: no neutral middle, so a reviewer leans.
const EVEN_SCALE: [(i32, &str, &str); 4] = [
    (-2, "Strongly negative", ""),
    (-1, "Negative", ""),
    (1, "Positive", ""),
    (2, "Strongly positive", ""),
];

/// The rubrics wasmeval ships: the seed papers' pairwise developer review, a method-level review,
/// and the accuracy and completeness grades the EPAM score reads (their levels as
/// docs/metrics.md defines them).
pub fn builtin_rubrics() -> Vec<Rubric> {
    vec![
        Rubric {
            id: "pairwise-developer".into(),
            title: "Pairwise developer review".into(),
            mode: Mode::Pairwise,
            properties: vec![
                property("first_impression", &EVEN_SCALE),
                property("usability", &EVEN_SCALE),
                property("readability", &EVEN_SCALE),
                property("modifiability", &EVEN_SCALE),
                property(
                    "acceptance",
                    &[
                        (-2, "Strong reject", ""),
                        (-1, "Weak reject", ""),
                        (1, "Weak accept", ""),
                        (2, "Strong accept", ""),
                    ],
                ),
            ],
        },
        Rubric {
            id: "method-level".into(),
            title: "Method-level review".into(),
            mode: Mode::Single,
            properties: vec![
                property(
                    "correctness",
                    &[
                        (1, "Incorrect", "Fails the task's intent on typical inputs."),
                        (
                            2,
                            "Partly correct",
                            "Right idea, wrong on some typical inputs.",
                        ),
                        (3, "Mostly correct", "Wrong only on edge cases."),
                        (
                            4,
                            "Correct",
                            "Does what the task asks, edge cases included.",
                        ),
                    ],
                ),
                property(
                    "code_quality",
                    &[
                        (
                            1,
                            "Poor",
                            "Hard to follow: naming, structure or idiom get in the way.",
                        ),
                        (
                            2,
                            "Acceptable",
                            "Clear enough, with things a reviewer would change.",
                        ),
                        (3, "Good", "Clear, idiomatic, nothing to change."),
                    ],
                ),
                property(
                    "maintainability",
                    &[
                        (1, "Very hard", "A change means rewriting it."),
                        (2, "Hard", "A change touches much of it."),
                        (3, "Moderate", "A change is local with some care."),
                        (4, "Easy", "A change is local and obvious."),
                        (
                            5,
                            "Very easy",
                            "Built to be changed: small parts, clear seams.",
                        ),
                    ],
                ),
            ],
        },
        Rubric {
            id: "accuracy-completeness".into(),
            title: "Accuracy and completeness (EPAM grades)".into(),
            mode: Mode::Single,
            properties: vec![
                property(
                    "accuracy",
                    &[
                        (
                            1,
                            "Not accurate",
                            "The code does not do what the task asks.",
                        ),
                        (
                            2,
                            "Partially accurate",
                            "Some of what the task asks is done right.",
                        ),
                        (3, "Almost accurate", "Right apart from small mistakes."),
                        (4, "Accurate", "Does exactly what the task asks."),
                    ],
                ),
                property(
                    "completeness",
                    &[
                        (1, "None", "None of the task's requirements are addressed."),
                        (2, "Partially complete", "Some requirements are addressed."),
                        (3, "Almost complete", "All but small parts are addressed."),
                        (4, "Completely", "Every requirement is addressed."),
                    ],
                ),
            ],
        },
    ]
}

impl Rubric {
    /// A custom rubric from JSON (the shape of [`Rubric`]), checked: at least one property, names
    /// unique, each scale at least two distinct levels in increasing order. Errors name the
    /// field (`properties[1].levels`).
    pub fn parse(text: &str) -> Result<Rubric, String> {
        let rubric: Rubric =
            serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(text))
                .map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        rubric.check()?;
        Ok(rubric)
    }

    fn check(&self) -> Result<(), String> {
        if self.properties.is_empty() {
            return Err("properties: a rubric scores at least one property".into());
        }
        let mut names = BTreeSet::new();
        for (i, property) in self.properties.iter().enumerate() {
            if !names.insert(&property.name) {
                return Err(format!(
                    "properties[{i}].name: `{}` is there twice",
                    property.name
                ));
            }
            if property.levels.len() < 2 {
                return Err(format!(
                    "properties[{i}].levels: a scale has at least two levels"
                ));
            }
            if property.levels.windows(2).any(|w| w[0].value >= w[1].value) {
                return Err(format!(
                    "properties[{i}].levels: values must increase, lowest first"
                ));
            }
        }
        Ok(())
    }

    /// The property named `name`.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.name == name)
    }
}

/// What a reviewer's file says it is.
pub const REVIEWS_KIND: &str = "wasmeval-reviews";

/// One reviewer's scores: what the site exports and `wasmeval report --reviews` reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewFile {
    /// Always [`REVIEWS_KIND`].
    pub kind: String,
    /// [`crate::FORMAT_VERSION`] of the writer.
    pub format_version: u32,
    /// Who reviewed.
    pub reviewer: String,
    /// The rubric scored with, whole (a custom one travels with its scores).
    pub rubric: Rubric,
    /// The session's seed: the order of items and, pairwise, which model is on the left.
    pub seed: u64,
    /// The selection reviewed, in `--where` syntax.
    #[serde(default)]
    pub query: String,
    /// The items scored.
    pub items: Vec<ReviewItem>,
}

/// The scores of one item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewItem {
    /// The task.
    pub task_id: TaskId,
    /// The sample indices shown: one, or left and right for a pairwise rubric.
    pub samples: Vec<u64>,
    /// Per property, one score per sample shown, in the order of `samples`.
    pub scores: BTreeMap<String, Vec<i32>>,
    /// Pairwise: the position in `samples` of the better one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub better: Option<usize>,
}

impl ReviewFile {
    /// Parses a reviewer's file and checks it against its rubric and, when given, the results'
    /// (task, sample index) pairs: wrong rubric shapes, unknown samples and scores off the scale
    /// are refused with the field's path (`items[3].scores.usability[1]`).
    pub fn parse(
        text: &str,
        known: Option<&BTreeSet<(TaskId, u64)>>,
    ) -> Result<ReviewFile, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        match value.get("kind").and_then(|k| k.as_str()) {
            Some(REVIEWS_KIND) => {}
            Some(other) => return Err(format!("kind: expected `{REVIEWS_KIND}`, found `{other}`")),
            None => return Err(format!("kind: missing; this is not a {REVIEWS_KIND} file")),
        }
        let file: ReviewFile = serde_path_to_error::deserialize(value)
            .map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        file.rubric.check().map_err(|e| format!("rubric.{e}"))?;
        let width = match file.rubric.mode {
            Mode::Single => 1,
            Mode::Pairwise => 2,
        };
        for (i, item) in file.items.iter().enumerate() {
            if item.samples.len() != width {
                return Err(format!(
                    "items[{i}].samples: the rubric `{}` shows {width} sample(s) per item, this item has {}",
                    file.rubric.id,
                    item.samples.len()
                ));
            }
            if let Some(known) = known {
                for (j, &sample) in item.samples.iter().enumerate() {
                    if !known.contains(&(item.task_id.clone(), sample)) {
                        return Err(format!(
                            "items[{i}].samples[{j}]: no sample {sample} of task `{}` in these results",
                            item.task_id.0
                        ));
                    }
                }
            }
            for (name, scores) in &item.scores {
                let Some(property) = file.rubric.property(name) else {
                    return Err(format!(
                        "items[{i}].scores.{name}: the rubric `{}` has no property `{name}`",
                        file.rubric.id
                    ));
                };
                if scores.len() != width {
                    return Err(format!(
                        "items[{i}].scores.{name}: {} score(s) for {width} sample(s)",
                        scores.len()
                    ));
                }
                for (j, &score) in scores.iter().enumerate() {
                    if !property.allows(score) {
                        return Err(format!(
                            "items[{i}].scores.{name}[{j}]: {score} is not on the scale ({})",
                            property
                                .values()
                                .iter()
                                .map(i32::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ));
                    }
                }
            }
            match (file.rubric.mode, item.better) {
                (Mode::Single, Some(_)) => {
                    return Err(format!(
                        "items[{i}].better: a single-sample rubric has no better one"
                    ))
                }
                (Mode::Pairwise, Some(b)) if b > 1 => {
                    return Err(format!(
                        "items[{i}].better: {b} is neither 0 (left) nor 1 (right)"
                    ))
                }
                _ => {}
            }
        }
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_rubrics_are_well_formed_and_the_developer_scale_has_no_middle() {
        let rubrics = builtin_rubrics();
        for rubric in &rubrics {
            rubric.check().unwrap();
        }
        let developer = &rubrics[0];
        assert_eq!(developer.mode, Mode::Pairwise);
        assert!(developer.properties.iter().all(|p| !p.allows(0)));
        assert_eq!(
            developer.property("acceptance").unwrap().levels[2].label,
            "Weak accept"
        );
        let epam = rubrics
            .iter()
            .find(|r| r.id == "accuracy-completeness")
            .unwrap();
        assert_eq!(epam.property("accuracy").unwrap().values(), [1, 2, 3, 4]);
    }

    #[test]
    fn custom_rubrics_are_checked_with_the_field_named() {
        let ok = r#"{"id": "mine", "title": "Mine", "mode": "single",
            "properties": [{"name": "style", "levels": [{"value": 0, "label": "bad"}, {"value": 1, "label": "good"}]}]}"#;
        assert_eq!(Rubric::parse(ok).unwrap().properties[0].values(), [0, 1]);
        let decreasing = ok.replace(r#""value": 0"#, r#""value": 5"#);
        assert!(Rubric::parse(&decreasing)
            .unwrap_err()
            .starts_with("properties[0].levels"));
        let bad_mode = ok.replace("single", "triple");
        assert!(Rubric::parse(&bad_mode).unwrap_err().starts_with("mode"));
    }

    fn file(rubric: &Rubric, items: serde_json::Value) -> String {
        serde_json::json!({
            "kind": REVIEWS_KIND, "format_version": 1, "reviewer": "ada", "seed": 7,
            "rubric": rubric, "items": items,
        })
        .to_string()
    }

    #[test]
    fn review_files_are_checked_against_rubric_and_results() {
        let developer = builtin_rubrics().remove(0);
        let known: BTreeSet<(TaskId, u64)> =
            [(TaskId("t/1".into()), 0), (TaskId("t/1".into()), 1)].into();
        let good = file(
            &developer,
            serde_json::json!([{"task_id": "t/1", "samples": [0, 1], "scores": {"usability": [2, -1]}, "better": 0}]),
        );
        let parsed = ReviewFile::parse(&good, Some(&known)).unwrap();
        assert_eq!(parsed.items[0].scores["usability"], [2, -1]);
        for (items, path) in [
            (
                serde_json::json!([{"task_id": "t/1", "samples": [0, 1], "scores": {"usability": [0, 1]}}]),
                "items[0].scores.usability[0]: 0 is not on the scale",
            ),
            (
                serde_json::json!([{"task_id": "t/1", "samples": [0, 9], "scores": {}}]),
                "items[0].samples[1]: no sample 9",
            ),
            (
                serde_json::json!([{"task_id": "t/1", "samples": [0], "scores": {}}]),
                "items[0].samples: the rubric",
            ),
            (
                serde_json::json!([{"task_id": "t/1", "samples": [0, 1], "scores": {"speed": [1, 1]}}]),
                "items[0].scores.speed: the rubric",
            ),
            (
                serde_json::json!([{"task_id": "t/1", "samples": [0, 1], "scores": {}, "better": 2}]),
                "items[0].better",
            ),
        ] {
            let error = ReviewFile::parse(&file(&developer, items), Some(&known)).unwrap_err();
            assert!(error.starts_with(path), "{error}");
        }
        let wrong_kind = good.replace(REVIEWS_KIND, "wasmeval-bundle");
        assert!(ReviewFile::parse(&wrong_kind, None)
            .unwrap_err()
            .starts_with("kind"));
    }
}

/// Reviewers' files as one set of scores: one file per reviewer, one rubric. A file repeated
/// (the same reviewer, the same scores) counts once and is reported; the same reviewer with
/// other scores, or another rubric, is refused: nothing is counted twice or mixed.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviews {
    /// The rubric of every file.
    pub rubric: Rubric,
    /// One file per reviewer, by reviewer name.
    pub files: Vec<ReviewFile>,
    /// What merging noticed (a repeated file), for the user.
    pub notes: Vec<String>,
}

impl Reviews {
    /// Merges `files` (name, parsed file); an error names the file at fault.
    pub fn merge(files: Vec<(String, ReviewFile)>) -> Result<Reviews, String> {
        let mut merged: Vec<(String, ReviewFile)> = Vec::new();
        let mut notes = Vec::new();
        for (name, file) in files {
            if let Some((first, _)) = merged.first() {
                let rubric = &merged[0].1.rubric;
                if file.rubric != *rubric {
                    return Err(format!(
                        "{name}: rubric `{}` is not `{}` of {first}; review files merge only over one rubric",
                        file.rubric.id, rubric.id
                    ));
                }
            }
            match merged.iter().find(|(_, f)| f.reviewer == file.reviewer) {
                Some((other, f)) if f.items == file.items => {
                    notes.push(format!(
                        "{name} repeats {other} (reviewer `{}`): counted once",
                        file.reviewer
                    ));
                }
                Some((other, _)) => {
                    return Err(format!(
                        "{name}: reviewer `{}` also wrote {other} with other scores; merge them into one file or rename a reviewer",
                        file.reviewer
                    ))
                }
                None => merged.push((name, file)),
            }
        }
        let Some((_, first)) = merged.first() else {
            return Err("no review files".into());
        };
        Ok(Reviews {
            rubric: first.rubric.clone(),
            files: merged.into_iter().map(|(_, f)| f).collect(),
            notes,
        })
    }
}

impl Reviews {
    /// EPAM's grades from the reviews, when the rubric scores `accuracy` and `completeness` (the
    /// built-in accuracy-and-completeness rubric does): per sample, the mean of the reviewers'
    /// grades of each. Empty for other rubrics.
    pub fn grades(&self) -> BTreeMap<(TaskId, u64), crate::sample::Grades> {
        let (Some(_), Some(_)) = (
            self.rubric.property("accuracy"),
            self.rubric.property("completeness"),
        ) else {
            return BTreeMap::new();
        };
        let mut sums: BTreeMap<(TaskId, u64), [(f64, u32); 2]> = BTreeMap::new();
        for file in &self.files {
            for item in &file.items {
                for (slot, property) in ["accuracy", "completeness"].iter().enumerate() {
                    for (side, &score) in
                        item.scores.get(*property).into_iter().flatten().enumerate()
                    {
                        let entry = &mut sums
                            .entry((item.task_id.clone(), item.samples[side]))
                            .or_default()[slot];
                        entry.0 += f64::from(score);
                        entry.1 += 1;
                    }
                }
            }
        }
        sums.into_iter()
            .filter_map(|(key, [(a, na), (c, nc)])| {
                (na > 0 && nc > 0).then(|| {
                    let grades = crate::sample::Grades {
                        accuracy: a / f64::from(na),
                        completeness: c / f64::from(nc),
                    };
                    (key, grades)
                })
            })
            .collect()
    }

    /// `results` with their EPAM grades replaced by the reviews' ([`Reviews::grades`]); samples
    /// no reviewer graded keep theirs.
    pub fn graded(
        &self,
        results: &[crate::results::SampleResult],
    ) -> Vec<crate::results::SampleResult> {
        let grades = self.grades();
        results
            .iter()
            .map(|r| {
                let mut r = r.clone();
                if let Some(g) = grades.get(&(r.task_id.clone(), r.index)) {
                    r.info.grades = Some(*g);
                }
                r
            })
            .collect()
    }
}

/// The EPAM score per model with the reviews' grades ([`Reviews::graded`]): model, samples
/// graded, EPAM; `None` when the rubric gives no grades.
pub fn epam_table(
    reviews: &Reviews,
    tasks: &[crate::task::Task],
    results: &[crate::results::SampleResult],
) -> Option<crate::report::Table> {
    if reviews.grades().is_empty() {
        return None;
    }
    let graded = reviews.graded(results);
    let report = crate::report::Report::new(
        tasks,
        &graded,
        &crate::query::Query::default(),
        &[crate::facets::Facet::Model],
    );
    Some(crate::report::Table {
        headers: ["model", "graded", "epam"].map(String::from).to_vec(),
        rows: report
            .groups
            .iter()
            .map(|g| {
                vec![
                    g.keys.join(" / "),
                    g.metrics.graded.to_string(),
                    crate::report::number(g.metrics.epam),
                ]
            })
            .collect(),
    })
}

/// Everything the reviews say, as the command line prints it and the site shows it: the report
/// grouped by `facets`, the same split by functional result, and the EPAM table when the rubric
/// grades.
pub struct ReviewSummary {
    /// Grouped by the facets.
    pub by_facets: ReviewReport,
    /// Grouped by the facets, then by whether the sample passed.
    pub by_result: ReviewReport,
    /// EPAM per model from the reviews' grades ([`epam_table`]).
    pub epam: Option<crate::report::Table>,
    facets: Vec<String>,
}

impl ReviewSummary {
    /// Aggregates `reviews` of `results` over `tasks`, grouped by `facets`.
    pub fn new(
        reviews: &Reviews,
        tasks: &[crate::task::Task],
        results: &[crate::results::SampleResult],
        facets: &[crate::facets::Facet],
    ) -> ReviewSummary {
        ReviewSummary {
            by_facets: ReviewReport::new(reviews, tasks, results, facets, false),
            by_result: ReviewReport::new(reviews, tasks, results, facets, true),
            epam: epam_table(reviews, tasks, results),
            facets: facets.iter().map(ToString::to_string).collect(),
        }
    }

    /// Every table, titled, in the order shown: scores, scores by functional result, scores per
    /// task, judged better, agreement, EPAM.
    pub fn tables(&self) -> Vec<(String, crate::report::Table)> {
        let mut split_headers = self.facets.clone();
        split_headers.push("result".into());
        let mut tables = self.by_facets.tables(&self.facets);
        let split = self.by_result.tables(&split_headers).remove(0).1;
        tables.insert(1, ("scores by functional result".to_owned(), split));
        if let Some(epam) = &self.epam {
            tables.push(("epam from the reviews' grades".to_owned(), epam.clone()));
        }
        tables
    }
}

/// One row of the scores table: a model's scores of one property in one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreRow {
    /// The group's keys (the facets' values, then `passed`/`failed` when split), empty for all.
    pub keys: Vec<String>,
    /// The model.
    pub model: String,
    /// The property.
    pub property: String,
    /// Tasks with at least one score.
    pub tasks: u64,
    /// Scores given.
    pub scores: u64,
    /// The sum of every score.
    pub sum: f64,
    /// The mean over tasks of each task's summed score (the seed paper's layout).
    pub mean_per_task: f64,
    /// Their standard deviation (sample, n - 1; 0 for one task).
    pub sd_per_task: f64,
}

/// How reviewers agreed on one property.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertyAgreement {
    /// The property.
    pub property: String,
    /// Cohen's kappa, quadratic weights, when exactly two reviewers scored.
    pub kappa: Option<f64>,
    /// Scored samples both reviewers scored (what kappa rests on).
    pub kappa_items: u64,
    /// Krippendorff's alpha, ordinal.
    pub alpha: Option<f64>,
    /// Scored samples at least two reviewers scored (what alpha rests on).
    pub alpha_items: u64,
}

/// Everything the reviews say: scores per model and property (per group), how often each model
/// was judged better, and the reviewers' agreement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewReport {
    /// The rubric's id.
    pub rubric: String,
    /// The reviewers.
    pub reviewers: Vec<String>,
    /// Scores per group, model and property.
    pub rows: Vec<ScoreRow>,
    /// The seed paper's first table: per group, model, property and task, the summed score.
    pub per_task: Vec<(Vec<String>, String, String, TaskId, f64)>,
    /// Per model: (comparisons it was in, times judged better).
    pub better: BTreeMap<String, (u64, u64)>,
    /// Per property.
    pub agreement: Vec<PropertyAgreement>,
}

impl ReviewReport {
    /// Aggregates `reviews` of `results` (for each sample's model and verdict) over `tasks`,
    /// grouped by `facets` and, with `split_by_result`, by whether the sample passed.
    pub fn new(
        reviews: &Reviews,
        tasks: &[crate::task::Task],
        results: &[crate::results::SampleResult],
        facets: &[crate::facets::Facet],
        split_by_result: bool,
    ) -> ReviewReport {
        use crate::results::Verdict;
        let by_sample: BTreeMap<(&TaskId, u64), &crate::results::SampleResult> =
            results.iter().map(|r| ((&r.task_id, r.index), r)).collect();
        let task_of: BTreeMap<&TaskId, &crate::task::Task> =
            tasks.iter().map(|t| (&t.id, t)).collect();
        // (keys, model, property) -> task -> summed score, and the count of scores.
        type Cell = (BTreeMap<TaskId, f64>, u64);
        let mut cells: BTreeMap<(Vec<String>, String, String), Cell> = BTreeMap::new();
        let mut better: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        // (property, task, sample) -> reviewer -> score, for agreement.
        let mut ratings: BTreeMap<(String, TaskId, u64), BTreeMap<String, i32>> = BTreeMap::new();
        for file in &reviews.files {
            for item in &file.items {
                let sample = |i: usize| by_sample.get(&(&item.task_id, item.samples[i])).copied();
                let model = |i: usize| {
                    sample(i)
                        .and_then(|r| r.model.clone())
                        .unwrap_or_else(|| "(no model)".to_owned())
                };
                for (property, scores) in &item.scores {
                    for (i, &score) in scores.iter().enumerate() {
                        ratings
                            .entry((property.clone(), item.task_id.clone(), item.samples[i]))
                            .or_default()
                            .insert(file.reviewer.clone(), score);
                        let mut key_sets: Vec<Vec<String>> = vec![Vec::new()];
                        if let Some(task) = task_of.get(&item.task_id) {
                            for facet in facets {
                                let values = facet.values(task, Some(&model(i)));
                                key_sets = key_sets
                                    .into_iter()
                                    .flat_map(|keys| {
                                        values.iter().map(move |v| {
                                            let mut keys = keys.clone();
                                            keys.push(v.label.clone());
                                            keys
                                        })
                                    })
                                    .collect();
                            }
                        }
                        if split_by_result {
                            let passed = sample(i).is_some_and(|r| r.verdict == Verdict::Passed);
                            for keys in &mut key_sets {
                                keys.push(if passed { "passed" } else { "failed" }.to_owned());
                            }
                        }
                        for keys in key_sets {
                            let cell = cells.entry((keys, model(i), property.clone())).or_default();
                            *cell.0.entry(item.task_id.clone()).or_insert(0.0) += f64::from(score);
                            cell.1 += 1;
                        }
                    }
                }
                if let Some(winner) = item.better {
                    for i in 0..item.samples.len() {
                        let entry = better.entry(model(i)).or_default();
                        entry.0 += 1;
                        entry.1 += u64::from(i == winner);
                    }
                }
            }
        }
        let per_task: Vec<(Vec<String>, String, String, TaskId, f64)> = cells
            .iter()
            .flat_map(|((keys, model, property), (sums, _))| {
                sums.iter().map(move |(task, sum)| {
                    (
                        keys.clone(),
                        model.clone(),
                        property.clone(),
                        task.clone(),
                        *sum,
                    )
                })
            })
            .collect();
        let rows = cells
            .into_iter()
            .map(|((keys, model, property), (per_task, scores))| {
                let sums: Vec<f64> = per_task.values().copied().collect();
                let n = sums.len() as f64;
                let mean = sums.iter().sum::<f64>() / n;
                let sd = if sums.len() > 1 {
                    (sums.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
                } else {
                    0.0
                };
                ScoreRow {
                    keys,
                    model,
                    property,
                    tasks: sums.len() as u64,
                    scores,
                    sum: sums.iter().sum(),
                    mean_per_task: mean,
                    sd_per_task: sd,
                }
            })
            .collect();
        let reviewers: Vec<String> = reviews.files.iter().map(|f| f.reviewer.clone()).collect();
        let agreement = reviews
            .rubric
            .properties
            .iter()
            .map(|property| {
                let scored: Vec<&BTreeMap<String, i32>> = ratings
                    .iter()
                    .filter(|((p, _, _), _)| *p == property.name)
                    .map(|(_, by_reviewer)| by_reviewer)
                    .collect();
                let units: Vec<Vec<i32>> = scored
                    .iter()
                    .filter(|r| r.len() >= 2)
                    .map(|r| r.values().copied().collect())
                    .collect();
                let pairs: Vec<(i32, i32)> = match reviewers.as_slice() {
                    [a, b] => scored
                        .iter()
                        .filter_map(|r| Some((*r.get(a)?, *r.get(b)?)))
                        .collect(),
                    _ => Vec::new(),
                };
                PropertyAgreement {
                    property: property.name.clone(),
                    kappa: crate::agreement::cohen_kappa(
                        &pairs,
                        &property.values(),
                        crate::agreement::KappaWeights::Quadratic,
                    ),
                    kappa_items: pairs.len() as u64,
                    alpha: crate::agreement::krippendorff_alpha(
                        &units,
                        crate::agreement::AlphaLevel::Ordinal,
                    ),
                    alpha_items: units.len() as u64,
                }
            })
            .collect();
        ReviewReport {
            rubric: reviews.rubric.id.clone(),
            reviewers,
            rows,
            per_task,
            better,
            agreement,
        }
    }

    /// The report as tables (scores, better, agreement), with the digits of every other report.
    pub fn tables(&self, group_headers: &[String]) -> Vec<(String, crate::report::Table)> {
        use crate::report::{number, Table};
        let mut headers: Vec<String> = group_headers.to_vec();
        headers.extend(
            [
                "model",
                "property",
                "tasks",
                "scores",
                "sum",
                "mean_per_task",
                "sd_per_task",
            ]
            .map(String::from),
        );
        let scores = Table {
            headers,
            rows: self
                .rows
                .iter()
                .map(|row| {
                    let mut cells = row.keys.clone();
                    cells.extend([
                        row.model.clone(),
                        row.property.clone(),
                        row.tasks.to_string(),
                        row.scores.to_string(),
                        row.sum.to_string(),
                        number(Some(row.mean_per_task)),
                        number(Some(row.sd_per_task)),
                    ]);
                    cells
                })
                .collect(),
        };
        let better = Table {
            headers: ["model", "comparisons", "judged_better", "share"]
                .map(String::from)
                .to_vec(),
            rows: self
                .better
                .iter()
                .map(|(model, (n, wins))| {
                    vec![
                        model.clone(),
                        n.to_string(),
                        wins.to_string(),
                        number((*n > 0).then(|| *wins as f64 / *n as f64)),
                    ]
                })
                .collect(),
        };
        let agreement = Table {
            headers: ["property", "kappa", "kappa_items", "alpha", "alpha_items"]
                .map(String::from)
                .to_vec(),
            rows: self
                .agreement
                .iter()
                .map(|a| {
                    vec![
                        a.property.clone(),
                        number(a.kappa),
                        a.kappa_items.to_string(),
                        number(a.alpha),
                        a.alpha_items.to_string(),
                    ]
                })
                .collect(),
        };
        let mut headers: Vec<String> = group_headers.to_vec();
        headers.extend(["model", "property", "task", "sum"].map(String::from));
        let per_task = Table {
            headers,
            rows: self
                .per_task
                .iter()
                .map(|(keys, model, property, task, sum)| {
                    let mut cells = keys.clone();
                    cells.extend([
                        model.clone(),
                        property.clone(),
                        task.0.clone(),
                        sum.to_string(),
                    ]);
                    cells
                })
                .collect(),
        };
        let mut tables = vec![
            ("scores".to_owned(), scores),
            ("scores per task".to_owned(), per_task),
        ];
        if !self.better.is_empty() {
            tables.push(("judged better".to_owned(), better));
        }
        tables.push(("agreement".to_owned(), agreement));
        tables
    }
}

#[cfg(test)]
mod aggregate_tests {
    use super::*;
    use crate::results::{SampleResult, Verdict};

    fn result(task: &str, index: u64, model: &str, verdict: Verdict) -> SampleResult {
        SampleResult {
            verdict,
            ..SampleResult::for_sample(&crate::Sample {
                index,
                task_id: TaskId(task.into()),
                model: Some(model.into()),
                code: crate::SampleCode::Solution(String::new()),
                info: Default::default(),
            })
        }
    }

    fn reviewer(name: &str, scores: &[(&str, [u64; 2], [i32; 2], usize)]) -> ReviewFile {
        ReviewFile {
            kind: REVIEWS_KIND.into(),
            format_version: 1,
            reviewer: name.into(),
            rubric: builtin_rubrics().remove(0),
            seed: 1,
            query: String::new(),
            items: scores
                .iter()
                .map(|&(task, samples, usability, better)| ReviewItem {
                    task_id: TaskId(task.into()),
                    samples: samples.to_vec(),
                    scores: [("usability".to_owned(), usability.to_vec())].into(),
                    better: Some(better),
                })
                .collect(),
        }
    }

    #[test]
    fn scores_sum_per_task_then_mean_and_sd_over_tasks_and_reviewers_agree() {
        // Samples: t1 has a (index 0, passed) and b (1, failed); t2 has a (2, passed), b (3).
        let results = [
            result("t1", 0, "a", Verdict::Passed),
            result("t1", 1, "b", Verdict::WrongAnswer),
            result("t2", 2, "a", Verdict::Passed),
            result("t2", 3, "b", Verdict::WrongAnswer),
        ];
        // Ada puts b on the left for t2 (the seed's order): scores follow the samples shown.
        let ada = reviewer(
            "ada",
            &[("t1", [0, 1], [2, -1], 0), ("t2", [3, 2], [-2, 1], 1)],
        );
        let bob = reviewer(
            "bob",
            &[("t1", [1, 0], [-1, 2], 1), ("t2", [2, 3], [2, -2], 0)],
        );
        let reviews = Reviews::merge(vec![
            ("ada.json".into(), ada.clone()),
            ("bob.json".into(), bob),
        ])
        .unwrap();
        let report = ReviewReport::new(&reviews, &[], &results, &[], false);
        let row = |model: &str| {
            report
                .rows
                .iter()
                .find(|r| r.model == model && r.property == "usability")
                .unwrap()
        };
        // a: t1 2 + 2 = 4, t2 1 + 2 = 3 -> sum 7, mean 3.5, sd sqrt(0.5).
        assert_eq!(
            (row("a").sum, row("a").mean_per_task, row("a").tasks),
            (7.0, 3.5, 2)
        );
        assert!((row("a").sd_per_task - 0.5f64.sqrt()).abs() < 1e-12);
        // b: t1 -1 + -1 = -2, t2 -2 + -2 = -4 -> mean -3.
        assert_eq!(row("b").mean_per_task, -3.0);
        // a was judged better in all four comparisons.
        assert_eq!(report.better["a"], (4, 4));
        assert_eq!(report.better["b"], (4, 0));
        // Usability: the two agree on three of four samples (a's t2: 1 against 2).
        let usability = &report
            .agreement
            .iter()
            .find(|a| a.property == "usability")
            .unwrap();
        assert_eq!((usability.kappa_items, usability.alpha_items), (4, 4));
        assert!(usability.kappa.unwrap() > 0.8 && usability.kappa.unwrap() < 1.0);
        // Split by functional result: a's samples all passed.
        let split = ReviewReport::new(&reviews, &[], &results, &[], true);
        assert!(split
            .rows
            .iter()
            .filter(|r| r.model == "a")
            .all(|r| r.keys == ["passed"]));
        // A repeated file counts once, a conflicting one is refused.
        let again = Reviews::merge(vec![
            ("ada.json".into(), ada.clone()),
            ("copy.json".into(), ada.clone()),
        ])
        .unwrap();
        assert_eq!(again.files.len(), 1);
        assert!(again.notes[0].contains("counted once"));
        let mut changed = ada.clone();
        changed.items[0]
            .scores
            .insert("usability".into(), vec![1, 1]);
        let conflict = Reviews::merge(vec![
            ("ada.json".into(), ada),
            ("other.json".into(), changed),
        ])
        .unwrap_err();
        assert!(
            conflict.starts_with("other.json: reviewer `ada`"),
            "{conflict}"
        );
    }
}

/// One item of a review session before it is scored: a task and the samples shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedItem {
    /// The task.
    pub task_id: TaskId,
    /// One sample, or left and right.
    pub samples: Vec<u64>,
}

/// The items of a session over the samples `query` selects, in an order `seed` fixes: for a
/// single-sample rubric every selected sample; for a pairwise one, per task that both `models`
/// answered, the first sample of each, left or right as the seed decides. The same inputs give
/// the same session on every machine.
pub fn plan_session(
    tasks: &[crate::task::Task],
    results: &[crate::results::SampleResult],
    query: &crate::query::Query,
    rubric: &Rubric,
    models: [&str; 2],
    seed: u64,
) -> Vec<PlannedItem> {
    let task_of: BTreeMap<&TaskId, &crate::task::Task> = tasks.iter().map(|t| (&t.id, t)).collect();
    let selected = results.iter().filter(|r| {
        task_of
            .get(&r.task_id)
            .is_some_and(|t| query.matches_sample(t, r.model.as_deref()))
    });
    let mut state = seed ^ 0x5245_5649_4557_5321;
    let mut items: Vec<PlannedItem> = match rubric.mode {
        Mode::Single => selected
            .map(|r| PlannedItem {
                task_id: r.task_id.clone(),
                samples: vec![r.index],
            })
            .collect(),
        Mode::Pairwise => {
            let mut firsts: BTreeMap<&TaskId, [Option<u64>; 2]> = BTreeMap::new();
            for result in selected {
                let Some(slot) = models
                    .iter()
                    .position(|m| result.model.as_deref() == Some(*m))
                else {
                    continue;
                };
                let entry = &mut firsts.entry(&result.task_id).or_default()[slot];
                *entry = Some(entry.map_or(result.index, |i: u64| i.min(result.index)));
            }
            firsts
                .into_iter()
                .filter_map(|(task, [a, b])| {
                    let (a, b) = (a?, b?);
                    let swap = crate::metrics::split_mix(&mut state) % 2 == 1;
                    Some(PlannedItem {
                        task_id: task.clone(),
                        samples: if swap { vec![b, a] } else { vec![a, b] },
                    })
                })
                .collect()
        }
    };
    // Fisher-Yates with the same generator.
    for i in (1..items.len()).rev() {
        let j = (crate::metrics::split_mix(&mut state) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
    items
}

#[cfg(test)]
mod plan_tests {
    use super::*;

    #[test]
    fn accuracy_and_completeness_reviews_become_epam_grades() {
        let rubric = builtin_rubrics().remove(2);
        let item = |accuracy: i32, completeness: i32| ReviewItem {
            task_id: TaskId("t".into()),
            samples: vec![4],
            scores: [
                ("accuracy".to_owned(), vec![accuracy]),
                ("completeness".to_owned(), vec![completeness]),
            ]
            .into(),
            better: None,
        };
        let file = |reviewer: &str, a, c| ReviewFile {
            kind: REVIEWS_KIND.into(),
            format_version: 1,
            reviewer: reviewer.into(),
            rubric: rubric.clone(),
            seed: 1,
            query: String::new(),
            items: vec![item(a, c)],
        };
        let reviews = Reviews::merge(vec![
            ("a".into(), file("a", 4, 3)),
            ("b".into(), file("b", 2, 3)),
        ])
        .unwrap();
        let grades = reviews.grades();
        let g = &grades[&(TaskId("t".into()), 4)];
        assert_eq!((g.accuracy, g.completeness), (3.0, 3.0));
        // Other rubrics give no grades.
        let developer = Reviews {
            rubric: builtin_rubrics().remove(0),
            files: vec![],
            notes: vec![],
        };
        assert!(developer.grades().is_empty());
    }

    #[test]
    fn sessions_are_fixed_by_their_seed_and_pair_two_models_per_task() {
        let bundle = crate::synthetic::bundle(200, 3);
        let models: Vec<String> = {
            let set: BTreeSet<String> = bundle
                .results
                .iter()
                .filter_map(|r| r.model.clone())
                .collect();
            set.into_iter().collect()
        };
        let pairwise = builtin_rubrics().remove(0);
        let query = crate::query::Query::default();
        let plan = |seed| {
            plan_session(
                &bundle.tasks,
                &bundle.results,
                &query,
                &pairwise,
                [&models[0], &models[1]],
                seed,
            )
        };
        let (a, b) = (plan(1), plan(2));
        assert_eq!(a, plan(1));
        assert_ne!(a, b);
        assert!(!a.is_empty());
        let model_of = |index: u64| {
            bundle
                .results
                .iter()
                .find(|r| r.index == index)
                .unwrap()
                .model
                .clone()
        };
        let mut left = BTreeSet::new();
        for item in &a {
            let sides: BTreeSet<Option<String>> =
                item.samples.iter().map(|&i| model_of(i)).collect();
            assert_eq!(sides.len(), 2, "{item:?}");
            left.insert(model_of(item.samples[0]));
        }
        // Both models appear on the left somewhere: the seed, not the model, decides the side.
        assert_eq!(left.len(), 2);
        let single = builtin_rubrics().remove(1);
        let all = plan_session(&bundle.tasks, &bundle.results, &query, &single, ["", ""], 1);
        assert_eq!(all.len(), bundle.results.len());
    }
}

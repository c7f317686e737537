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

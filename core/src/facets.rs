//! Facets: the dimensions a report groups by (topic, source, year, complexity, language,
//! difficulty, model, task), the value of each for a task or a sample, and distributions of a
//! dataset over them.

use crate::task::Task;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// Which complexity figure a facet or a filter reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComplexityMetric {
    /// McCabe's cyclomatic complexity.
    Cyclomatic,
    /// SonarSource's cognitive complexity.
    Cognitive,
    /// Lines of code.
    Loc,
}

impl ComplexityMetric {
    /// The task's figure, from its metadata or else its first reference.
    pub fn of(self, task: &Task) -> Option<u32> {
        let complexity = task.complexity();
        match self {
            ComplexityMetric::Cyclomatic => complexity.cyclomatic,
            ComplexityMetric::Cognitive => complexity.cognitive,
            ComplexityMetric::Loc => complexity.loc,
        }
    }

    /// Lower bounds of the buckets reports group this figure into.
    fn bucket_starts(self) -> &'static [u32] {
        match self {
            ComplexityMetric::Cyclomatic | ComplexityMetric::Cognitive => &[1, 3, 5, 8, 11, 16, 21],
            ComplexityMetric::Loc => &[1, 6, 11, 21, 41, 81],
        }
    }

    /// The buckets reports group this figure into, in order: narrow at the low end, where most
    /// small tasks lie, and wider above.
    pub fn buckets(self) -> Vec<Bucket> {
        let starts = self.bucket_starts();
        starts
            .iter()
            .enumerate()
            .map(|(i, &low)| Bucket {
                low,
                high: starts.get(i + 1).map(|next| next - 1),
            })
            .collect()
    }

    /// The bucket `value` falls in, as a label (`3-4`, `21+`) with its lower bound for ordering.
    pub fn bucket(self, value: u32) -> (u32, String) {
        let buckets = self.buckets();
        let i = buckets.iter().rposition(|b| b.low <= value).unwrap_or(0);
        (buckets[i].low, buckets[i].label())
    }

    /// The name used in files and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            ComplexityMetric::Cyclomatic => "cyclomatic",
            ComplexityMetric::Cognitive => "cognitive",
            ComplexityMetric::Loc => "loc",
        }
    }
}

/// One bucket of a complexity figure: the values `low..=high` (no upper end for the last).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bucket {
    /// The smallest value in the bucket.
    pub low: u32,
    /// The largest, when there is one.
    pub high: Option<u32>,
}

impl Bucket {
    /// The label reports show: `1`, `3-4`, `21+`.
    pub fn label(&self) -> String {
        match self.high {
            Some(high) if high == self.low => self.low.to_string(),
            Some(high) => format!("{}-{high}", self.low),
            None => format!("{}+", self.low),
        }
    }

    /// The bucket as a range of the query syntax: `1`, `3..4`, `21..`.
    pub fn query_range(&self) -> String {
        match self.high {
            Some(high) if high == self.low => self.low.to_string(),
            Some(high) => format!("{}..{high}", self.low),
            None => format!("{}..", self.low),
        }
    }
}

/// A dimension to group by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Facet {
    /// Each of the task's topics (a task with two topics counts in both groups).
    Topic,
    /// The source's kind and name (`textbook: Programming in Small Steps`).
    Source,
    /// The source's kind only.
    SourceKind,
    /// The task's year.
    Year,
    /// A bucket of a complexity figure of the task's reference.
    Complexity(ComplexityMetric),
    /// The task's language.
    Language,
    /// The task's difficulty.
    Difficulty,
    /// The model that wrote the sample.
    Model,
    /// The task itself.
    Task,
}

impl Facet {
    /// Every facet a report can group by, with its name.
    pub const ALL: [Facet; 11] = [
        Facet::Topic,
        Facet::Source,
        Facet::SourceKind,
        Facet::Year,
        Facet::Complexity(ComplexityMetric::Cyclomatic),
        Facet::Complexity(ComplexityMetric::Cognitive),
        Facet::Complexity(ComplexityMetric::Loc),
        Facet::Language,
        Facet::Difficulty,
        Facet::Model,
        Facet::Task,
    ];

    /// The facet's values for a sample of `model` answering `task`; never empty (a missing value
    /// is the group [`GroupKey::none`]).
    pub fn values(self, task: &Task, model: Option<&str>) -> Vec<GroupKey> {
        let metadata = &task.metadata;
        let keys: Vec<GroupKey> = match self {
            Facet::Topic => metadata.topics.iter().map(GroupKey::text).collect(),
            Facet::Source => metadata
                .source
                .iter()
                .map(|s| {
                    GroupKey::text(match &s.name {
                        Some(name) => format!("{}: {name}", s.kind.as_str()),
                        None => s.kind.as_str().to_owned(),
                    })
                })
                .collect(),
            Facet::SourceKind => metadata
                .source
                .iter()
                .map(|s| GroupKey::text(s.kind.as_str()))
                .collect(),
            Facet::Year => metadata
                .year
                .iter()
                .map(|&y| GroupKey::ordered(i64::from(y), y.to_string()))
                .collect(),
            Facet::Complexity(metric) => metric
                .of(task)
                .map(|v| {
                    let (low, label) = metric.bucket(v);
                    GroupKey::ordered(i64::from(low), label)
                })
                .into_iter()
                .collect(),
            Facet::Language => vec![GroupKey::text(task.language.as_str())],
            Facet::Difficulty => metadata.difficulty.iter().map(GroupKey::text).collect(),
            Facet::Model => model.into_iter().map(GroupKey::text).collect(),
            Facet::Task => vec![GroupKey::text(&task.id.0)],
        };
        if keys.is_empty() {
            vec![GroupKey::none()]
        } else {
            keys
        }
    }
}

impl fmt::Display for Facet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Facet::Topic => "topic",
            Facet::Source => "source",
            Facet::SourceKind => "source_kind",
            Facet::Year => "year",
            Facet::Complexity(ComplexityMetric::Cyclomatic) => "complexity",
            Facet::Complexity(ComplexityMetric::Cognitive) => "cognitive",
            Facet::Complexity(ComplexityMetric::Loc) => "loc",
            Facet::Language => "language",
            Facet::Difficulty => "difficulty",
            Facet::Model => "model",
            Facet::Task => "task",
        })
    }
}

impl FromStr for Facet {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Ok(match name {
            "topic" | "topics" => Facet::Topic,
            "source" => Facet::Source,
            "source_kind" | "kind" => Facet::SourceKind,
            "year" => Facet::Year,
            "complexity" | "cyclomatic" => Facet::Complexity(ComplexityMetric::Cyclomatic),
            "cognitive" => Facet::Complexity(ComplexityMetric::Cognitive),
            "loc" => Facet::Complexity(ComplexityMetric::Loc),
            "language" => Facet::Language,
            "difficulty" => Facet::Difficulty,
            "model" => Facet::Model,
            "task" => Facet::Task,
            other => {
                return Err(format!(
                    "unknown facet `{other}`; expected one of topic, source, source_kind, year, \
                     complexity, cognitive, loc, language, difficulty, model, task"
                ))
            }
        })
    }
}

/// One value of a facet: a label and a sort key, so that years and complexity buckets sort by
/// number and the missing value comes last; labels of equal keys in natural order
/// (`HumanEval/2` before `HumanEval/10`, [`crate::report::natural_cmp`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GroupKey {
    /// Sort key: numbers for numeric facets, 0 for text, `i64::MAX` for "none".
    pub order: i64,
    /// What reports show.
    pub label: String,
}

impl Ord for GroupKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order
            .cmp(&other.order)
            .then_with(|| crate::report::natural_cmp(&self.label, &other.label))
    }
}

impl PartialOrd for GroupKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl GroupKey {
    /// The label reports show when a task has no value for a facet.
    pub const NONE_LABEL: &'static str = "(none)";

    fn text(label: impl Into<String>) -> Self {
        GroupKey {
            order: 0,
            label: label.into(),
        }
    }

    fn ordered(order: i64, label: String) -> Self {
        GroupKey { order, label }
    }

    fn none() -> Self {
        GroupKey {
            order: i64::MAX,
            label: Self::NONE_LABEL.into(),
        }
    }
}

/// How many tasks fall in each value of `facet`, in report order (ScenEval's Figs. 6 to 8).
pub fn distribution<'a>(
    tasks: impl IntoIterator<Item = &'a Task>,
    facet: Facet,
) -> Vec<(GroupKey, u64)> {
    let mut counts: BTreeMap<GroupKey, u64> = BTreeMap::new();
    for task in tasks {
        for key in facet.values(task, None) {
            *counts.entry(key).or_insert(0) += 1;
        }
    }
    counts.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::{Complexity, Metadata, Source, SourceKind};

    fn task(topics: &[&str], year: Option<u32>, cyclomatic: Option<u32>) -> Task {
        Task {
            id: "t".into(),
            metadata: Metadata {
                topics: topics.iter().map(|t| t.to_string()).collect(),
                year,
                complexity: Complexity {
                    cyclomatic,
                    ..Complexity::default()
                },
                source: Some(Source {
                    kind: SourceKind::Textbook,
                    name: Some("Book".into()),
                    chapter: None,
                    url: None,
                }),
                ..Metadata::default()
            },
            ..Task::default()
        }
    }

    #[test]
    fn buckets_cover_every_value_once() {
        let m = ComplexityMetric::Cyclomatic;
        // Below the first bound (a figure of 0) falls in the first bucket.
        assert_eq!(m.bucket(0), (1, "1-2".into()));
        assert_eq!(m.bucket(2), (1, "1-2".into()));
        assert_eq!(m.bucket(3), (3, "3-4".into()));
        assert_eq!(m.bucket(10), (8, "8-10".into()));
        assert_eq!(m.bucket(21), (21, "21+".into()));
        assert_eq!(m.bucket(500), (21, "21+".into()));
        assert_eq!(ComplexityMetric::Loc.bucket(7), (6, "6-10".into()));
        let ranges: Vec<String> = ComplexityMetric::Cyclomatic
            .buckets()
            .iter()
            .map(Bucket::query_range)
            .collect();
        assert_eq!(
            ranges,
            ["1..2", "3..4", "5..7", "8..10", "11..15", "16..20", "21.."]
        );
    }

    #[test]
    fn values_and_distribution() {
        let tasks = [
            task(&["strings", "loops"], Some(2019), Some(4)),
            task(&["strings"], Some(2009), None),
            task(&[], None, Some(12)),
        ];
        let topics = distribution(&tasks, Facet::Topic);
        let labels: Vec<(&str, u64)> = topics.iter().map(|(k, n)| (k.label.as_str(), *n)).collect();
        assert_eq!(labels, [("loops", 1), ("strings", 2), ("(none)", 1)]);
        let years = distribution(&tasks, Facet::Year);
        let labels: Vec<&str> = years.iter().map(|(k, _)| k.label.as_str()).collect();
        assert_eq!(labels, ["2009", "2019", "(none)"]);
        let mut keys: Vec<GroupKey> = ["t/10", "t/2", "T/1", "t/1"]
            .into_iter()
            .map(GroupKey::text)
            .collect();
        keys.sort();
        let labels: Vec<&str> = keys.iter().map(|k| k.label.as_str()).collect();
        assert_eq!(
            labels,
            ["T/1", "t/1", "t/2", "t/10"],
            "natural order of labels"
        );
        let complexity = distribution(&tasks, "complexity".parse().unwrap());
        let labels: Vec<&str> = complexity.iter().map(|(k, _)| k.label.as_str()).collect();
        assert_eq!(labels, ["3-4", "11-15", "(none)"]);
        assert_eq!(
            Facet::Source.values(&tasks[0], None)[0].label,
            "textbook: Book"
        );
        assert_eq!(Facet::Model.values(&tasks[0], Some("m"))[0].label, "m");
    }

    #[test]
    fn facet_names_round_trip() {
        for facet in Facet::ALL {
            assert_eq!(facet.to_string().parse::<Facet>(), Ok(facet));
        }
        // Every facet the command line groups by is offered (the site's menu lists ALL).
        let names: Vec<String> = Facet::ALL.iter().map(ToString::to_string).collect();
        for name in ["cognitive", "loc", "complexity", "task", "source_kind"] {
            assert!(
                names.iter().any(|n| n == name),
                "{name} missing from {names:?}"
            );
        }
        assert!("colour"
            .parse::<Facet>()
            .unwrap_err()
            .contains("unknown facet"));
    }
}

//! Test morphisms: filters that select a scenario's tasks and samples by their metadata, composed
//! with `all`, `any` and `not`, saved and loaded as a small JSON query.
//!
//! Within one list field any value matches (`"topics_any": ["a", "b"]` is a or b); different
//! fields must all match. An empty query selects everything.

use crate::facets::ComplexityMetric;
use crate::task::{Language, SourceKind, Task};
use serde::{Deserialize, Serialize};

/// A selection of tasks (and of samples, through `models`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// Source kinds, any of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_kinds: Vec<SourceKind>,
    /// Source names (a book, a website), any of, compared without regard to case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_names: Vec<String>,
    /// Tasks having at least one of these topics.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics_any: Vec<String>,
    /// Tasks having every one of these topics.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub topics_all: Vec<String>,
    /// A complexity figure within a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complexity: Option<ComplexityRange>,
    /// Years within a range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub years: Option<Range>,
    /// Languages, any of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<Language>,
    /// Difficulties, any of, compared without regard to case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub difficulties: Vec<String>,
    /// Models, any of (applies to samples; a task always matches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// Task ids, any of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<String>,
    /// Queries that must all match as well.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<Query>,
    /// Queries of which at least one must match, when given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any: Vec<Query>,
    /// A query that must not match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Query>>,
}

/// An inclusive range; an open end is unbounded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// Smallest value accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// Largest value accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

impl Range {
    /// Whether `value` lies in the range; a missing value never does.
    pub fn contains(&self, value: Option<u32>) -> bool {
        value.is_some_and(|v| self.min.is_none_or(|m| v >= m) && self.max.is_none_or(|m| v <= m))
    }
}

/// A complexity figure and its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComplexityRange {
    /// Which figure.
    pub metric: ComplexityMetric,
    /// Smallest value accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u32>,
    /// Largest value accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
}

fn contains_ignoring_case(list: &[String], value: &str) -> bool {
    list.iter().any(|item| item.eq_ignore_ascii_case(value))
}

impl Query {
    /// The query that selects what both select.
    pub fn and(self, other: Query) -> Query {
        if self == Query::default() {
            return other;
        }
        if other == Query::default() {
            return self;
        }
        Query {
            all: vec![self, other],
            ..Query::default()
        }
    }

    /// Whether the task belongs to the selection (ignoring `models`).
    pub fn matches_task(&self, task: &Task) -> bool {
        self.matches(task, None)
    }

    /// Whether a sample of `model` answering `task` belongs to the selection.
    pub fn matches_sample(&self, task: &Task, model: Option<&str>) -> bool {
        self.matches(task, Some(model))
    }

    /// `model` is `None` when judging a task alone, so that model filters let it through.
    fn matches(&self, task: &Task, model: Option<Option<&str>>) -> bool {
        let metadata = &task.metadata;
        let source = metadata.source.as_ref();
        let any_of = |list: &[String], value: Option<&str>| {
            list.is_empty() || value.is_some_and(|v| contains_ignoring_case(list, v))
        };
        (self.source_kinds.is_empty()
            || source.is_some_and(|s| self.source_kinds.contains(&s.kind)))
            && any_of(&self.source_names, source.and_then(|s| s.name.as_deref()))
            && (self.topics_any.is_empty()
                || metadata
                    .topics
                    .iter()
                    .any(|t| contains_ignoring_case(&self.topics_any, t)))
            && self
                .topics_all
                .iter()
                .all(|wanted| contains_ignoring_case(&metadata.topics, wanted))
            && self.complexity.is_none_or(|c| {
                Range {
                    min: c.min,
                    max: c.max,
                }
                .contains(c.metric.of(task))
            })
            && self.years.is_none_or(|r| r.contains(metadata.year))
            && (self.languages.is_empty() || self.languages.contains(&task.language))
            && any_of(&self.difficulties, metadata.difficulty.as_deref())
            && (self.tasks.is_empty() || self.tasks.contains(&task.id.0))
            && model.is_none_or(|m| any_of(&self.models, m))
            && self.all.iter().all(|q| q.matches(task, model))
            && (self.any.is_empty() || self.any.iter().any(|q| q.matches(task, model)))
            && self.not.as_ref().is_none_or(|q| !q.matches(task, model))
    }

    /// Parses a query given on the command line or in a URL: either JSON (`{"years": {...}}`) or
    /// terms separated by `;`, each `field=value`, where a value lists alternatives with `|` and
    /// ranges as `min..max` (either end may be left out):
    /// `source=textbook;topic=strings|lists;year=2018..2020;cyclomatic=..5;model=m1`.
    /// Fields: source (a kind or a name), topic, topics_all (`a|b`: every one), year, cyclomatic,
    /// cognitive, loc, language, difficulty, model, task.
    pub fn parse(text: &str) -> Result<Query, String> {
        let text = text.trim();
        if text.starts_with('{') {
            return serde_json::from_str(text).map_err(|e| format!("query: {e}"));
        }
        let mut query = Query::default();
        for term in text.split(';').map(str::trim).filter(|t| !t.is_empty()) {
            let (field, value) = term
                .split_once('=')
                .ok_or_else(|| format!("query term `{term}`: expected field=value"))?;
            if let Some(hint) = syntax_hint(field.trim(), value) {
                return Err(format!("query term `{term}`: {hint}"));
            }
            let values: Vec<String> = value.split('|').map(|v| v.trim().to_owned()).collect();
            let term_query = match field.trim() {
                "source" => {
                    // A word that names a kind is a kind; anything else is a source's name.
                    let mut q = Query::default();
                    for v in values {
                        match SourceKind::parse(&v) {
                            Some(kind) => q.any.push(Query {
                                source_kinds: vec![kind],
                                ..Query::default()
                            }),
                            None => q.any.push(Query {
                                source_names: vec![v],
                                ..Query::default()
                            }),
                        }
                    }
                    q
                }
                "topic" | "topics" => Query {
                    topics_any: values,
                    ..Query::default()
                },
                "topics_all" => Query {
                    topics_all: values,
                    ..Query::default()
                },
                "year" => Query {
                    years: Some(parse_range(value)?),
                    ..Query::default()
                },
                metric @ ("cyclomatic" | "complexity" | "cognitive" | "loc") => {
                    let range = parse_range(value)?;
                    let metric = match metric {
                        "cognitive" => ComplexityMetric::Cognitive,
                        "loc" => ComplexityMetric::Loc,
                        _ => ComplexityMetric::Cyclomatic,
                    };
                    Query {
                        complexity: Some(ComplexityRange {
                            metric,
                            min: range.min,
                            max: range.max,
                        }),
                        ..Query::default()
                    }
                }
                "language" => Query {
                    languages: values
                        .iter()
                        .map(|v| {
                            Language::parse(v).ok_or_else(|| format!("unknown language `{v}`"))
                        })
                        .collect::<Result<_, _>>()?,
                    ..Query::default()
                },
                "difficulty" => Query {
                    difficulties: values,
                    ..Query::default()
                },
                "model" => Query {
                    models: values,
                    ..Query::default()
                },
                "task" => Query {
                    tasks: values,
                    ..Query::default()
                },
                other => {
                    let guess = closest(other, &FIELDS)
                        .map_or_else(String::new, |f| format!("did you mean `{f}`? "));
                    return Err(format!(
                        "unknown query field `{other}`; {guess}fields are: {}",
                        FIELDS.join(", ")
                    ));
                }
            };
            query = query.and(term_query);
        }
        Ok(query)
    }
}

/// The fields a term may name (`topics` and `complexity` are accepted as aliases).
pub const FIELDS: [&str; 11] = [
    "source",
    "topic",
    "topics_all",
    "year",
    "cyclomatic",
    "cognitive",
    "loc",
    "language",
    "difficulty",
    "model",
    "task",
];

/// What is wrong with a term written as other query languages write it, with the right syntax.
fn syntax_hint(field: &str, value: &str) -> Option<String> {
    if let Some(rest) = value.strip_prefix('=') {
        return Some(format!("write one `=`: `{field}={rest}`"));
    }
    let words: Vec<&str> = value.split_whitespace().collect();
    if let Some(at) = words
        .iter()
        .position(|w| w.eq_ignore_ascii_case("and") || *w == "&&")
    {
        if words.get(at + 1).is_some_and(|next| next.contains('=')) {
            let (left, right) = (words[..at].join(" "), words[at + 1..].join(" "));
            return Some(format!(
                "terms are joined by `;`, not `{}`: `{field}={left};{right}`",
                words[at]
            ));
        }
    }
    let ranged = matches!(
        field,
        "year" | "cyclomatic" | "complexity" | "cognitive" | "loc"
    );
    if ranged {
        if let Some((low, high)) = value.split_once('-') {
            if !low.trim().is_empty() && low.trim().chars().all(|c| c.is_ascii_digit()) {
                return Some(format!(
                    "ranges are written `min..max`: `{field}={}..{}`",
                    low.trim(),
                    high.trim()
                ));
            }
        }
    }
    if value.contains(',') && (ranged || field == "language") {
        return Some(format!(
            "alternatives are separated by `|`: `{field}={}`",
            value
                .split(',')
                .map(str::trim)
                .collect::<Vec<_>>()
                .join("|")
        ));
    }
    None
}

/// The word of `words` nearest to `word` by edit distance, when it is near (2 edits at most).
fn closest<'w>(word: &str, words: &[&'w str]) -> Option<&'w str> {
    fn distance(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut previous = row[0];
            row[0] = i + 1;
            for (j, &cb) in b.iter().enumerate() {
                let substitution = previous + usize::from(ca != cb);
                previous = row[j + 1];
                row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
            }
        }
        row[b.len()]
    }
    words
        .iter()
        .map(|w| (distance(&word.to_ascii_lowercase(), w), *w))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, w)| w)
}

/// Why `query` selects nothing from `tasks` and `results`, one line per reason: each value a
/// term asks for that no task (or no result, for models) has, with the values there are; or,
/// when every value exists, that no task has them all together.
pub fn explain_empty(query: &Query, tasks: &[Task], models: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut simple = Vec::new();
    flatten(query, &mut simple);
    let values = |f: &dyn Fn(&Task) -> Vec<String>| -> Vec<String> {
        let set: std::collections::BTreeSet<String> = tasks.iter().flat_map(f).collect();
        set.into_iter().collect()
    };
    let listed = |name: &str, all: &[String]| -> String {
        const SHOWN: usize = 20;
        let mut shown: Vec<&str> = all.iter().take(SHOWN).map(String::as_str).collect();
        if all.len() > SHOWN {
            shown.push("...");
        }
        match all.is_empty() {
            true => format!("no task has a {name}"),
            false => format!("{name}s are: {}", shown.join(", ")),
        }
    };
    let mut check = |name: &str, wanted: &[String], present: &[String]| {
        for value in wanted {
            if !contains_ignoring_case(present, value) {
                lines.push(format!("no {name} `{value}`; {}", listed(name, present)));
            }
        }
    };
    let topics = values(&|t| t.metadata.topics.clone());
    let difficulties = values(&|t| t.metadata.difficulty.clone().into_iter().collect());
    let source_names = values(&|t| {
        t.metadata
            .source
            .as_ref()
            .and_then(|s| s.name.clone())
            .into_iter()
            .collect()
    });
    let ids = values(&|t| vec![t.id.0.clone()]);
    for q in &simple {
        check("topic", &q.topics_any, &topics);
        check("topic", &q.topics_all, &topics);
        check("difficulty", &q.difficulties, &difficulties);
        check("model", &q.models, models);
        check("source", &q.source_names, &source_names);
        check("task", &q.tasks, &ids);
    }
    for q in &simple {
        let present: Vec<Language> = tasks.iter().map(|t| t.language).collect();
        for language in q.languages.iter().filter(|l| !present.contains(l)) {
            let mut names: Vec<&str> = present.iter().map(|l| l.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            lines.push(format!(
                "no task in {}; languages are: {}",
                language.as_str(),
                names.join(", ")
            ));
        }
        if let Some(range) = q
            .years
            .filter(|r| !tasks.iter().any(|t| r.contains(t.metadata.year)))
        {
            let years: Vec<u32> = tasks.iter().filter_map(|t| t.metadata.year).collect();
            lines.push(match (years.iter().min(), years.iter().max()) {
                (Some(low), Some(high)) => format!(
                    "no task has a year in {}; years run from {low} to {high}",
                    range_text(range)
                ),
                _ => "no task has a year".to_owned(),
            });
        }
    }
    if lines.is_empty() && !tasks.is_empty() {
        lines.push(
            "every value asked for exists, but no task (or sample) has them all together; \
             alternatives of one field are written `a|b`"
                .to_owned(),
        );
    }
    lines
}

/// The query and its `all` parts, each a plain conjunction of fields.
fn flatten<'q>(query: &'q Query, into: &mut Vec<&'q Query>) {
    into.push(query);
    for part in &query.all {
        flatten(part, into);
    }
}

fn range_text(range: Range) -> String {
    let end = |v: Option<u32>| v.map_or_else(String::new, |v| v.to_string());
    format!("{}..{}", end(range.min), end(range.max))
}

/// `a..b`, `a..`, `..b` or a single number `a`.
fn parse_range(text: &str) -> Result<Range, String> {
    let number = |s: &str| -> Result<Option<u32>, String> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| format!("`{s}` is not a whole number"))
    };
    Ok(match text.split_once("..") {
        Some((low, high)) => Range {
            min: number(low)?,
            max: number(high)?,
        },
        None => {
            let value = number(text)?;
            Range {
                min: value,
                max: value,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::{Complexity, Metadata, Source};

    #[test]
    fn terms_written_in_other_syntaxes_get_the_right_one() {
        let error = |text: &str| Query::parse(text).unwrap_err();
        assert_eq!(
            error("topic==strings"),
            "query term `topic==strings`: write one `=`: `topic=strings`"
        );
        assert_eq!(
            error("topic=strings and year=2018"),
            "query term `topic=strings and year=2018`: terms are joined by `;`, not `and`: `topic=strings;year=2018`"
        );
        assert_eq!(
            error("year=2018-2020"),
            "query term `year=2018-2020`: ranges are written `min..max`: `year=2018..2020`"
        );
        assert_eq!(
            error("language=python,rust"),
            "query term `language=python,rust`: alternatives are separated by `|`: `language=python|rust`"
        );
        assert_eq!(
            error("topc=strings"),
            "unknown query field `topc`; did you mean `topic`? fields are: source, topic, topics_all, year, cyclomatic, cognitive, loc, language, difficulty, model, task"
        );
    }

    #[test]
    fn an_empty_selection_says_which_value_is_missing_and_lists_the_values() {
        let tasks = vec![
            task("a", SourceKind::Textbook, &["strings", "lists"], 2018, 3),
            task("b", SourceKind::Web, &["recursion"], 2020, 5),
        ];
        let explain =
            |text: &str| explain_empty(&Query::parse(text).unwrap(), &tasks, &["m1".into()]);
        assert_eq!(
            explain("topic=string"),
            ["no topic `string`; topics are: lists, recursion, strings"]
        );
        assert_eq!(
            explain("year=2030..;model=m2"),
            [
                "no model `m2`; models are: m1",
                "no task has a year in 2030..; years run from 2018 to 2020"
            ]
        );
        assert_eq!(
            explain("topic=recursion;year=2018")[0],
            "every value asked for exists, but no task (or sample) has them all together; alternatives of one field are written `a|b`"
        );
    }

    fn task(id: &str, kind: SourceKind, topics: &[&str], year: u32, cyclomatic: u32) -> Task {
        Task {
            id: id.into(),
            metadata: Metadata {
                source: Some(Source {
                    kind,
                    name: Some(format!("{} source", kind.as_str())),
                    chapter: None,
                    url: None,
                }),
                topics: topics.iter().map(|t| t.to_string()).collect(),
                year: Some(year),
                difficulty: Some("Easy".into()),
                complexity: Complexity {
                    cyclomatic: Some(cyclomatic),
                    ..Complexity::default()
                },
                ..Metadata::default()
            },
            ..Task::default()
        }
    }

    fn selected(query: &Query, tasks: &[Task]) -> Vec<String> {
        tasks
            .iter()
            .filter(|t| query.matches_task(t))
            .map(|t| t.id.0.clone())
            .collect()
    }

    fn tasks() -> Vec<Task> {
        vec![
            task("a", SourceKind::Textbook, &["strings", "loops"], 2015, 2),
            task("b", SourceKind::Web, &["strings"], 2019, 6),
            task("c", SourceKind::Forum, &["recursion"], 2022, 11),
        ]
    }

    #[test]
    fn each_filter_selects_what_it_says() {
        let tasks = tasks();
        let cases = [
            ("", vec!["a", "b", "c"]),
            ("source=textbook", vec!["a"]),
            ("source=web source|forum", vec!["b", "c"]),
            ("topic=strings", vec!["a", "b"]),
            ("topics_all=strings|loops", vec!["a"]),
            ("year=2016..", vec!["b", "c"]),
            ("year=..2019", vec!["a", "b"]),
            ("year=2019", vec!["b"]),
            ("cyclomatic=3..11", vec!["b", "c"]),
            ("difficulty=easy", vec!["a", "b", "c"]),
            ("difficulty=hard", vec![]),
            ("language=python", vec!["a", "b", "c"]),
            ("language=rust", vec![]),
            ("task=a|c", vec!["a", "c"]),
            ("topic=strings;year=2019..", vec!["b"]),
        ];
        for (text, expected) in cases {
            let query = Query::parse(text).unwrap();
            assert_eq!(selected(&query, &tasks), expected, "{text}");
        }
    }

    #[test]
    fn composition_with_not_and_any() {
        let tasks = tasks();
        let strings = Query::parse("topic=strings").unwrap();
        let not_textbook = Query {
            not: Some(Box::new(Query::parse("source=textbook").unwrap())),
            ..Query::default()
        };
        assert_eq!(selected(&strings.clone().and(not_textbook), &tasks), ["b"]);
        let either = Query {
            any: vec![strings, Query::parse("year=2022").unwrap()],
            ..Query::default()
        };
        assert_eq!(selected(&either, &tasks), ["a", "b", "c"]);
    }

    #[test]
    fn model_filters_apply_to_samples_only() {
        let tasks = tasks();
        let query = Query::parse("model=m1").unwrap();
        assert!(query.matches_task(&tasks[0]));
        assert!(query.matches_sample(&tasks[0], Some("m1")));
        assert!(!query.matches_sample(&tasks[0], Some("m2")));
        assert!(!query.matches_sample(&tasks[0], None));
    }

    #[test]
    fn a_saved_query_reloads_to_the_same_selection() {
        let query = Query::parse("source=textbook|web;topic=strings;cyclomatic=..5").unwrap();
        let saved = serde_json::to_string(&query).unwrap();
        let loaded = Query::parse(&saved).unwrap();
        assert_eq!(loaded, query);
        assert_eq!(selected(&loaded, &tasks()), ["a"]);
    }

    #[test]
    fn bad_queries_say_what_is_wrong() {
        assert!(Query::parse("colour=red")
            .unwrap_err()
            .starts_with("unknown query field `colour`; fields are: source, topic,"));
        assert_eq!(
            Query::parse("year=twenty").unwrap_err(),
            "`twenty` is not a whole number"
        );
        assert!(Query::parse("{\"yeers\": {}}")
            .unwrap_err()
            .contains("unknown field `yeers`"));
    }
}

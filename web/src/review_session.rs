//! A blind review session in the site (issue 13): the items core planned, the reviewer's scores
//! so far, where the reviewer is, and the keyboard, as plain data changed by [`Key`]s, so that
//! it is tested on the host and survives a reload (it is saved whole in localStorage).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use wasmeval_core::review::{Mode, PlannedItem, ReviewFile, ReviewItem, Rubric, REVIEWS_KIND};

/// Where a session is kept in the browser between visits.
pub const STORAGE_KEY: &str = "wasmeval-review-session";

/// One session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// Who reviews.
    pub reviewer: String,
    /// With what.
    pub rubric: Rubric,
    /// The seed of the plan.
    pub seed: u64,
    /// The selection reviewed, as typed.
    pub query: String,
    /// The models compared (pairwise).
    pub models: [String; 2],
    /// The items, in the order shown.
    pub planned: Vec<PlannedItem>,
    /// Per item: per property, the score of each sample shown (`None` until given).
    pub scores: Vec<BTreeMap<String, Vec<Option<i32>>>>,
    /// Per item (pairwise): the position of the better sample.
    pub better: Vec<Option<usize>>,
    /// The item shown.
    pub position: usize,
    /// The row of the item the keyboard scores (see [`Session::rows`]).
    pub row: usize,
    /// Whether models, verdicts and metrics are still hidden.
    pub blind: bool,
    /// Whether the reviewer said they are done.
    pub finished: bool,
}

/// A row of an item the keyboard can score: a property of one sample shown, or which is better.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// `property` of the sample at `side`.
    Score {
        /// The property.
        property: String,
        /// 0 (left or only), 1 (right).
        side: usize,
    },
    /// Which of the two is better.
    Better,
}

/// What a key press (or its button) does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// `1`..`9`: the focused row's n-th level (1 = lowest), or for "better", left (1) or right (2).
    Digit(u8),
    /// Up: the row above.
    Up,
    /// Down: the row below.
    Down,
    /// Right or Enter: the next item.
    Next,
    /// Left: the item before.
    Previous,
}

impl Session {
    /// A new session over `planned`.
    pub fn new(
        reviewer: String,
        rubric: Rubric,
        seed: u64,
        query: String,
        models: [String; 2],
        planned: Vec<PlannedItem>,
    ) -> Session {
        let count = planned.len();
        Session {
            reviewer,
            rubric,
            seed,
            query,
            models,
            planned,
            scores: vec![BTreeMap::new(); count],
            better: vec![None; count],
            position: 0,
            row: 0,
            blind: true,
            finished: false,
        }
    }

    /// Samples shown per item.
    pub fn width(&self) -> usize {
        match self.rubric.mode {
            Mode::Single => 1,
            Mode::Pairwise => 2,
        }
    }

    /// The rows of an item, in keyboard order: each property for the left (or only) sample, then
    /// for the right, then which is better.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = (0..self.width())
            .flat_map(|side| {
                self.rubric.properties.iter().map(move |p| Row::Score {
                    property: p.name.clone(),
                    side,
                })
            })
            .collect();
        if self.rubric.mode == Mode::Pairwise {
            rows.push(Row::Better);
        }
        rows
    }

    /// The score given to `property` of the sample at `side` of the current item.
    pub fn score(&self, property: &str, side: usize) -> Option<i32> {
        self.scores
            .get(self.position)?
            .get(property)?
            .get(side)
            .copied()
            .flatten()
    }

    /// Sets a score of the current item.
    pub fn set_score(&mut self, property: &str, side: usize, value: i32) {
        let width = self.width();
        if let Some(item) = self.scores.get_mut(self.position) {
            let scores = item
                .entry(property.to_owned())
                .or_insert_with(|| vec![None; width]);
            scores[side] = Some(value);
        }
    }

    /// Items with every row scored.
    pub fn done(&self) -> usize {
        (0..self.planned.len())
            .filter(|&i| self.complete(i))
            .count()
    }

    fn complete(&self, item: usize) -> bool {
        let scored = self.rubric.properties.iter().all(|p| {
            self.scores[item]
                .get(&p.name)
                .is_some_and(|s| s.iter().all(Option::is_some))
        });
        scored && (self.rubric.mode == Mode::Single || self.better[item].is_some())
    }

    /// The session after a key.
    pub fn press(&mut self, key: Key) {
        let rows = self.rows();
        match key {
            Key::Up => self.row = self.row.saturating_sub(1),
            Key::Down => self.row = (self.row + 1).min(rows.len().saturating_sub(1)),
            Key::Next => self.go(self.position + 1),
            Key::Previous => self.go(self.position.saturating_sub(1)),
            Key::Digit(n) => match rows.get(self.row) {
                Some(Row::Score { property, side }) => {
                    let level = self
                        .rubric
                        .property(property)
                        .and_then(|p| p.levels.get(usize::from(n).wrapping_sub(1)))
                        .map(|l| l.value);
                    if let Some(value) = level {
                        self.set_score(property, *side, value);
                        self.row = (self.row + 1).min(rows.len() - 1);
                    }
                }
                Some(Row::Better) if (1..=2).contains(&n) => {
                    self.better[self.position] = Some(usize::from(n) - 1);
                }
                _ => {}
            },
        }
    }

    /// Shows item `position` (past the last: the session is finished), keyboard on its first row.
    pub fn go(&mut self, position: usize) {
        if position >= self.planned.len() {
            self.finish();
        } else {
            self.position = position;
            self.row = 0;
        }
    }

    /// Ends the session: models and verdicts are shown, and its aggregates.
    pub fn finish(&mut self) {
        self.finished = true;
        self.blind = false;
    }

    /// The reviewer's file: every item with at least one score (skipped ones are left out).
    pub fn file(&self) -> ReviewFile {
        let items = self
            .planned
            .iter()
            .zip(&self.scores)
            .zip(&self.better)
            .map(|((planned, scores), better)| ReviewItem {
                task_id: planned.task_id.clone(),
                samples: planned.samples.clone(),
                // A property scored for one side only is left out: a file holds whole scores.
                scores: scores
                    .iter()
                    .filter_map(|(name, values)| {
                        let whole: Option<Vec<i32>> = values.iter().copied().collect();
                        whole.map(|v| (name.clone(), v))
                    })
                    .collect(),
                better: *better,
            })
            .filter(|item| !item.scores.is_empty() || item.better.is_some())
            .collect();
        ReviewFile {
            kind: REVIEWS_KIND.into(),
            format_version: wasmeval_core::FORMAT_VERSION,
            reviewer: self.reviewer.clone(),
            rubric: self.rubric.clone(),
            seed: self.seed,
            query: self.query.clone(),
            items,
        }
    }
}

/// The key a keyboard event names, if any.
pub fn key_of(name: &str) -> Option<Key> {
    match name {
        "ArrowUp" => Some(Key::Up),
        "ArrowDown" => Some(Key::Down),
        "ArrowRight" | "Enter" => Some(Key::Next),
        "ArrowLeft" => Some(Key::Previous),
        digit if digit.len() == 1 => digit
            .chars()
            .next()
            .and_then(|c| c.to_digit(10))
            .filter(|&d| d >= 1)
            .map(|d| Key::Digit(d as u8)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmeval_core::review::builtin_rubrics;
    use wasmeval_core::TaskId;

    fn session() -> Session {
        let planned = (0..3)
            .map(|i| PlannedItem {
                task_id: TaskId(format!("t/{i}")),
                samples: vec![2 * i, 2 * i + 1],
            })
            .collect();
        Session::new(
            "ada".into(),
            builtin_rubrics().remove(0),
            1,
            String::new(),
            ["a".into(), "b".into()],
            planned,
        )
    }

    #[test]
    fn the_keyboard_scores_every_row_then_moves_on() {
        let mut s = session();
        assert_eq!(s.rows().len(), 11);
        // 5 properties left, 5 right, then better: digits walk down the rows.
        for _ in 0..10 {
            s.press(Key::Digit(4));
        }
        s.press(Key::Digit(2));
        assert_eq!(s.score("usability", 0), Some(2));
        assert_eq!(s.score("acceptance", 1), Some(2));
        assert_eq!(s.better[0], Some(1));
        assert_eq!(s.done(), 1);
        s.press(Key::Next);
        assert_eq!((s.position, s.row), (1, 0));
        // A digit past the scale does nothing; Up stays at the top.
        s.press(Key::Digit(9));
        s.press(Key::Up);
        assert_eq!(s.score("first_impression", 0), None);
        // Skipping leaves an item out of the file.
        s.press(Key::Next);
        s.press(Key::Digit(1));
        let file = s.file();
        assert_eq!(
            file.items.len(),
            1,
            "the half-scored third item has no whole property"
        );
        s.press(Key::Next);
        assert!(s.finished && !s.blind);
        // The file is one a reader accepts.
        let text = serde_json::to_string(&file).unwrap();
        assert_eq!(ReviewFile::parse(&text, None).unwrap(), file);
        // And the session survives a reload.
        let saved = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Session>(&saved).unwrap(), s);
    }

    #[test]
    fn keys_are_named_as_browsers_name_them() {
        assert_eq!(key_of("3"), Some(Key::Digit(3)));
        assert_eq!(key_of("0"), None);
        assert_eq!(key_of("Enter"), Some(Key::Next));
        assert_eq!(key_of("a"), None);
    }
}

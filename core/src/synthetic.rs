//! Synthetic bundles: deterministic tasks and results of any size, for speed benchmarks of
//! filtering and rescoring (the site's target is 100,000 results) without running anything.
//!
//! The numbers mean nothing; the shape is realistic: several models of different skill, tasks
//! with topics, years, sources and complexity, several samples per task and cases per sample.

use crate::report::Bundle;
use crate::results::{CaseResult, SampleResult, Verdict};
use crate::sample::{Grades, SampleInfo};
use crate::task::{Complexity, Language, Metadata, Source, SourceKind, Task, TaskId};

const TOPICS: [&str; 12] = [
    "strings",
    "lists",
    "math",
    "sorting",
    "recursion",
    "dictionaries",
    "loops",
    "files",
    "classes",
    "search",
    "graphs",
    "dates",
];
const MODELS: [&str; 4] = ["model-a", "model-b", "model-c", "model-d"];
const SAMPLES_PER_TASK: u64 = 5;
const CASES_PER_SAMPLE: u64 = 4;

/// A bundle of `results` sample results (rounded up to a whole number of tasks), the same for
/// the same `seed`.
pub fn bundle(results: u64, seed: u64) -> Bundle {
    let mut random = SplitMix(seed);
    let per_task = SAMPLES_PER_TASK * MODELS.len() as u64;
    let task_count = results.div_ceil(per_task).max(1);
    let tasks: Vec<Task> = (0..task_count).map(|i| task(i, &mut random)).collect();
    let mut all = Vec::with_capacity((task_count * per_task) as usize);
    for task in &tasks {
        let hardness = task.metadata.complexity.cyclomatic.unwrap_or(1) as f64 / 12.0;
        for (m, model) in MODELS.iter().enumerate() {
            let skill = 0.98 - 0.06 * m as f64;
            for attempt in 1..=SAMPLES_PER_TASK {
                let index = all.len() as u64;
                all.push(result(
                    index,
                    task,
                    model,
                    attempt,
                    skill - hardness * 0.2,
                    &mut random,
                ));
            }
        }
    }
    Bundle::new(tasks, all)
}

fn task(i: u64, random: &mut SplitMix) -> Task {
    let first = random.below(TOPICS.len() as u64) as usize;
    let mut topics = vec![TOPICS[first].to_owned()];
    if random.chance(0.3) {
        topics.push(TOPICS[(first + 1 + random.below(11) as usize) % TOPICS.len()].to_owned());
    }
    let kind = SourceKind::ALL[random.below(3) as usize];
    Task {
        id: TaskId(format!("synthetic/{i}")),
        title: format!("Synthetic task {i}"),
        language: Language::Python,
        prompt: String::new(),
        metadata: Metadata {
            source: Some(Source {
                kind,
                name: Some(format!("{} {}", kind.as_str(), random.below(4))),
                chapter: None,
                url: None,
            }),
            topics,
            year: Some(2012 + random.below(12) as u32),
            difficulty: Some(["easy", "medium", "hard"][random.below(3) as usize].to_owned()),
            complexity: Complexity {
                cyclomatic: Some(1 + random.below(12) as u32),
                cognitive: Some(random.below(20) as u32),
                loc: Some(3 + random.below(60) as u32),
            },
            tags: Vec::new(),
        },
        ..Task::default()
    }
}

fn result(
    index: u64,
    task: &Task,
    model: &str,
    attempt: u64,
    p_case: f64,
    random: &mut SplitMix,
) -> SampleResult {
    let cases: Vec<CaseResult> = (0..CASES_PER_SAMPLE)
        .map(|c| CaseResult {
            name: format!("case {c}"),
            verdict: if random.chance(p_case.clamp(0.05, 0.98)) {
                Verdict::Passed
            } else {
                [
                    Verdict::WrongAnswer,
                    Verdict::RuntimeError,
                    Verdict::Timeout,
                ][random.below(3) as usize]
            },
            timeout_cause: None,
            message: None,
            judged_by: None,
            run: None,
        })
        .collect();
    let verdict = Verdict::of_cases(&cases);
    SampleResult {
        index,
        task_id: task.id.clone(),
        model: Some(model.to_owned()),
        info: SampleInfo {
            attempt: Some(attempt as u32),
            grades: Some(Grades {
                accuracy: random.below(5) as f64,
                completeness: random.below(5) as f64,
            }),
            tokens: Some(50 + random.below(400)),
            seconds: Some(0.5 + random.below(100) as f64 / 10.0),
            grading: None,
        },
        verdict,
        cases,
        fuel: random.below(1 << 30),
        wall_us: random.below(2_000_000),
        peak_memory: 1 << 20,
        format_version: crate::FORMAT_VERSION,
        timeout_cause: None,
        message: None,
        alternative: None,
        code_metrics: None,
        not_analysed: None,
        code: None,
        code_sha256: None,
        stdout: String::new(),
        stderr: String::new(),
        output_bytes: 0,
    }
}

/// A small, fast, deterministic generator (SplitMix64); statistical quality is beside the point.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_bundle_and_the_size_asked_for() {
        let a = bundle(1000, 7);
        assert_eq!(a.results.len(), 1000);
        assert_eq!(a.tasks.len(), 50);
        assert_eq!(a, bundle(1000, 7));
        assert_ne!(a.results, bundle(1000, 8).results);
        let passed = a.metrics.overall.passed;
        assert!(passed > 100 && passed < 900, "{passed} passed");
    }
}

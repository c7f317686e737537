//! Fuel budgets of the common paths. Fuel is exact and repeatable (the same module and program
//! use the same fuel on any machine), so these thresholds guard speed without timing anything: a
//! change that makes a trivial sample or the demo cost more than about 10% over today's figure
//! fails here instead of slipping into the README's figures.
//!
//! When a change is meant to cost more (or saves fuel), re-measure and set the thresholds about
//! 10% above the new values:
//!
//! ```sh
//! wasmeval run --tasks tests/fixtures/fuel-budget/tasks.jsonl --samples tests/fixtures/fuel-budget/samples.jsonl --out /tmp/fb
//! wasmeval run --tasks demo/tasks.jsonl --samples demo/samples.jsonl --out /tmp/demo --fuel 1e9
//! ```
//!
//! and read `fuel` in `results.jsonl` (per sample; for the demo, summed over the samples that are
//! not `timeout`, and the timeouts counted).

use crate::support::{fixture, repo, results, run};

/// (task, fuel measured on 2026-11-26 unless its comment says otherwise, at most this).
const TRIVIAL: [(&str, u64, u64); 8] = [
    // CPython's start-up (snapshot) twice, judge and partner, the compiled harness in each and
    // one assertion calling the candidate across. 9.6 M before issue 33 (2026-11-26): loading
    // the judge's and the partner's larger harnesses (the bridge's values by value and by
    // reference) costs 1.9 M more (measured 2026-11-28); the bridge's writer of long flat lists
    // 0.5 M more (11,499,664 before).
    ("fuel/python", 11_990_319, 12_650_000),
    // The same with `from typing import List`, which the preloaded interpreter has already
    // imported (44 M more fuel without it).
    ("fuel/python-typing", 12_706_225, 13_400_000),
    // A whole program printing one line, which exits without the interpreter's finalisation
    // (55 M fuel with it).
    ("fuel/python-io", 3_564_182, 3_920_000),
    // QuickJS's start-up, the prelude and one assertion program, whose tests run in a realm of
    // their own (issue 32: the candidate cannot rebind their built-ins), which loads the prelude
    // and the bridge again from bytecode: twice the 30.0 M of one realm (measured 2026-11-28;
    // compiling the prelude into js.wasm would save most of it).
    ("fuel/javascript", 61_392_489, 67_500_000),
    // A compiled program printing one line.
    ("fuel/c", 630, 690),
    ("fuel/rust", 1_486, 1_650),
    // numpy and pandas used by an assertion case, from the scientific image (their imports
    // alone cost 5.1 G fuel without it); 1.9 M more since issue 33, as fuel/python.
    ("fuel/python-scientific", 16_609_305, 17_700_000),
    // A million numbers (ints and floats, HumanEval+'s HumanEval/130's kind) returned across the
    // isolated judge's bridge and compared: written and read by C functions (issue 33). Walked
    // item by item it ran out of the 1e10 default (HumanEval/130 of HumanEval+ failed).
    ("fuel/python-large-value", 13_859_924_147, 15_250_000_000),
];

/// The demo run with a 1e9 budget: the fuel of its 184 samples that end within the budget. A
/// timeout spends the budget whatever the path costs, so those are counted instead (below).
const DEMO: (u64, u64) = (6_493_786_676, 7_150_000_000);
/// The demo's samples that spend their whole 1e9 budget: its endless loops, an output flood, and
/// one passing Rust sample that needs 1.24e9. A slower path turns more of them into timeouts; a
/// faster one fewer.
const DEMO_TIMEOUTS: usize = 12;

fn how_to_remeasure() -> &'static str {
    "re-measure as runner/tests/it/fuel_budget.rs says, and raise the threshold only if the cost is intended"
}

#[test]
fn a_trivial_sample_of_each_language_stays_within_its_fuel_budget() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("fuel-budget");
    run(&tasks, &samples, work.path(), &["--jobs", "2"]);
    let results = results(work.path());
    assert_eq!(results.len(), TRIVIAL.len());
    let mut over = Vec::new();
    for ((task, measured, budget), result) in TRIVIAL.iter().zip(&results) {
        assert_eq!(result["task_id"], *task);
        assert_eq!(result["verdict"], "passed", "{result}");
        let fuel = result["fuel"].as_u64().unwrap();
        if fuel > *budget {
            over.push(format!(
                "{task}: {fuel} fuel, over its budget of {budget} (measured {measured})"
            ));
        }
    }
    assert!(
        over.is_empty(),
        "{}; {}",
        over.join("; "),
        how_to_remeasure()
    );
}

#[test]
fn the_demo_run_stays_within_its_fuel_budget() {
    let work = tempfile::tempdir().unwrap();
    let demo = repo().join("demo");
    run(
        &demo.join("tasks.jsonl"),
        &demo.join("samples.jsonl"),
        work.path(),
        &["--jobs", "2", "--fuel", "1e9"],
    );
    let results = results(work.path());
    let (timeouts, within): (Vec<_>, Vec<_>) =
        results.iter().partition(|r| r["verdict"] == "timeout");
    let fuel: u64 = within.iter().map(|r| r["fuel"].as_u64().unwrap()).sum();
    let (measured, budget) = DEMO;
    assert!(
        fuel <= budget,
        "the demo's samples that end within 1e9 used {fuel} fuel, over their budget of {budget} \
         (measured {measured} on 2026-11-26); {}",
        how_to_remeasure()
    );
    assert_eq!(
        timeouts.len(),
        DEMO_TIMEOUTS,
        "the demo's timeouts at 1e9 changed; {}",
        how_to_remeasure()
    );
}

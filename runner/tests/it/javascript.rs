//! JavaScript samples end to end through the QuickJS guest (`scripts/install-js-runtime`):
//! assertion, `calls` and `io` suites (tests/fixtures/javascript), HumanEval-X's and MultiPL-E's
//! JavaScript tests, assertion tests run in a realm of their own, and the hostile corpus
//! (tests/hostile/js).

use crate::hostile::{
    assertion_corpus, calls_corpus, check_corpus, check_corpus_against, run_time_corpus,
};
use crate::support::{case_verdicts, fixture, repo, results, run};
use serde_json::{json, Value};
use std::path::PathBuf;

/// Fails with a message saying how to install the guest when it is missing.
fn require_runtime() {
    let home = std::env::var_os("WASMEVAL_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/wasmeval")
        });
    assert!(
        home.join("js/runtime.json").exists(),
        "the JavaScript runtime is not installed in {}: run scripts/install-js-runtime (scripts/test does)",
        home.display()
    );
}

/// Runs `samples` (JSON records) against `tasks` and returns the results in sample order.
fn run_samples(tasks: &std::path::Path, samples: &[Value]) -> Vec<Value> {
    require_runtime();
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("samples.jsonl");
    let text: String = samples.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let out = work.path().join("out");
    run(tasks, &path, &out, &[]);
    results(&out)
}

#[test]
fn assertion_calls_and_io_suites_get_per_case_verdicts() {
    require_runtime();
    let (tasks, samples) = fixture("javascript");
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    run(&tasks, &samples, &out, &[]);
    let results = results(&out);
    let p = "passed";
    let w = "wrong_answer";
    let r = "runtime_error";
    let expected: [(&str, &str, &[&str]); 12] = [
        ("correct", p, &[p, p, p, p, p]),
        // add(1, 2) happens to be right; the calls are judged on the host.
        ("wrong", w, &[p, w, p, w, w]),
        ("throws", r, &[r, r, r, r, r]),
        // A SyntaxError is a runtime error, as for Python.
        ("syntax", r, &[r, r, r, r, r]),
        // Exiting with 0 before the tests ran passes nothing.
        ("exit-early", r, &[r, r, r, r, r]),
        // An object with valueOf is not 3 to strictEqual, and not plain data to a call.
        ("not-plain", w, &[w, w, w, r, r]),
        ("readline", p, &[p, p]),
        ("fs", p, &[p, p]),
        ("stdin-events", p, &[p, p]),
        ("off-by-one", w, &[w, w]),
        ("correct", p, &[p, p]),
        ("unsorted", w, &[w, p]),
    ];
    assert_eq!(results.len(), expected.len());
    for (result, (model, verdict, cases)) in results.iter().zip(expected) {
        assert_eq!(result["model"], model);
        assert_eq!(result["verdict"], verdict, "{model}: {}", result["message"]);
        assert_eq!(case_verdicts(result), cases, "{model}");
    }
    let message = |i: usize| results[i]["message"].as_str().unwrap().to_owned();
    assert!(
        message(1).starts_with("deep: Uncaught: AssertionError"),
        "{}",
        message(1)
    );
    assert!(
        message(2).contains("TypeError: no adding today"),
        "{}",
        message(2)
    );
    assert!(message(3).contains("SyntaxError"), "{}", message(3));
    assert!(message(5).contains("AssertionError"), "{}", message(5));
    assert_eq!(
        results[5]["cases"][3]["message"].as_str().unwrap(),
        "Uncaught: TypeError: return value of type object (not a plain object, array, Map or Set) is not plain data"
    );
    assert_eq!(message(9), "edge/three: token 1: expected \"6\", got \"7\"");
    assert_eq!(message(11), "basic: .sorted[0]: expected 1, got 3");
    // The token lines are not shown as the program's output.
    assert!(results
        .iter()
        .all(|r| !r["stdout"].as_str().unwrap().contains("wasmeval-")));
}

#[test]
fn humaneval_x_and_multipl_e_javascript_tests_judge_right_and_wrong_solutions() {
    let humaneval_x = repo().join("tests/fixtures/humaneval-x/js.jsonl");
    let results = run_samples(
        &humaneval_x,
        &[
            json!({"task_id": "JavaScript/7", "completion": "  return 2 * x;\n}\n"}),
            json!({"task_id": "JavaScript/7", "completion": "  return x;\n}\n"}),
            // HumanEval-X's test prefix assigns its own console.assert; a candidate's no-op one
            // assigned before it changes nothing either.
            json!({"task_id": "JavaScript/7", "completion": "  return x;\n}\nconsole.assert = () => {};\n"}),
        ],
    );
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["passed", "wrong_answer", "wrong_answer"]);

    let multipl_e = repo().join("tests/fixtures/multipl-e/tasks.jsonl");
    let results = run_samples(
        &multipl_e,
        &[
            json!({"task_id": "HumanEval_902_shout", "completion": "  return s.toUpperCase() + '!';\n}\n"}),
            json!({"task_id": "HumanEval_902_shout", "completion": "  return s + '!';\n}\n"}),
        ],
    );
    let verdicts: Vec<&str> = results
        .iter()
        .map(|r| r["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["passed", "wrong_answer"]);
    // MultiPL-E's assert.deepEqual is a host-judged call: the host names the difference.
    assert_eq!(
        results[1]["message"], "assert 1: expected \"HEY!\", got \"hey!\"",
        "{}",
        results[1]
    );
}

#[test]
fn every_hostile_javascript_program_gets_its_expected_verdict() {
    require_runtime();
    check_corpus("js", &run_time_corpus("js", "js"), 12);
    // `ca_*` programs attack a `calls` task, whose values the host judges.
    check_corpus_against("js", "calls_task.json", &calls_corpus("js", "js"), 3);
}

#[test]
fn no_javascript_program_passes_guest_judged_assertions_by_rewriting_the_tests_built_ins() {
    require_runtime();
    // Issue 32: `Math.abs`, `every`/`forEach`, `JSON.stringify` and the array iterator rewritten
    // against test code that uses them, a way into the tests' realm through
    // `Error.prepareStackTrace`, and a bridge answer that would rebind the tests' `Math`.
    check_corpus_against(
        "js",
        "assertion_task.json",
        &assertion_corpus("js", "js"),
        7,
    );
}

/// An assertion task whose test code uses the candidate as honest tests do: classes and
/// methods, arguments changed in place, callbacks, thrown errors, generators, promises, timers,
/// values JSON lacks, and a candidate's variable read and written by the tests.
fn cross_realm_task() -> Value {
    let case = |name: &str, code: &str| json!({"name": name, "code": code});
    json!({
        "id": "realms/everything",
        "language": "javascript",
        "entry_point": "escape",
        "prompt": "",
        "tests": [{
            "kind": "assertions",
            "setup": "const assert = require('node:assert');",
            "cases": [
                case("class", "const s = new Stack();\ns.push(1).push(2);\nassert.strictEqual(s.size, 2);\nassert.strictEqual(s.pop(), 2);\nassert.ok(s instanceof Stack);\nassert.deepStrictEqual(s.items, [1]);\nassert.deepEqual(Stack.of(4, 5), { items: [4, 5] });"),
                case("in-place", "const row = [3, 1, 2];\nconst grid = [row, Object.freeze([0])];\nsortRows(grid);\nassert.deepStrictEqual(grid, [[1, 2, 3], [0]]);\nassert.strictEqual(grid[0], row);\nconst seen = new Map([['a', 1]]);\nremember(seen, 'b');\nassert.deepStrictEqual([...seen.keys()], ['a', 'b']);"),
                case("callbacks", "assert.deepStrictEqual(mapAll([1, 2], (x) => x * 10), [10, 20]);\nconst next = counter();\nnext();\nassert.strictEqual(next(), 2);\nassert.strictEqual(compose((x) => x + 1, (x) => x * 2)(5), 11);"),
                case("throws", "assert.throws(() => top(new Stack()), EmptyError);\nassert.throws(() => top(new Stack()), { name: 'EmptyError', message: 'empty' });\nassert.throws(() => sortRows('rows'), TypeError);\nlet caught;\ntry { sortRows(null); } catch (e) { caught = e; }\nassert.ok(caught instanceof TypeError);"),
                case("generators-and-promises", "assert.deepStrictEqual([...range(3)], [0, 1, 2]);\n(async () => {\n  assert.strictEqual(await later(7), 7);\n  assert.strictEqual(await doubleSoon(4), 8);\n})();"),
                case("values", "assert.strictEqual(nothing(), undefined);\nassert.ok(Object.is(negativeZero(), -0));\nassert.ok(Number.isNaN(notANumber()));\nassert.strictEqual(power(70), 1180591620717411303424n);\nassert.strictEqual(epoch().getTime(), 0);\nconst c = cyclic();\nassert.strictEqual(c.self, c);\nassert.deepStrictEqual(uniq([1, 1, 2]), new Set([1, 2]));"),
                case("variables", "bump();\nbump();\nassert.strictEqual(count, 2);\ncount = 10;\nbump();\nassert.strictEqual(count, 11);\nassert.strictEqual(escape('x'), '<x>');\nassert.strictEqual(globalThis.bump, bump);"),
            ]
        }]
    })
}

const CROSS_REALM_SOLUTION: &str = r#"
class Stack {
  constructor() { this.items = []; }
  push(x) { this.items.push(x); return this; }
  pop() { return this.items.pop(); }
  get size() { return this.items.length; }
  static of(...xs) { const s = new Stack(); xs.forEach((x) => s.push(x)); return s; }
}
class EmptyError extends Error { constructor() { super('empty'); this.name = 'EmptyError'; } }
function top(s) { if (s.size === 0) throw new EmptyError(); return s.items[s.items.length - 1]; }
function sortRows(grid) {
  if (!Array.isArray(grid)) throw new TypeError('rows');
  for (const row of grid) if (!Object.isFrozen(row)) row.sort((a, b) => a - b);
}
function remember(map, key) { map.set(key, map.size + 1); }
const mapAll = (xs, f) => xs.map((x) => f(x));
function counter() { let n = 0; return () => ++n; }
const compose = (f, g) => (x) => f(g(x));
function* range(n) { for (let i = 0; i < n; i++) yield i; }
const later = (x) => new Promise((resolve) => setTimeout(() => resolve(x), 10));
async function doubleSoon(x) { await null; return 2 * x; }
const nothing = () => undefined;
const negativeZero = () => -0;
const notANumber = () => NaN;
const power = (n) => 2n ** BigInt(n);
const epoch = () => new Date(0);
function cyclic() { const a = {}; a.self = a; return a; }
const uniq = (xs) => new Set(xs);
let count = 0;
function bump() { count++; }
function escape(s) { return '<' + s + '>'; }
"#;

#[test]
fn regression_issue_32_tests_in_a_realm_of_their_own_still_pass_a_correct_program() {
    // The same test code in node, with the solution before it, passes too.
    let work = tempfile::tempdir().unwrap();
    let tasks = work.path().join("tasks.jsonl");
    std::fs::write(&tasks, format!("{}\n", cross_realm_task())).unwrap();
    // Wrong: `sortRows` leaves the rows alone, `bump` counts twice, `later` answers late and
    // wrongly.
    let wrong = CROSS_REALM_SOLUTION
        .replace(
            "row.sort((a, b) => a - b)",
            "row.slice().sort((a, b) => a - b)",
        )
        .replace(
            "function bump() { count++; }",
            "function bump() { count += 2; }",
        )
        .replace("resolve(x), 10", "resolve(x + 1), 10");
    let results = run_samples(
        &tasks,
        &[
            json!({"task_id": "realms/everything", "solution": CROSS_REALM_SOLUTION, "model": "right"}),
            json!({"task_id": "realms/everything", "solution": wrong, "model": "wrong"}),
        ],
    );
    let p = "passed";
    let w = "wrong_answer";
    assert_eq!(results[0]["verdict"], p, "{}", results[0]);
    assert_eq!(case_verdicts(&results[0]), [p, p, p, p, p, p, p]);
    assert_eq!(
        case_verdicts(&results[1]),
        [p, w, p, p, w, p, w],
        "{}",
        results[1]
    );
    // Still counted as judged in the guest: the realms share one interpreter.
    assert!(results[0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .all(|case| case["judged_by"] == "guest"));
}

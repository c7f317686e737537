//! EvalPlus's own task format (HumanEval+ `HumanEvalPlus.jsonl`, MBPP+ `MbppPlus.jsonl`): a
//! prompt, the reference (`canonical_solution`) and the inputs (`base_input`, `plus_input`), whose
//! expected outputs are the reference's outputs on them (computed once, in the sandbox:
//! [`crate::reference_outputs`]).
//!
//! Each input becomes a host-judged `calls` case (`base/3`, `plus/17`) judged by EvalPlus's rules
//! ([`crate::judging::evalplus`]): the task's `atol`, and the special oracle its entry point has.
//! MBPP+'s inputs are JSON, and EvalPlus turns some of them into tuples, sets or complex numbers
//! before the call (`mbpp_deserialize_inputs`): [`Convert`] does the same for the tasks it names,
//! the tuples and sets as tagged values, the complex numbers (and MBPP+'s tasks judged only on
//! whether they return `None`) through a wrapper the suite's setup defines.

use super::humaneval::benchmark_metadata;
use crate::judging::evalplus::Rule;
use crate::reference_outputs::pending;
use crate::task::{CallCase, CallCheck, Language, Task, TaskId, TestSuite};
use serde::Deserialize;
use serde_json::Value;

/// A record of EvalPlus's own format.
#[derive(Debug, Deserialize)]
pub(crate) struct Problem {
    task_id: String,
    prompt: String,
    entry_point: String,
    canonical_solution: String,
    base_input: Value,
    plus_input: Value,
    #[serde(default)]
    atol: Option<f64>,
    /// HumanEval's `check` over the base inputs (HumanEval+): not used, the inputs are.
    #[serde(default)]
    test: Option<String>,
    /// MBPP's asserts over the base inputs (MBPP+): not used, the inputs are.
    #[serde(default)]
    assertion: Option<String>,
}

/// The name of the wrapper a suite's setup defines when the call needs one.
const WRAPPER: &str = "_wasmeval_evalplus_call";

impl Problem {
    /// Whether the record is MBPP+'s (`assertion`, or a `Mbpp/` id without `test`).
    pub(crate) fn is_mbpp(&self) -> bool {
        self.assertion.is_some() || (self.test.is_none() && self.task_id.starts_with("Mbpp/"))
    }

    /// The task: one `calls` suite whose cases are the base inputs then the plus inputs, each
    /// waiting for the reference's output.
    pub(crate) fn into_task(self) -> Result<Task, String> {
        let mbpp = self.is_mbpp();
        let number = self
            .task_id
            .rsplit('/')
            .next()
            .and_then(|n| n.parse::<u32>().ok());
        let convert = match (mbpp, number) {
            (true, Some(number)) => Convert::of_mbpp_task(number),
            _ => Convert::None,
        };
        let rule = Rule::of_task(mbpp, &self.entry_point);
        let mut cases = Vec::new();
        for (set, inputs) in [("base", &self.base_input), ("plus", &self.plus_input)] {
            let inputs: &[Value] = match inputs {
                Value::Array(inputs) => inputs,
                // MBPP+'s Mbpp/793 has `{}` for no plus inputs (EvalPlus iterates it as none).
                Value::Object(fields) if fields.is_empty() => &[],
                _ => {
                    return Err(format!(
                        "task `{}`: `{set}_input` is not a list of inputs",
                        self.task_id
                    ))
                }
            };
            for (i, input) in inputs.iter().enumerate() {
                let Value::Array(args) = input else {
                    return Err(format!(
                        "task `{}`: `{set}_input[{i}]` is not a list of arguments",
                        self.task_id
                    ));
                };
                let args = convert.apply(args).map_err(|problem| {
                    format!("task `{}`: `{set}_input[{i}]`: {problem}", self.task_id)
                })?;
                cases.push(CallCase {
                    name: format!("{set}/{i}"),
                    args,
                    expected: pending(),
                    check: CallCheck::EvalPlus(rule),
                    tolerance: None,
                });
            }
        }
        let (setup, entry_point) = match convert.wrapper(&self.entry_point) {
            Some(setup) => (setup, WRAPPER.to_owned()),
            None => (String::new(), self.entry_point.clone()),
        };
        Ok(Task {
            id: TaskId(self.task_id),
            language: Language::Python,
            references: vec![format!("{}{}", self.prompt, self.canonical_solution).into()],
            prompt: self.prompt,
            entry_point: Some(self.entry_point),
            metadata: benchmark_metadata(if mbpp { "MBPP+" } else { "HumanEval+" }),
            tests: vec![TestSuite::Calls {
                setup,
                entry_point,
                tolerance: self.atol.unwrap_or(0.0),
                cases,
            }],
            ..Task::default()
        })
    }
}

/// How EvalPlus turns a MBPP+ task's JSON arguments into the values the function is called
/// with (the lists its `mbpp_deserialize_inputs` makes tuples, sets or complex numbers of).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Convert {
    /// The arguments as JSON gives them.
    None,
    /// Every argument (a list) a tuple.
    EachTuple,
    /// Every argument a list of tuples (each item a tuple).
    EachListOfTuples,
    /// Every argument a tuple of tuples.
    EachTupleOfTuples,
    /// The first argument a list of tuples; the second kept; no others.
    FirstListOfTuples,
    /// The first argument a tuple, the others kept.
    FirstTuple,
    /// The second argument a tuple; the first kept; no others.
    SecondTuple,
    /// The first argument a tuple whose list items are tuples.
    FirstTupleOfItems,
    /// The first argument a list whose non-empty lists are sets and whose other items are empty
    /// dicts (as EvalPlus writes `{}` for them).
    FirstListOfSets,
    /// The first argument a dict whose values are tuples, the others kept.
    FirstDictOfTuples,
    /// Every list, at any depth, a tuple.
    AllTuples,
    /// `float(a), complex(b)`, in the guest (complex numbers have no plain-data form).
    FloatAndComplex,
    /// `complex(a)`, in the guest.
    Complex,
    /// The returned value judged on whether it is `None` (a `bool` as itself), in the guest:
    /// EvalPlus's `MBPP_OUTPUT_NOT_NONE_TASKS`, whose outputs are regular-expression matches.
    NotNone,
}

impl Convert {
    /// The conversion of MBPP+ task `number` (`Mbpp/<number>`).
    fn of_mbpp_task(number: u32) -> Convert {
        match number {
            2 | 116 | 132 | 143 | 222 | 261 | 273 | 394 | 399 | 421 | 424 | 429 | 470 | 560
            | 579 | 596 | 616 | 630 | 726 | 740 | 744 | 809 => Convert::EachTuple,
            63 | 64 | 70 | 94 | 120 | 237 | 272 | 299 | 400 | 409 | 417 | 438 | 473 | 614 | 780 => {
                Convert::EachListOfTuples
            }
            75 | 413 | 444 | 753 => Convert::FirstListOfTuples,
            106 | 750 => Convert::SecondTuple,
            115 => Convert::FirstListOfSets,
            124 => Convert::FloatAndComplex,
            250 | 405 | 446 | 617 | 720 | 763 | 808 | 307 => Convert::FirstTuple,
            259 | 401 | 445 => Convert::EachTupleOfTuples,
            278 => Convert::FirstTupleOfItems,
            722 => Convert::FirstDictOfTuples,
            252 => Convert::Complex,
            580 | 615 | 791 => Convert::AllTuples,
            737 | 787 | 794 => Convert::NotNone,
            _ => Convert::None,
        }
    }

    /// The arguments the call gets.
    fn apply(self, args: &[Value]) -> Result<Vec<Value>, String> {
        let each = |f: fn(&Value) -> Result<Value, String>| -> Result<Vec<Value>, String> {
            args.iter().map(f).collect()
        };
        let first = || args.first().ok_or("no first argument");
        Ok(match self {
            Convert::None | Convert::FloatAndComplex | Convert::Complex | Convert::NotNone => {
                args.to_vec()
            }
            Convert::EachTuple => each(tuple)?,
            Convert::EachListOfTuples => each(|arg| {
                let tuples: Result<Vec<Value>, String> = items(arg)?.iter().map(tuple).collect();
                Ok(Value::Array(tuples?))
            })?,
            Convert::EachTupleOfTuples => each(|arg| {
                let tuples: Result<Vec<Value>, String> = items(arg)?.iter().map(tuple).collect();
                Ok(tagged_tuple(tuples?))
            })?,
            Convert::FirstListOfTuples => {
                let list: Result<Vec<Value>, String> = items(first()?)?.iter().map(tuple).collect();
                let mut converted = vec![Value::Array(list?)];
                converted.extend(args.get(1).cloned());
                converted
            }
            Convert::FirstTuple => {
                let mut converted = vec![tuple(first()?)?];
                converted.extend(args[1..].iter().cloned());
                converted
            }
            Convert::SecondTuple => vec![
                first()?.clone(),
                tuple(args.get(1).ok_or("no second argument")?)?,
            ],
            Convert::FirstTupleOfItems => {
                let converted: Result<Vec<Value>, String> = items(first()?)?
                    .iter()
                    .map(|item| match item {
                        Value::Array(_) => tuple(item),
                        other => Ok(other.clone()),
                    })
                    .collect();
                vec![tagged_tuple(converted?)]
            }
            Convert::FirstListOfSets => {
                let converted: Vec<Value> = items(first()?)?
                    .iter()
                    .map(|item| match item {
                        Value::Array(members) if !members.is_empty() => {
                            serde_json::json!({ "$set": members })
                        }
                        _ => Value::Object(Default::default()),
                    })
                    .collect();
                vec![Value::Array(converted)]
            }
            Convert::FirstDictOfTuples => {
                let Value::Object(fields) = first()? else {
                    return Err("the first argument is not a dict".into());
                };
                let converted: Result<serde_json::Map<String, Value>, String> = fields
                    .iter()
                    .map(|(key, value)| Ok((key.clone(), tuple(value)?)))
                    .collect();
                let mut converted = vec![Value::Object(converted?)];
                converted.extend(args[1..].iter().cloned());
                converted
            }
            Convert::AllTuples => args.iter().map(all_tuples).collect(),
        })
    }

    /// The setup defining [`WRAPPER`], for the conversions made in the guest.
    fn wrapper(self, entry_point: &str) -> Option<String> {
        let body = match self {
            Convert::FloatAndComplex => {
                format!("return {entry_point}(float(args[0]), complex(args[1]))")
            }
            Convert::Complex => format!("return {entry_point}(complex(args[0]))"),
            Convert::NotNone => format!(
                "value = {entry_point}(*args)\n    return value if isinstance(value, bool) else \
                 value is not None"
            ),
            _ => return None,
        };
        Some(format!("def {WRAPPER}(*args):\n    {body}\n"))
    }
}

/// The items of a list argument.
fn items(value: &Value) -> Result<&Vec<Value>, String> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(format!("expected a list, got {other}")),
    }
}

fn tagged_tuple(items: Vec<Value>) -> Value {
    serde_json::json!({ "$tuple": items })
}

/// Python's `tuple(x)` of a list (its items) or a string (its characters).
fn tuple(value: &Value) -> Result<Value, String> {
    match value {
        Value::Array(items) => Ok(tagged_tuple(items.clone())),
        Value::String(text) => Ok(tagged_tuple(
            text.chars().map(|c| Value::from(c.to_string())).collect(),
        )),
        other => Err(format!("cannot make a tuple of {other}")),
    }
}

/// Every list in `value`, at any depth, a tuple.
fn all_tuples(value: &Value) -> Value {
    match value {
        Value::Array(items) => tagged_tuple(items.iter().map(all_tuples).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(record: Value) -> Problem {
        serde_json::from_value(record).expect("a record")
    }

    #[test]
    fn inputs_become_base_and_plus_cases_waiting_for_the_reference() {
        let task = problem(json!({
            "task_id": "HumanEval/0", "prompt": "def f(x):\n", "entry_point": "f",
            "canonical_solution": "    return x\n", "test": "def check(c): pass",
            "contract": "", "atol": 0, "base_input": [[1], [2]], "plus_input": [[3]]}))
        .into_task()
        .unwrap();
        let TestSuite::Calls {
            entry_point,
            cases,
            setup,
            ..
        } = &task.tests[0]
        else {
            panic!("calls")
        };
        assert_eq!((entry_point.as_str(), setup.as_str()), ("f", ""));
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["base/0", "base/1", "plus/0"]);
        assert!(cases
            .iter()
            .all(|c| crate::reference_outputs::is_pending(&c.expected)));
        assert_eq!(cases[2].check, CallCheck::EvalPlus(Rule::Close));
        assert_eq!(task.references[0].code, "def f(x):\n    return x\n");
    }

    #[test]
    fn mbpp_plus_inputs_are_converted_as_evalplus_converts_them() {
        let args = |number: u32, input: Value| {
            Convert::of_mbpp_task(number)
                .apply(input.as_array().unwrap())
                .unwrap()
        };
        assert_eq!(
            args(2, json!([[3, 4], [5]])),
            [json!({"$tuple": [3, 4]}), json!({"$tuple": [5]})]
        );
        assert_eq!(
            args(63, json!([[[1, 2], [3, 4]]])),
            [json!([{"$tuple": [1, 2]}, {"$tuple": [3, 4]}])]
        );
        assert_eq!(
            args(75, json!([[[1, 2]], 3, 9])),
            [json!([{"$tuple": [1, 2]}]), json!(3)]
        );
        assert_eq!(
            args(115, json!([[[1, 2], [], 5]])),
            [json!([{"$set": [1, 2]}, {}, {}])]
        );
        assert_eq!(
            args(259, json!([[[1, 2]], [[3]]])),
            [
                json!({"$tuple": [{"$tuple": [1, 2]}]}),
                json!({"$tuple": [{"$tuple": [3]}]})
            ]
        );
        assert_eq!(
            args(278, json!([[1, [2, 3], 4]])),
            [json!({"$tuple": [1, {"$tuple": [2, 3]}, 4]})]
        );
        assert_eq!(
            args(722, json!([{"a": [1.5, 2]}, 1.0, 2])),
            [json!({"a": {"$tuple": [1.5, 2]}}), json!(1.0), json!(2)]
        );
        assert_eq!(
            args(791, json!([[1, [2, [3]]]])),
            [json!({"$tuple": [1, {"$tuple": [2, {"$tuple": [3]}]}]})]
        );
        assert_eq!(args(11, json!([[1, 2], "x"])), [json!([1, 2]), json!("x")]);
        let wrapper = Convert::of_mbpp_task(124).wrapper("angle_complex").unwrap();
        assert!(wrapper.contains("angle_complex(float(args[0]), complex(args[1]))"));
        assert!(Convert::of_mbpp_task(737)
            .wrapper("check_str")
            .unwrap()
            .contains("value is not None"));
        assert_eq!(Convert::of_mbpp_task(2).wrapper("f"), None);
    }

    /// Regression: MbppPlus.jsonl's records (no `test`) were refused ("human-eval problem:
    /// missing field `test`"), and HumanEvalPlus.jsonl's read as human-eval's, their
    /// `plus_input` never judged.
    #[test]
    fn regression_mbppplus_refused_and_humanevalplus_read_as_human_eval() {
        use crate::formats::tasks::{parse_task_shape, Shape};
        let mbpp = json!({"task_id": "Mbpp/3", "prompt": "\"\"\"\nx\n\"\"\"\n",
            "entry_point": "f", "canonical_solution": "def f(n):\n    return n\n",
            "base_input": [[1]], "atol": 0, "plus_input": [[2]], "contract": "",
            "assertion": "assert f(1) == 1"});
        let (task, shape) = parse_task_shape(&mbpp.to_string()).unwrap();
        assert_eq!((shape, task.case_count()), (Shape::MbppPlus, 2));
        let humaneval = json!({"task_id": "HumanEval/1", "prompt": "def f(n):\n",
            "entry_point": "f", "canonical_solution": "    return n\n", "contract": "",
            "test": "def check(candidate):\n    assert candidate(1) == 1\n",
            "base_input": [[1]], "atol": 0, "plus_input": [[2], [3]]});
        let (task, shape) = parse_task_shape(&humaneval.to_string()).unwrap();
        assert_eq!((shape, task.case_count()), (Shape::HumanEvalPlus, 3));
    }
}

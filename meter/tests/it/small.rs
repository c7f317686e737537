//! Small modules, one feature each: the metered module counts exactly wasmtime's fuel, returns
//! the same values, traps the same way, and runs out of fuel at the same budgets.

use crate::host::{both, End, Entry};
use wasmtime::Val;

const BUDGET: u64 = 10_000_000;

fn wasm(text: &str) -> Vec<u8> {
    wat::parse_str(text).expect("wat")
}

/// Runs `run` with each argument both ways; returns the fuel of each.
fn fuel_of_runs(module: &[u8], args: &[i32]) -> Vec<(End, u64)> {
    args.iter()
        .map(|&n| {
            let (original, _) = both(module, &Entry::Call("run", &[Val::I32(n)]), BUDGET);
            (original.end, original.fuel)
        })
        .collect()
}

const LOOP: &str = r#"
(module
  (func (export "run") (param $n i32) (result i32)
    (local $i i32) (local $sum i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $i) (local.get $n)))
        (local.set $sum (i32.add (local.get $sum) (local.get $i)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $sum)))
"#;

#[test]
fn a_loop_costs_what_wasmtime_counts() {
    let runs = fuel_of_runs(&wasm(LOOP), &[0, 1, 10, 1000]);
    assert_eq!(runs[2].0, End::Returned(vec![45]));
    // Linear in the iterations: the same cost per iteration at every size.
    let per_iteration = (runs[3].1 - runs[2].1) / 990;
    assert_eq!(runs[2].1 - runs[1].1, 9 * per_iteration);
    assert!(per_iteration > 5, "{runs:?}");
}

#[test]
fn calls_and_recursion_cost_what_wasmtime_counts() {
    let module = wasm(
        r#"
(module
  (func $fib (param $n i32) (result i32)
    (if (result i32) (i32.lt_s (local.get $n) (i32.const 2))
      (then (local.get $n))
      (else (i32.add (call $fib (i32.sub (local.get $n) (i32.const 1)))
                     (call $fib (i32.sub (local.get $n) (i32.const 2)))))))
  (func $early (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 7))))
    (nop) (drop (i32.const 1))
    (i32.const 8))
  (func (export "run") (param $n i32) (result i32)
    (i32.add (call $fib (local.get $n)) (call $early (local.get $n)))))
"#,
    );
    let runs = fuel_of_runs(&module, &[0, 1, 15]);
    assert_eq!(runs[2].0, End::Returned(vec![610 + 8]));
}

#[test]
fn br_table_and_if_else_cost_what_wasmtime_counts() {
    let module = wasm(
        r#"
(module
  (func $class (param $x i32) (result i32)
    (block $c (block $b (block $a
      (br_table $a $b $c (i32.rem_u (local.get $x) (i32.const 4))))
      (return (i32.const 10)))
      (return (i32.const 20)))
    (if (result i32) (i32.and (local.get $x) (i32.const 1))
      (then (i32.const 30)) (else (i32.const 40))))
  (func (export "run") (param $n i32) (result i32)
    (local $i i32) (local $sum i32)
    (loop $next
      (local.set $sum (i32.add (local.get $sum) (call $class (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $sum)))
"#,
    );
    let runs = fuel_of_runs(&module, &[1, 4, 101]);
    assert_eq!(runs[1].0, End::Returned(vec![10 + 20 + 40 + 30]));
}

#[test]
fn exceptions_with_try_table_cost_what_wasmtime_counts() {
    let module = wasm(
        r#"
(module
  (tag $oops (param i32))
  (func $thrower (param $x i32) (result i32)
    (if (i32.gt_s (local.get $x) (i32.const 2)) (then (throw $oops (local.get $x))))
    (i32.mul (local.get $x) (i32.const 3)))
  (func $catcher (param $x i32) (result i32)
    (block $caught (result i32)
      (try_table (result i32) (catch $oops $caught)
        (call $thrower (local.get $x))
        (i32.const 100)
        (i32.add)))
    )
  (func $rethrows (param $x i32) (result i32)
    (block $outer (result i32)
      (try_table (result i32) (catch $oops $outer)
        (block $any (result exnref)
          (try_table (result i32) (catch_all_ref $any)
            (call $thrower (local.get $x)))
          (return))
        (throw_ref))))
  (func (export "run") (param $n i32) (result i32)
    (i32.add (call $catcher (local.get $n)) (call $rethrows (local.get $n)))))
"#,
    );
    let runs = fuel_of_runs(&module, &[1, 5]);
    assert_eq!(runs[0].0, End::Returned(vec![103 + 3]));
    assert_eq!(runs[1].0, End::Returned(vec![5 + 5]));
}

#[test]
fn simd_and_tail_calls_cost_what_wasmtime_counts() {
    let module = wasm(
        r#"
(module
  (func $sum (param $n i32) (param $acc v128) (result i32)
    (if (i32.eqz (local.get $n))
      (then (return (i32x4.extract_lane 0 (local.get $acc)))))
    (return_call $sum (i32.sub (local.get $n) (i32.const 1))
      (i32x4.add (local.get $acc) (i32x4.splat (local.get $n)))))
  (func (export "run") (param $n i32) (result i32)
    (call $sum (local.get $n) (v128.const i32x4 0 0 0 0))))
"#,
    );
    let runs = fuel_of_runs(&module, &[0, 100]);
    assert_eq!(runs[1].0, End::Returned(vec![5050]));
}

#[test]
fn tables_elements_and_the_start_function_follow_the_moved_indices() {
    // An imported function keeps its index; the defined ones move past the new import.
    let module = wasm(
        r#"
(module
  (import "env" "unused" (func $unused))
  (global $seed (mut i32) (i32.const 0))
  (global $ref funcref (ref.func $double))
  (table $t 4 funcref)
  (elem (table $t) (i32.const 0) func $double $triple)
  (elem declare func $square)
  (type $unary (func (param i32) (result i32)))
  (func $double (param i32) (result i32) (i32.mul (local.get 0) (i32.const 2)))
  (func $triple (param i32) (result i32) (i32.mul (local.get 0) (i32.const 3)))
  (func $square (param i32) (result i32) (i32.mul (local.get 0) (local.get 0)))
  (func $init (global.set $seed (i32.const 1)))
  (start $init)
  (func (export "run") (param $n i32) (result i32)
    (table.set $t (i32.const 2) (ref.func $square))
    (i32.add (global.get $seed)
      (i32.add (call_indirect $t (type $unary) (local.get $n) (i32.const 1))
        (call_indirect $t (type $unary) (local.get $n) (i32.const 2))))))
"#,
    );
    let metered = wasmeval_meter::instrument(&module)
        .expect("instrument")
        .bytes;
    // The import is satisfied by a stub in both runs.
    for bytes in [&module, &metered] {
        let engine = wasmtime::Engine::default();
        let compiled = wasmtime::Module::new(&engine, bytes).expect("compiles");
        let mut store = wasmtime::Store::new(&engine, ());
        let mut linker = wasmtime::Linker::new(&engine);
        linker.func_wrap("env", "unused", || {}).unwrap();
        linker
            .func_wrap("wasmeval", "memory_grow", |_: i32| -> i32 { -1 })
            .unwrap();
        let instance = linker
            .instantiate(&mut store, &compiled)
            .expect("instantiates");
        let run = instance
            .get_typed_func::<i32, i32>(&mut store, "run")
            .unwrap();
        assert_eq!(run.call(&mut store, 5).unwrap(), 1 + 15 + 25);
    }
}

#[test]
fn a_trap_part_way_through_a_stretch_counts_as_in_wasmtime() {
    // wasmtime adds a stretch's fuel at its end: the operators before a trap are not counted.
    let module = wasm(
        r#"
(module
  (func (export "run") (param $d i32) (result i32)
    (i32.add (i32.const 1) (i32.const 2))
    (i32.div_s (i32.const 10) (local.get $d))
    (i32.add)
    (i32.const 5) (i32.add)))
"#,
    );
    let runs = fuel_of_runs(&module, &[0, 2]);
    assert_eq!(runs[0].0, End::Trap("IntegerDivisionByZero".into()));
    assert_eq!(runs[1].0, End::Returned(vec![13]));
}

#[test]
fn bulk_memory_costs_its_bytes_as_in_wasmtime() {
    let module = wasm(
        r#"
(module
  (memory (export "memory") 1)
  (data $hello "hello, world")
  (func (export "run") (param $n i32) (result i32)
    (memory.fill (i32.const 0) (i32.const 7) (local.get $n))
    (memory.fill (i32.const 0) (i32.const 7) (i32.const 100))
    (memory.fill (i32.const 0) (i32.const 7) (i32.const 1000))
    (memory.copy (i32.const 2000) (i32.const 0) (local.get $n))
    (memory.init $hello (i32.const 5000) (i32.const 0) (i32.const 12))
    (i32.load8_u (i32.const 5000))))
"#,
    );
    let runs = fuel_of_runs(&module, &[0, 10, 5000, 70000]);
    assert_eq!(runs[1].0, End::Returned(vec![104]));
    assert_eq!(runs[2].1 - runs[1].1, 2 * 4990);
    // Out of bounds: charged before the access traps, in both.
    assert_eq!(runs[3].0, End::Trap("MemoryOutOfBounds".into()));
}

#[test]
fn an_endless_loop_runs_out_of_fuel_with_the_global_negative() {
    let module = wasm(
        r#"
(module
  (func (export "run") (param $n i32) (result i32)
    (loop $forever (br $forever))
    (i32.const 0)))
"#,
    );
    let (original, metered) = both(&module, &Entry::Call("run", &[Val::I32(0)]), 1_000_000);
    assert_eq!(original.end, End::OutOfFuel);
    assert_eq!(metered.end, End::OutOfFuel);
}

#[test]
fn out_of_fuel_comes_at_the_same_budgets_as_in_wasmtime() {
    // Around the exact fuel of a complete run, every budget gives the same ending both ways.
    let module = wasm(LOOP);
    let (complete, _) = both(&module, &Entry::Call("run", &[Val::I32(50)]), BUDGET);
    let mut endings = Vec::new();
    for budget in complete.fuel.saturating_sub(12)..=complete.fuel + 2 {
        let (original, _) = both(&module, &Entry::Call("run", &[Val::I32(50)]), budget);
        endings.push(original.end);
    }
    assert!(endings.contains(&End::OutOfFuel));
    assert!(endings.contains(&End::Returned(vec![1225])));
}

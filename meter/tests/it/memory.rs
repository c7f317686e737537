//! Memory: `memory.grow` goes through the host, which grows up to its limit, returns -1 past
//! it and remembers the denial; the declared maximum leaves the host room to grow to any limit.

use crate::host::{metered, original, End, Entry};
use wasmtime::Val;

const GROWER: &str = r#"
(module
  (memory (export "memory") 1)
  ;; Grows by $step pages until refused; returns the pages it got.
  (func (export "run") (param $step i32) (result i32)
    (local $got i32)
    (block $refused
      (loop $more
        (br_if $refused (i32.eq (memory.grow (local.get $step)) (i32.const -1)))
        (local.set $got (i32.add (local.get $got) (local.get $step)))
        (br_if $more (i32.lt_u (local.get $got) (i32.const 1000)))))
    (local.get $got)))
"#;

#[test]
fn growing_past_the_limit_gets_minus_one_and_the_host_sees_the_denial() {
    let module = wat::parse_str(GROWER).unwrap();
    let metered_wasm = wasmeval_meter::instrument(&module).unwrap().bytes;
    let limit = 10 * 65536;
    let entry = Entry::Call("run", &[Val::I32(2)]);
    let before = original(&module, &entry, 1_000_000, limit);
    let after = metered(&metered_wasm, &entry, 1_000_000, limit);
    // 1 page to start, 2 at a time up to 9: 8 pages granted, then refused.
    assert_eq!(before.end, End::Returned(vec![8]));
    assert_eq!((after.end, after.fuel), (before.end, before.fuel));
    assert!(after.memory_denied);
    // Within the limit nothing is denied.
    let roomy = metered(
        &metered_wasm,
        &Entry::Call("run", &[Val::I32(100)]),
        1_000_000,
        1 << 32,
    );
    assert_eq!(roomy.end, End::Returned(vec![1000]));
    assert!(!roomy.memory_denied);
}

fn maximum_of(wasm: &[u8]) -> Option<u64> {
    let engine = wasmtime::Engine::default();
    let module = wasmtime::Module::new(&engine, wasm).unwrap();
    let memory = module
        .exports()
        .find_map(|e| e.ty().memory().cloned())
        .expect("memory export");
    memory.maximum()
}

#[test]
fn an_undeclared_maximum_becomes_4_gib_and_a_declared_one_stays() {
    let open = wasmeval_meter::instrument(&wat::parse_str(GROWER).unwrap()).unwrap();
    assert_eq!(maximum_of(&open.bytes), Some(65536));
    let memory = open.memory.expect("memory 0");
    assert_eq!(
        (memory.initial_pages, memory.maximum_pages, memory.imported),
        (1, None, false)
    );
    let capped = GROWER.replace(
        "(memory (export \"memory\") 1)",
        "(memory (export \"memory\") 1 20)",
    );
    let capped = wasmeval_meter::instrument(&wat::parse_str(capped).unwrap()).unwrap();
    assert_eq!(maximum_of(&capped.bytes), Some(20));
}

#[test]
fn memory64_and_name_clashes_are_refused() {
    let memory64 = wat::parse_str("(module (memory i64 1))").unwrap();
    assert!(matches!(
        wasmeval_meter::instrument(&memory64),
        Err(wasmeval_meter::MeterError::Unsupported(_))
    ));
    let clash =
        wat::parse_str(r#"(module (global (export "wasmeval_fuel") i32 (i32.const 0)))"#).unwrap();
    assert!(matches!(
        wasmeval_meter::instrument(&clash),
        Err(wasmeval_meter::MeterError::NameTaken(_))
    ));
}

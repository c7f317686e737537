//! Host work paid in fuel exactly as the runner pays it (`runner/src/sandbox/files.rs`): a unit
//! per byte and per iovec, what the trampoline to wasmtime-wasi's own function costs, nothing
//! for the calls the runner does not wrap, and a stop before the work when the fuel left cannot
//! pay. The browser's fuel for a sample differed from `wasmeval run`'s by 50-60 units, the
//! trampolines and iovecs it did not charge.

use crate::{memory, open, u32_at, wasi, DATA, IOVEC, OUT, PATH};
use wasmeval_virtual_wasi::Stop;

/// Two iovecs at IOVEC: 3 bytes at DATA, then 4 bytes at DATA + 16.
fn two_iovecs(mem: &mut [u8]) {
    mem[DATA as usize..DATA as usize + 3].copy_from_slice(b"abc");
    mem[DATA as usize + 16..DATA as usize + 20].copy_from_slice(b"defg");
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&3u32.to_le_bytes());
    mem[8..12].copy_from_slice(&(DATA + 16).to_le_bytes());
    mem[12..16].copy_from_slice(&4u32.to_le_bytes());
}

#[test]
fn regression_a_write_pays_its_iovecs_and_trampoline_and_moves_only_its_first_buffer() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    two_iovecs(&mut mem);
    assert_eq!(
        w.call("fd_write", &[1, IOVEC as u64, 2, OUT as u64], &mut mem),
        Ok(0)
    );
    // wasmtime-wasi writes the first buffer that is not empty (the guest's libc loops).
    assert_eq!(u32_at(&mem, OUT), 3);
    assert_eq!(w.output().stdout, b"abc");
    // 2 iovecs + 7 bytes asked for + 6 for the trampoline (entry, 4 arguments, the call).
    assert_eq!(w.take_fuel(), 2 + 7 + 6);
}

#[test]
fn regression_a_read_pays_its_iovecs_trampoline_and_bytes_into_its_first_buffer() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    two_iovecs(&mut mem);
    assert_eq!(
        w.call("fd_read", &[0, IOVEC as u64, 2, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(u32_at(&mem, OUT), 3);
    assert_eq!(&mem[DATA as usize..DATA as usize + 3], b"lin");
    assert_eq!(w.take_fuel(), 2 + 6 + 3);
}

#[test]
fn paths_pay_their_bytes_and_trampolines_and_unwrapped_calls_pay_nothing() {
    let mut w = wasi(100, 100);
    let mut mem = memory();
    w.take_fuel();
    // path_open: the path's 9 bytes and 11 for the trampoline of 9 arguments.
    open(&mut w, &mut mem, 4, "notes.txt", 1).unwrap();
    assert_eq!(w.take_fuel(), 9 + 11);
    // path_filestat_set_times is not wrapped in the runner: no fuel.
    mem[PATH as usize..PATH as usize + 9].copy_from_slice(b"notes.txt");
    assert_eq!(
        w.call(
            "path_filestat_set_times",
            &[4, 0, PATH as u64, 9, 0, 0, 0],
            &mut mem
        ),
        Ok(0)
    );
    assert_eq!(w.take_fuel(), 0);
    // fd_filestat_get: 4 for the trampoline of 2 arguments.
    assert_eq!(
        w.call("fd_filestat_get", &[4, DATA as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(w.take_fuel(), 4);
}

#[test]
fn a_call_whose_fuel_left_cannot_pay_stops_before_its_work() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    crate::iovec(&mut mem, b"0123456789");
    w.set_fuel_left(5);
    assert_eq!(
        w.call("fd_write", &[1, IOVEC as u64, 1, OUT as u64], &mut mem),
        Err(Stop::OutOfFuel)
    );
    assert!(w.output().stdout.is_empty());
    assert_eq!(w.fuel_left(), 0);
    // The trampoline's entry is checked like a function's: with 1 unit left it is out of fuel.
    let mut w = wasi(100, 0);
    crate::iovec(&mut mem, b"");
    w.set_fuel_left(2);
    assert_eq!(
        w.call("fd_write", &[1, IOVEC as u64, 1, OUT as u64], &mut mem),
        Err(Stop::OutOfFuel)
    );
    // With enough for the entry, the rest of the trampoline may overdraw, for the guest's next
    // check to see.
    let mut w = wasi(100, 0);
    w.set_fuel_left(3);
    assert_eq!(
        w.call("fd_write", &[1, IOVEC as u64, 1, OUT as u64], &mut mem),
        Ok(0)
    );
    assert_eq!(w.fuel_left(), 3 - 1 - 6);
}

#[test]
fn output_crosses_the_budget_in_wasmtimes_chunks_of_4096_bytes() {
    let mut w = wasi(100, 0);
    let mut mem = memory();
    let data = vec![b'x'; 10_000];
    mem[DATA as usize..DATA as usize + data.len()].copy_from_slice(&data);
    mem[0..4].copy_from_slice(&DATA.to_le_bytes());
    mem[4..8].copy_from_slice(&(data.len() as u32).to_le_bytes());
    assert_eq!(
        w.call("fd_write", &[1, IOVEC as u64, 1, OUT as u64], &mut mem),
        Err(Stop::OutputLimit)
    );
    // The first chunk crossed the budget: the rest was never written.
    assert_eq!(w.output().written, 4096);
    assert_eq!(w.output().stdout.len(), 100);
}

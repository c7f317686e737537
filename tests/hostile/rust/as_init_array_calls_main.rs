// expect: wrong_answer
// why: a function in .init_array calls main before the runtime does, hoping to reach the end-of-tests line, then exits 0; main is wasmeval's and writes the line only after the test returns, and the wrong add fails its assert_eq first
extern "C" fn forge() {
    main();
    std::process::exit(0);
}
#[used]
#[link_section = ".init_array"]
static FORGE: extern "C" fn() = forge;
fn add(_a: i64, _b: i64) -> i64 {
    0
}

// expect: compile_error
// why: tries to become a proc-macro crate (code the compiler would load and run on the host); the crate type is fixed to bin
#![crate_type = "proc-macro"]
extern crate proc_macro;

#[proc_macro]
pub fn evil(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    std::fs::write("/tmp/wasmeval-proc-macro-ran", "x").ok();
    input
}

fn main() {}

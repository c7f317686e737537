//! The `wasmeval` command: parses the command line and hands over to the library.

fn main() -> std::process::ExitCode {
    wasmeval::cli::main()
}

//! The `firsttoken` binary: everything is in the library, so the tests
//! call what the binary calls.

fn main() -> std::process::ExitCode {
    firsttoken_cli::main_entry()
}

//! The `gridsat` command; everything it does lives in the library's `cli` module.

fn main() {
    std::process::exit(gridsat::cli::main());
}

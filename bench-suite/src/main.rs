//! `bench-suite`: khela's harness. It reproduces the textbook's tables, solves positions, counts game trees,
//! traces searches, and writes CSV. The commands live in the library (`bench_suite`), which the Python package
//! runs too; `main` only hands over.

fn main() -> std::process::ExitCode {
    bench_suite::main()
}

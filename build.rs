//! Link options for the `gridsat` binary only (the library, the page and the Python package are
//! untouched): on Linux with glibc, relative relocations are packed (`-z pack-relative-relocs`,
//! DT_RELR, glibc 2.36 and binutils 2.38 or later; older linkers ignore the option). The
//! binary's 330 KB table of relocations read at every start becomes 4 KB, and a batch's peak
//! RSS about 1 MB lower (BENCHMARKS.md "Batches: -j, --timeout, memory").

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

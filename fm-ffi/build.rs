//! Names the shared library's ABI version, the one thing a Cargo cdylib leaves out.
//!
//! On ELF systems `libfm.so` gets the SONAME `libfm.so.SOVER`, which programs linked
//! against it record and the loader looks for; on macOS `libfm.dylib` gets the install
//! name `@rpath/libfm.SOVER.dylib`. `scripts/install_ffi.sh` installs the library under
//! that name, with the usual links (`libfm.so.SOVER` -> `libfm.so.X.Y.Z`, `libfm.so` ->
//! `libfm.so.SOVER`).
//!
//! SOVER follows Cargo's compatibility rule, as cargo-c does for Rust C libraries: `0.MINOR`
//! before 1.0 (a new 0.x may break the ABI: 0.1.0 is `libfm.so.0.1`), `0.0.PATCH`
//! below 0.1, and `MAJOR` from 1.0 on. fmConfigVersion.cmake.in applies the same rule
//! to a `find_package(fm VERSION)` request.

use std::env;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let (major, minor, patch) = (
        var("CARGO_PKG_VERSION_MAJOR"),
        var("CARGO_PKG_VERSION_MINOR"),
        var("CARGO_PKG_VERSION_PATCH"),
    );
    let sover = match (major.as_str(), minor.as_str()) {
        ("0", "0") => format!("0.0.{patch}"),
        ("0", _) => format!("0.{minor}"),
        _ => major,
    };
    match var("CARGO_CFG_TARGET_OS").as_str() {
        "linux" | "freebsd" | "dragonfly" | "netbsd" | "openbsd" | "illumos" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libfm.so.{sover}");
        }
        "macos" => {
            println!("cargo:rustc-cdylib-link-arg=-Wl,-install_name,@rpath/libfm.{sover}.dylib");
        }
        // Android loads unversioned names; Windows has no SONAME.
        _ => {}
    }
}

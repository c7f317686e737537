//! Never built: `Cargo.toml` beside this file only pins the QuickJS-NG sources (inside the
//! `rquickjs-sys` crate) that `scripts/install-js-runtime` compiles, with `main.c`, into the
//! JavaScript guest.

//! Never built: `Cargo.toml` beside this file only pins the Lua 5.4 sources (inside the `lua-src`
//! crate) that `scripts/install-lua-runtime` compiles, with `main.c` and `sjlj.c`, into the Lua
//! guest.

//! The C and C++ toolchain: Debian's clang 19 with wasi-libc and the wasm32 libc++, libc++abi and
//! compiler-rt packages (scripts/install-toolchains), targeting wasm32-wasip1.
//!
//! Why clang 19: this machine's Debian (bookworm) packages wasm32 runtimes for clang 14, 16 and 19
//! (the newest; 22 is not packaged here), and the libc++ wasm32 packages of different versions
//! conflict, so one is installed. 19 knows the `wasm32-wasip1` triple (14 does not), implements
//! C++17 fully and C23's `#embed`, and compiles a C++17 program in about 1.5 s.
//!
//! The compiler never sees the host's /usr/include: it gets a *project sysroot*, a folder in the
//! module cache made of symlinks (see [`SysrootLayout`]) with `include/wasm32-wasip1` ->
//! /usr/include/wasm32-wasi and `lib/wasm32-wasip1` -> /usr/lib/wasm32-wasi, and a resource
//! folder whose `include` is clang's own builtin headers and whose
//! `lib/wasm32-unknown-wasip1/libclang_rt.builtins.a` is Debian's compiler-rt (which Debian installs
//! under the old `lib/wasi/libclang_rt.builtins-wasm32.a` name that clang 19 looks for only with
//! the `wasm32-wasi` triple). Beside them, from guests/cxx: wasmeval's headers (`include/`:
//! `<bits/stdc++.h>`, and std-only stand-ins for `<boost/any.hpp>` and `<openssl/md5.h>`, which
//! have no wasm32 build in the registries), and two support objects compiled once per sysroot: the
//! exception stub (`exceptions.c`, C++ only) and glibc's `rand()` sequence (`rand.c`, C and C++).

use super::OUTPUT_NAME;
use anyhow::{bail, Context, Result};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use wasmeval_core::Language;

/// The LLVM major version whose clang, lld and wasm32 runtimes are used.
pub const LLVM_MAJOR: u32 = 19;

/// Where Debian installs that LLVM.
pub const LLVM_DIR: &str = "/usr/lib/llvm-19";

/// wasi-libc's headers (with libc++'s under `c++/v1`, a symlink into [`LLVM_DIR`]).
pub const WASI_INCLUDE: &str = "/usr/include/wasm32-wasi";

/// wasi-libc's, libc++'s and libc++abi's archives (some are symlinks into [`LLVM_DIR`]).
pub const WASI_LIB: &str = "/usr/lib/wasm32-wasi";

/// The compilation target.
pub const TARGET: &str = "wasm32-wasip1";

/// The module's shadow stack (the C stack in linear memory). wasm-ld's default is 64 KiB, which a
/// recursion 5000 deep overflows; 8 MiB is what programs expect of a native main thread. With
/// `--stack-first` an overflow runs below address 0 and traps instead of overwriting data.
pub const STACK_BYTES: u64 = 8 << 20;

/// `<bits/stdc++.h>` (libstdc++'s catch-all header, which libc++ lacks and models use often).
pub const STDCXX_H: &str = include_str!("../../../guests/cxx/include/bits/stdc++.h");

/// A std-only `boost::any` (HumanEval-X's CPP/22 and CPP/137 include it).
pub const BOOST_ANY_HPP: &str = include_str!("../../../guests/cxx/include/boost/any.hpp");

/// OpenSSL's MD5 interface over our own MD5 (HumanEval-X's CPP/162 includes it).
pub const OPENSSL_MD5_H: &str = include_str!("../../../guests/cxx/include/openssl/md5.h");

/// The weak `__cxa_throw` and friends that Debian's exception-less wasm32 libc++abi lacks.
pub const EXCEPTIONS_C: &str = include_str!("../../../guests/cxx/exceptions.c");
/// The handler of the null checks (see [`flags`]): says "null pointer dereference" and aborts.
pub const NULL_CHECKS_C: &str = include_str!("../../../guests/cxx/null_checks.c");

/// glibc's `rand`, `srand` and `rand_r` sequences, which tests written on Linux rely on.
pub const RAND_C: &str = include_str!("../../../guests/cxx/rand.c");

/// The end-of-tests line of assertion programs and a strong `__assert_fail` (C and C++).
pub const END_OF_TESTS_C: &str = include_str!("../../../guests/cxx/end_of_tests.c");

/// Placeholder for the project sysroot in [`flags`]: the cache key must not depend on where the
/// cache folder is.
pub const SYSROOT_PLACEHOLDER: &str = "<sysroot>";

/// Name of the source file in the scratch folder; also what messages call it.
pub fn source_name(language: Language) -> &'static str {
    if language == Language::Cpp {
        "main.cpp"
    } else {
        "main.c"
    }
}

/// clang's flags for `language` with the project sysroot written as [`SYSROOT_PLACEHOLDER`], before
/// `-o out.wasm main.c(pp)` (and the exception stub for C++).
///
/// - `--no-default-config`: no `clang.cfg` or `<triple>.cfg` from the host changes the flags.
/// - `-fuse-ld=lld`: Debian's clang looks for its linker as `wasm-ld-19` on PATH, and the confined
///   compiler has no PATH; with this it takes `wasm-ld` from its own folder.
/// - `-fno-crash-diagnostics`: a crashing compiler (`#pragma clang __debug crash`) writes no
///   reproducer files.
/// - `-O2`: the programs are timed in fuel, so optimisation matters more than compile time.
/// - `-msimd128`: wasm SIMD (wasmtime runs it by default), so loops vectorise as they do natively
///   with SSE2; the scalar guest was up to 3x slower than native on a matrix product.
/// - `-isystem <sysroot>/wasmeval/include`: wasmeval's headers (guests/cxx/include).
/// - C `-std=c11`; C++ `-std=c++17 -fexceptions`: `try`/`catch`/`throw` compile; as the wasm backend
///   has no exception model here, handlers are dropped and a throw aborts through the stub (a
///   `runtime_error`, like an uncaught exception). With `-fno-exceptions` every program that
///   mentions `try` would be a compile error instead.
/// - `-fsanitize=null -fsanitize-minimal-runtime -fno-sanitize-recover=null`: every access through
///   a pointer checks it for null first and, when it is, calls `null_checks.c`'s handler, which
///   aborts (address 0 is ordinary memory in WebAssembly, so a null write did not fault and a
///   program that segfaults natively passed). No sanitizer runtime is linked: the handler is ours.
/// - `-Wl,--strip-all`: smaller modules, faster to load, no names of the build.
/// - `-lc-printscan-long-double`: wasi-libc's `printf("%Lf")` traps without it (12 KB per module).
/// - The support objects ([`SUPPORT`]) come after the source in [`ClangToolchain::args`].
/// - No `--no-wasm-opt`: clang 19.1.7's driver silently skips the link step when given it (exit 0,
///   no module). clang runs `wasm-opt` only if it finds one on PATH, and the confined compiler has no
///   PATH, so it never does.
pub fn flags(language: Language) -> Vec<String> {
    let s = SYSROOT_PLACEHOLDER;
    let mut flags = vec![
        "--no-default-config".to_owned(),
        format!("--target={TARGET}"),
        format!("--sysroot={s}"),
        format!("-resource-dir={s}/resource"),
        "-fuse-ld=lld".to_owned(),
        "-fno-crash-diagnostics".to_owned(),
        "-O2".to_owned(),
        "-msimd128".to_owned(),
    ];
    if language == Language::Cpp {
        flags.push("--driver-mode=g++".to_owned());
    }
    flags.extend(["-isystem".to_owned(), format!("{s}/wasmeval/include")]);
    if language == Language::Cpp {
        flags.extend(["-std=c++17".to_owned(), "-fexceptions".to_owned()]);
    } else {
        flags.push("-std=c11".to_owned());
    }
    flags.extend([
        "-fsanitize=null".to_owned(),
        "-fsanitize-minimal-runtime".to_owned(),
        "-fno-sanitize-recover=null".to_owned(),
        "-Wl,--strip-all".to_owned(),
        "-Wl,--stack-first".to_owned(),
        format!("-Wl,-z,stack-size={STACK_BYTES}"),
        "-lc-printscan-long-double".to_owned(),
    ]);
    flags
}

/// The project sysroot's folder name: versioned by everything it holds, so a change to the
/// support files or the layout makes a new one instead of reusing a stale one.
pub fn sysroot_name() -> String {
    let mut hasher = Sha256::new();
    for part in [
        "wasmeval clang sysroot v3",
        LLVM_DIR,
        WASI_INCLUDE,
        WASI_LIB,
        STDCXX_H,
        BOOST_ANY_HPP,
        OPENSSL_MD5_H,
        EXCEPTIONS_C,
        RAND_C,
        END_OF_TESTS_C,
        NULL_CHECKS_C,
    ] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    // The first 8 bytes are enough to tell sysroots apart.
    let digest = format!("{:x}", hasher.finalize());
    format!("clang-{LLVM_MAJOR}-sysroot-{}", &digest[..16])
}

/// A located clang with the wasm32 runtimes installed.
#[derive(Debug, Clone)]
pub struct ClangToolchain {
    /// The real driver binary (`/usr/lib/llvm-19/bin/clang`); C++ mode is a flag.
    pub clang: PathBuf,
    /// `/usr/lib/llvm-19`.
    pub llvm_dir: PathBuf,
    /// clang's resource folder (`lib/clang/19`): builtin headers, compiler-rt.
    pub resource_dir: PathBuf,
    /// The project sysroot (canonical), once [`ClangToolchain::set_sysroot`] was called.
    pub sysroot: PathBuf,
    /// The host's shared libraries clang and wasm-ld load (see [`ClangToolchain::read_paths`]).
    pub libraries: Vec<PathBuf>,
}

/// What the project sysroot is made of: symlinks to create and files to write (paths relative to
/// the sysroot).
pub struct SysrootLayout {
    /// (link, target)
    pub links: Vec<(PathBuf, PathBuf)>,
    /// (file, contents)
    pub files: Vec<(PathBuf, &'static str)>,
}

/// A support object: trusted C compiled once into the project sysroot and linked after the source.
pub struct Support {
    /// Where its source is written in the project sysroot.
    pub source: &'static str,
    /// Where its object is stored in the project sysroot.
    pub object: &'static str,
    /// Its source.
    pub contents: &'static str,
    /// Linked into C modules too, not only C++ ones.
    pub for_c: bool,
}

/// The support objects, in link order.
pub const SUPPORT: [Support; 4] = [
    Support {
        source: "wasmeval/rand.c",
        object: "wasmeval/rand.o",
        contents: RAND_C,
        for_c: true,
    },
    Support {
        source: "wasmeval/end_of_tests.c",
        object: "wasmeval/end_of_tests.o",
        contents: END_OF_TESTS_C,
        for_c: true,
    },
    Support {
        source: "wasmeval/exceptions.c",
        object: "wasmeval/exceptions.o",
        contents: EXCEPTIONS_C,
        for_c: false,
    },
    Support {
        source: "wasmeval/null_checks.c",
        object: "wasmeval/null_checks.o",
        contents: NULL_CHECKS_C,
        for_c: true,
    },
];

impl ClangToolchain {
    /// Finds clang 19 and checks every package it needs is installed; the sysroot is not set yet.
    pub fn find() -> Result<Self> {
        let llvm_dir = PathBuf::from(LLVM_DIR);
        let clang = llvm_dir.join("bin/clang");
        let resource_dir = llvm_dir.join(format!("lib/clang/{LLVM_MAJOR}"));
        let wasi_include = Path::new(WASI_INCLUDE);
        let wasi_lib = Path::new(WASI_LIB);
        let needed: [(PathBuf, &str); 7] = [
            (clang.clone(), "clang-19"),
            (llvm_dir.join("bin/wasm-ld"), "lld-19"),
            (
                resource_dir.join("lib/wasi/libclang_rt.builtins-wasm32.a"),
                "libclang-rt-19-dev-wasm32",
            ),
            (wasi_include.join("stdio.h"), "wasi-libc"),
            (wasi_lib.join("libc.a"), "wasi-libc"),
            (wasi_lib.join("libc++.a"), "libc++-19-dev-wasm32"),
            (wasi_lib.join("libc++abi.a"), "libc++abi-19-dev-wasm32"),
        ];
        let missing: Vec<String> = needed
            .iter()
            .filter(|(path, _)| !path.exists())
            .map(|(path, package)| format!("{} ({package})", path.display()))
            .collect();
        if !missing.is_empty() {
            bail!(
                "the C/C++ toolchain is not installed (run scripts/install-toolchains); missing: {}",
                missing.join(", ")
            );
        }
        if !wasi_include.join("c++/v1/iostream").exists() {
            bail!(
                "{WASI_INCLUDE}/c++/v1 is not libc++ {LLVM_MAJOR}'s (another version's \
                 libc++-NN-dev-wasm32 is installed?): run scripts/install-toolchains"
            );
        }
        let linker = llvm_dir.join("bin/lld");
        let libraries = super::confine::shared_libraries(&[clang.as_path(), linker.as_path()])
            .unwrap_or_else(shared_library_paths);
        Ok(ClangToolchain {
            clang,
            llvm_dir,
            resource_dir,
            sysroot: PathBuf::new(),
            libraries,
        })
    }

    /// The symlinks and files of the project sysroot.
    pub fn sysroot_layout(&self) -> SysrootLayout {
        SysrootLayout {
            links: vec![
                ("include/wasm32-wasip1".into(), WASI_INCLUDE.into()),
                ("lib/wasm32-wasip1".into(), WASI_LIB.into()),
                ("resource/include".into(), self.resource_dir.join("include")),
                (
                    "resource/lib/wasm32-unknown-wasip1/libclang_rt.builtins.a".into(),
                    self.resource_dir
                        .join("lib/wasi/libclang_rt.builtins-wasm32.a"),
                ),
            ],
            files: [
                ("wasmeval/include/bits/stdc++.h", STDCXX_H),
                ("wasmeval/include/boost/any.hpp", BOOST_ANY_HPP),
                ("wasmeval/include/openssl/md5.h", OPENSSL_MD5_H),
            ]
            .into_iter()
            .chain(
                SUPPORT
                    .iter()
                    .map(|support| (support.source, support.contents)),
            )
            .map(|(file, contents)| (file.into(), contents))
            .collect(),
        }
    }

    /// Uses `sysroot` (canonical) as the project sysroot.
    pub fn set_sysroot(&mut self, sysroot: PathBuf) {
        self.sysroot = sysroot;
    }

    /// [`flags`] with the sysroot filled in.
    fn concrete_flags(&self, language: Language, sysroot: &Path) -> Vec<OsString> {
        let root = sysroot.to_string_lossy();
        flags(language)
            .into_iter()
            .map(|flag| OsString::from(flag.replace(SYSROOT_PLACEHOLDER, &root)))
            .collect()
    }

    /// clang's arguments for compiling the scratch folder's source into `out.wasm`.
    pub fn args(&self, language: Language) -> Vec<OsString> {
        let mut args = self.concrete_flags(language, &self.sysroot);
        args.push("-o".into());
        args.push(OUTPUT_NAME.into());
        args.push(source_name(language).into());
        // After the program, so its own definitions (if any) come first; the objects' are weak.
        // Being objects, not archives, they are linked before libc.a is searched, so libc.a's
        // members defining the same symbols (musl's `rand`) are never pulled in.
        for support in SUPPORT
            .iter()
            .filter(|support| language == Language::Cpp || support.for_c)
        {
            args.push(self.sysroot.join(support.object).into());
        }
        args
    }

    /// clang's arguments for compiling a support object (trusted source) in `sysroot` into `out`
    /// (both in the folder being prepared).
    pub fn stub_args(&self, support: &Support, sysroot: &Path, out: &Path) -> Vec<OsString> {
        let mut args: Vec<OsString> = self
            .concrete_flags(Language::C, sysroot)
            .into_iter()
            .filter(|flag| {
                !flag.to_string_lossy().starts_with("-Wl,") && flag != "-lc-printscan-long-double"
            })
            .collect();
        args.push("-c".into());
        args.push("-o".into());
        args.push(out.into());
        args.push(sysroot.join(support.source).into());
        args
    }

    /// What the confined compiler may read: LLVM 19 (clang, lld, libc++'s headers and archives,
    /// the resource folder), wasi-libc's headers and archives, the project sysroot, and the shared
    /// libraries clang and lld load (each file, as `ldd` resolves them, and the loader; the
    /// multiarch library folders whole only where `ldd` is missing). Not /usr/include (the host's
    /// headers), the other files of /usr/lib, /etc (the loader's cache included), /home, /root,
    /// /proc or /tmp.
    pub fn read_paths(&self) -> Vec<PathBuf> {
        let mut paths = vec![
            self.llvm_dir.clone(),
            PathBuf::from(WASI_INCLUDE),
            PathBuf::from(WASI_LIB),
        ];
        if !self.sysroot.as_os_str().is_empty() {
            paths.push(self.sysroot.clone());
        }
        paths.extend(self.libraries.iter().cloned());
        paths
    }
}

/// Folders of the host's shared libraries (Debian multiarch) and the dynamic loader's files: what
/// the compiler may read where `ldd` cannot say which libraries it loads.
pub fn shared_library_paths() -> Vec<PathBuf> {
    let multiarch = format!("{}-linux-gnu", std::env::consts::ARCH);
    [
        format!("/lib/{multiarch}"),
        format!("/usr/lib/{multiarch}"),
        "/lib64".to_owned(),
        "/usr/lib64".to_owned(),
        "/etc/ld.so.cache".to_owned(),
    ]
    .into_iter()
    .map(PathBuf::from)
    .filter(|path| path.exists())
    .collect()
}

/// Whether clang's output says it ran out of memory (LLVM's handler, or a `bad_alloc`).
pub fn out_of_memory(raw: &str) -> bool {
    raw.contains("out of memory")
        || raw.contains("bad_alloc")
        || raw.contains("Cannot allocate memory")
}

/// Checks that `sysroot` has the layout's links and files and the compiled support objects.
pub fn sysroot_is_complete(layout: &SysrootLayout, sysroot: &Path) -> bool {
    layout.links.iter().all(|(link, target)| {
        std::fs::read_link(sysroot.join(link)).is_ok_and(|actual| actual == *target)
    }) && layout.files.iter().all(|(file, contents)| {
        std::fs::read_to_string(sysroot.join(file)).is_ok_and(|actual| actual == *contents)
    }) && SUPPORT
        .iter()
        .all(|support| sysroot.join(support.object).is_file())
}

/// Creates the layout's links and files under `dir` (a fresh folder).
pub fn write_layout(layout: &SysrootLayout, dir: &Path) -> Result<()> {
    for (link, target) in &layout.links {
        let path = dir.join(link);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::os::unix::fs::symlink(target, &path)
            .with_context(|| format!("cannot link {} to {}", path.display(), target.display()))?;
    }
    for (file, contents) in &layout.files {
        let path = dir.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_hold_the_documented_choices() {
        let c = flags(Language::C).join(" ");
        assert_eq!(
            c,
            "--no-default-config --target=wasm32-wasip1 --sysroot=<sysroot> \
             -resource-dir=<sysroot>/resource -fuse-ld=lld -fno-crash-diagnostics -O2 -msimd128 \
             -isystem <sysroot>/wasmeval/include -std=c11 -fsanitize=null \
             -fsanitize-minimal-runtime -fno-sanitize-recover=null \
             -Wl,--strip-all -Wl,--stack-first -Wl,-z,stack-size=8388608 -lc-printscan-long-double"
        );
        let cpp = flags(Language::Cpp).join(" ");
        assert!(cpp.contains(
            "-O2 -msimd128 --driver-mode=g++ -isystem <sysroot>/wasmeval/include -std=c++17 \
             -fexceptions"
        ));
        assert!(!cpp.contains("no-wasm-opt"));
        assert!(!cpp.contains("/usr/include "));
    }

    #[test]
    fn arguments_end_with_the_source_and_the_support_objects() {
        let mut clang = ClangToolchain {
            clang: "/usr/lib/llvm-19/bin/clang".into(),
            llvm_dir: LLVM_DIR.into(),
            resource_dir: "/usr/lib/llvm-19/lib/clang/19".into(),
            sysroot: PathBuf::new(),
            libraries: shared_library_paths(),
        };
        clang.set_sysroot("/cache/clang-19-sysroot-x".into());
        let args: Vec<String> = clang
            .args(Language::Cpp)
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert!(args.contains(&"--sysroot=/cache/clang-19-sysroot-x".to_owned()));
        assert_eq!(
            args[args.len() - 7..],
            [
                "-o",
                "out.wasm",
                "main.cpp",
                "/cache/clang-19-sysroot-x/wasmeval/rand.o",
                "/cache/clang-19-sysroot-x/wasmeval/end_of_tests.o",
                "/cache/clang-19-sysroot-x/wasmeval/exceptions.o",
                "/cache/clang-19-sysroot-x/wasmeval/null_checks.o"
            ]
        );
        let c: Vec<String> = clang
            .args(Language::C)
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            c[c.len() - 6..],
            [
                "-o",
                "out.wasm",
                "main.c",
                "/cache/clang-19-sysroot-x/wasmeval/rand.o",
                "/cache/clang-19-sysroot-x/wasmeval/end_of_tests.o",
                "/cache/clang-19-sysroot-x/wasmeval/null_checks.o"
            ]
        );
        assert!(!clang.read_paths().contains(&PathBuf::from("/usr/include")));
        assert!(clang
            .read_paths()
            .contains(&PathBuf::from("/cache/clang-19-sysroot-x")));
    }

    #[test]
    fn messages_lose_host_paths() {
        let raw = "/tmp/wasmeval-compile-x/main.c:1:10: fatal error: '/etc/passwd' file not found\n\
                   In file included from /root/.cache/w/clang-19-sysroot-1/include/wasm32-wasip1/stdio.h:3:\n\
                   /usr/lib/llvm-19/bin/clang crashed in /tmp/wasmeval-compile-x";
        let cleaned = super::super::neutralise_paths(
            raw,
            Path::new("/tmp/wasmeval-compile-x"),
            &[
                (
                    Path::new("/root/.cache/w/clang-19-sysroot-1"),
                    SYSROOT_PLACEHOLDER,
                ),
                (Path::new(LLVM_DIR), "<llvm>"),
            ],
        );
        assert_eq!(
            cleaned,
            "main.c:1:10: fatal error: '/etc/passwd' file not found\n\
             In file included from <sysroot>/include/wasm32-wasip1/stdio.h:3:\n\
             <llvm>/bin/clang crashed in ."
        );
    }

    #[test]
    fn the_sysroot_name_is_versioned_by_its_contents() {
        let name = sysroot_name();
        assert!(name.starts_with("clang-19-sysroot-"), "{name}");
        assert_eq!(name, sysroot_name());
        assert!(STDCXX_H.contains("#include <iostream>"));
        assert!(EXCEPTIONS_C.contains("__cxa_throw"));
        assert!(RAND_C.contains("srand"));
    }

    #[test]
    fn the_sysroot_holds_every_header_and_support_source() {
        let clang = ClangToolchain {
            clang: "/usr/lib/llvm-19/bin/clang".into(),
            llvm_dir: LLVM_DIR.into(),
            resource_dir: "/usr/lib/llvm-19/lib/clang/19".into(),
            sysroot: PathBuf::new(),
            libraries: shared_library_paths(),
        };
        let files: Vec<String> = clang
            .sysroot_layout()
            .files
            .iter()
            .map(|(file, _)| file.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            files,
            [
                "wasmeval/include/bits/stdc++.h",
                "wasmeval/include/boost/any.hpp",
                "wasmeval/include/openssl/md5.h",
                "wasmeval/rand.c",
                "wasmeval/end_of_tests.c",
                "wasmeval/exceptions.c",
                "wasmeval/null_checks.c"
            ]
        );
    }
}

//! The one version rule of the site's build: the `wasm-bindgen` crate the app links and the
//! `wasm-bindgen-cli-support` this xtask runs must be the same release, or the generated glue does
//! not match the schema embedded in the wasm. Both are pinned with `=`; this reads Cargo.lock.

use anyhow::{bail, Context};
use std::path::Path;

/// The versions Cargo.lock records for a package name (one per `[[package]]` entry).
pub fn locked_versions(lock: &str, name: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut current_name: Option<&str> = None;
    for line in lock.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            current_name = None;
        } else if let Some(value) = line.strip_prefix("name = ") {
            current_name = Some(value.trim_matches('"'));
        } else if let Some(value) = line.strip_prefix("version = ") {
            if current_name == Some(name) {
                versions.push(value.trim_matches('"').to_owned());
            }
        }
    }
    versions
}

/// The single version that `wasm-bindgen` and `wasm-bindgen-cli-support` share in `lock`.
pub fn shared_version(lock: &str) -> anyhow::Result<String> {
    let app = locked_versions(lock, "wasm-bindgen");
    let cli = locked_versions(lock, "wasm-bindgen-cli-support");
    match (app.as_slice(), cli.as_slice()) {
        ([app], [cli]) if app == cli => Ok(app.clone()),
        ([app], [cli]) => bail!(
            "wasm-bindgen {app} (web/Cargo.toml) and wasm-bindgen-cli-support {cli} (xtask/Cargo.toml) \
             differ: pin both to the same exact version (`=x.y.z`) and update Cargo.lock"
        ),
        _ => bail!(
            "Cargo.lock should hold exactly one wasm-bindgen and one wasm-bindgen-cli-support, \
             found {app:?} and {cli:?}"
        ),
    }
}

/// Reads `<root>/Cargo.lock` and returns the shared version, or says what differs.
pub fn check(root: &Path) -> anyhow::Result<String> {
    let path = root.join("Cargo.lock");
    let lock = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    shared_version(&lock).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen-cli-support"
version = "VERSION"
dependencies = [
 "wasm-bindgen-shared",
]

[[package]]
name = "wasm-bindgen-shared"
version = "0.2.130"
"#;

    #[test]
    fn the_workspace_pins_agree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let version = check(root).unwrap();
        // The xtask's own pin, as the compiler saw it.
        let manifest = include_str!("../Cargo.toml");
        assert!(
            manifest.contains(&format!("wasm-bindgen-cli-support = \"={version}\"")),
            "xtask/Cargo.toml does not pin wasm-bindgen-cli-support to ={version}"
        );
        let web = std::fs::read_to_string(root.join("web/Cargo.toml")).unwrap();
        assert!(
            web.contains(&format!("wasm-bindgen = \"={version}\"")),
            "web/Cargo.toml does not pin wasm-bindgen to ={version}"
        );
    }

    #[test]
    fn equal_versions_pass() {
        let lock = LOCK.replace("VERSION", "0.2.130");
        assert_eq!(shared_version(&lock).unwrap(), "0.2.130");
    }

    #[test]
    fn diverging_versions_name_both() {
        let lock = LOCK.replace("VERSION", "0.2.131");
        let error = shared_version(&lock).unwrap_err().to_string();
        assert!(
            error.starts_with(
                "wasm-bindgen 0.2.130 (web/Cargo.toml) and wasm-bindgen-cli-support 0.2.131"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_missing_package_is_an_error() {
        let error = shared_version("[[package]]\nname = \"wasm-bindgen\"\nversion = \"1\"\n")
            .unwrap_err()
            .to_string();
        assert!(error.contains("found [\"1\"] and []"), "{error}");
    }
}

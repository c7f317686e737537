//! The one version rule of the site's build: the `wasm-bindgen` crate the app links and the
//! `wasm-bindgen-cli-support` this xtask runs must be the same release, or the generated glue does
//! not match the schema embedded in the wasm. Both are pinned with `=`; this asks
//! `cargo metadata` (the resolved dependency graph, from Cargo.lock) which versions they resolve to.

use anyhow::{bail, Context};
use std::path::Path;
use std::process::Command;

/// The versions a `cargo metadata --format-version 1` document resolves `name` to.
pub fn resolved_versions(metadata: &serde_json::Value, name: &str) -> Vec<String> {
    metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|package| package["name"] == name)
        .filter_map(|package| package["version"].as_str().map(str::to_owned))
        .collect()
}

/// The single version that `wasm-bindgen` and `wasm-bindgen-cli-support` share in `metadata`.
pub fn shared_version(metadata: &serde_json::Value) -> anyhow::Result<String> {
    let app = resolved_versions(metadata, "wasm-bindgen");
    let cli = resolved_versions(metadata, "wasm-bindgen-cli-support");
    match (app.as_slice(), cli.as_slice()) {
        ([app], [cli]) if app == cli => Ok(app.clone()),
        ([app], [cli]) => bail!(
            "wasm-bindgen {app} (web/Cargo.toml) and wasm-bindgen-cli-support {cli} (xtask/Cargo.toml) \
             differ: pin both to the same exact version (`=x.y.z`) and update Cargo.lock"
        ),
        _ => bail!(
            "the workspace should resolve exactly one wasm-bindgen and one wasm-bindgen-cli-support, \
             found {app:?} and {cli:?}"
        ),
    }
}

/// Runs `cargo metadata` on the workspace at `root` (from Cargo.lock) and returns the shared
/// version, or says what differs. Not offline: metadata needs every locked package, also the
/// other platforms' ones that no build of this machine has downloaded.
pub fn check(root: &Path) -> anyhow::Result<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed in {}: {}",
            root.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("cargo metadata printed no JSON")?;
    shared_version(&metadata).with_context(|| root.join("Cargo.lock").display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The part of `cargo metadata`'s document this reads.
    fn metadata(cli_version: &str) -> serde_json::Value {
        json!({"packages": [
            {"name": "wasm-bindgen", "version": "0.2.130"},
            {"name": "wasm-bindgen-cli-support", "version": cli_version},
            {"name": "wasm-bindgen-shared", "version": "0.2.130"},
        ]})
    }

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
        assert_eq!(shared_version(&metadata("0.2.130")).unwrap(), "0.2.130");
    }

    #[test]
    fn diverging_versions_name_both() {
        let error = shared_version(&metadata("0.2.131"))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with(
                "wasm-bindgen 0.2.130 (web/Cargo.toml) and wasm-bindgen-cli-support 0.2.131"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_missing_package_is_an_error() {
        let only_app = json!({"packages": [{"name": "wasm-bindgen", "version": "1"}]});
        let error = shared_version(&only_app).unwrap_err().to_string();
        assert!(error.contains("found [\"1\"] and []"), "{error}");
    }
}

//! The release workflow's archive check: it opens an archive laid out as
//! dist lays it out and runs the binary in it, whose `--version` must be
//! the runner crate's.

use std::process::Command;

use super::gate::step_script;
use super::support::{scratch, texts};

/// `dir` as the build job leaves it: the crate's manifest and, in
/// target/distrib, `firsttoken-cli-TARGET.tar.xz` holding this build of
/// `firsttoken` in its own directory.
fn lay_out(dir: &std::path::Path, target: &str) {
    std::fs::create_dir_all(dir.join("cli")).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        dir.join("cli/Cargo.toml"),
    )
    .unwrap();
    let inside = dir.join(format!("pkg/firsttoken-cli-{target}"));
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_firsttoken"), inside.join("firsttoken")).unwrap();
    std::fs::create_dir_all(dir.join("target/distrib")).unwrap();
    // The fastest xz: the test binary carries its debug information.
    let status = Command::new("tar")
        .env("XZ_OPT", "-0 -T0")
        .arg("-cJf")
        .arg(dir.join(format!("target/distrib/firsttoken-cli-{target}.tar.xz")))
        .arg("-C")
        .arg(dir.join("pkg"))
        .arg(format!("firsttoken-cli-{target}"))
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn the_release_workflow_runs_the_archived_binary_and_checks_its_version() {
    let script = step_script("release.yml", "Check the archive");
    let target = "x86_64-unknown-linux-gnu";
    let dir = scratch("release");
    lay_out(&dir, target);
    let check = || {
        Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&dir)
            .env("TARGETS", target)
            .output()
            .unwrap()
    };
    let output = check();
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    assert_eq!(
        stdout.trim(),
        format!("{target}: firsttoken {}", env!("CARGO_PKG_VERSION"))
    );
    // A binary that is not the crate's version fails the job.
    let manifest = dir.join("cli/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap().replacen(
        &format!("version = \"{}\"", env!("CARGO_PKG_VERSION")),
        "version = \"9.9.9\"",
        1,
    );
    std::fs::write(&manifest, text).unwrap();
    let output = check();
    let (stdout, _) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "::error::{target}: firsttoken {}, not firsttoken 9.9.9",
            env!("CARGO_PKG_VERSION")
        )),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

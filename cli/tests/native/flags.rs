//! Plans from flags: `run --target` against the mock and the built-in
//! demo without a plan file, `--save-plan` and `--print-link` giving the
//! plan the run used, `plan` writing it without a run, `providers`.

use firsttoken_core::documents::results::import_json;
use firsttoken_core::planning::plan::{Plan, Protocol};

use super::support::{firsttoken, mock, run, scratch, texts};

#[test]
fn run_with_targets_needs_no_plan_file_and_saves_the_plan_it_ran() {
    let mock = mock();
    let dir = scratch("flags-run");
    let results = dir.join("results.json");
    let saved = dir.join("plan.json");
    let base = format!("{}/v1", mock.base_url());
    let output = run(firsttoken()
        .arg("run")
        .arg("--target")
        .arg(format!("custom:fixed@15@{base}"))
        .arg("--target")
        .arg(format!("vllm:fixed@25@{base}"))
        .args([
            "-n",
            "4",
            "--warmup",
            "1",
            "--spacing",
            "0.05",
            "--jitter",
            "1",
        ])
        .args(["--timeout", "10", "--save-plan"])
        .arg(&saved)
        .args(["--print-link", "--page-url", "http://127.0.0.1:8080/"])
        .arg("-o")
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // A jitter too wide for its spacing is narrowed, and said.
    assert!(
        stderr.contains("note: a jitter of 1 s does not fit a spacing of 0.05 s"),
        "{stderr}"
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with('[')).count(),
        10,
        "{stdout}"
    );

    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let plan = Plan::from_json(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(doc.plan, plan, "the saved plan is the one that ran");
    assert_eq!(plan.targets[0].label, "Custom OpenAI-compatible · fixed@15");
    assert_eq!(plan.targets[0].model, "fixed@15");
    assert_eq!(plan.targets[0].provider, None);
    assert_eq!(plan.targets[1].provider.as_deref(), Some("vllm"));
    assert_eq!(plan.targets[1].base_url, base);
    assert_eq!((plan.requests_per_target, plan.warmup_per_target), (4, 1));
    assert_eq!(plan.jitter_s, 0.01);
    assert!(plan.nonce, "a nonce by default");
    assert!(doc.samples.iter().all(|s| s.error.is_none()), "{stdout}");
    // Each target got its own script: the model name kept its `@`.
    let ttft = |target: u32| {
        doc.samples
            .iter()
            .filter(|s| s.target == target)
            .filter_map(|s| s.ttft_ms)
            .fold(f64::INFINITY, f64::min)
    };
    assert!(ttft(0) >= 15.0 && ttft(1) >= 25.0, "{stdout}");

    // The link opens the same plan, as the page reads it.
    let link = stderr
        .lines()
        .find(|l| l.starts_with("http://127.0.0.1:8080/#plan="))
        .unwrap_or_else(|| panic!("{stderr}"));
    let fragment = link.split_once('#').unwrap().1;
    assert_eq!(Plan::from_link_fragment(fragment).unwrap(), plan);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_demo_runs_natively_from_flags() {
    let dir = scratch("flags-demo");
    let results = dir.join("results.json");
    let output = run(firsttoken()
        .args([
            "run",
            "--target",
            "demo:demo-llm",
            "-n",
            "3",
            "--warmup",
            "0",
        ])
        .args(["--spacing", "0.05", "-o"])
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let doc = import_json(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(doc.plan.targets[0].protocol, Protocol::Demo);
    assert_eq!(doc.samples.len(), 3);
    for sample in &doc.samples {
        // The steady demo answers after about 0.35 s, every time.
        let ttft = sample.ttft_ms.unwrap_or_else(|| panic!("{sample:?}"));
        assert!((150.0..1500.0).contains(&ttft), "{ttft}");
        assert!(sample.error.is_none());
    }
    assert!(!stdout.contains("replacing"), "{stdout}");
    // The same run again: the file already there is said to be replaced
    // before anything is sent.
    let output = run(firsttoken()
        .args([
            "run",
            "--target",
            "demo:demo-llm",
            "-n",
            "1",
            "--warmup",
            "0",
            "-o",
        ])
        .arg(&results));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let start = stdout
        .find("running 1 request over")
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        stdout[start..]
            .lines()
            .next()
            .unwrap()
            .ends_with("(replacing the file already there; -o names another)"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_answers_for_the_demo_from_flags() {
    let output = run(firsttoken().args(["check", "--target", "demo:demo-llm"]));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.starts_with("Demo (built in) · demo-llm: Connected: first token after "),
        "{stdout}"
    );
}

#[test]
fn plan_writes_the_plan_without_running_it() {
    let dir = scratch("flags-plan");
    let output = run(firsttoken().args([
        "plan",
        "--target",
        "ollama:qwen3:8b",
        "--target",
        "together:deepseek-ai/DeepSeek-V3",
        "--hours",
        "2",
        "--fidelity",
    ]));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let plan = Plan::from_json(&stdout).unwrap();
    assert_eq!(plan.targets[0].model, "qwen3:8b");
    assert_eq!(plan.targets[1].model, "deepseek-ai/DeepSeek-V3");
    assert_eq!(plan.spread_hours, Some(2.0));
    assert!(plan.jitter_s < plan.effective_spacing_s() / 2.0);
    assert_eq!(
        plan.fidelity.unwrap().reference.as_deref(),
        Some("Ollama (local) · qwen3:8b")
    );

    // A plan file becomes a link, and the link a file.
    let file = dir.join("plan.json");
    std::fs::write(&file, &stdout).unwrap();
    let output = run(firsttoken().arg("plan").arg(&file).arg("--print-link"));
    let (link, _) = texts(&output);
    assert!(link.starts_with("#plan="), "{link}");
    let output = run(firsttoken().arg("plan").arg(link.trim()));
    assert_eq!(
        Plan::from_json(&texts(&output).0).unwrap(),
        Plan::from_json(&stdout).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_flags_are_refused_with_exit_2_before_anything_is_sent() {
    for (args, expected) in [
        (
            &["plan", "--target", "opneai:gpt-4o"][..],
            "did you mean openai?",
        ),
        (
            &["plan", "--target", "custom:llama"][..],
            "custom needs the server's base URL",
        ),
        (
            &["plan", "--target", "custom:m@localhost:8000/v1"][..],
            "the base URL \"localhost:8000/v1\" has no scheme: add http:// or https://, \
             e.g. custom:m@http://localhost:8000/v1",
        ),
        (
            &["plan", "--target", "gpt-4o"][..],
            "PROVIDER:MODEL[@BASE_URL]",
        ),
        (&["plan"][..], "--target"),
        (
            &["run", "plan.json", "--target", "demo:x"][..],
            "cannot be used with",
        ),
        (
            &[
                "plan",
                "--target",
                "custom:m@http://u:secret@llm.example.com/v1",
            ][..],
            "--target custom:m (the 1st target): must not contain a user name",
        ),
        // A flag's error names the flag and the value as typed, not the
        // plan file's field.
        (&["plan", "--target", "demo:m", "-n", "0"][..], "-n 0: "),
        (
            &["plan", "--target", "demo:m", "--idle-gaps", "0,5"][..],
            "--idle-gaps 0,5: must list 1 to 12 different idle times",
        ),
        (
            &["plan", "--target", "demo:m", "--idle-gaps", "10,2m"][..],
            "\"2m\" is not a number of seconds",
        ),
        (
            &[
                "plan",
                "--target",
                "demo:m",
                "--idle-gaps",
                "1,5",
                "--warmup",
                "0",
            ][..],
            "--idle-gaps 1,5 with --warmup 0: needs at least one warm-up",
        ),
    ] {
        let output = run(firsttoken().args(args));
        let (stdout, stderr) = texts(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("secret"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_reader_that_closes_the_pipe_ends_the_output_quietly() {
    // `firsttoken providers | head -1`, with the reader gone before the
    // first line is written.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = firsttoken()
        .arg("providers")
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_hand_written_plan_naming_a_preset_is_filled_from_it() {
    let dir = scratch("hand-written");
    let path = dir.join("plan.json");
    std::fs::write(
        &path,
        r#"{"firsttoken_plan": 1, "targets": [{"provider": "deepseek", "model": "deepseek-chat"}]}"#,
    )
    .unwrap();
    let output = run(firsttoken().arg("plan").arg(&path));
    let (stdout, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let plan: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let target = &plan["targets"][0];
    assert_eq!(target["base_url"], "https://api.deepseek.com");
    assert_eq!(target["protocol"], "openai");
    assert_eq!(target["label"], "DeepSeek · deepseek-chat");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn providers_lists_each_preset_with_its_key_variable() {
    let output = run(firsttoken().arg("providers"));
    let (stdout, _) = texts(&output);
    assert!(output.status.success());
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("deepseek "))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert_eq!(lines[at], "deepseek (openai) · key FIRSTTOKEN_KEY_DEEPSEEK");
    assert_eq!(lines[at + 1], "    https://api.deepseek.com");
    assert!(
        lines[at + 2].starts_with("    browser access: "),
        "{}",
        lines[at + 2]
    );
    // Every line fits 100 columns (a Chinese character counts two), and
    // no word of a note is cut across lines.
    for lang in ["en", "zh-CN"] {
        let output = run(firsttoken().args(["providers", "--lang", lang]));
        let (stdout, _) = texts(&output);
        for line in stdout.lines() {
            let columns: usize = line
                .chars()
                .map(|c| {
                    if c.is_ascii() || c == '·' || c == '—' {
                        1
                    } else {
                        2
                    }
                })
                .sum();
            assert!(columns <= 100, "{lang}: {columns} columns: {line}");
        }
        let unlabelled = stdout.replace("浏览器访问：", "浏览器访问： ");
        let words: Vec<&str> = unlabelled.split_whitespace().collect();
        for preset in firsttoken_core::planning::presets::PRESETS {
            let note = if lang == "en" {
                preset.cors_note_en
            } else {
                preset.cors_note_zh
            };
            for word in note.split(' ').filter(|w| w.is_ascii() && !w.is_empty()) {
                assert!(words.contains(&word), "{lang}: {word:?} cut: {stdout}");
            }
        }
    }
    let output = run(firsttoken().args(["providers", "--json"]));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let ids: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"custom") && ids.contains(&"demo"), "{ids:?}");
}

//! Prompt sizes end to end: `firsttoken run` against the mock's prefill
//! scripts, then `firsttoken report`: each target's fitted rate against the
//! script's, the comparison, the cache saving, and a size over the context
//! window refused as such without stopping the run.

use firsttoken_core::planning::plan::Protocol;
use firsttoken_core::wire::sample::ErrorKind;
use serde_json::Value;

use super::support::{
    firsttoken, quick_plan, run, run_plan, run_plan_with, scratch, target, texts,
};

#[test]
fn prompt_sizes_measure_each_provider_s_prefill_rate_and_cache() {
    let mock = super::support::mock();
    let dir = scratch("prefill");
    // Two providers of one model `m` (the mock runs the part before the
    // `/`), ten times the rates so the run takes seconds.
    let mut fast = target(&mock, Protocol::OpenAi, "prefill@200000/m");
    fast.label = "fast".into();
    let mut slow = target(&mock, Protocol::Anthropic, "prefill-cached@60000/m");
    slow.label = "slow".into();
    let mut plan = quick_plan(vec![fast, slow], 54);
    plan.nonce = true;
    plan.prompt_sizes = Some(vec![128, 2_048, 8_192, 32_768, 65_536]);
    plan.prompt_cache_probe = true;
    plan.typical_prompt_tokens = Some(4_096);
    let csv = dir.join("results.csv");
    let ran = run_plan_with(&dir, &plan, |command| {
        command.arg("--csv").arg(&csv);
    })
    .succeeded();
    let results = ran.results.clone();

    let doc = ran.doc();
    assert_eq!(
        doc.samples.len(),
        108,
        "the refused size did not stop the run"
    );
    for sample in &doc.samples {
        let size = sample.sized_prompt.unwrap().tokens;
        if size == 65_536 {
            assert_eq!(
                sample.error.as_ref().map(|e| e.kind),
                Some(ErrorKind::ContextExceeded)
            );
        } else {
            assert!(sample.error.is_none(), "{sample:?}");
            // The mock counts the prompt as the app sized it.
            assert_eq!(sample.input_tokens, Some(size), "{sample:?}");
        }
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .ends_with(",prompt_size,prompt_repeat_of")
    );
    // Each request's line names the size it sent, and a cache-probe
    // repeat says so: "[12/108] fast request 5 at 2 048 tokens: ttft …".
    let lines: Vec<&str> = ran.stdout.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(lines.len(), doc.samples.len(), "{}", ran.stdout);
    for (line, sample) in lines.iter().zip(&doc.samples) {
        let sized = sample.sized_prompt.unwrap();
        let tokens = firsttoken_core::words::format::grouped(u64::from(sized.tokens));
        let said = match sized.repeat_of {
            Some(_) => format!(" at {tokens} tokens (cache repeat): "),
            None => format!(" at {tokens} tokens: "),
        };
        assert!(line.contains(&said), "{said:?} in {line}");
    }
    assert!(lines.iter().any(|l| l.contains("(cache repeat)")));

    let output = run(firsttoken().arg("report").arg(&results).arg("--json"));
    let (json, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let report: Value = serde_json::from_str(&json).unwrap();
    let prefill = &report["prefill"];
    for (index, truth) in [(0, 200_000.0), (1, 60_000.0)] {
        let target = &prefill["targets"][index];
        let rate = target["fit"]["rate_tokens_per_s"].as_f64().unwrap();
        assert!((rate / truth - 1.0).abs() < 0.10, "{rate} vs {truth}");
        assert_eq!(target["refused_sizes"], serde_json::json!([65_536]));
        assert_eq!(target["sizes"].as_array().unwrap().len(), 5);
    }
    assert_eq!(prefill["models"][0]["faster"], 0);
    // The cache of the slow provider: at 32 768 tokens, 32 768 cached
    // tokens not read at 60 000 tokens/s, 546 ms.
    let cache = prefill["targets"][1]["cache"].as_array().unwrap();
    let at_32k = cache.iter().find(|c| c["size"] == 32_768).unwrap();
    assert_eq!(at_32k["effect"], true);
    let saving = at_32k["saving_ms"].as_f64().unwrap();
    assert!((saving / 546.1 - 1.0).abs() < 0.25, "{saving}");
    assert_eq!(at_32k["cached_tokens"], 32_768.0);
    let plain = prefill["targets"][0]["cache"].as_array().unwrap();
    assert!(
        plain
            .iter()
            .all(|c| c["saving_ms"].as_f64().unwrap().abs() < 60.0)
    );

    let output = run(firsttoken().arg("report").arg(&results));
    let (text, _) = texts(&output);
    assert!(text.contains("Prompt size and prefill speed"), "{text}");
    assert!(
        text.contains("fast prefills") && text.contains("faster than slow"),
        "{text}"
    );
    assert!(text.contains("refused 65 536 tokens"), "{text}");
    assert!(text.contains("a repeated prompt starts"), "{text}");
    // The refused size's row says so, and no sentence names its label twice.
    let refused_row = text
        .lines()
        .find(|line| line.trim_start().starts_with("65 536"))
        .unwrap();
    assert!(
        refused_row.ends_with("refused: longer than the model's context window"),
        "{refused_row}"
    );
    assert!(!text.contains("collecting (0 of"), "{text}");
    assert!(
        !text.contains("fast: fast ")
            && !text.contains("slow: slow ")
            && !text.contains(" on slow"),
        "{text}"
    );
    // A refused size is not the service failing: no error rate rules a
    // provider out. Each size is judged on its own, and six first sends of
    // one size are too few for a verdict: the route waits for 20 (core's
    // routing tests rank by the typical size's prediction).
    assert!(!text.contains("no provider with"), "{text}");
    // The routing table's row of model `m`: no target, and why.
    let route = text[text.find("\nRouting table\n").expect("the routing table")..]
        .lines()
        .find(|line| line.starts_with("  m "))
        .expect("a row for model m");
    let cells: Vec<&str> = route.split("  ").filter(|c| !c.trim().is_empty()).collect();
    assert_eq!(
        cells.iter().map(|c| c.trim()).collect::<Vec<_>>(),
        ["m", "–", "–", "no provider has 20 successful samples"],
        "{route}"
    );
    // The headline is the measured size nearest the typical one, and says so.
    assert!(
        text.contains(
            "the first sends at 2 048 tokens, the measured size nearest your typical 4 096 tokens"
        ),
        "{text}"
    );
    // The plan names a typical size: the prompt-size block reads TTFT
    // there from every request of the measured sizes, as the route does.
    assert!(
        text.contains("to the first token at 4 096 input tokens")
            && text.contains("the median of every request of the measured sizes"),
        "{text}"
    );
    println!("{text}");

    let output = run(firsttoken()
        .arg("report")
        .arg(&results)
        .args(["--config", "litellm"]));
    let (yaml, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    // Six first sends per size: no target is eligible yet, and the config
    // says why rather than routing on a pool of sizes.
    assert!(yaml.contains("# Left out: fast: not eligible"), "{yaml}");
    assert!(yaml.contains("model_list: []"), "{yaml}");

    // report --html: the same block, every string from the file escaped,
    // each size's figures those of `report --json`.
    let mut hostile: Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    hostile["plan"]["targets"][1]["label"] = "slow<i>".into();
    let hostile_path = dir.join("hostile.json");
    std::fs::write(&hostile_path, hostile.to_string()).unwrap();
    let html_path = dir.join("report.html");
    let output = run(firsttoken()
        .arg("report")
        .arg(&hostile_path)
        .arg("--html")
        .arg(&html_path));
    let (_, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let html = std::fs::read_to_string(&html_path).unwrap();
    let start = html
        .find("<section class=\"prefill\">")
        .expect("a prompt-size section");
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    assert!(
        section.contains("<h2 id=\"prefill\">Prompt size and prefill speed</h2>"),
        "{section}"
    );
    assert!(section.contains("<h3>slow&lt;i&gt;</h3>"), "{section}");
    assert!(!section.contains("<i>"), "{section}");
    for index in 0..2 {
        let table = &section[section
            .find(&format!(
                "<table class=\"prefill-sizes stack\" data-target=\"{index}\">"
            ))
            .unwrap()..];
        let table = &table[..table.find("</table>").unwrap()];
        let sizes = prefill["targets"][index]["sizes"].as_array().unwrap();
        assert_eq!(table.matches("<tr data-size=").count(), sizes.len());
        for size in sizes {
            let row = &table[table
                .find(&format!("<tr data-size=\"{}\">", size["size"]))
                .unwrap()..];
            let row = &row[..row.find("</tr>").unwrap()];
            let values: Vec<f64> = row
                .split("data-value=\"")
                .skip(1)
                .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
                .collect();
            let median = size["ttft_ms"]["median"].as_f64();
            let p95 = size["ttft_ms"]["p95"].as_f64();
            let expected: Vec<f64> = [
                size["size"].as_f64(),
                size["input_tokens"].as_f64(),
                size["requests"].as_f64(),
                median,
                p95,
            ]
            .into_iter()
            .flatten()
            .collect();
            assert_eq!(values, expected, "{row}");
        }
    }
    assert!(section.contains("prefills"), "{section}");
    assert!(section.contains("faster than slow&lt;i&gt;"), "{section}");
    assert!(section.contains("refused 65 536 tokens"), "{section}");
    assert!(section.contains("a repeated prompt starts"), "{section}");
}

#[test]
fn a_provider_that_reports_no_usage_gets_a_prefill_fit_marked_estimated() {
    let started = std::time::Instant::now();
    let mock = super::support::mock();
    let dir = scratch("prefill-nousage");
    // A local server that streams no usage (llama.cpp's OpenAI-compatible
    // one) beside a provider that counts its input, one model `m`.
    let mut local = target(&mock, Protocol::OpenAi, "prefill-nousage@100000/m");
    local.label = "local".into();
    let mut counted = target(&mock, Protocol::Anthropic, "prefill@30000/m");
    counted.label = "counted".into();
    // Ten first sends of each size per target: the runner sends one
    // request at a time, about 0.4 s each here.
    let mut plan = quick_plan(vec![local, counted], 30);
    plan.nonce = true;
    plan.prompt_sizes = Some(vec![128, 2_048, 8_192]);
    let ran = run_plan(&dir, &plan).succeeded();
    let doc = ran.doc();
    assert_eq!(doc.samples.len(), 60);
    for sample in &doc.samples {
        assert!(sample.error.is_none(), "{sample:?}");
        let size = sample.sized_prompt.unwrap().tokens;
        let reported = (sample.target == 1).then_some(size);
        assert_eq!(sample.input_tokens, reported, "{sample:?}");
    }

    let output = run(firsttoken().arg("report").arg(&ran.results).arg("--json"));
    let (json, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let report: Value = serde_json::from_str(&json).unwrap();
    // The fit of the provider that counted nothing stands on the synthetic
    // prompt's own counts, and says so; its neighbour's does not.
    for (index, truth, estimated) in [(0, 100_000.0, true), (1, 30_000.0, false)] {
        let fitted = &report["prefill"]["targets"][index];
        assert_eq!(fitted["estimated_tokens"], estimated, "{fitted}");
        let rate = fitted["fit"]["rate_tokens_per_s"].as_f64().unwrap();
        println!("target {index}: fitted {rate:.0} input tokens/s, scripted {truth:.0}");
        assert!((rate / truth - 1.0).abs() < 0.15, "{rate} vs {truth}");
    }

    let output = run(firsttoken().arg("report").arg(&ran.results));
    let (text, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let estimated: Vec<&str> = text
        .lines()
        .filter(|line| {
            line.contains("input tokens estimated from the synthetic prompt's own count")
        })
        .collect();
    assert!(!estimated.is_empty(), "{text}");
    assert!(
        estimated
            .iter()
            .all(|line| line.trim_start().starts_with("local: prefills")
                && !line.contains("counted")),
        "{estimated:?}"
    );
    println!("{text}");
    println!("took {:.1} s", started.elapsed().as_secs_f64());
}

#[test]
fn a_steady_provider_reads_solid_at_every_size() {
    let started = std::time::Instant::now();
    let mock = super::support::mock();
    let dir = scratch("prefill-solid");
    let mut steady = target(&mock, Protocol::OpenAi, "prefill@200000/m");
    steady.label = "steady".into();
    // Three sizes in turn, 20 first sends of each: the fewest a verdict
    // takes (VERDICT_MIN_SAMPLES), so every size is judged.
    let mut plan = quick_plan(vec![steady], 60);
    plan.nonce = true;
    plan.prompt_sizes = Some(vec![128, 2_048, 8_192]);
    let ran = run_plan(&dir, &plan).succeeded();

    let output = run(firsttoken().arg("report").arg(&ran.results).arg("--json"));
    let (json, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    let report: Value = serde_json::from_str(&json).unwrap();
    // The headline is the smallest size's first sends, and each size is
    // judged on its own: TTFT growing with the prompt is no cold start.
    let headline = &report["targets"][0];
    assert_eq!(headline["verdict"], "solid", "{headline}");
    assert_eq!(headline["ttft_ms"]["n"], 20, "{headline}");
    let population = &report["population"];
    assert_eq!(population["prompt_size"], 128, "{population}");
    let sizes = population["by_size"][0]["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 3, "{population}");
    for size in sizes {
        assert_eq!(size["judgement"]["verdict"], "solid", "{size}");
    }

    let output = run(firsttoken().arg("report").arg(&ran.results));
    let (text, stderr) = texts(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(text.contains("steady: solid at every size"), "{text}");
    assert!(!text.contains("cold starts —"), "{text}");
    let population_line = text
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("Prompt sizes: "))
        .unwrap_or_else(|| panic!("no population sentence: {text}"));
    assert!(
        population_line.contains("are the first sends at 128 tokens, the smallest size"),
        "{population_line}"
    );
    println!("{text}");
    println!("took {:.1} s", started.elapsed().as_secs_f64());
}

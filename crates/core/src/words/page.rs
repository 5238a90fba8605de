//! The page's words in English and Simplified Chinese (the page reads them
//! as `ui::model::i18n`; the chart crate labels its charts with them).
//!
//! Every text is a field of [`Texts`], so a language that misses one does not
//! compile; there is no fallback that could leave English in the Chinese UI.
//! Numbers and dates are formatted here too, per language.

pub use crate::base::lang::Lang;
use crate::base::lang::texts;

/// The page's texts for each language (inherent methods of core's one
/// [`Lang`]: the words are the page's, the language type is shared).
impl Lang {
    /// This language's texts.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn texts(self) -> &'static Texts {
        match self {
            Self::En => &EN,
            Self::ZhCn => &ZH_CN,
        }
    }

    /// This language's dashboard texts.
    #[cfg_attr(target_arch = "wasm32", inline)]
    pub fn dashboard_texts(self) -> &'static DashboardTexts {
        match self {
            Self::En => &DASHBOARD_EN,
            Self::ZhCn => &DASHBOARD_ZH_CN,
        }
    }
}

texts! {
    /// Every text the page shows.
    Texts {
        tagline,
        language,
        nav_setup,
        nav_run,
        nav_results,
        nav_history,
        targets,
        provider,
        label,
        base_url,
        model,
        protocol,
        add_target,
        demo_steady,
        demo_cold_starts,
        demo_degraded,
        remove,
        list_models,
        keys,
        api_key_for,
        no_key_needed,
        test_connection,
        testing,
        connection_ok,
        connection_no_token,
        remember_keys,
        remember_warning,
        forget_keys,
        keys_forgotten,
        plan,
        requests_per_target,
        warmup_per_target,
        spacing_s,
        jitter_s,
        spread_hours,
        spread_hint,
        timeout_s,
        prompt,
        nonce,
        max_tokens,
        temperature,
        reasoning_first,
        peak_start,
        peak_end,
        peak_tz,
        peak_tz_hint,
        confirm_hosts_title,
        confirm_hosts_intro,
        confirm_hosts_send,
        cancel,
        custom_host_of,
        ttft_budget,
        ttft_budget_hint,
        idle_gaps,
        idle_gaps_hint,
        idle_note,
        typical_gap,
        dedicated_usd_per_hour,
        prompt_sizes,
        prompt_sizes_hint,
        prompt_sizes_note,
        typical_prompt_tokens,
        prompt_cache_probe,
        recommended_timeout,
        goodput,
        start,
        pause,
        resume,
        stop,
        copy_plan_link,
        link_copied,
        save_plan,
        load_plan,
        import_results,
        export_json,
        export_csv,
        export_routing,
        first_try,
        inside_stream,
        cost,
        export_litellm,
        export_openrouter,
        pin_openrouter,
        price_input,
        price_output,
        price_cached,
        price_hint,
        openrouter_provider,
        download_png,
        plan_errors,
        warnings,
        progress,
        eta,
        status_running,
        status_paused,
        status_stopped,
        status_finished,
        target,
        done,
        errors,
        median,
        p95,
        p99,
        cv,
        verdict,
        error_rate,
        samples,
        rank,
        latest_errors,
        provisional,
        provisional_hint,
        collecting_hint,
        live_timeline,
        latest_samples,
        time,
        ttft_or_error,
        warmup_short,
        prompt_cache,
        cache_reported,
        cache_hits,
        cache_hit_median,
        cache_miss_median,
        cache_note,
        cache_note_nonce,
        hidden_notice,
        no_run,
        no_results,
        results_for_model,
        consistency,
        best_provider,
        cold_tail,
        no_tail,
        routing,
        reason,
        time_of_day,
        hour,
        peak,
        off_peak,
        charts,
        chart_histogram,
        chart_ecdf,
        chart_timeline,
        chart_spread,
        chart_hourly,
        axis_ttft_ms,
        axis_share,
        axis_minutes,
        axis_hour,
        legend_median,
        legend_p95,
        legend_error,
        legend_tail,
        no_data,
        history,
        no_history,
        open,
        delete,
        resume_run,
        resume_offer,
        offer_requests,
        offer_measured,
        started,
        warmup_note,
        footer,
        demo_note,
        p95_interval,
        imported,
        seconds,
        minutes,
        hours,
        fidelity_check,
        fidelity_hint,
        fidelity_reference,
        fidelity,
        fidelity_title,
        fidelity_note,
        probe_pass_rate,
        tool_calls_valid,
        trigger_f1,
        prompt_tokens_equal,
        probe_grid,
        probe_grid_hint,
        probe,
        probe_short,
        question,
        right_answer,
        replies,
        reply_passed,
        reply_failed,
        close,
    }
}

/// English.
pub(crate) static EN: Texts = Texts {
    tagline: "Time-to-first-token, measured the right way, in your browser",
    language: "Language",
    nav_setup: "Setup",
    nav_run: "Run",
    nav_results: "Results",
    nav_history: "History",
    targets: "Targets",
    provider: "Provider",
    label: "Label",
    base_url: "Base URL",
    model: "Model",
    protocol: "Protocol",
    add_target: "Add target",
    demo_steady: "Demo A · steady",
    demo_cold_starts: "Demo B · cold starts",
    demo_degraded: "Demo C · fast, answers differ",
    remove: "Remove",
    list_models: "List models",
    keys: "API keys",
    api_key_for: "API key for",
    no_key_needed: "no key needed",
    test_connection: "Test connection",
    testing: "Testing…",
    connection_ok: "Connected: first token after",
    connection_no_token: "the stream ended without a token",
    remember_keys: "Remember keys on this device",
    remember_warning: "Keys are then stored in this browser's localStorage for this site. On GitHub Pages every project site of the same user shares one origin, so any of them could read them. Leave this off on shared machines.",
    forget_keys: "Forget keys",
    keys_forgotten: "Keys forgotten on this device.",
    plan: "Plan",
    requests_per_target: "Requests per target",
    warmup_per_target: "Warm-up requests per target",
    spacing_s: "Spacing between requests (s)",
    jitter_s: "Jitter ± (s)",
    spread_hours: "Spread over hours",
    spread_hint: "empty: use the spacing",
    timeout_s: "Timeout (s)",
    prompt: "Prompt",
    nonce: "Add a nonce to each prompt (defeats prompt caching)",
    max_tokens: "Max tokens",
    temperature: "Temperature",
    reasoning_first: "Count reasoning as the first token",
    peak_start: "Peak hours from",
    peak_end: "Peak hours until",
    peak_tz: "Peak hours' time zone (empty: this browser's)",
    peak_tz_hint: "e.g. Asia/Shanghai, +08:00",
    confirm_hosts_title: "Send your keys to these hosts?",
    confirm_hosts_intro: "This plan came from a link. Before anything is sent: the keys you entered will go to these hosts, which this device has not sent a key to before. Start only if each host is the one you gave that key for.",
    confirm_hosts_send: "Send keys and start",
    cancel: "Cancel",
    custom_host_of: "custom host, not",
    ttft_budget: "TTFT budget (ms)",
    ttft_budget_hint: "empty: no budget",
    idle_gaps: "Idle gaps to measure (s)",
    idle_gaps_hint: "e.g. 10, 60, 300, 900",
    idle_note: "To learn after how long idle a target goes cold: before each measured request it stays idle, from this page, for one of these gaps, each gap equally often (at least 15 requests per gap). Empty: requests at the spacing.",
    typical_gap: "Your typical gap between requests (s)",
    dedicated_usd_per_hour: "Dedicated endpoint, $ per hour",
    prompt_sizes: "Prompt sizes to measure (tokens)",
    prompt_sizes_hint: "e.g. 128, 1024, 8192",
    prompt_sizes_note: "To see how TTFT grows with the prompt (the prefill): each target sends a made-up prompt of each size in turn, sharing its requests among the sizes. The routing ranks providers by the TTFT at your typical size. Empty: the plan's prompt alone.",
    typical_prompt_tokens: "Your typical prompt size (tokens)",
    prompt_cache_probe: "Send each prompt of 1\u{a0}024 tokens or more twice, to see whether the provider caches it",
    recommended_timeout: "First-token timeout to configure",
    goodput: "Within the TTFT budget",
    start: "Start",
    pause: "Pause",
    resume: "Resume",
    stop: "Stop",
    copy_plan_link: "Copy plan link",
    link_copied: "Plan link copied. It holds no key.",
    save_plan: "Save plan",
    load_plan: "Load plan",
    import_results: "Import results",
    export_json: "Export JSON",
    export_csv: "Export CSV",
    export_routing: "Export routing JSON",
    first_try: "First try and rate limits",
    inside_stream: "Inside the stream: gaps, stalls, buffering",
    cost: "Cost at the plan's prices",
    export_litellm: "Export LiteLLM config",
    export_openrouter: "Export OpenRouter preferences",
    pin_openrouter: "Pin the order (no fallbacks)",
    price_input: "Input, $ per million tokens",
    price_output: "Output, $ per million tokens",
    price_cached: "Cached input, $ per million tokens",
    price_hint: "Optional. Presets carry no prices, because prices change: copy them from the provider's page.",
    openrouter_provider: "OpenRouter upstream (provider slug, e.g. deepinfra)",
    download_png: "Download PNG",
    plan_errors: "Fix these before starting",
    warnings: "Worth knowing",
    progress: "Progress",
    eta: "ETA",
    status_running: "Running",
    status_paused: "Paused",
    status_stopped: "Stopped",
    status_finished: "Finished",
    target: "Target",
    done: "Done",
    errors: "Errors",
    median: "Median TTFT",
    p95: "p95 TTFT",
    p99: "p99 TTFT",
    cv: "CV",
    verdict: "Verdict",
    error_rate: "Error rate",
    samples: "Samples",
    rank: "Rank",
    latest_errors: "Latest errors",
    provisional: "provisional",
    provisional_hint: "the verdict may still change: the figures have not yet reached the plan's sample count (or 75)",
    collecting_hint: "no verdict before 20 successful samples: the CV of fewer says little",
    live_timeline: "TTFT as the samples arrive",
    latest_samples: "Latest samples",
    time: "Time",
    ttft_or_error: "TTFT or error",
    warmup_short: "warm-up",
    prompt_cache: "Prompt cache",
    cache_reported: "Samples with a cache figure",
    cache_hits: "Cache hits",
    cache_hit_median: "Median TTFT, hits",
    cache_miss_median: "Median TTFT, misses",
    cache_note: "Providers report in their usage how many prompt tokens came from their prompt cache (cached_tokens in the exports). A hit skips part of the prompt's processing, so its TTFT differs from a miss; the medians show by how much. \"Add a nonce to each prompt\" in the plan keeps the cache out.",
    cache_note_nonce: "Providers report in their usage how many prompt tokens came from their prompt cache (cached_tokens in the exports). This run put a nonce at the start of every prompt, so no request could reuse another's prompt: the cached tokens are what every request shares with the others before it, such as the provider's own system prompt or chat template.",
    hidden_notice: "The tab was hidden while some requests were due: the browser may have delayed them. Their planned and actual send times are in the export.",
    no_run: "No run yet. Set up a plan and press Start.",
    no_results: "No results yet: run a plan or import a results file.",
    results_for_model: "Model",
    consistency: "Consistency",
    best_provider: "Best provider",
    cold_tail: "Cold-start tail",
    no_tail: "no separate slow tail",
    routing: "Routing table",
    reason: "Reason",
    time_of_day: "Time of day",
    hour: "Hour",
    peak: "Peak",
    off_peak: "Off-peak",
    charts: "Charts",
    chart_histogram: "TTFT distribution",
    chart_ecdf: "Share of requests faster than",
    chart_timeline: "TTFT over the run",
    chart_spread: "Spread per target",
    chart_hourly: "TTFT by hour of day",
    axis_ttft_ms: "TTFT (ms)",
    axis_share: "requests (%)",
    axis_minutes: "time since start (min)",
    axis_hour: "local hour",
    legend_median: "median",
    legend_p95: "p95",
    legend_error: "error",
    legend_tail: "tail",
    no_data: "no data",
    history: "Run history",
    no_history: "No finished or interrupted runs on this device.",
    open: "Open",
    delete: "Delete",
    resume_run: "Resume",
    resume_offer: "A run was interrupted. Resume it where it stopped?",
    offer_requests: "requests",
    offer_measured: "measured per target:",
    started: "Started",
    warmup_note: "Warm-up requests are kept in the export and left out of every statistic.",
    footer: "Keys stay in this browser and go only to their own provider. Nothing is sent anywhere else.",
    demo_note: "The Demo provider runs inside the page: no key, no network. Press Start to see a real run.",
    p95_interval: "p95, 95 % intervals:",
    imported: "Imported",
    seconds: "s",
    minutes: "min",
    hours: "h",
    fidelity_check: "Check fidelity (same answers?)",
    fidelity_hint: "30 short probes, each with one right answer a rule checks (arithmetic, JSON, Chinese, tool calls…), go to every target on the run's schedule; each target's answers are compared with the reference's.",
    fidelity_reference: "Reference",
    fidelity: "Fidelity",
    fidelity_title: "Fidelity: the same answers?",
    fidelity_note: "Probes are checked by rules, not by a model. A target that differs from the reference gives other answers; the check cannot tell why.",
    probe_pass_rate: "Probe replies passed",
    tool_calls_valid: "Valid tool calls",
    trigger_f1: "Tool-call trigger F1",
    prompt_tokens_equal: "Same prompt_tokens",
    probe_grid: "Probe by probe",
    probe_grid_hint: "✓ every reply passed, ✗ none passed, 1/2 one of two passed, – no reply. Select a cell to read its replies.",
    probe: "Probe",
    probe_short: "probe",
    question: "Question",
    right_answer: "A right answer",
    replies: "Replies",
    reply_passed: "passed",
    reply_failed: "failed",
    close: "Close",
};

/// Simplified Chinese.
pub(crate) static ZH_CN: Texts = Texts {
    tagline: "在浏览器里用正确的方法测量首 Token 延迟",
    language: "语言",
    nav_setup: "设置",
    nav_run: "运行",
    nav_results: "结果",
    nav_history: "历史",
    targets: "测试目标",
    provider: "服务商",
    label: "名称",
    base_url: "接口地址",
    model: "模型",
    protocol: "协议",
    add_target: "添加目标",
    demo_steady: "演示 A · 稳定",
    demo_cold_starts: "演示 B · 冷启动",
    demo_degraded: "演示 C · 快，但回答不同",
    remove: "移除",
    list_models: "列出模型",
    keys: "API 密钥",
    api_key_for: "API 密钥：",
    no_key_needed: "无需密钥",
    test_connection: "测试连接",
    testing: "测试中…",
    connection_ok: "连接成功，首 Token 用时",
    connection_no_token: "流已结束，但没有收到任何 Token",
    remember_keys: "在此设备上记住密钥",
    remember_warning: "密钥将保存在本浏览器中此站点的 localStorage 里。在 GitHub Pages 上，同一用户的所有项目站点共用一个源，任何一个都能读取它。公用电脑上请不要勾选。",
    forget_keys: "清除密钥",
    keys_forgotten: "已清除此设备上保存的密钥。",
    plan: "测试计划",
    requests_per_target: "每个目标的请求数",
    warmup_per_target: "每个目标的预热请求数",
    spacing_s: "请求间隔（秒）",
    jitter_s: "随机抖动 ±（秒）",
    spread_hours: "分散到多少小时",
    spread_hint: "留空则按间隔发送",
    timeout_s: "超时（秒）",
    prompt: "提示词",
    nonce: "每个提示词附加随机串（避免提示词缓存）",
    max_tokens: "最大 Token 数",
    temperature: "温度",
    reasoning_first: "把推理内容算作首 Token",
    peak_start: "高峰时段起",
    peak_end: "高峰时段止",
    peak_tz: "高峰时段所在时区（留空则用本浏览器的）",
    peak_tz_hint: "如 Asia/Shanghai、+08:00",
    confirm_hosts_title: "要把密钥发送到这些主机吗？",
    confirm_hosts_intro: "这个计划来自一个链接。发送任何请求之前请确认：你填写的密钥将发往下列主机，本设备此前从未向它们发送过密钥。只有当每个主机都正是你申请该密钥的那一家时，才开始运行。",
    confirm_hosts_send: "发送密钥并开始",
    cancel: "取消",
    custom_host_of: "自定义主机，不是",
    ttft_budget: "首个 Token 时延预算（毫秒）",
    ttft_budget_hint: "留空则不设预算",
    idle_gaps: "要测量的空闲时长（秒）",
    idle_gaps_hint: "如 10, 60, 300, 900",
    idle_note: "用来了解目标空闲多久后会变冷：每个计入统计的请求发出前，该目标在本页面这边空闲其中一个时长，各时长次数相同（每个时长至少 15 个请求）。留空则按间隔发送。",
    typical_gap: "你的请求通常间隔（秒）",
    dedicated_usd_per_hour: "专用端点价格（美元/小时）",
    prompt_sizes: "要测量的提示词长度（Token）",
    prompt_sizes_hint: "如 128, 1024, 8192",
    prompt_sizes_note: "用来了解首个 Token 时延如何随提示词变长而增加（预填充）：每个目标依次发送各长度的合成提示词，各长度平分该目标的请求数。路由按你的典型提示词长度下的首个 Token 时延为服务商排序。留空则只发送计划的提示词。",
    typical_prompt_tokens: "你的典型提示词长度（Token）",
    prompt_cache_probe: "1\u{a0}024 Token 及以上的提示词各发送两次，看服务商是否缓存",
    recommended_timeout: "建议配置的首个 Token 超时",
    goodput: "预算内完成的比例",
    start: "开始",
    pause: "暂停",
    resume: "继续",
    stop: "停止",
    copy_plan_link: "复制计划链接",
    link_copied: "已复制计划链接，其中不含密钥。",
    save_plan: "保存计划",
    load_plan: "载入计划",
    import_results: "导入结果",
    export_json: "导出 JSON",
    export_csv: "导出 CSV",
    export_routing: "导出路由表 JSON",
    first_try: "首次请求与限流",
    inside_stream: "流内：间隔、停顿与缓冲",
    cost: "按计划价格计算的费用",
    export_litellm: "导出 LiteLLM 配置",
    export_openrouter: "导出 OpenRouter 偏好",
    pin_openrouter: "固定顺序（不回退）",
    price_input: "输入，美元/百万令牌",
    price_output: "输出，美元/百万令牌",
    price_cached: "缓存输入，美元/百万令牌",
    price_hint: "可选。预设不带价格，因为价格会变：请从服务商的价格页复制。",
    openrouter_provider: "OpenRouter 上游（服务商 slug，例如 deepinfra）",
    download_png: "下载 PNG",
    plan_errors: "开始前请先修正",
    warnings: "注意事项",
    progress: "进度",
    eta: "预计剩余",
    status_running: "运行中",
    status_paused: "已暂停",
    status_stopped: "已停止",
    status_finished: "已完成",
    target: "目标",
    done: "已完成",
    errors: "错误",
    median: "TTFT 中位数",
    p95: "TTFT p95",
    p99: "TTFT p99",
    cv: "变异系数",
    verdict: "结论",
    error_rate: "错误率",
    samples: "样本数",
    rank: "排名",
    latest_errors: "最近的错误",
    provisional: "暂定",
    provisional_hint: "结论可能还会变化：样本数尚未达到计划的请求数（或 75 个）",
    collecting_hint: "成功样本不足 20 个时不给出结论：样本太少时变异系数说明不了什么",
    live_timeline: "实时 TTFT",
    latest_samples: "最近的样本",
    time: "时间",
    ttft_or_error: "TTFT 或错误",
    warmup_short: "预热",
    prompt_cache: "提示词缓存",
    cache_reported: "报告了缓存的样本",
    cache_hits: "命中缓存",
    cache_hit_median: "命中时 TTFT 中位数",
    cache_miss_median: "未命中时 TTFT 中位数",
    cache_note: "服务商会在用量信息中报告有多少提示词 Token 来自提示词缓存（导出文件中的缓存 Token 数）。命中缓存的请求跳过了部分提示词处理，首 Token 时间与未命中时不同，两个中位数显示差多少。在计划中勾选“每个提示词附加随机串”即可避开缓存。",
    cache_note_nonce: "服务商会在用量信息中报告有多少提示词 Token 来自提示词缓存（导出文件中的缓存 Token 数）。本次运行在每个提示词开头都加了随机串，任何请求都无法复用其他请求的提示词：这里的缓存 Token 是每个请求都与之前请求共有的部分，例如服务商自己的系统提示词或对话模板。",
    hidden_notice: "部分请求到期时标签页处于后台，浏览器可能推迟了它们。导出文件里记录了计划发送时间和实际发送时间。",
    no_run: "还没有运行。设置好计划后点击“开始”。",
    no_results: "还没有结果：运行一个计划，或导入结果文件。",
    results_for_model: "模型",
    consistency: "一致性",
    best_provider: "最佳服务商",
    cold_tail: "冷启动长尾",
    no_tail: "没有单独的慢速长尾",
    routing: "路由表",
    reason: "理由",
    time_of_day: "时段",
    hour: "小时",
    peak: "高峰",
    off_peak: "非高峰",
    charts: "图表",
    chart_histogram: "TTFT 分布",
    chart_ecdf: "快于某一延迟的请求占比",
    chart_timeline: "运行过程中的 TTFT",
    chart_spread: "各目标的离散程度",
    chart_hourly: "按小时的 TTFT",
    axis_ttft_ms: "TTFT（毫秒）",
    axis_share: "请求占比（%）",
    axis_minutes: "开始后的时间（分钟）",
    axis_hour: "本地时间（时）",
    legend_median: "中位数",
    legend_p95: "p95",
    legend_error: "错误",
    legend_tail: "长尾",
    no_data: "无数据",
    history: "运行历史",
    no_history: "此设备上没有已完成或中断的运行。",
    open: "打开",
    delete: "删除",
    resume_run: "继续运行",
    resume_offer: "有一次运行被中断了。要从中断处继续吗？",
    offer_requests: "个请求",
    offer_measured: "每个目标已测量：",
    started: "开始于",
    warmup_note: "预热请求会保留在导出文件中，但不计入任何统计。",
    footer: "密钥只保存在本浏览器中，只发送给对应的服务商，不会发往任何其他地方。",
    demo_note: "演示服务商在页面内运行：无需密钥，也不联网。点击“开始”即可看到一次真实的运行。",
    p95_interval: "p95 的 95 % 置信区间：",
    imported: "已导入",
    seconds: "秒",
    minutes: "分钟",
    hours: "小时",
    fidelity_check: "检查保真度（回答是否相同？）",
    fidelity_hint: "30 个短探针，每个只有一个可由规则核对的正确答案（算术、JSON、中文、工具调用等），按本次运行的时间表发给每个目标；每个目标的回答都与参照目标的对比。",
    fidelity_reference: "参照目标",
    fidelity: "保真度",
    fidelity_title: "保真度：回答是否相同？",
    fidelity_note: "探针由规则核对，不依赖模型评判。与参照不同的目标给出了不同的回答；检查无法判断原因。",
    probe_pass_rate: "探针回答通过",
    tool_calls_valid: "有效工具调用",
    trigger_f1: "工具调用触发 F1",
    prompt_tokens_equal: "提示词 Token 数相同",
    probe_grid: "逐个探针",
    probe_grid_hint: "✓ 全部回答通过，✗ 全部未通过，1/2 表示两个回答中通过一个，– 没有回答。点选单元格可查看回答。",
    probe: "探针",
    probe_short: "探针",
    question: "问题",
    right_answer: "正确答案示例",
    replies: "回答",
    reply_passed: "通过",
    reply_failed: "未通过",
    close: "关闭",
};

pub use crate::words::format::{format_duration, format_ms, format_pct};

/// An epoch time as local "YYYY-MM-DD HH:MM", given the local UTC offset.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_epoch(epoch_ms: f64, tz_offset_min: i32) -> String {
    let local_s = (epoch_ms / 1000.0).floor() as i64 + i64::from(tz_offset_min) * 60;
    let days = local_s.div_euclid(86_400);
    let secs = local_s.rem_euclid(86_400);
    let (year, month, day) = crate::base::calendar::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        secs / 3600,
        (secs % 3600) / 60
    )
}

/// A local wall-clock time, "14:05:09", for lists of recent requests.
#[cfg_attr(target_arch = "wasm32", inline)]
pub fn format_clock(epoch_ms: f64, tz_offset_min: i32) -> String {
    let local_s = (epoch_ms / 1000.0).floor() as i64 + i64::from(tz_offset_min) * 60;
    let secs = local_s.rem_euclid(86_400);
    format!(
        "{:02}:{:02}:{:02}",
        secs / 3600,
        (secs % 3600) / 60,
        secs % 60
    )
}

texts! {
    /// The dashboard's words (`?results=`).
    DashboardTexts {
        nav_dashboard,
        title,
        read_only,
        loading,
        files_read,
        sources,
        time_range,
        vantages,
        requests,
        last_sample,
        failed_files,
        no_data_loaded,
        windows,
        window_24h,
        window_72h,
        window_7d,
        window_hint,
        fidelity_days,
        fidelity_days_hint,
        day,
        availability,
        range,
        range_7d,
        range_30d,
        range_90d,
        range_all,
        charts,
        chart_daily,
        chart_errors,
        chart_availability,
        chart_vantages,
        chart_hour,
        hour_utc,
        axis_error_rate,
        axis_availability,
        comparison,
        vantage,
        days,
        no_vantage,
    }
}

/// The dashboard in English.
pub(crate) static DASHBOARD_EN: DashboardTexts = DashboardTexts {
    nav_dashboard: "Dashboard",
    title: "Monitor dashboard",
    read_only: "read-only: published results",
    loading: "Loading published results",
    files_read: "files read",
    sources: "Sources",
    time_range: "Time range",
    vantages: "Vantages",
    requests: "Requests",
    last_sample: "Newest sample",
    failed_files: "Files that could not be loaded",
    no_data_loaded: "No file could be loaded, so there is nothing to show.",
    windows: "Rolling windows, ending at the newest sample",
    window_24h: "last 24 hours",
    window_72h: "last 72 hours",
    window_7d: "last 7 days",
    window_hint: "Each cell: median TTFT · p95; the CV and the verdict, by the results' own rule; then successful requests (n) of all requests and the error rate, all vantages together.",
    fidelity_days: "Fidelity: probe replies passed per day",
    fidelity_days_hint: "The monitor's plan includes the fidelity check: each row is one target's probe replies of one UTC day that passed their rule, with a Wilson 95 % interval. A fall shows a change in how the provider serves the model; it cannot say why.",
    day: "Day (UTC)",
    availability: "availability",
    range: "Charts and tables below cover",
    range_7d: "7 days",
    range_30d: "30 days",
    range_90d: "90 days",
    range_all: "all data",
    charts: "Over time",
    chart_daily: "TTFT per day: median (solid) and p95 (dashed)",
    chart_errors: "Error rate per day",
    chart_availability: "Availability per day: hours with at least one answer",
    chart_vantages: "Vantages compared",
    chart_hour: "Hour of day (UTC)",
    hour_utc: "hour (UTC)",
    axis_error_rate: "failed requests (%)",
    axis_availability: "hours answered (%)",
    comparison: "Each target from each vantage",
    vantage: "Vantage",
    days: "days",
    no_vantage: "(none)",
};

/// The dashboard in Simplified Chinese.
pub(crate) static DASHBOARD_ZH_CN: DashboardTexts = DashboardTexts {
    nav_dashboard: "监控面板",
    title: "监控面板",
    read_only: "只读：已发布的结果",
    loading: "正在加载已发布的结果",
    files_read: "个文件已读取",
    sources: "来源",
    time_range: "时间范围",
    vantages: "测量地点",
    requests: "请求数",
    last_sample: "最新样本",
    failed_files: "无法加载的文件",
    no_data_loaded: "没有任何文件加载成功，因此没有可显示的内容。",
    windows: "滚动时间窗口（截至最新样本）",
    window_24h: "最近 24 小时",
    window_72h: "最近 72 小时",
    window_7d: "最近 7 天",
    window_hint: "每格：TTFT 中位数 · p95；变异系数（CV）与结论，规则与结果页相同；其下为成功请求数 / 全部请求数及错误率，所有测量地点合计。",
    fidelity_days: "保真检查：每天通过的探针回答",
    fidelity_days_hint: "监测计划包含保真检查：每行是一个目标在一个 UTC 日内通过规则的探针回答数，附 95 % 置信区间。通过率下降说明服务商提供该模型的方式有了变化，但无法说明原因。",
    day: "日期（UTC）",
    availability: "可用率",
    range: "以下图表和表格覆盖",
    range_7d: "7 天",
    range_30d: "30 天",
    range_90d: "90 天",
    range_all: "全部数据",
    charts: "随时间变化",
    chart_daily: "每日 TTFT：中位数（实线）与 p95（虚线）",
    chart_errors: "每日错误率",
    chart_availability: "每日可用率：至少有一次成功应答的小时占比",
    chart_vantages: "各测量地点对比",
    chart_hour: "一天中的时段（UTC）",
    hour_utc: "时（UTC）",
    axis_error_rate: "失败请求（%）",
    axis_availability: "有应答的小时（%）",
    comparison: "每个目标在各测量地点的表现",
    vantage: "测量地点",
    days: "天数",
    no_vantage: "（未注明）",
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrative::distinction::resampling_text;
    use crate::narrative::run_time::warning_text;

    #[test]
    fn the_page_and_the_terminal_name_the_same_things_alike() {
        use crate::words::report_words::ReportWords;
        for lang in Lang::ALL {
            let (page, terminal) = (lang.texts(), ReportWords::of(lang));
            // The page's headings start with a capital, the terminal's
            // line names do not; Chinese has no case.
            for (page, terminal) in [
                (page.fidelity, terminal.fidelity),
                (page.verdict, terminal.verdict),
            ] {
                assert_eq!(page.to_lowercase(), terminal.to_lowercase(), "{lang:?}");
            }
        }
    }

    #[test]
    fn chinese_is_chosen_for_any_zh_tag() {
        assert_eq!(Lang::from_browser(&["zh-CN".into()]), Lang::ZhCn);
        assert_eq!(
            Lang::from_browser(&["zh-TW".into(), "en".into()]),
            Lang::ZhCn
        );
        assert_eq!(Lang::from_browser(&["en-GB".into(), "zh".into()]), Lang::En);
        assert_eq!(Lang::from_browser(&[]), Lang::En);
    }

    #[test]
    fn every_plan_warning_has_a_chinese_text_without_english() {
        let demo = crate::planning::plan::Target {
            protocol: crate::planning::plan::Protocol::Demo,
            provider: Some("demo".into()),
            ..crate::planning::plan::Target::openai("Demo A · steady", "demo://steady", "demo-llm")
        };
        let plan = crate::planning::plan::Plan {
            targets: vec![demo.clone(), demo],
            requests_per_target: 20,
            warmup_per_target: 0,
            spacing_s: 0.5,
            jitter_s: 0.0,
            // 18 s over 40 requests: 0.45 s apart, tight, and overriding the spacing.
            spread_hours: Some(0.005),
            timeout_s: 10.0,
            temperature: 0.7,
            ..crate::planning::plan::Plan::default()
        };
        let mut warnings = plan.warnings();
        assert_eq!(warnings.len(), 7, "{warnings:?}");
        // A provider that may cache, and whose server a tight spacing keeps
        // warm (the demo has none): the nonce and spacing warnings too.
        let cached = crate::planning::plan::Plan {
            targets: vec![crate::planning::plan::Target {
                protocol: crate::planning::plan::Protocol::OpenAi,
                base_url: "https://api.openai.com/v1".into(),
                ..plan.targets[0].clone()
            }],
            ..plan.clone()
        };
        warnings.extend(cached.warnings().into_iter().filter(|w| {
            matches!(
                w.kind,
                crate::planning::plan::WarningKind::FixedPromptMayBeCached
                    | crate::planning::plan::WarningKind::TightSpacing
            )
        }));
        assert_eq!(warnings.len(), 9);
        for warning in &warnings {
            let text = warning_text(Lang::ZhCn, &plan, warning);
            let english: Vec<&str> = text
                .split(|c: char| !c.is_ascii_alphabetic())
                // Token is the Chinese UI's one word for a token, as in 首 Token 延迟.
                .filter(|w| !w.is_empty() && !["DNS", "TLS", "Token"].contains(w))
                .collect();
            assert!(
                english.is_empty(),
                "English leftovers {english:?} in {text}"
            );
            assert_eq!(warning_text(Lang::En, &plan, warning), warning.message);
        }
    }

    #[test]
    fn resampling_is_named_in_both_languages() {
        use crate::statistics::dependence::Resampling;
        assert_eq!(
            resampling_text(Lang::En, Resampling::Block { length: 28 }),
            "batch means of consecutive requests, blocks of 28"
        );
        assert_eq!(
            resampling_text(Lang::ZhCn, Resampling::Iid),
            "按独立请求的次序统计量"
        );
    }

    #[test]
    fn milliseconds_read_naturally() {
        assert_eq!(format_ms(Lang::En, 387.4), "387 ms");
        assert_eq!(format_ms(Lang::En, 6300.0), "6.3 s");
        assert_eq!(format_ms(Lang::En, 56.78), "56.8 ms");
        assert_eq!(format_ms(Lang::En, 999.7), "1 s");
        assert_eq!(format_ms(Lang::En, 12_345.0), "12.3 s");
        assert_eq!(format_ms(Lang::ZhCn, 387.4), "387 毫秒");
        assert_eq!(format_ms(Lang::En, f64::NAN), "–");
    }

    #[test]
    fn percentages_and_durations() {
        assert_eq!(format_pct(541.2), "541 %");
        assert_eq!(format_pct(4.25), "4.2 %");
        assert_eq!(format_duration(Lang::En, 45_000.0), "45 s");
        assert_eq!(format_duration(Lang::En, 12.0 * 60_000.0), "12 min");
        assert_eq!(
            format_duration(Lang::En, 3.0 * 3_600_000.0 + 20.0 * 60_000.0),
            "3 h 20 min"
        );
        assert_eq!(format_duration(Lang::ZhCn, 45_000.0), "45 秒");
    }

    #[test]
    fn epochs_format_in_local_time() {
        // 2026-12-02T12:43:00Z
        let epoch_ms = 1_796_215_380_000.0;
        assert_eq!(format_epoch(epoch_ms, 0), "2026-12-02 12:43");
        assert_eq!(format_epoch(epoch_ms, 480), "2026-12-02 20:43");
        assert_eq!(format_epoch(epoch_ms, -780), "2026-12-01 23:43");
        assert_eq!(format_epoch(0.0, 0), "1970-01-01 00:00");
        assert_eq!(format_clock(epoch_ms + 9_500.0, 480), "20:43:09");
        assert_eq!(format_clock(epoch_ms, -780), "23:43:00");
    }

    #[test]
    fn chinese_texts_have_no_english_words() {
        // Labels may keep technical terms (TTFT, API, JSON, CSV, PNG, p95,
        // localStorage, GitHub Pages); anything else in Latin letters is a leftover.
        let allowed = [
            "TTFT",
            "API",
            "JSON",
            "CSV",
            "PNG",
            "p95",
            "p99",
            // The coefficient of variation's short name, given beside 变异系数.
            "CV",
            "F1",
            "Token",
            "localStorage",
            "GitHub",
            "Pages",
            "UTC",
            // The example of an IANA zone name, which is the same in every language.
            "Asia",
            "Shanghai",
            // The demo providers' letters.
            "A",
            "B",
            "C",
            // Product and provider names, and a provider slug in an example.
            "LiteLLM",
            "OpenRouter",
            "slug",
            "deepinfra",
        ];
        let mut texts = ZH_CN.all();
        texts.extend(DASHBOARD_ZH_CN.all());
        for text in texts {
            for word in text
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
            {
                assert!(
                    allowed.contains(&word),
                    "English leftover {word:?} in {text:?}"
                );
            }
        }
    }
}

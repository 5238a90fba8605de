use super::*;

fn measured(gap_s: f64, ms: f64) -> IdleRequest {
    IdleRequest::planned(gap_s, TtftRank::Measured(ms))
}

/// `warm` requests at 400–419 ms and `cold` at 12 s after each gap.
fn run(gaps: &[(f64, usize, usize)]) -> Vec<IdleRequest> {
    let mut out = Vec::new();
    for &(gap_s, warm, cold) in gaps {
        out.extend((0..warm).map(|i| measured(gap_s, 400.0 + (i % 20) as f64)));
        out.extend((0..cold).map(|i| measured(gap_s, 12_000.0 + i as f64)));
    }
    out
}

/// The figures, the plan's timeout at 120 s.
fn figures(requests: &[IdleRequest], settings: IdleSettings) -> IdleFigures {
    idle_figures(requests, 120_000.0, settings).unwrap()
}

#[test]
fn isotonic_pools_adjacent_violators() {
    assert_eq!(
        isotonic_non_decreasing(&[0.0, 0.5, 0.25, 1.0], &[1.0, 1.0, 1.0, 1.0]),
        [0.0, 0.375, 0.375, 1.0]
    );
    // Weighted: the heavier block pulls the pooled mean.
    assert_eq!(
        isotonic_non_decreasing(&[0.5, 0.0], &[3.0, 1.0]),
        [0.375, 0.375]
    );
    // A cascade: the last value pulls the block before it down until it
    // meets the first pooled block.
    assert_eq!(
        isotonic_non_decreasing(&[0.5, 0.25, 0.75, 0.0], &[1.0, 1.0, 1.0, 1.0]),
        [0.375, 0.375, 0.375, 0.375]
    );
    assert_eq!(
        isotonic_non_decreasing(&[0.25, 1.0, 0.5, 0.0], &[1.0, 1.0, 1.0, 1.0]),
        [0.25, 0.5, 0.5, 0.5]
    );
    assert_eq!(
        isotonic_non_decreasing(&[0.1, 0.2], &[1.0, 1.0]),
        [0.1, 0.2]
    );
    assert!(isotonic_non_decreasing(&[], &[]).is_empty());
}

#[test]
fn a_sharp_threshold_reads_goes_cold_between_the_two_gaps_around_it() {
    // Warm after 10 and 60 s, cold after 300 and 900 s: half the run slow.
    let requests = run(&[(60.0, 20, 0), (10.0, 20, 0), (900.0, 0, 20), (300.0, 1, 19)]);
    let settings = IdleSettings {
        typical_gap_s: Some(120.0),
        dedicated_usd_per_hour: Some(1.0),
        cost_per_request_usd: Some(0.001),
    };
    let idle = figures(&requests, settings);
    let gaps: Vec<(f64, usize, usize)> = idle
        .gaps
        .iter()
        .map(|g| (g.gap_s, g.requests, g.cold))
        .collect();
    assert_eq!(
        gaps,
        [
            (10.0, 20, 0),
            (60.0, 20, 0),
            (300.0, 20, 19),
            (900.0, 20, 20)
        ]
    );
    assert_eq!(idle.goes_cold.range_s(), Some([60.0, 300.0]));
    let GoesCold::After { p_value, .. } = idle.goes_cold else {
        panic!("{:?}", idle.goes_cold);
    };
    assert!(p_value.unwrap() < 1e-10);
    // 0 of 20 cold: the exact interval's upper end is 1 − 0.025^(1/20).
    let (low, high) = idle.gaps[0].interval;
    assert_eq!(low, 0.0);
    assert!((high - (1.0 - 0.025_f64.powf(1.0 / 20.0))).abs() < 1e-9);
    assert!((idle.gaps[2].monotone_share - 0.95).abs() < 1e-12);
    assert_eq!(idle.cold_starts, 39);
    assert_eq!(idle.cold_median_ms, Some(12_009.0));
    assert!(idle.gaps[0].median_ms.unwrap() < 420.0);
    assert!(idle.gaps[3].median_ms.unwrap() > 12_000.0);
    // Keep warm a little under the 60 s shown to stay warm: every 48 s,
    // 1 800 pings a day at $0.001.
    let keep = idle.keep_warm.unwrap();
    assert_eq!(keep.every_s, 48.0);
    assert!((keep.requests_per_day - 1_800.0).abs() < 1e-9);
    assert!((keep.usd_per_day.unwrap() - 1.8).abs() < 1e-9);
    // Every 2 min, between the 60 s and the 300 s gaps: 0 to 95 %.
    let at = idle.at_traffic.unwrap();
    assert_eq!(at.share, (0.0, 0.95));
    assert_eq!(at.interval.0, 0.0);
    assert_eq!(at.interval.1, idle.gaps[2].interval.1);
    // $24 a day against $0.001 a request: 24 000 requests a day.
    let dedicated = idle.dedicated.unwrap();
    assert_eq!(dedicated.usd_per_day, 24.0);
    assert!((dedicated.break_even_requests_per_day.unwrap() - 24_000.0).abs() < 1e-6);
    assert!(!dedicated.cheaper_at_any_traffic);
}

#[test]
fn a_provider_that_never_goes_cold_stayed_warm_with_a_bound() {
    let requests = run(&[(10.0, 20, 0), (60.0, 20, 0), (300.0, 20, 0), (900.0, 20, 0)]);
    let idle = figures(&requests, IdleSettings::default());
    // "stayed warm after 15 min idle in all 20 tries (cold share ≤ 14 %)"
    let GoesCold::StayedWarm {
        after_s,
        cold,
        of,
        share_at_most,
    } = idle.goes_cold
    else {
        panic!("{:?}", idle.goes_cold);
    };
    assert_eq!((after_s, cold, of), (900.0, 0, 20));
    assert!((share_at_most - (1.0 - 0.05_f64.powf(1.0 / 20.0))).abs() < 1e-9);
    assert!((share_at_most - 0.139).abs() < 1e-3);
    assert_eq!(idle.keep_warm, None);
    assert_eq!(idle.cold_median_ms, None);
    // One cold start after the longest gap is no rise.
    let requests = run(&[(10.0, 20, 0), (60.0, 20, 0), (300.0, 20, 0), (900.0, 19, 1)]);
    assert!(matches!(
        figures(&requests, IdleSettings::default()).goes_cold,
        GoesCold::StayedWarm {
            cold: 1,
            of: 20,
            ..
        }
    ));
}

#[test]
fn cold_already_after_the_shortest_gap_and_too_few_gaps() {
    // Most requests after every gap time out: it goes cold before 10 s,
    // and no keep-warm interval can be read from these gaps.
    let timeouts = |gap_s: f64, count: usize| {
        (0..count).map(move |_| IdleRequest::planned(gap_s, TtftRank::Censored))
    };
    let mut requests = run(&[(10.0, 4, 0), (60.0, 2, 0), (300.0, 0, 0)]);
    requests.extend(
        timeouts(10.0, 16)
            .chain(timeouts(60.0, 18))
            .chain(timeouts(300.0, 20)),
    );
    let idle = figures(&requests, IdleSettings::default());
    assert_eq!(idle.goes_cold.range_s(), Some([0.0, 10.0]));
    assert_eq!(idle.keep_warm, None);
    let one = run(&[(60.0, 20, 3)]);
    assert_eq!(
        figures(&one, IdleSettings::default()).goes_cold,
        GoesCold::TooFewGaps
    );
    // No request carries a gap: no figures at all.
    let none = [IdleRequest::planned(f64::NAN, TtftRank::Measured(400.0))];
    assert_eq!(
        idle_figures(&none, 120_000.0, IdleSettings::default()),
        None
    );
}

#[test]
fn timeouts_are_cold_and_errors_are_not_counted() {
    let mut requests = run(&[(10.0, 20, 0), (600.0, 10, 0)]);
    requests.extend((0..10).map(|_| IdleRequest::planned(600.0, TtftRank::Censored)));
    requests.push(IdleRequest::planned(600.0, TtftRank::Excluded));
    let idle = figures(&requests, IdleSettings::default());
    assert_eq!(idle.gaps[1].requests, 20);
    assert_eq!((idle.gaps[1].cold, idle.gaps[1].censored), (10, 10));
    assert_eq!(idle.cold_censored, 10);
    assert_eq!(idle.cold_median_ms, Some(120_000.0));
    assert_eq!(idle.goes_cold.range_s(), Some([10.0, 600.0]));
}

#[test]
fn at_traffic_reads_the_gaps_around_the_spacing() {
    let requests = run(&[(10.0, 20, 0), (60.0, 18, 2), (300.0, 0, 20)]);
    let at = |t: f64| {
        figures(
            &requests,
            IdleSettings {
                typical_gap_s: Some(t),
                ..IdleSettings::default()
            },
        )
        .at_traffic
        .unwrap()
    };
    let idle = figures(&requests, IdleSettings::default());
    // At a measured gap, its estimate and interval.
    assert_eq!(at(60.0).share, (0.1, 0.1));
    assert_eq!(at(60.0).interval, idle.gaps[1].interval);
    // Before the shortest gap: from 0 up to its estimate.
    assert_eq!(at(5.0).share, (0.0, 0.0));
    assert_eq!(at(5.0).interval, (0.0, idle.gaps[0].interval.1));
    // Past the longest: at least its estimate.
    assert_eq!(at(3_600.0).share, (1.0, 1.0));
    assert_eq!(at(3_600.0).interval, (idle.gaps[2].interval.0, 1.0));
    // A dedicated endpoint without a cost per request has no break-even,
    // and pings dearer than it make it cheaper at any traffic.
    let dedicated = |usd_per_hour: f64| {
        figures(
            &requests,
            IdleSettings {
                dedicated_usd_per_hour: Some(usd_per_hour),
                cost_per_request_usd: Some(0.01),
                ..IdleSettings::default()
            },
        )
        .dedicated
        .unwrap()
    };
    // Cold after 300 s, warm after 60 s: a ping every 48 s, 1 800 a day,
    // $18 at $0.01; a dedicated endpoint at $0.50 an hour ($12 a day) costs
    // less whatever the traffic, at $1 an hour ($24) above 2 400 requests a day.
    assert_eq!(idle.goes_cold.range_s(), Some([60.0, 300.0]));
    assert!(dedicated(0.5).cheaper_at_any_traffic);
    let dearer = dedicated(1.0);
    assert!(!dearer.cheaper_at_any_traffic);
    assert!((dearer.break_even_requests_per_day.unwrap() - 2_400.0).abs() < 1e-6);
}

#[test]
fn the_demo_that_scales_to_zero_reads_goes_cold_between_its_gaps() {
    use crate::judgement::report::{REPORT_SEED, build_report};
    use crate::planning::plan::Plan;
    use crate::planning::schedule::Schedule;
    use crate::wire::demo::{demo_reply_after, target_seed};
    use crate::wire::measure::Measurement;
    use crate::wire::sample::Sample;

    // The built-in demo's scale-to-zero target, measured as the page
    // measures it, after gaps of 5 and 60 s (it goes cold past 20 s).
    let plan = Plan::from_json(
        r#"{"firsttoken_plan": 1, "requests_per_target": 30, "warmup_per_target": 1,
            "idle_gaps_s": [5, 60], "typical_gap_s": 30,
            "targets": [{"label": "zero", "protocol": "demo",
                         "base_url": "demo://scale-to-zero", "model": "m"}]}"#,
    )
    .unwrap();
    let schedule = Schedule::new(&plan, 1.8e12, 7);
    let samples: Vec<Sample> = schedule
        .requests
        .iter()
        .map(|planned| {
            let reply = demo_reply_after(
                "scale-to-zero",
                planned.seq,
                target_seed(7, planned.target),
                planned.idle_gap_s,
            );
            let mut measurement = Measurement::new(plan.targets[0].protocol, false);
            measurement.on_headers(reply.headers_at_ms, reply.status, Some(reply.content_type));
            for chunk in &reply.chunks {
                measurement.on_chunk(chunk.at_ms, &chunk.bytes);
            }
            let end_ms = reply.chunks.last().map_or(reply.headers_at_ms, |c| c.at_ms);
            measurement.on_body_end(end_ms);
            Sample::from_outcome(planned, planned.planned_at_ms, false, measurement.finish())
        })
        .collect();
    let report = build_report(&plan, &samples, 0, REPORT_SEED);
    let idle = report.targets[0].idle.as_ref().unwrap();
    assert_eq!(idle.goes_cold.range_s(), Some([5.0, 60.0]));
    assert_eq!((idle.gaps[0].cold, idle.gaps[1].cold), (0, 15));
    assert_eq!(idle.keep_warm.map(|k| k.every_s), Some(4.0));
    let at = idle.at_traffic.unwrap();
    assert_eq!(at.share, (0.0, 1.0));
}

mod simulation;

/// The issue's first run: gaps 1, 2 and 6 s planned, but another target's
/// requests kept every one waiting 6.3 s, and the model goes cold after
/// 4 s. Every request counts at the 6 s gap its idle reached, so the run
/// can no longer read "stayed warm after 6 s" from requests labelled 1 s:
/// it has one gap, and says it cannot tell.
#[test]
fn a_request_counts_at_the_gap_its_measured_idle_reached() {
    let requests: Vec<IdleRequest> = [1.0, 2.0, 6.0]
        .into_iter()
        .cycle()
        .take(15)
        .map(|gap_s| IdleRequest {
            idle_s: Some(6.3),
            ..IdleRequest::planned(gap_s, TtftRank::Measured(1_600.0))
        })
        .collect();
    let idle = figures(&requests, IdleSettings::default());
    assert_eq!(idle.goes_cold, GoesCold::TooFewGaps);
    assert_eq!(idle.gaps.len(), 1);
    assert_eq!((idle.gaps[0].gap_s, idle.gaps[0].moved_in), (6.0, 10));
    assert_eq!(idle.moved, 10);
    assert!((idle.late_max_s - 5.3).abs() < 1e-9);
    assert_eq!(counted_gap_s(&[1.0, 2.0, 6.0], 1.0, Some(1.9)), 1.0);
    assert_eq!(counted_gap_s(&[1.0, 2.0, 6.0], 1.0, Some(2.0)), 2.0);
    // A clock a hair early never moves a request below its planned gap.
    assert_eq!(counted_gap_s(&[1.0, 2.0, 6.0], 2.0, Some(1.999)), 2.0);
    assert_eq!(counted_gap_s(&[1.0, 2.0, 6.0], 2.0, None), 2.0);
}

/// A failure before the first token counts at its gap, cold, and the gap
/// says how many of its requests failed: its share is never taken over
/// silently fewer requests.
#[test]
fn each_failure_counts_in_its_gap() {
    let mut requests: Vec<IdleRequest> = (0..10)
        .flat_map(|i| [measured(1.0, 400.0 + f64::from(i)), measured(5.0, 410.0)])
        .collect();
    for request in requests.iter_mut().filter(|r| r.gap_s == 5.0).take(4) {
        request.rank = TtftRank::Censored;
        request.failed = true;
    }
    let idle = figures(&requests, IdleSettings::default());
    let at_5 = idle.gaps[1];
    assert_eq!((at_5.requests, at_5.cold, at_5.failed), (10, 4, 4));
    assert_eq!(idle.gaps[0].failed, 0);
}

/// Two targets share one origin, so the connection's idle is shorter than
/// each target's: the connection's window is read from the connection's
/// own idle, and a request whose connection idled less than the shortest
/// gap tells nothing about any gap's connection.
#[test]
fn the_connection_s_window_is_read_from_the_connection_s_own_idle() {
    let mut requests = Vec::new();
    for i in 0..8 {
        for (gap_s, connection_idle_s) in [(1.0, 0.5), (1.0, 1.2), (10.0, 1.5), (10.0, 12.0)] {
            let new = connection_idle_s > 5.0;
            requests.push(IdleRequest {
                idle_s: Some(gap_s + 0.01),
                connection: Some(IdleConnection {
                    reused: !new,
                    setup_ms: new.then_some(150.0),
                    idle_s: Some(connection_idle_s),
                    fresh: false,
                }),
                ..measured(gap_s, 60.0 + f64::from(i) + if new { 150.0 } else { 0.0 })
            });
        }
    }
    let idle = figures(&requests, IdleSettings::default());
    let connection = idle.connection.unwrap();
    assert_eq!(connection.closes.range_s(), Some([1.0, 10.0]));
    let counts: Vec<_> = idle.gaps.iter().map(|g| g.connections.unwrap()).collect();
    // After 1 s of the connection's idle: 16 reused (8 of them sent by a
    // target idle 10 s); after 10 s: 8 new. The 8 below 1 s count nowhere.
    assert_eq!((counts[0].new, counts[0].of), (0, 16));
    assert_eq!((counts[1].new, counts[1].of), (8, 8));
    // The handshake is taken off before the model is judged: warm.
    assert!(matches!(
        idle.goes_cold,
        GoesCold::StayedWarm { cold: 0, .. }
    ));
    assert_eq!(connection.setup_median_ms, Some(150.0));
    assert_eq!(connection.keep_open_every_s, Some(0.8));
}

#[test]
fn a_mostly_cold_gap_too_small_to_be_sure_of_is_unsure_never_stayed_warm() {
    // 3 of 3 cold against 0 of 3: Fisher's p = 0.1, not below the level
    // shared by the comparisons, but no reader would call that warm.
    let requests = run(&[(0.3, 3, 0), (1.5, 0, 3)]);
    let idle = figures(&requests, IdleSettings::default());
    let GoesCold::Unsure {
        lo_s,
        hi_s,
        p_value,
    } = idle.goes_cold
    else {
        panic!("{:?}", idle.goes_cold);
    };
    assert_eq!((lo_s, hi_s), (0.3, 1.5));
    assert!((p_value - 0.1).abs() < 1e-9, "two-sided: {p_value}");
    assert_eq!(idle.goes_cold.range_s(), None, "no range is claimed");
    assert_eq!(idle.keep_warm, None, "no keep-warm advice on a guess");
    // The same counts at ten times the requests are a rise.
    let requests = run(&[(0.3, 30, 0), (1.5, 0, 30)]);
    assert_eq!(
        figures(&requests, IdleSettings::default())
            .goes_cold
            .range_s(),
        Some([0.3, 1.5])
    );
    // One cold in twenty after the longest gap is still no rise, not unsure.
    let requests = run(&[(10.0, 20, 0), (900.0, 19, 1)]);
    assert!(matches!(
        figures(&requests, IdleSettings::default()).goes_cold,
        GoesCold::StayedWarm { cold: 1, .. }
    ));
}

/// A request after `gap_s` as the runner records it: on a kept connection,
/// or on a new one (opened on purpose or not) whose timed opening took
/// 0.2 ms while the server held its first request `untimed_ms` more (a
/// proxy, a handshake no client phase shows), on top of the model's
/// `model_ms`.
fn connected(gap_s: f64, model_ms: f64, new: bool, fresh: bool, untimed_ms: f64) -> IdleRequest {
    let ttft_ms = model_ms + if new { 0.2 + untimed_ms } else { 0.0 };
    IdleRequest {
        idle_s: Some(gap_s + 0.001),
        connection: Some(IdleConnection {
            reused: !new,
            setup_ms: new.then_some(0.2),
            idle_s: Some(gap_s + 0.001),
            fresh,
        }),
        ..measured(gap_s, ttft_ms)
    }
}

/// `per_gap` requests after each of `gaps_s` to a server that closes a
/// connection idle longer than `closes_after_s` and holds each new one's
/// first request 200 ms, the plan sending every other request after the
/// shortest gap on a new connection; the model answers in about 20 ms, or
/// 600 ms more after idle past `cold_after_s`.
fn behind_a_proxy(
    gaps_s: &[f64],
    per_gap: usize,
    closes_after_s: f64,
    cold_after_s: Option<f64>,
) -> Vec<IdleRequest> {
    let mut requests = Vec::new();
    for &gap_s in gaps_s {
        for i in 0..per_gap {
            let fresh = gap_s == gaps_s[0] && i % 2 == 1;
            let new = fresh || gap_s > closes_after_s;
            let cold = cold_after_s.is_some_and(|t| gap_s > t);
            let model_ms = 20.0 + (i % 5) as f64 * 0.3 + if cold { 600.0 } else { 0.0 };
            requests.push(connected(gap_s, model_ms, new, fresh, 200.0));
        }
    }
    requests
}

/// The reproduction: a model that never goes cold behind a server that
/// closes a connection idle 1 s and holds each new one's first request
/// 200 ms that no timed phase shows. Judged on the timed phases alone it
/// read "goes cold after 0.3 s–2 s idle … cold starts take 221 ms"; with
/// the extra measured after 0.3 s (half those requests on a new
/// connection on purpose) and taken off, it stayed warm, and the window
/// is the connection's.
#[test]
fn an_untimed_new_connection_cost_is_not_read_as_a_cold_model() {
    let requests = behind_a_proxy(&[0.3, 2.0], 10, 1.0, None);
    let idle = figures(&requests, IdleSettings::default());
    assert!(
        matches!(
            idle.goes_cold,
            GoesCold::StayedWarm {
                cold: 0,
                of: 10,
                ..
            }
        ),
        "{:?}",
        idle.goes_cold
    );
    assert_eq!(idle.keep_warm, None);
    let connection = idle.connection.unwrap();
    assert_eq!(connection.closes.range_s(), Some([0.3, 2.0]));
    let ConnectionExtra::TakenOff { ms, new, reused } = connection.extra else {
        panic!("{:?}", connection.extra);
    };
    assert!((ms - 200.0).abs() < 1.0, "{ms}");
    assert_eq!((new, reused), (5, 5));
    // The requests opened on purpose say nothing of when the kept
    // connection closes: 0 of the other 5 after 0.3 s needed a new one.
    let counts: Vec<(usize, usize)> = idle
        .gaps
        .iter()
        .map(|g| g.connections.map(|c| (c.new, c.of)).unwrap())
        .collect();
    assert_eq!(counts, [(0, 5), (10, 10)]);
    let said =
        crate::narrative::idle::idle_sentences(crate::base::lang::Lang::En, &idle).join(" | ");
    assert!(!said.contains("goes cold"), "{said}");
    assert!(
        said.contains("the connection closes after 0.3 s–2 s idle")
            && said.contains("a new connection adds 200 ms in all"),
        "{said}"
    );
}

/// A model that does go cold after 1 s behind the same server: still
/// cold within the right range, its cold starts their own length, and
/// the connection's window apart from it.
#[test]
fn a_cold_model_behind_an_untimed_connection_cost_still_reads_cold() {
    let requests = behind_a_proxy(&[0.3, 2.0], 10, 1.0, Some(1.0));
    let idle = figures(&requests, IdleSettings::default());
    assert_eq!(idle.goes_cold.range_s(), Some([0.3, 2.0]));
    assert_eq!((idle.gaps[1].cold, idle.gaps[1].requests), (10, 10));
    let cold_ms = idle.cold_median_ms.unwrap();
    assert!((cold_ms - 620.0).abs() < 2.0, "{cold_ms}");
    // Apart: the connection closes after 0.3–0.6 s, the model goes cold
    // after 0.6–2 s; on the timed phases alone the model read 0.3–0.6 s.
    let requests = behind_a_proxy(&[0.3, 0.6, 2.0], 10, 0.45, Some(1.0));
    let idle = figures(&requests, IdleSettings::default());
    assert_eq!(idle.goes_cold.range_s(), Some([0.6, 2.0]));
    let connection = idle.connection.unwrap();
    assert_eq!(connection.closes.range_s(), Some([0.3, 0.6]));
    assert!(matches!(connection.extra, ConnectionExtra::TakenOff { .. }));
}

/// A connection that closes before the shortest gap: every request opens
/// one, so the warm reference holds its cost already, and nothing is
/// taken off (taking it off only the requests on a new connection would
/// take it off all of them alike, and the bound with them).
#[test]
fn a_connection_closing_before_the_shortest_gap_takes_nothing_off() {
    let requests = behind_a_proxy(&[0.3, 2.0], 10, 0.1, None);
    let idle = figures(&requests, IdleSettings::default());
    let connection = idle.connection.unwrap();
    assert_eq!(
        connection.extra,
        ConnectionExtra::InReference { new: 5, of: 5 }
    );
    assert_eq!(connection.extra.taken_off_ms(), 0.0);
    assert!(connection.always_new);
    assert!(matches!(
        idle.goes_cold,
        GoesCold::StayedWarm { cold: 0, .. }
    ));
    // Nothing taken off: the gaps' medians still hold the 200 ms.
    assert!(idle.gaps.iter().all(|g| g.median_ms.unwrap() > 200.0));
    let cold = behind_a_proxy(&[0.3, 2.0], 10, 0.1, Some(1.0));
    assert_eq!(
        figures(&cold, IdleSettings::default()).goes_cold.range_s(),
        Some([0.3, 2.0])
    );
}

/// Too few requests on a new or a kept connection after the shortest gap
/// (a file from before the plan opened any on purpose): not measured,
/// nothing taken off, and the connection's sentence says so.
#[test]
fn an_extra_too_few_requests_measure_is_not_measured() {
    let requests: Vec<IdleRequest> = [0.3, 2.0]
        .iter()
        .flat_map(|&gap_s| {
            (0..10)
                .map(move |i| connected(gap_s, 20.0 + f64::from(i) * 0.3, gap_s > 1.0, false, 0.0))
        })
        .collect();
    let idle = figures(&requests, IdleSettings::default());
    let connection = idle.connection.unwrap();
    assert_eq!(
        connection.extra,
        ConnectionExtra::NotMeasured { new: 0, reused: 10 }
    );
    let said =
        crate::narrative::idle::connection_sentence(crate::base::lang::Lang::En, &idle).unwrap();
    assert!(
        said.contains(
            "what it adds beyond its opening was not measured (after 0.3 s, 0 requests on a new \
             connection and 10 on a kept one; 3 of each are needed)"
        ),
        "{said}"
    );
}

//! The scheduling rules (acoustics §3.3, §5, §8) as plain functions.

use super::{
    Candidate, Class, EchoFacts, classify, deserves_echo, distance_jump, retrace_interval,
    retrace_ticks, timer_due,
};

fn cand(id: u64, loud: f64, distance: f64, previous: Option<Class>) -> Candidate {
    Candidate {
        id,
        loud,
        distance,
        impulsive_full: false,
        previous,
    }
}

#[test]
fn sixteen_loudest_are_full_then_100_direct_then_free() {
    let c: Vec<Candidate> = (0..130)
        .map(|i| cand(i, 1.0 - i as f64 * 0.005, 10.0, None))
        .collect();
    let k = classify(&c);
    assert!(k[..16].iter().all(|x| *x == Class::Full));
    assert!(k[16..116].iter().all(|x| *x == Class::Direct));
    assert!(k[116..].iter().all(|x| *x == Class::Free));
}

#[test]
fn classes_switch_with_hysteresis() {
    // A Full voice ranked 18th stays Full; a new one ranked 18th does not enter.
    let mut c: Vec<Candidate> = (0..30)
        .map(|i| cand(i, 1.0 - i as f64 * 0.01, 10.0, Some(Class::Direct)))
        .collect();
    c[17].previous = Some(Class::Full);
    let k = classify(&c);
    assert_eq!(k[17], Class::Full);
    assert_eq!(k[18], Class::Direct);
    // Free by distance: enter beyond 512, leave only below 496.
    assert_eq!(classify(&[cand(1, 0.5, 513.0, None)])[0], Class::Free);
    assert_eq!(
        classify(&[cand(1, 0.5, 505.0, Some(Class::Free))])[0],
        Class::Free
    );
    assert_eq!(
        classify(&[cand(1, 0.5, 505.0, Some(Class::Direct))])[0],
        Class::Full
    );
    assert_eq!(
        classify(&[cand(1, 0.5, 490.0, Some(Class::Free))])[0],
        Class::Full
    );
    // Below audibility.
    assert_eq!(classify(&[cand(1, 0.0005, 10.0, None)])[0], Class::Free);
    // Impulsive events are Full beyond the 16.
    let mut c: Vec<Candidate> = (0..20).map(|i| cand(i, 1.0, 10.0, None)).collect();
    c[19].impulsive_full = true;
    c[19].loud = 0.01;
    assert_eq!(classify(&c)[19], Class::Full);
}

#[test]
fn moving_sources_are_retraced_by_distance_with_a_phase() {
    assert_eq!(retrace_interval(10.0), 0.1);
    assert_eq!(retrace_interval(100.0), 0.5);
    assert_eq!(retrace_interval(1000.0), 1.0);
    assert_eq!(retrace_ticks(100.0, 0.05), 10);
    // Every 10th tick, phase by voice id.
    let due: Vec<u64> = (0..30).filter(|t| timer_due(*t, 3, 100.0, 0.05)).collect();
    assert_eq!(due, vec![7, 17, 27]);
    let due: Vec<u64> = (0..30).filter(|t| timer_due(*t, 4, 100.0, 0.05)).collect();
    assert_eq!(due, vec![6, 16, 26]);
    // A fly-by: more than 10 % distance change re-traces at once.
    assert!(distance_jump(100.0, 111.0));
    assert!(!distance_jump(100.0, 109.0));
}

#[test]
fn deserves_echo_rules() {
    let ok = EchoFacts {
        looping: false,
        relative: false,
        volume: 1.0,
        range: 256.0,
        length_s: 1.0,
        played: 0.0,
    };
    assert!(deserves_echo(&ok));
    assert!(!deserves_echo(&EchoFacts {
        looping: true,
        ..ok
    }));
    assert!(!deserves_echo(&EchoFacts {
        relative: true,
        ..ok
    }));
    assert!(!deserves_echo(&EchoFacts { volume: 0.4, ..ok }));
    assert!(!deserves_echo(&EchoFacts { range: 90.0, ..ok }));
    assert!(!deserves_echo(&EchoFacts {
        length_s: 0.05,
        ..ok
    }));
    assert!(!deserves_echo(&EchoFacts {
        length_s: 13.0,
        ..ok
    }));
    assert!(!deserves_echo(&EchoFacts { played: 0.7, ..ok }));
}

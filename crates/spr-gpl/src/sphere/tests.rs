// SPDX-License-Identifier: GPL-3.0-only
//! Tests of the ray direction sphere.

use crate::sphere::ray_direction;
use crate::test_support::close;
use crate::*;

#[test]
fn ray_directions_match_table() {
    assert!(close(f64::from(sphere::golden_angle()), 10.166_408, 1e-5));
    let xy = [
        (0.0, 0.0),
        (-0.2566, -0.2351),
        (0.0423, 0.4823),
        (0.3547, -0.4626),
        (-0.6513, 0.1152),
        (0.6127, 0.3898),
        (-0.2027, -0.7539),
        (-0.3811, 0.7337),
        (0.8135, -0.2971),
        (-0.8312, -0.3431),
        (0.3929, 0.8396),
        (0.2843, -0.9064),
        (-0.8377, 0.4855),
        (0.9594, 0.2109),
        (-0.5706, -0.8117),
        (-0.1283, 0.9898),
        (0.7647, -0.6444),
        (-0.9972, -0.0412),
        (0.7033, 0.6998),
        (-0.0454, -0.9812),
        (-0.6204, 0.7434),
        (0.9414, -0.1267),
        (-0.7610, -0.5295),
        (0.1974, 0.8773),
        (0.4306, -0.7514),
        (-0.7877, 0.2513),
        (0.7086, 0.3274),
        (-0.2803, -0.6699),
        (-0.2239, 0.6224),
        (0.5160, -0.2712),
        (-0.4681, -0.1234),
        (0.1882, 0.2927),
    ];
    for (i, (x, y)) in xy.into_iter().enumerate() {
        let d = ray_direction(i as u32, 32);
        assert!(close(d.x, x, 6e-5) && close(d.y, y, 6e-5), "ray {i}: {d:?}");
        assert!(
            close(d.z, 2.0 * i as f64 / 32.0 - 1.0, 2e-7),
            "ray {i}: {d:?}"
        );
        assert!(close(d.length(), 1.0, 1e-6));
    }
    assert!(ray_direction(0, 32).x < 0.0 && ray_direction(0, 32).x > -1e-7);
    assert!(close(ray_direction(31, 32).z, 0.9375, 1e-7));
}

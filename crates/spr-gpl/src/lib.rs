// SPDX-License-Identifier: GPL-3.0-only
//! Sound Physics Remastered's model for Resound, behind the opt-in `spr-gpl` feature.
//!
//! Spec: `shared/spec/spr.md`.

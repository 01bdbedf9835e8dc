//! The plots' text: DejaVu Sans, embedded through the `dejavu` crate and registered with
//! plotters' `ab_glyph` text renderer under the family name [`FAMILY`].
//!
//! Plotters' default TrueType path finds fonts through fontconfig, which needs its headers to
//! build and a font package to run; with the font bytes in the binary a plot draws the same on
//! any machine. The font is under the DejaVu fonts licence (a permissive Bitstream Vera
//! derivative); the `dejavu` crate itself is MIT or Apache-2.0.

use std::sync::Once;

use plotters::style::{FontStyle, register_font};

/// The family name every plot uses for its text.
pub const FAMILY: &str = "sans-serif";

/// Registers the embedded font (regular and bold) under [`FAMILY`]; the first call does the
/// work, later calls return at once. Every drawing function calls it before it draws text.
pub fn ensure() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a known-good TrueType file shipped in the crate; a failure here would
        // be a broken build of it, and the plot would then report a missing font.
        let _ = register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold());
    });
}

#[cfg(test)]
mod tests {
    use plotters::prelude::*;

    /// Text draws with the embedded font: pixels change where a label is drawn.
    #[test]
    fn text_draws_with_the_embedded_font() {
        super::ensure();
        let mut buf = vec![255u8; 200 * 60 * 3];
        {
            let root = BitMapBackend::with_buffer(&mut buf, (200, 60)).into_drawing_area();
            root.draw_text(
                "Resound 123",
                &(super::FAMILY, 24).into_font().color(&BLACK),
                (5, 15),
            )
            .unwrap();
            root.present().unwrap();
        }
        let dark = buf.iter().filter(|b| **b < 128).count();
        assert!(dark > 100, "only {dark} dark bytes: no text was drawn");
    }
}

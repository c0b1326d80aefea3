//! Text on the picture: a `<text>` element with its text escaped, text with a white
//! halo that reads over any terrain, and the clipping and wrapping of long names and
//! lines.

use crate::svg::xml_escape;
use std::fmt::Write;

pub(super) fn text(o: &mut String, x: f64, y: f64, size: f64, attrs: &str, s: &str) {
    let _ = write!(
        o,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}"{attrs}>{}</text>"#,
        xml_escape(s)
    );
}

/// Text with a white halo, so that it reads over any terrain in every renderer: the
/// same text drawn first with a thick white stroke (`class="halo"`), then plainly over
/// it (`paint-order`, which draws a halo in one element, is ignored by cairo and
/// others, whose pictures then show the stroke over the letters).
pub(super) fn halo_text(
    o: &mut String,
    x: f64,
    y: f64,
    size: f64,
    attrs: &str,
    s: &str,
    halo: f64,
) {
    let s = xml_escape(s);
    let _ = write!(
        o,
        r##"<text class="halo" x="{x:.1}" y="{y:.1}" font-size="{size:.1}"{attrs} fill="#fff" stroke="#fff" stroke-width="{halo:.1}" stroke-linejoin="round">{s}</text><text x="{x:.1}" y="{y:.1}" font-size="{size:.1}"{attrs} fill="#222">{s}</text>"##
    );
}

/// The first `n` characters of `s`, with an ellipsis when cut.
pub(super) fn clip_chars(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(n.saturating_sub(1)).collect();
        c.push('…');
        c
    }
}

/// Splits text into lines of at most `n` characters at spaces.
pub(super) fn wrap(s: &str, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for w in s.split(' ') {
        if !cur.is_empty() && cur.chars().count() + 1 + w.chars().count() > n {
            out.push(std::mem::take(&mut cur));
            cur.push_str("    ");
        }
        if !cur.is_empty() && !cur.ends_with("    ") {
            cur.push(' ');
        }
        cur.push_str(w);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

//! Text on the picture: a `<text>` element with its text escaped, with a white halo
//! under the letters when asked, and the clipping of long ids and names.

use crate::svg::xml_escape;
use std::fmt::Write;

/// Text with a white halo (drawn twice: the halo under the letters), centred on
/// `(x, y)` when `anchor` is `"middle"`.
#[allow(clippy::too_many_arguments)]
pub(super) fn text(
    o: &mut String,
    x: i64,
    y: i64,
    size: i64,
    anchor: &str,
    attrs: &str,
    halo: i64,
    s: &str,
) {
    let s = xml_escape(s);
    if halo > 0 {
        let plain = without(&without(attrs, "fill"), "class");
        let _ = write!(
            o,
            r##"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{plain} fill="none" stroke="#ffffff" stroke-width="{halo}" stroke-linejoin="round" stroke-opacity="0.85">{s}</text>"##
        );
    }
    let _ = write!(
        o,
        r#"<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{attrs}>{s}</text>"#
    );
}

/// `attrs` (` name="value"` pairs) without the attribute `name`.
fn without(attrs: &str, name: &str) -> String {
    let key = format!(" {name}=\"");
    match attrs.find(&key) {
        Some(i) => {
            let rest = &attrs[i + key.len()..];
            let end = rest.find('"').map_or(rest.len(), |e| e + 1);
            format!("{}{}", &attrs[..i], &rest[end..])
        }
        None => attrs.to_string(),
    }
}

/// The first `n` characters of `s`, with an ellipsis when cut.
pub(super) fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(n.saturating_sub(1)).collect();
        c.push('…');
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huzzah::render::testing::check_xml;

    #[test]
    fn the_checker_catches_broken_documents() {
        assert!(check_xml("<svg><g></g></svg>").is_ok());
        assert!(check_xml("<svg><g></svg>").is_err());
        assert!(check_xml("<svg><g/></svg><svg/>").is_err());
        assert!(check_xml("<svg>a & b</svg>").is_err());
        assert!(check_xml(r#"<svg a="<b>"/>"#).is_err());
        assert!(check_xml("<svg a=b/>").is_err());
        assert!(check_xml("<svg><text>&lt;ok&gt;</text></svg>").is_ok());
        assert!(check_xml(r#"<svg a="1" a="2"/>"#).is_err());
        assert_eq!(
            without(r##" class="x" fill="#fff" y="1""##, "fill"),
            r#" class="x" y="1""#
        );
    }
}

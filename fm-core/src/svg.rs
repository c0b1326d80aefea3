//! What every rules system's SVG pictures share: escaping text for XML. System-neutral:
//! each system draws its own board or table (`fm::render`, `huzzah::render`) with it.

/// Escapes text for XML content and attribute values: the five markup characters as
/// entities, and control characters other than newline and tab (which XML 1.0 forbids)
/// as spaces.
///
/// ```
/// assert_eq!(fm_core::render::xml_escape("<a & 'b'>"), "&lt;a &amp; &apos;b&apos;&gt;");
/// ```
pub fn xml_escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

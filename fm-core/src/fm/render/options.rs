//! What to draw: [`RenderOptions`] (the hex size, the panel and each chart, labels, the
//! part of the map, extra markers and highlighted hexes), with the [`Region`] drawn,
//! the [`MapMarker`]s and [`UnitLabels`]; read from JSON and checked against the
//! scenario.

use crate::error::RuleError;
use crate::fm::hex::Hex;
use crate::fm::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// An extra marker drawn on a hex: for exclusive-rule markers the state does not hold
/// (breach, aircraft, ...) or for annotations. In JSON: `{"hex": "0505", "kind":
/// "breach", "label": "BR"}`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapMarker {
    /// Where.
    pub hex: Hex,
    /// Kind: `"breach"`, `"aircraft"`, `"support"` get their own colours; anything else
    /// is drawn grey.
    pub kind: String,
    /// Short text printed on the marker (a few characters).
    #[serde(default)]
    pub label: String,
}

/// The smallest [`RenderOptions::hex_size`]: `from_json` refuses a smaller one, `render_svg` draws it at this one.
pub const MIN_HEX_SIZE: f64 = 10.0;
/// The largest [`RenderOptions::hex_size`]: `from_json` refuses a larger one, `render_svg` draws it at this one.
pub const MAX_HEX_SIZE: f64 = 200.0;

/// The smallest hex size whose hex ids are drawn: below it their text (a fifth of the
/// hex size, under 5.3 pixels) cannot be read, and `hex_ids` draws none.
pub const HEX_ID_MIN_SIZE: f64 = 28.0;

/// What each counter prints under its type box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitLabels {
    /// The unit's printed name ("1st Bn").
    #[default]
    Name,
    /// The unit's id, the name commands use ("red-1").
    Id,
}

/// The part of the map drawn: the rectangle of columns and rows that `from` and `to`
/// span (in either order), or the smallest such rectangle holding every hex of a list.
/// In JSON: `{"from": "0101", "to": "1010"}` or `["0604", "0907", "0805"]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Region {
    /// The rectangle with these two hexes at opposite corners.
    Rect {
        /// One corner.
        from: Hex,
        /// The opposite corner.
        to: Hex,
    },
    /// The bounding rectangle of these hexes (at least one).
    Hexes(Vec<Hex>),
}

impl Region {
    /// The hexes that fix the rectangle.
    fn corners(&self) -> Vec<Hex> {
        match self {
            Region::Rect { from, to } => vec![*from, *to],
            Region::Hexes(v) => v.clone(),
        }
    }

    /// Columns and rows drawn: (first column, last column, first row, last row).
    pub(super) fn bounds(&self) -> Option<(i32, i32, i32, i32)> {
        let c = self.corners();
        let cols = c.iter().map(|h| h.col as i32);
        let rows = c.iter().map(|h| h.row as i32);
        Some((
            cols.clone().min()?,
            cols.max()?,
            rows.clone().min()?,
            rows.max()?,
        ))
    }
}

impl<'de> Deserialize<'de> for Region {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Region, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Region;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(r#"{"from": hex, "to": hex} or a list of hexes"#)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Region, A::Error> {
                let mut v = Vec::new();
                while let Some(h) = a.next_element::<Hex>()? {
                    if v.len() >= 100_000 {
                        return Err(serde::de::Error::custom("more than 100000 hexes"));
                    }
                    v.push(h);
                }
                if v.is_empty() {
                    return Err(serde::de::Error::custom("an empty list of hexes"));
                }
                Ok(Region::Hexes(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Region, A::Error> {
                let (mut from, mut to) = (None, None);
                while let Some(k) = a.next_key::<String>()? {
                    let slot = match k.as_str() {
                        "from" => &mut from,
                        "to" => &mut to,
                        other => {
                            return Err(serde::de::Error::unknown_field(other, &["from", "to"]))
                        }
                    };
                    if slot.is_some() {
                        return Err(serde::de::Error::custom(format!("duplicate field `{k}`")));
                    }
                    *slot = Some(a.next_value::<Hex>()?);
                }
                match (from, to) {
                    (Some(from), Some(to)) => Ok(Region::Rect { from, to }),
                    (None, _) => Err(serde::de::Error::missing_field("from")),
                    (_, None) => Err(serde::de::Error::missing_field("to")),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Rendering options. `RenderOptions::default()` is what the Python `Match` and the
/// `play` example use.
///
/// Read from JSON with [`RenderOptions::from_json`] (what the C ABI and `serve` pass):
/// every field is optional, an unknown field is an error.
///
/// ```
/// use fm_core::{render_svg, Match, RenderOptions};
/// let m = Match::new_builtin("system-demo", 1).unwrap();
/// let opts = RenderOptions::from_json(
///     m.scenario(),
///     &serde_json::json!({"region": {"from": "0303", "to": "0606"}, "unit_labels": "id"}),
/// )
/// .unwrap();
/// let svg = render_svg(m.scenario(), m.state(), &opts);
/// assert!(svg.contains(r#"data-hex="0404""#) && !svg.contains(r#"data-hex="0101""#));
/// assert!(RenderOptions::from_json(m.scenario(), &serde_json::json!({"hex_size": 5})).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderOptions {
    /// Hex size: centre to corner, in pixels (default 40), [`MIN_HEX_SIZE`] to
    /// [`MAX_HEX_SIZE`] (clamped by `render_svg`; NaN is the default; an error from
    /// `from_json`).
    pub hex_size: f64,
    /// Print each hex's id at the top of the hex (default true), in a font a fifth of
    /// the hex size: only from a hex size of [`HEX_ID_MIN_SIZE`] (28) up, smaller
    /// ids being unreadable (none at 20, half the default size).
    pub hex_ids: bool,
    /// Draw the side panel with turn, phase, pending decision, markers, off-map units
    /// and legend (default true).
    pub panel: bool,
    /// Title above the panel (default: the scenario's name).
    pub title: Option<String>,
    /// Extra markers.
    pub markers: Vec<MapMarker>,
    /// Hexes to outline (e.g. a unit's reachable hexes).
    pub highlight: Vec<Hex>,
    /// Draw only this part of the map (default: all of it). The panel and charts are
    /// laid out beside and below the part drawn.
    pub region: Option<Region>,
    /// What counters print: names (default) or ids.
    pub unit_labels: UnitLabels,
    /// The Combat Results Table below the map, the attack in progress's line and column
    /// highlighted (default true).
    pub crt: bool,
    /// The terrain effects chart: each terrain's movement cost and CRT line (default
    /// true).
    pub terrain_chart: bool,
    /// The turn track, the current turn marked and each turn's reinforcements counted
    /// (default true).
    pub turn_track: bool,
    /// Each side's reinforcement and eliminated boxes, with small counters (default
    /// true).
    pub boxes: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            hex_size: 40.0,
            hex_ids: true,
            panel: true,
            title: None,
            markers: Vec::new(),
            highlight: Vec::new(),
            region: None,
            unit_labels: UnitLabels::Name,
            crt: true,
            terrain_chart: true,
            turn_track: true,
            boxes: true,
        }
    }
}

impl RenderOptions {
    /// The map, and nothing else: no panel, no charts.
    pub fn map_only() -> RenderOptions {
        RenderOptions {
            panel: false,
            crt: false,
            terrain_chart: false,
            turn_track: false,
            boxes: false,
            ..RenderOptions::default()
        }
    }

    /// Reads options from JSON (`null` is the defaults) and checks them against the
    /// scenario with [`RenderOptions::validate`].
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the field: not an object, an unknown
    /// field, a value of the wrong type, or what `validate` refuses.
    pub fn from_json(sc: &Scenario, v: &serde_json::Value) -> Result<RenderOptions, RuleError> {
        let o: RenderOptions = crate::query::render_options_from_json(v)?;
        o.validate(sc)?;
        Ok(o)
    }

    /// Checks options against a scenario: `hex_size` a number from [`MIN_HEX_SIZE`] to
    /// [`MAX_HEX_SIZE`], every hex named (markers, highlight, region) on the map.
    ///
    /// # Errors
    /// A [`RuleError`] (rule `"input"`) naming the first problem.
    pub fn validate(&self, sc: &Scenario) -> Result<(), RuleError> {
        if !(MIN_HEX_SIZE..=MAX_HEX_SIZE).contains(&self.hex_size) {
            return Err(RuleError::new(
                "input",
                format!(
                    "render options: hex_size must be a number of pixels from {MIN_HEX_SIZE} \
                     to {MAX_HEX_SIZE}, not {}",
                    self.hex_size
                ),
            ));
        }
        let on_map = |h: &Hex, what: &str| -> Result<(), RuleError> {
            match sc.hex_index(*h) {
                Some(_) => Ok(()),
                None => Err(RuleError::new(
                    "input",
                    format!("render options: {what}: {h} is off the map"),
                )),
            }
        };
        for (i, m) in self.markers.iter().enumerate() {
            on_map(&m.hex, &format!("markers[{i}]"))?;
        }
        for (i, h) in self.highlight.iter().enumerate() {
            on_map(h, &format!("highlight[{i}]"))?;
        }
        if let Some(r) = &self.region {
            let c = r.corners();
            if c.is_empty() {
                return Err(RuleError::new(
                    "input",
                    "render options: region: an empty list of hexes",
                ));
            }
            for h in &c {
                on_map(h, "region")?;
            }
        }
        Ok(())
    }
}

//! Fixtures shared by the picture's tests: the built-in firefight once set up, a
//! scenario with hostile ids and every kind of terrain, and a small XML
//! well-formedness checker.

use crate::huzzah::engine::new_game;
use crate::huzzah::scenario::{from_json_value, validate, Scenario, UnitIx};
use crate::huzzah::state::State;
use serde_json::{json, Value};

/// The built-in firefight once its set-up is over.
pub(super) fn firefight() -> (Scenario, State) {
    let sc = Scenario::builtin("huzzah-firefight").unwrap();
    let s = after_setup(&sc, 1);
    (sc, s)
}

/// The state once the whole set-up is played: every unit and officer placed at his
/// scenario position (the encounter's units are placed in its set-up, page 7), any
/// other set-up decision taken by its first legal command.
pub(super) fn deployed(sc: &Scenario, seed: u64) -> State {
    use crate::huzzah::command::Command;
    use crate::huzzah::state::Phase;
    let mut rng = crate::rng::rng_from_seed(seed);
    let (mut s, _) = new_game(sc, &mut rng);
    for _ in 0..10_000 {
        if s.phase != Phase::Setup || s.is_over() {
            break;
        }
        let legal = crate::huzzah::legal::legal_commands(sc, &s);
        let cmd = legal
            .iter()
            .find(|c| matches!(c, Command::PlaceUnit { .. }))
            .or_else(|| {
                legal
                    .iter()
                    .find(|c| matches!(c, Command::PlaceOfficer { at: None, .. }))
            })
            .unwrap_or(&legal[0])
            .clone();
        let ev = crate::huzzah::engine::apply(sc, &s, &cmd, &mut rng).unwrap();
        s.apply_events(sc, &ev);
    }
    s
}

/// The state once the set-up is over: every officer placed at his scenario
/// position (the firefight's units start placed).
fn after_setup(sc: &Scenario, seed: u64) -> State {
    let mut rng = crate::rng::rng_from_seed(seed);
    let (mut s, _) = new_game(sc, &mut rng);
    while let crate::huzzah::state::Pending::PlaceOfficer { .. } = s.pending {
        let cmd = crate::huzzah::legal::legal_commands(sc, &s)
            .into_iter()
            .find(|c| {
                matches!(
                    c,
                    crate::huzzah::command::Command::PlaceOfficer { at: None, .. }
                )
            })
            .unwrap();
        let ev = crate::huzzah::engine::apply(sc, &s, &cmd, &mut rng).unwrap();
        s.apply_events(sc, &ev);
    }
    s
}

pub(super) fn ix(sc: &Scenario, id: &str) -> UnitIx {
    sc.unit_index(id).unwrap()
}

/// A tiny XML well-formedness check: every tag closed in order, attributes
/// quoted, no stray `<`, `>` or `&` in text or attribute values, one root.
pub(super) fn check_xml(svg: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut rest = svg;
    let check_text = |t: &str| -> Result<(), String> {
        if t.contains('>') {
            return Err(format!("a stray > in {t:?}"));
        }
        let mut r = t;
        while let Some(i) = r.find('&') {
            let tail = &r[i..];
            let ok = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                .iter()
                .any(|e| tail.starts_with(e));
            if !ok {
                return Err(format!("a bare & in {t:?}"));
            }
            r = &r[i + 1..];
        }
        Ok(())
    };
    while let Some(i) = rest.find('<') {
        let before = &rest[..i];
        if stack.is_empty() && !before.trim().is_empty() {
            return Err(format!("text outside the root: {before:?}"));
        }
        check_text(before)?;
        let after = &rest[i + 1..];
        // The tag ends at the first '>' outside quotes.
        let mut in_q = false;
        let mut end = None;
        for (k, ch) in after.char_indices() {
            match ch {
                '"' => in_q = !in_q,
                '<' if in_q => return Err("a < inside an attribute".into()),
                '>' if !in_q => {
                    end = Some(k);
                    break;
                }
                _ => {}
            }
        }
        let end = end.ok_or("an unclosed tag")?;
        let tag = &after[..end];
        rest = &after[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(open) if open == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let self_closing = tag.ends_with('/');
        let inner = tag.trim_end_matches('/');
        let name: String = inner.chars().take_while(|c| !c.is_whitespace()).collect();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("a bad tag name in <{tag}>"));
        }
        // Attributes: name="value" pairs.
        let mut attrs = inner[name.len()..].trim();
        let mut seen: Vec<&str> = Vec::new();
        while !attrs.is_empty() {
            let eq = attrs
                .find("=\"")
                .ok_or(format!("an unquoted attribute in <{tag}>"))?;
            let an = &attrs[..eq];
            if an.is_empty() || !an.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(format!("a bad attribute name {an:?}"));
            }
            if seen.contains(&an) {
                return Err(format!("a duplicate attribute {an} in <{tag}>"));
            }
            seen.push(an);
            let v = &attrs[eq + 2..];
            let close = v.find('"').ok_or("an unterminated attribute")?;
            check_text(&v[..close])?;
            attrs = v[close + 1..].trim_start();
        }
        if stack.is_empty() {
            roots += 1;
        }
        if !self_closing {
            stack.push(name);
        }
    }
    if !rest.trim().is_empty() {
        return Err(format!("text after the root: {rest:?}"));
    }
    if !stack.is_empty() {
        return Err(format!("unclosed: {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} roots"));
    }
    Ok(())
}

/// The firefight with hostile ids and every kind of terrain.
pub(super) fn hostile() -> Value {
    let mut v: Value =
        serde_json::from_str(include_str!("../../../scenarios/huzzah-firefight.json")).unwrap();
    v.as_object_mut().unwrap().remove("system");
    v["name"] = json!("Fight at <Les \"Quatre\" Bras> & 'Co'");
    v["sides"]["a"]["name"] = json!("O'Brien's <French>");
    v["sides"]["a"]["units"][0]["id"] = json!("<script>&");
    v["sides"]["a"]["units"][0]["name"] = json!("</title><b>bold</b>");
    v["sides"]["a"]["officers"][0]["id"] = json!("fr\"cinc'");
    v["terrain"] = json!([
        {"id": "w<1>", "kind": "woods",
         "polygon": [[100, 100], [500, 100], [500, 300], [100, 300]],
         "sectors": [
             [[100, 100], [300, 100], [300, 300], [100, 300]],
             [[300, 100], [500, 100], [500, 300], [300, 300]]
         ]},
        {"id": "village", "kind": "buildings",
         "polygon": [[1500, 100], [1700, 100], [1700, 250], [1500, 250]]},
        {"id": "hedge&", "kind": "hedge",
         "polygon": [[600, 1050], [900, 1050], [900, 1065], [600, 1065]]},
        {"id": "orchard", "kind": "orchard",
         "polygon": [[1450, 950], [1700, 950], [1700, 1150], [1450, 1150]]},
        {"id": "wall", "kind": "wall",
         "polygon": [[100, 1050], [400, 1050], [400, 1062], [100, 1062]]},
        {"id": "redoubt", "kind": "strongpoint",
         "polygon": [[150, 700], [350, 700], [350, 900], [150, 900]]}
    ]);
    v
}

pub(super) fn load(v: Value) -> Scenario {
    validate(from_json_value(v).unwrap()).unwrap()
}

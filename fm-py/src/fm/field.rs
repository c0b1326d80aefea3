//! How an attribute of a Fire & Movement typed object (command, event, pending
//! decision) reads its JSON field: `from_` reads `from`, and the fields the JSON leaves
//! out when empty or derived read their value (an empty list, a zero shift, `None`, a
//! move's destination).

use pyo3::exceptions::PyAttributeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A field by attribute name: `from_` reads `from`.
pub fn field<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    owner: &str,
    name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let key = name.strip_suffix('_').unwrap_or(name);
    if key != "type" {
        if let Some(v) = d.get_item(key)? {
            return Ok(v);
        }
    }
    // A retreat's empty displacement chain is left out of its JSON.
    if key == "displace"
        && d.get_item("type")?
            .is_some_and(|t| t.eq("retreat").unwrap_or(false))
    {
        return Ok(PyList::empty(py).into_any());
    }
    // A combat result's column shift (Suez 1916) is left out of its JSON when zero.
    if key == "shift"
        && d.get_item("type")?
            .is_some_and(|t| t.eq("combat_resolved").unwrap_or(false))
    {
        return Ok(0i8.into_pyobject(py)?.into_any());
    }
    let tagged = |tag: &str, value: &str| -> PyResult<bool> {
        Ok(d.get_item(tag)?
            .is_some_and(|t| t.eq(value).unwrap_or(false)))
    };
    // Lists left out of the JSON when empty: the units a Suez 1916 stiff resistance
    // also holds, the other brigades of a Meuse Argonne 17.5 target.
    if (key == "held" && tagged("type", "stiff_resistance")?)
        || (key == "stacked"
            && (tagged("type", "artillery_retreat_offered")?
                || tagged("kind", "artillery_retreat")?))
    {
        return Ok(PyList::empty(py).into_any());
    }
    // A Meuse Argonne 13.2 breakdown of a division not yet on the map has no hex.
    if key == "hex" && tagged("type", "division_broken_down")? {
        return Ok(py.None().into_bound(py));
    }
    // A move's destination is the last hex of its path: derived, so that the event's
    // JSON (a stable protocol, docs/protocol.md) stays as it is. The engine's moves
    // always enter a hex; only a hand-built event can have an empty path.
    if key == "to" && tagged("type", "unit_moved")? {
        if let Some(last) = d
            .get_item("path")?
            .and_then(|p| p.cast_into::<PyList>().ok())
            .and_then(|p| p.iter().last())
        {
            return Ok(last);
        }
        return Err(PyAttributeError::new_err(
            "this UnitMoved has an empty path: it has no destination 'to'",
        ));
    }
    Err(PyAttributeError::new_err(format!(
        "'{owner}' object has no attribute '{name}'"
    )))
}

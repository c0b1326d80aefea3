//! The values inside Huzzah!'s events and pending decisions as typed objects of
//! `fm.huzzah.events` (`Point`, `Shape`, `FactorTest` and its `Modifier`s, `Phase`,
//! `Group`, `Outcome`; base class `Value`), and the hook ([`TYPED`]) that builds them,
//! and the typed pending decision, while the attributes of an event, a decision or a
//! value are read. Each wraps the fm-core value: attributes are its JSON fields (typed
//! in turn: a shape's `anchor` is a `Point`), `to_dict()` is its JSON form, equality and
//! hashing are the Rust value's, and the constructor takes the JSON fields as keyword
//! arguments (`Point(x=90, y=30)`), read by serde as the engine reads them.

use super::records::pending_obj;
use super::{field, strict_text};
use crate::convert::{to_json_value, Typed};
use crate::errors::protocol_error;
use crate::typed::{cached_typed, hash_of, is_py_keyword, plain_dict};
// The classes below are named as the types they wrap: those are reached by module path.
use fm_core::huzzah::state::Pending;
use fm_core::huzzah::{command, event, geometry, state};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyClassInitializer;
use serde::Serialize;
use std::sync::OnceLock;

/// Builds the typed objects of Huzzah!'s values ([`Typed`]): the types serde names
/// `Point`, `Shape`, `Test`, `Modifier`, `Phase`, `Outcome`, `GroupArg` (the nested
/// values) and `Pending` (an `awaiting` event's decision).
pub struct HzTyped;

/// Huzzah!'s typed objects, for [`crate::convert::to_py_typed`].
pub static TYPED: HzTyped = HzTyped;

impl Typed for HzTyped {
    fn wants(&self, name: &str) -> bool {
        name == "Pending" || VALUE_TYPES.iter().any(|(_, serde)| *serde == name)
    }

    fn build<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        json: serde_json::Value,
    ) -> PyResult<Bound<'py, PyAny>> {
        if name == "Pending" {
            let p: Pending = serde_json::from_value(json)
                .map_err(|e| protocol_error(format!("invalid pending decision: {e}")))?;
            return pending_obj(py, &p);
        }
        let class = VALUE_TYPES
            .iter()
            .find(|(_, serde)| *serde == name)
            .map_or(name, |(class, _)| class);
        value_obj(py, &value_from_json(class, json)?)
    }
}

/// A value inside an event or a pending decision, as its Python class wraps it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// `fm.huzzah.events.Point`.
    Point(geometry::Point),
    /// `fm.huzzah.events.Shape`.
    Shape(geometry::Shape),
    /// `fm.huzzah.events.FactorTest`.
    FactorTest(event::Test),
    /// `fm.huzzah.events.Modifier`.
    Modifier(event::Modifier),
    /// `fm.huzzah.events.Phase`.
    Phase(state::Phase),
    /// `fm.huzzah.events.Outcome`.
    Outcome(state::Outcome),
    /// `fm.huzzah.events.Group`.
    Group(command::GroupArg),
}

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Point(v) => v.serialize(s),
            Value::Shape(v) => v.serialize(s),
            Value::FactorTest(v) => v.serialize(s),
            Value::Modifier(v) => v.serialize(s),
            Value::Phase(v) => v.serialize(s),
            Value::Outcome(v) => v.serialize(s),
            Value::Group(v) => v.serialize(s),
        }
    }
}

/// Each class and the name serde gives its Rust type.
const VALUE_TYPES: [(&str, &str); 7] = [
    ("Point", "Point"),
    ("Shape", "Shape"),
    ("FactorTest", "Test"),
    ("Modifier", "Modifier"),
    ("Phase", "Phase"),
    ("Outcome", "Outcome"),
    ("Group", "GroupArg"),
];

impl Value {
    /// Its class's name.
    fn class(&self) -> &'static str {
        match self {
            Value::Point(_) => "Point",
            Value::Shape(_) => "Shape",
            Value::FactorTest(_) => "FactorTest",
            Value::Modifier(_) => "Modifier",
            Value::Phase(_) => "Phase",
            Value::Outcome(_) => "Outcome",
            Value::Group(_) => "Group",
        }
    }

    /// The fields its JSON leaves out when they have no value (they read `None`).
    fn optional(&self) -> &'static [&'static str] {
        match self {
            Value::Phase(_) => &["side"],
            Value::Group(_) => &["unit", "division", "corps"],
            _ => &[],
        }
    }
}

/// The value of class `class` read from its JSON form: strictly, a field the type does
/// not have refused (serde would ignore it).
fn value_from_json(class: &str, json: serde_json::Value) -> PyResult<Value> {
    fn read<T: serde::de::DeserializeOwned>(class: &str, json: serde_json::Value) -> PyResult<T> {
        serde_json::from_value(json)
            .map_err(|e| protocol_error(format!("fm.huzzah.events.{class}: {e}")))
    }
    let given = json.clone();
    let v = match class {
        "Point" => Value::Point(read(class, json)?),
        "Shape" => Value::Shape(read(class, json)?),
        "FactorTest" => Value::FactorTest(read(class, json)?),
        "Modifier" => Value::Modifier(read(class, json)?),
        "Phase" => Value::Phase(read(class, json)?),
        "Outcome" => Value::Outcome(read(class, json)?),
        "Group" => Value::Group(read(class, json)?),
        other => {
            return Err(PyTypeError::new_err(format!(
                "fm.huzzah.events.{other} is not a value class (Point, Shape, FactorTest, \
                 Modifier, Phase, Outcome, Group)"
            )))
        }
    };
    let back = serde_json::to_value(&v).map_err(|e| protocol_error(e.to_string()))?;
    if let (serde_json::Value::Object(g), serde_json::Value::Object(b)) = (&given, &back) {
        if let Some(k) = g.keys().find(|k| !b.contains_key(*k)) {
            return Err(PyTypeError::new_err(format!(
                "fm.huzzah.events.{class}: unknown field `{k}`"
            )));
        }
    }
    Ok(v)
}

/// A Python argument as JSON: a typed value (or a list of them) as its JSON form,
/// anything else as JSON data.
fn json_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<serde_json::Value> {
    if let Ok(v) = obj.cast::<PyHzValue>() {
        return serde_json::to_value(&v.get().v).map_err(|e| protocol_error(e.to_string()));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for x in obj.try_iter()? {
            out.push(json_arg(&x?, what)?);
        }
        return Ok(serde_json::Value::Array(out));
    }
    to_json_value(obj, what).map_err(protocol_error)
}

/// A value of class `class` from keyword arguments (`None` values left out).
fn value_from_kwargs(class: &str, fields: Option<&Bound<'_, PyDict>>) -> PyResult<Value> {
    let mut m = serde_json::Map::new();
    for (k, v) in fields.into_iter().flat_map(|f| f.iter()) {
        let k: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        let value = json_arg(&v, &k)?;
        m.insert(k, value);
    }
    value_from_json(class, serde_json::Value::Object(m))
}

/// A value inside a Huzzah! event or pending decision (base class of
/// `fm.huzzah.events.Point`, `Shape`, `FactorTest`, `Modifier`, `Phase`, `Outcome` and
/// `Group`). Attributes are the JSON fields (lengths in millimetres); `to_dict()` is the
/// JSON form; values compare equal when their Rust values do, and are hashable.
#[pyclass(module = "fm.huzzah.events", name = "Value", subclass, frozen)]
pub struct PyHzValue {
    pub v: Value,
    cache: OnceLock<Py<PyDict>>,
}

impl PyHzValue {
    fn new(v: Value) -> PyHzValue {
        PyHzValue {
            v,
            cache: OnceLock::new(),
        }
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        cached_typed(py, &self.cache, &self.v, &TYPED)
    }
}

#[pymethods]
impl PyHzValue {
    /// Reads a value of this class from its JSON form (a dict or JSON text).
    #[classmethod]
    fn from_dict<'py>(
        cls: &Bound<'py, PyType>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let class = cls.name()?.to_string();
        let json = match data.cast::<PyString>() {
            Ok(s) => strict_text(s.to_str()?, "value JSON")?,
            Err(_) => json_arg(data, "value")?,
        };
        value_obj(py, &value_from_json(&class, json)?)
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        field(
            py,
            &self.dict(py)?,
            "",
            self.v.optional(),
            self.v.class(),
            name,
        )
    }

    /// A field by attribute name: what the subclasses' read-only properties (the
    /// documented fields, `fm/_fields.py`) read.
    #[pyo3(name = "_field")]
    fn field_attr<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        self.__getattr__(py, name)
    }

    /// The JSON form, as a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        plain_dict(py, &self.v)
    }

    /// The JSON form, as text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.v).expect("a value serializes")
    }

    /// The names of the fields the JSON form holds.
    fn fields(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let mut out = Vec::new();
        for k in self.dict(py)?.keys() {
            let k: String = k.extract()?;
            out.push(if is_py_keyword(&k) {
                format!("{k}_")
            } else {
                k
            });
        }
        Ok(out)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        for (k, v) in self.dict(py)?.iter() {
            let k: String = k.extract()?;
            let k = if is_py_keyword(&k) {
                format!("{k}_")
            } else {
                k
            };
            parts.push(format!("{k}={}", v.repr()?.to_str()?));
        }
        Ok(format!("{}({})", self.v.class(), parts.join(", ")))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyHzValue>() {
            Ok(o) => o.get().v == self.v,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.v)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("fm._fm")?.getattr("_hz_value_from_json")?;
        let args = PyTuple::new(
            py,
            [
                PyString::new(py, self.v.class()).into_any(),
                PyString::new(py, &self.to_json()).into_any(),
            ],
        )?;
        PyTuple::new(py, [f, args.into_any()])
    }
}

/// One class per [`Value`] variant: `Class "signature" "doc";`; the constructor takes the
/// JSON fields as keyword arguments.
macro_rules! value_classes {
    ($( $v:ident $sig:literal $doc:literal; )*) => {
        $(
            #[doc = $doc]
            #[pyclass(module = "fm.huzzah.events", extends = PyHzValue, frozen)]
            pub struct $v;
            #[pymethods]
            impl $v {
                #[new]
                #[pyo3(signature = (**fields), text_signature = $sig)]
                fn new(fields: Option<&Bound<'_, PyDict>>) -> PyResult<PyClassInitializer<Self>> {
                    let v = value_from_kwargs(stringify!($v), fields)?;
                    Ok(PyClassInitializer::from(PyHzValue::new(v)).add_subclass($v))
                }
            }
        )*

        /// A typed value object.
        pub fn value_obj<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
            let base = PyClassInitializer::from(PyHzValue::new(v.clone()));
            Ok(match v {
                $( Value::$v(_) => Bound::new(py, base.add_subclass($v))?.into_any(), )*
            })
        }

        /// Adds the value classes to a module.
        pub fn add_value_classes(m: &Bound<'_, PyModule>) -> PyResult<()> {
            m.add_class::<PyHzValue>()?;
            $( m.add_class::<$v>()?; )*
            Ok(())
        }
    };
}

value_classes! {
    Point "(*, x, y)" "A point on the table, in millimetres: `x` along side A's edge, `y` away from it.";
    Shape "(*, anchor, facing, ranks, base_mm, square)" "A unit's geometry: its `anchor` (the centre of the front edge of the front rank, a `Point`), `facing` (degrees clockwise from +y), bases per rank (front first), the side of a base (`base_mm`) and whether it is in `square`.";
    FactorTest "(*, base, modifiers, factor, dice, passed)" "A roll against a factor: the unmodified `base`, the `modifiers` (`Modifier`s), the `factor` used (clamped where the rule clamps it), the `dice` and whether it `passed`.";
    Modifier "(*, why, by)" "One term of a modified factor: the rule's wording (`why`) and the change (`by`).";
    Phase "(*, phase, side=None)" "A phase of the turn (page 7): its name (`phase`: `\"firing\"`, ...) and, for the phases of one player, its `side`.";
    Outcome "(*, winner, reason)" "How the battle ended: the `winner` (`None`: a draw) and why.";
    Group "(*, unit=None, division=None, corps=None)" "The group an order names, by id: exactly one of `unit`, `division` and `corps`.";
}

#[pyfunction]
pub fn _hz_value_from_json<'py>(
    py: Python<'py>,
    class: &str,
    json: &str,
) -> PyResult<Bound<'py, PyAny>> {
    value_obj(
        py,
        &value_from_json(class, strict_text(json, "value JSON")?)?,
    )
}

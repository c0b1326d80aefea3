//! Conversions between Rust values and Python objects without a JSON text round trip:
//! [`to_py`] serializes any `Serialize` value straight into Python dicts, lists, strings
//! and numbers (keys in declaration order, exactly the documented JSON form),
//! [`to_py_typed`] does the same with a system's typed objects for the values it names
//! ([`Typed`]), and [`to_json_value`] reads a Python object into a `serde_json::Value`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::ser::{self, Serialize};
use std::fmt;

/// Little-endian float32 values as `bytes`: one copy of the vector's memory on a
/// little-endian machine (a byte-by-byte `to_le_bytes` of a 90,000-float observation
/// took longer than the observation itself).
pub fn f32_le_bytes<'py>(py: Python<'py>, v: &[f32]) -> Bound<'py, PyBytes> {
    #[cfg(target_endian = "little")]
    {
        // SAFETY: any f32 is 4 initialized bytes, in little-endian order on this target;
        // the byte slice covers exactly the vector's memory and lives as long as `v`.
        let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), 4 * v.len()) };
        PyBytes::new(py, bytes)
    }
    #[cfg(not(target_endian = "little"))]
    {
        let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
        PyBytes::new(py, &bytes)
    }
}

/// Serializes `v` into a Python object.
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    v.serialize(PySer {
        py,
        typed: None,
        top: true,
    })
    .map_err(|e| PyTypeError::new_err(e.0))
}

/// A rules system's typed Python objects for some of the values inside its events and
/// decisions (a point, a test, a phase): [`to_py_typed`] asks it, for each struct or
/// enum serde names as it serializes, whether it becomes an object instead of a dict.
/// Serde's name is the Rust type's (`"Point"`), which only that system's values carry
/// in the value serialized.
pub trait Typed: Sync {
    /// Whether values of the type serde calls `name` become objects.
    fn wants(&self, name: &str) -> bool;
    /// The object for a value of the type serde calls `name`, from its JSON form.
    fn build<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        json: serde_json::Value,
    ) -> PyResult<Bound<'py, PyAny>>;
}

/// Serializes `v` as [`to_py`] does, except that every value below the top level whose
/// type `typed` wants becomes its object, and tuples (pairs, dice) Python tuples: the
/// attributes of a system's typed objects. The top level itself stays a dict (the
/// fields of the object being built).
pub fn to_py_typed<'py, T: Serialize + ?Sized>(
    py: Python<'py>,
    v: &T,
    typed: &'static dyn Typed,
) -> PyResult<Bound<'py, PyAny>> {
    v.serialize(PySer {
        py,
        typed: Some(typed),
        top: true,
    })
    .map_err(|e| PyTypeError::new_err(e.0))
}

#[derive(Debug)]
pub struct SerErr(String);

impl fmt::Display for SerErr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for SerErr {}
impl ser::Error for SerErr {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        SerErr(msg.to_string())
    }
}
impl From<PyErr> for SerErr {
    fn from(e: PyErr) -> Self {
        SerErr(e.to_string())
    }
}

#[derive(Clone, Copy)]
struct PySer<'py> {
    py: Python<'py>,
    /// The system's typed objects ([`to_py_typed`]); `None`: plain dicts and lists.
    typed: Option<&'static dyn Typed>,
    /// Serializing the top-level value (never turned into a typed object).
    top: bool,
}

impl<'py> PySer<'py> {
    /// The serializer of a value inside this one.
    fn inner(py: Python<'py>, typed: Option<&'static dyn Typed>) -> PySer<'py> {
        PySer {
            py,
            typed,
            top: false,
        }
    }

    /// The typed hook, if a value of the type serde calls `name`, here, becomes an object.
    fn wanted(&self, name: &str) -> Option<&'static dyn Typed> {
        self.typed.filter(|t| !self.top && t.wants(name))
    }
}

struct SeqSer<'py> {
    py: Python<'py>,
    typed: Option<&'static dyn Typed>,
    items: Vec<Bound<'py, PyAny>>,
    /// A tuple in typed mode: a Python tuple.
    tuple: bool,
}

struct VariantSeqSer<'py> {
    py: Python<'py>,
    typed: Option<&'static dyn Typed>,
    name: &'static str,
    items: Vec<Bound<'py, PyAny>>,
}

struct MapSer<'py> {
    py: Python<'py>,
    typed: Option<&'static dyn Typed>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    /// A struct that becomes a typed object: its name and its JSON form, built field by
    /// field.
    json: Option<(
        &'static str,
        &'static dyn Typed,
        serde_json::Map<String, serde_json::Value>,
    )>,
}

struct VariantMapSer<'py> {
    py: Python<'py>,
    typed: Option<&'static dyn Typed>,
    name: &'static str,
    dict: Bound<'py, PyDict>,
}

type R<'py> = Result<Bound<'py, PyAny>, SerErr>;

impl<'py> PySer<'py> {
    fn int<T: IntoPyObject<'py>>(self, v: T) -> R<'py> {
        use pyo3::IntoPyObjectExt;
        v.into_bound_py_any(self.py).map_err(SerErr::from)
    }
}

impl<'py> ser::Serializer for PySer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    type SerializeSeq = SeqSer<'py>;
    type SerializeTuple = SeqSer<'py>;
    type SerializeTupleStruct = SeqSer<'py>;
    type SerializeTupleVariant = VariantSeqSer<'py>;
    type SerializeMap = MapSer<'py>;
    type SerializeStruct = MapSer<'py>;
    type SerializeStructVariant = VariantMapSer<'py>;

    fn serialize_bool(self, v: bool) -> R<'py> {
        Ok(PyBool::new(self.py, v).to_owned().into_any())
    }
    fn serialize_i8(self, v: i8) -> R<'py> {
        self.int(v)
    }
    fn serialize_i16(self, v: i16) -> R<'py> {
        self.int(v)
    }
    fn serialize_i32(self, v: i32) -> R<'py> {
        self.int(v)
    }
    fn serialize_i64(self, v: i64) -> R<'py> {
        self.int(v)
    }
    fn serialize_u8(self, v: u8) -> R<'py> {
        self.int(v)
    }
    fn serialize_u16(self, v: u16) -> R<'py> {
        self.int(v)
    }
    fn serialize_u32(self, v: u32) -> R<'py> {
        self.int(v)
    }
    fn serialize_u64(self, v: u64) -> R<'py> {
        self.int(v)
    }
    fn serialize_f32(self, v: f32) -> R<'py> {
        Ok(PyFloat::new(self.py, v as f64).into_any())
    }
    fn serialize_f64(self, v: f64) -> R<'py> {
        Ok(PyFloat::new(self.py, v).into_any())
    }
    fn serialize_char(self, v: char) -> R<'py> {
        let mut b = [0u8; 4];
        Ok(PyString::new(self.py, v.encode_utf8(&mut b)).into_any())
    }
    fn serialize_str(self, v: &str) -> R<'py> {
        Ok(PyString::new(self.py, v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> R<'py> {
        Ok(PyBytes::new(self.py, v).into_any())
    }
    fn serialize_none(self) -> R<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_unit_struct(self, _: &'static str) -> R<'py> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R<'py> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> R<'py> {
        if let Some(t) = self.wanted(name) {
            let mut m = serde_json::Map::new();
            m.insert(
                variant.to_string(),
                serde_json::to_value(v).map_err(|e| SerErr(e.to_string()))?,
            );
            return Ok(t.build(self.py, name, serde_json::Value::Object(m))?);
        }
        let d = PyDict::new(self.py);
        d.set_item(variant, v.serialize(PySer::inner(self.py, self.typed))?)?;
        Ok(d.into_any())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'py>, SerErr> {
        Ok(SeqSer {
            py: self.py,
            typed: self.typed,
            items: Vec::with_capacity(len.unwrap_or(0)),
            tuple: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'py>, SerErr> {
        let mut s = self.serialize_seq(Some(len))?;
        s.tuple = self.typed.is_some();
        Ok(s)
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer<'py>, SerErr> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeqSer<'py>, SerErr> {
        Ok(VariantSeqSer {
            py: self.py,
            typed: self.typed,
            name: variant,
            items: Vec::with_capacity(len),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapSer<'py>, SerErr> {
        Ok(MapSer {
            py: self.py,
            typed: self.typed,
            dict: PyDict::new(self.py),
            key: None,
            json: None,
        })
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<MapSer<'py>, SerErr> {
        let json = self.wanted(name).map(|t| (name, t, serde_json::Map::new()));
        let mut m = self.serialize_map(None)?;
        m.json = json;
        Ok(m)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<VariantMapSer<'py>, SerErr> {
        Ok(VariantMapSer {
            py: self.py,
            typed: self.typed,
            name: variant,
            dict: PyDict::new(self.py),
        })
    }
}

impl<'py> ser::SerializeSeq for SeqSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        self.items
            .push(v.serialize(PySer::inner(self.py, self.typed))?);
        Ok(())
    }
    fn end(self) -> R<'py> {
        if self.tuple {
            return Ok(PyTuple::new(self.py, self.items)?.into_any());
        }
        Ok(PyList::new(self.py, self.items)?.into_any())
    }
}

impl<'py> ser::SerializeTuple for SeqSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> R<'py> {
        ser::SerializeSeq::end(self)
    }
}

impl<'py> ser::SerializeTupleStruct for SeqSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> R<'py> {
        ser::SerializeSeq::end(self)
    }
}

impl<'py> ser::SerializeTupleVariant for VariantSeqSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        self.items
            .push(v.serialize(PySer::inner(self.py, self.typed))?);
        Ok(())
    }
    fn end(self) -> R<'py> {
        let d = PyDict::new(self.py);
        d.set_item(self.name, PyList::new(self.py, self.items)?)?;
        Ok(d.into_any())
    }
}

impl<'py> ser::SerializeMap for MapSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), SerErr> {
        self.key = Some(k.serialize(PySer::inner(self.py, self.typed))?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        let k = self
            .key
            .take()
            .ok_or_else(|| SerErr("map value without a key".into()))?;
        self.dict
            .set_item(k, v.serialize(PySer::inner(self.py, self.typed))?)?;
        Ok(())
    }
    fn end(self) -> R<'py> {
        Ok(self.dict.into_any())
    }
}

impl<'py> ser::SerializeStruct for MapSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), SerErr> {
        if let Some((_, _, m)) = self.json.as_mut() {
            let v = serde_json::to_value(v).map_err(|e| SerErr(e.to_string()))?;
            m.insert(key.to_string(), v);
            return Ok(());
        }
        self.dict
            .set_item(key, v.serialize(PySer::inner(self.py, self.typed))?)?;
        Ok(())
    }
    fn end(self) -> R<'py> {
        if let Some((name, t, m)) = self.json {
            return Ok(t.build(self.py, name, serde_json::Value::Object(m))?);
        }
        Ok(self.dict.into_any())
    }
}

impl<'py> ser::SerializeStructVariant for VariantMapSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), SerErr> {
        self.dict
            .set_item(key, v.serialize(PySer::inner(self.py, self.typed))?)?;
        Ok(())
    }
    fn end(self) -> R<'py> {
        let d = PyDict::new(self.py);
        d.set_item(self.name, self.dict)?;
        Ok(d.into_any())
    }
}

/// The deepest nesting of lists and dicts that Python data read as JSON data may have
/// (commands, events and scenarios given as dicts): 128, the bound serde_json's own
/// parser puts on JSON text, so that a dict and its JSON text are held to the same
/// limit. Deeper data is refused with `fm.ProtocolError` (never a stack overflow).
pub const MAX_JSON_DEPTH: usize = 128;

/// The largest input accepted, in bytes: a save or scenario file (read no further than
/// this), JSON text, or Python data read as JSON data (counted as a lower bound of its
/// JSON text: each value one byte plus the UTF-8 length of its strings and keys).
/// 64 MiB, about a hundred times the longest save of a random game of a built-in
/// scenario.
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// `MAX_INPUT_BYTES` for messages.
pub fn max_input_text() -> String {
    format!("{} MiB", MAX_INPUT_BYTES >> 20)
}

/// A step of the path from the top of a Python value to one inside it.
enum Seg<'py> {
    Key(Bound<'py, PyString>),
    Index(usize),
}

/// The walk of [`to_json_value`]: the path so far (for messages, formatted only on an
/// error), the containers on it (to detect a cycle) and the size budget left.
struct Walk<'py> {
    path: Vec<Seg<'py>>,
    open: Vec<*mut pyo3::ffi::PyObject>,
    budget: usize,
}

impl<'py> Walk<'py> {
    /// `what` followed by the path: `command.path[2]` (the middle of a long path left
    /// out: `command.path[0][0][0]…[0][0][0]`).
    fn at(&self, what: &str) -> String {
        let mut s = what.to_string();
        let n = self.path.len();
        for (k, seg) in self.path.iter().enumerate() {
            if n > 8 && (3..n - 3).contains(&k) {
                if k == 3 {
                    s.push('…');
                }
                continue;
            }
            match seg {
                Seg::Key(k) => {
                    let k = k.to_str().unwrap_or("?");
                    s.push('.');
                    // A long key would swamp the message.
                    match k.char_indices().nth(40) {
                        Some((i, _)) => {
                            s.push_str(&k[..i]);
                            s.push('…');
                        }
                        None => s.push_str(k),
                    }
                }
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }

    fn spend(&mut self, n: usize, what: &str) -> Result<(), String> {
        match self.budget.checked_sub(n) {
            Some(b) => {
                self.budget = b;
                Ok(())
            }
            None => Err(format!(
                "{what}: too large (more than {} as JSON)",
                max_input_text()
            )),
        }
    }

    /// Enters a container: refuses a cycle (the container is already open on the path)
    /// and nesting deeper than [`MAX_JSON_DEPTH`].
    fn enter(&mut self, obj: &Bound<'py, PyAny>, what: &str) -> Result<(), String> {
        let p = obj.as_ptr();
        if self.open.contains(&p) {
            return Err(format!(
                "{}: a {} that contains itself (a reference cycle) cannot be read as JSON data",
                self.at(what),
                type_name(obj)
            ));
        }
        if self.open.len() >= MAX_JSON_DEPTH {
            return Err(format!(
                "{}: nested more than {MAX_JSON_DEPTH} levels deep (the limit of JSON data)",
                self.at(what)
            ));
        }
        self.open.push(p);
        Ok(())
    }

    fn value(&mut self, obj: &Bound<'py, PyAny>, what: &str) -> Result<serde_json::Value, String> {
        use serde_json::Value;
        self.spend(1, what)?;
        if obj.is_none() {
            return Ok(Value::Null);
        }
        if let Ok(b) = obj.cast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if obj.is_instance_of::<PyInt>() {
            if let Ok(v) = obj.extract::<i64>() {
                return Ok(Value::from(v));
            }
            if let Ok(v) = obj.extract::<u64>() {
                return Ok(Value::from(v));
            }
            return Err(format!("{}: integer out of range", self.at(what)));
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return serde_json::Number::from_f64(f.value())
                .map(Value::Number)
                .ok_or_else(|| format!("{}: {} is not a JSON number", self.at(what), f.value()));
        }
        if let Ok(s) = obj.cast::<PyString>() {
            let s = s.to_str().map_err(|e| format!("{}: {e}", self.at(what)))?;
            self.spend(s.len(), what)?;
            return Ok(Value::String(s.to_string()));
        }
        if let Ok(d) = obj.cast::<PyDict>() {
            self.enter(obj, what)?;
            let mut m = serde_json::Map::new();
            for (k, v) in d.iter() {
                let ks = match k.cast_into::<PyString>() {
                    Ok(ks) => ks,
                    Err(e) => {
                        return Err(format!(
                            "{}: keys must be strings, not {}",
                            self.at(what),
                            type_name(&e.into_inner())
                        ))
                    }
                };
                let key = ks
                    .to_str()
                    .map_err(|e| format!("{}: {e}", self.at(what)))?
                    .to_string();
                self.spend(key.len(), what)?;
                self.path.push(Seg::Key(ks));
                let inner = self.value(&v, what)?;
                self.path.pop();
                m.insert(key, inner);
            }
            self.open.pop();
            return Ok(Value::Object(m));
        }
        let items: Option<Vec<Bound<'py, PyAny>>> = if let Ok(l) = obj.cast::<PyList>() {
            Some(l.iter().collect())
        } else if let Ok(t) = obj.cast::<PyTuple>() {
            Some(t.iter().collect())
        } else {
            None
        };
        if let Some(items) = items {
            self.enter(obj, what)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, x) in items.iter().enumerate() {
                self.path.push(Seg::Index(i));
                out.push(self.value(x, what)?);
                self.path.pop();
            }
            self.open.pop();
            return Ok(Value::Array(out));
        }
        Err(format!(
            "{}: a {} cannot be read as JSON data",
            self.at(what),
            type_name(obj)
        ))
    }
}

/// Reads a Python object (None, bool, int, float, str, dict with str keys, list or
/// tuple, nested at most [`MAX_JSON_DEPTH`] deep, at most [`MAX_INPUT_BYTES`] in all)
/// as JSON data. `what` names the value in error messages, which give the path to the
/// offending value (`command.path[2]`). A container that contains itself is refused,
/// not followed. Linear in the size of the data.
pub fn to_json_value(obj: &Bound<'_, PyAny>, what: &str) -> Result<serde_json::Value, String> {
    Walk {
        path: Vec::new(),
        open: Vec::new(),
        budget: MAX_INPUT_BYTES,
    }
    .value(obj, what)
}

/// Refuses text longer than [`MAX_INPUT_BYTES`].
pub fn check_text_size(len: usize, what: &str) -> Result<(), String> {
    if len > MAX_INPUT_BYTES {
        return Err(format!(
            "{what}: too large ({len} bytes; the limit is {})",
            max_input_text()
        ));
    }
    Ok(())
}

/// Text without a leading UTF-8 byte-order mark (some editors write one).
pub fn strip_bom(s: &str) -> &str {
    s.strip_prefix('\u{feff}').unwrap_or(s)
}

/// The Python type name of an object, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// FNV-1a, 64 bit.
pub struct Fnv(pub u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// Canonical JSON text: compact, object keys sorted, non-ASCII written as is (the same
/// text as Python's `json.dumps(x, sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False)` for the values the engine produces).
pub fn canonical_json(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).expect("a string serializes"));
                out.push(':');
                canonical_json(&m[*k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical_json(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).expect("a value serializes")),
    }
}

//! Conversions between Rust values and Python objects without a JSON text round trip:
//! [`to_py`] serializes any `Serialize` value straight into Python dicts, lists, strings
//! and numbers (keys in declaration order, exactly the documented JSON form), and
//! [`to_json_value`] reads a Python object into a `serde_json::Value`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::ser::{self, Serialize};
use std::fmt;

/// Serializes `v` into a Python object.
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, v: &T) -> PyResult<Bound<'py, PyAny>> {
    v.serialize(PySer { py })
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
}

struct SeqSer<'py> {
    py: Python<'py>,
    items: Vec<Bound<'py, PyAny>>,
}

struct VariantSeqSer<'py> {
    py: Python<'py>,
    name: &'static str,
    items: Vec<Bound<'py, PyAny>>,
}

struct MapSer<'py> {
    py: Python<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
}

struct VariantMapSer<'py> {
    py: Python<'py>,
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
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> R<'py> {
        let d = PyDict::new(self.py);
        d.set_item(variant, v.serialize(self)?)?;
        Ok(d.into_any())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSer<'py>, SerErr> {
        Ok(SeqSer {
            py: self.py,
            items: Vec::with_capacity(len.unwrap_or(0)),
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSer<'py>, SerErr> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqSer<'py>, SerErr> {
        self.serialize_seq(Some(len))
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
            name: variant,
            items: Vec::with_capacity(len),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<MapSer<'py>, SerErr> {
        Ok(MapSer {
            py: self.py,
            dict: PyDict::new(self.py),
            key: None,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<MapSer<'py>, SerErr> {
        self.serialize_map(None)
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
            name: variant,
            dict: PyDict::new(self.py),
        })
    }
}

impl<'py> ser::SerializeSeq for SeqSer<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = SerErr;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        self.items.push(v.serialize(PySer { py: self.py })?);
        Ok(())
    }
    fn end(self) -> R<'py> {
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
        self.items.push(v.serialize(PySer { py: self.py })?);
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
        self.key = Some(k.serialize(PySer { py: self.py })?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SerErr> {
        let k = self
            .key
            .take()
            .ok_or_else(|| SerErr("map value without a key".into()))?;
        self.dict.set_item(k, v.serialize(PySer { py: self.py })?)?;
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
        self.dict
            .set_item(key, v.serialize(PySer { py: self.py })?)?;
        Ok(())
    }
    fn end(self) -> R<'py> {
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
            .set_item(key, v.serialize(PySer { py: self.py })?)?;
        Ok(())
    }
    fn end(self) -> R<'py> {
        let d = PyDict::new(self.py);
        d.set_item(self.name, self.dict)?;
        Ok(d.into_any())
    }
}

/// Reads a Python object (None, bool, int, float, str, dict with str keys, list or
/// tuple, nested) as JSON data. `what` names the value in error messages.
pub fn to_json_value(obj: &Bound<'_, PyAny>, what: &str) -> Result<serde_json::Value, String> {
    use serde_json::Value;
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
        return Err(format!("{what}: integer out of range"));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return serde_json::Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| format!("{what}: {} is not a JSON number", f.value()));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_str()
            .map(|s| Value::String(s.to_string()))
            .map_err(|e| format!("{what}: {e}"));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut m = serde_json::Map::new();
        for (k, v) in d.iter() {
            let Ok(ks) = k.cast::<PyString>() else {
                return Err(format!(
                    "{what}: keys must be strings, not {}",
                    type_name(&k)
                ));
            };
            let ks = ks.to_str().map_err(|e| format!("{what}: {e}"))?.to_string();
            let inner = to_json_value(&v, &format!("{what}.{ks}"))?;
            m.insert(ks, inner);
        }
        return Ok(Value::Object(m));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l
            .iter()
            .enumerate()
            .map(|(i, x)| to_json_value(&x, &format!("{what}[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t
            .iter()
            .enumerate()
            .map(|(i, x)| to_json_value(&x, &format!("{what}[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    Err(format!(
        "{what}: a {} cannot be read as JSON data",
        type_name(obj)
    ))
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

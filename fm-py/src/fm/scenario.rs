//! Fire & Movement scenarios: `fm.Scenario` (a validated, immutable scenario shared
//! between matches), and how the bindings read one (built-in, scenario data, JSON text
//! with its errors by line and column) for the scenario hooks of
//! [`PySystem`](crate::system::PySystem).

use crate::convert::to_py;
use crate::errors::{match_error, scenario_error, unsupported_error};
use crate::source::source_from_py;
use crate::system::{ReadScenario, Source};
use fm_core::any::DynMatch;
use fm_core::{Scenario, Side};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use std::any::Any;
use std::sync::Arc;

/// A Fire & Movement scenario read by these bindings, shared by the matches opened
/// from it (`fm.Match(scenario)` does not copy it).
pub struct FmScenario(pub Arc<Scenario>);

impl ReadScenario for FmScenario {
    fn open(&self, seed: u64) -> Box<dyn DynMatch> {
        // The Fire & Movement match is itself a `DynMatch`.
        Box::new(fm_core::Match::new(self.0.clone(), seed))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A scenario as the scenario hooks give it.
pub fn read(sc: Arc<Scenario>) -> Arc<dyn ReadScenario> {
    Arc::new(FmScenario(sc))
}

/// A built-in Fire & Movement scenario.
pub fn builtin(name: &str) -> PyResult<Arc<dyn ReadScenario>> {
    Scenario::builtin(name)
        .map(|sc| read(Arc::new(sc)))
        .map_err(|e| scenario_error(&e))
}

/// A Fire & Movement scenario from scenario data (a dict, or JSON without `"system"`).
pub fn from_value(v: serde_json::Value) -> PyResult<Source> {
    let data = fm_core::ScenarioData::from_value(v).map_err(|e| scenario_error(&e))?;
    Scenario::from_data(data)
        .map(|sc| Source::Read(read(Arc::new(sc))))
        .map_err(|e| scenario_error(&e))
}

/// A Fire & Movement scenario from its JSON text, whose errors keep their line and
/// column (the same messages as before the match layer).
pub fn from_text(body: &str) -> PyResult<Source> {
    Scenario::from_json(body)
        .map(|sc| Source::Read(read(Arc::new(sc))))
        .map_err(|e| scenario_error(&e))
}

/// The error for text that is not JSON: Fire & Movement's parser gives the JSON path
/// where the text stops making sense (`None` if it reads the text after all).
pub fn syntax_error(body: &str) -> Option<PyErr> {
    Scenario::from_json(body)
        .err()
        .map(|se| scenario_error(&se))
}

/// Loads a Fire & Movement scenario (`fm.Scenario`, `fm.env`): as [`source_from_py`],
/// and `fm.UnsupportedError` for a valid scenario of another system.
pub fn load_scenario(source: &Bound<'_, PyAny>) -> PyResult<Arc<Scenario>> {
    let src = source_from_py(source)?;
    if let Source::Read(sc) = &src {
        if let Some(sc) = sc.as_any().downcast_ref::<FmScenario>() {
            return Ok(sc.0.clone());
        }
    }
    // Opening a match validates the scenario and names its system (an invalid scenario
    // or an unknown system gets the layer's error instead).
    let m = src.open(0).map_err(|e| match_error(&e))?;
    Err(unsupported_error(
        format!(
            "fm.Scenario holds Fire & Movement scenarios; this one is of the {:?} rules \
             system (open it with fm.Match)",
            m.system()
        ),
        m.system(),
    ))
}

/// A validated, immutable scenario: the map, terrain, CRT, order of battle and turn
/// track. Shared cheaply between matches (`fm.Match(scenario, seed)`).
#[pyclass(module = "fm", name = "Scenario", frozen)]
pub struct PyScenario {
    pub sc: Arc<Scenario>,
}

#[pymethods]
impl PyScenario {
    /// Loads a scenario: a built-in name (`fm.scenarios()`), a path to a JSON file, JSON
    /// text, or a dict of scenario data.
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyScenario {
            sc: load_scenario(source)?,
        })
    }

    /// Short id (`"system-demo"`).
    #[getter]
    fn id(&self) -> String {
        self.sc.data.id.clone()
    }

    /// Title.
    #[getter]
    fn name(&self) -> String {
        self.sc.data.name.clone()
    }

    /// Side names: `{"a": "Blue", "b": "Red"}`.
    #[getter]
    fn sides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in Side::BOTH {
            d.set_item(s.to_string(), self.sc.side_name(s))?;
        }
        Ok(d)
    }

    /// Unit ids in scenario order (the order of the action encoding).
    #[getter]
    fn unit_ids(&self) -> Vec<String> {
        self.sc
            .units
            .iter()
            .map(|u| u.data.id.as_str().to_string())
            .collect()
    }

    /// Hex ids in scenario order (the order of the action encoding).
    #[getter]
    fn hexes(&self) -> Vec<String> {
        self.sc.hexes.iter().map(|h| h.hex.to_string()).collect()
    }

    /// Number of turns on the turn track.
    #[getter]
    fn turn_count(&self) -> u16 {
        self.sc.turn_count()
    }

    /// Size of the fixed integer action space (`fm_core::action_space_size`).
    #[getter]
    fn action_space_size(&self) -> usize {
        fm_core::action_space_size(&self.sc)
    }

    /// The scenario data as a dict (the scenario file's JSON form).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.sc.data)
    }

    /// The scenario file's JSON text.
    fn to_json(&self) -> String {
        self.sc.to_json()
    }

    /// The shape of the board planes of an observation: `(channels, rows, columns)`.
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let m = fm_core::observation::Meta::new(&self.sc);
        (m.channels, m.rows, m.cols)
    }

    /// The length of a flat observation (`Match.observation`): the board planes'
    /// `channels * rows * columns` plus the number of features.
    #[getter]
    fn observation_size(&self) -> usize {
        let m = fm_core::observation::Meta::new(&self.sc);
        m.channels * m.rows * m.cols + fm_core::observation::feature_names().len()
    }

    /// Names of the board channels of an observation.
    #[getter]
    fn observation_channels(&self) -> Vec<String> {
        fm_core::observation::Meta::new(&self.sc).channel_names
    }

    /// Names of the entries of an observation's feature vector.
    #[getter]
    fn feature_names(&self) -> Vec<String> {
        fm_core::observation::feature_names()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let q = |s: &str| -> PyResult<String> { Ok(PyString::new(py, s).repr()?.to_string()) };
        Ok(format!(
            "Scenario(id={}, name={}, hexes={}, units={}, turns={})",
            q(&self.sc.data.id)?,
            q(&self.sc.data.name)?,
            self.sc.hexes.len(),
            self.sc.units.len(),
            self.sc.turn_count()
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyScenario>() {
            Ok(o) => Arc::ptr_eq(&o.get().sc, &self.sc) || o.get().sc.data == self.sc.data,
            Err(_) => false,
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let cls = py.import("fm._fm")?.getattr("Scenario")?;
        PyTuple::new(py, [cls, PyTuple::new(py, [self.sc.to_json()])?.into_any()])
    }
}

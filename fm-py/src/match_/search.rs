//! `Match.think`, for every system: the search's settings checked, and the
//! information-set Monte Carlo tree search run without the GIL, its errors as Python
//! exceptions.

use crate::convert::to_py;
use crate::errors::{protocol_error, rule_error};
use fm_core::any::DynMatch;
use pyo3::prelude::*;

/// The built-in AI's choice for `m`'s pending decision with the settings `cfg`,
/// stopped after `time_budget` seconds if given, with at most `max_candidates`
/// candidates in the result.
pub fn think<'py>(
    py: Python<'py>,
    m: &dyn DynMatch,
    cfg: fm_core::search::SearchConfig,
    time_budget: Option<f64>,
    max_candidates: usize,
) -> PyResult<Bound<'py, PyAny>> {
    cfg.validate().map_err(|e| protocol_error(e.to_string()))?;
    let budget = match time_budget {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => {
            Some(std::time::Duration::from_secs_f64(t))
        }
        Some(t) => {
            return Err(protocol_error(format!(
                "time_budget = {t} is out of range (more than 0 and at most 86400 seconds)"
            )))
        }
    };
    let r = py.detach(move || {
        let began = std::time::Instant::now();
        let mut stop = || budget.is_some_and(|b| began.elapsed() >= b);
        m.think(&cfg, &mut stop, max_candidates)
    });
    match r {
        Ok(v) => to_py(py, &v),
        Err(e @ fm_core::search::SearchError::Config { .. })
        | Err(e @ fm_core::search::SearchError::Json(_)) => Err(protocol_error(e.to_string())),
        Err(e) => Err(rule_error(&fm_core::RuleError::new(
            "search",
            e.to_string(),
        ))),
    }
}

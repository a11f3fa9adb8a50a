//! Values across the edge: the library's errors as Python exceptions (with the command line's
//! message), and its JSON records as Python dicts and lists.

use gridsat::error::Error;
use gridsat::solver::SolverError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;

/// The exception for a library error: InputError (with `file`, `line`, `col`), UsageError,
/// SolverError, or RuntimeError for a bug.
pub fn to_py_err(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::Input(i) => {
            let err = crate::InputError::new_err(msg);
            Python::attach(|py| {
                let v = err.value(py);
                let _ = v.setattr("file", i.file.clone());
                let _ = v.setattr("line", i.line);
                let _ = v.setattr("col", i.col);
            });
            err
        }
        Error::Usage(_) => crate::UsageError::new_err(msg),
        Error::Solver(SolverError::Stopped) => pyo3::exceptions::PyTimeoutError::new_err(msg),
        Error::Solver(_) => crate::SolverError::new_err(msg),
        Error::Bug(_) => pyo3::exceptions::PyRuntimeError::new_err(format!(
            "{msg} (a bug in gridsat: please report it)"
        )),
    }
}

/// A JSON value as Python objects (dict, list, str, int, float, bool, None).
pub fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py)?,
            (None, Some(u)) => u.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(a) => {
            let items: PyResult<Vec<Bound<'py, PyAny>>> =
                a.iter().map(|x| json_to_py(py, x)).collect();
            PyList::new(py, items?)?.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

//! What several Python types share, written once: the copy protocol, `sum()`'s
//! start, `==` and `!=`, the lock of a mutable object and the notebook pictures.

use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyInt};
use std::sync::{Mutex, MutexGuard, TryLockError};

/// `#[pymethods] impl $ty { ... }` with the methods that the listed kinds add:
/// - `value`: an immutable value is its own copy (`__copy__`, `__deepcopy__`);
/// - `mutable`: both copies are `self.copy()`;
/// - `summable`: `__radd__` lets `sum()` start from the int 0 (see [`radd`]);
/// - `equatable`: `==` and `!=` by `self.equals(other)` (see [`eq_ne`]), and no
///   ordering.
macro_rules! py_methods {
    ($ty:ident [$($kind:ident),*] { $($methods:tt)* }) => {
        py_methods!(@add $ty [$($kind),*] { $($methods)* });
    };
    (@add $ty:ident [] { $($methods:tt)* }) => {
        #[pyo3::pymethods]
        impl $ty {
            $($methods)*
        }
    };
    (@add $ty:ident [value $(, $rest:ident)*] { $($methods:tt)* }) => {
        py_methods!(@add $ty [$($rest),*] {
            $($methods)*
            fn __copy__(slf: pyo3::Bound<'_, Self>) -> pyo3::Bound<'_, Self> {
                slf
            }
            fn __deepcopy__<'py>(
                slf: pyo3::Bound<'py, Self>,
                _memo: &pyo3::Bound<'py, pyo3::PyAny>,
            ) -> pyo3::Bound<'py, Self> {
                slf
            }
        });
    };
    (@add $ty:ident [mutable $(, $rest:ident)*] { $($methods:tt)* }) => {
        py_methods!(@add $ty [$($rest),*] {
            $($methods)*
            fn __copy__(&self) -> Self {
                self.copy()
            }
            fn __deepcopy__(&self, _memo: &pyo3::Bound<'_, pyo3::PyAny>) -> Self {
                self.copy()
            }
        });
    };
    (@add $ty:ident [summable $(, $rest:ident)*] { $($methods:tt)* }) => {
        py_methods!(@add $ty [$($rest),*] {
            $($methods)*
            /// `sum()` starts from the int 0.
            fn __radd__(
                slf: pyo3::Bound<'_, Self>,
                other: &pyo3::Bound<'_, pyo3::PyAny>,
            ) -> pyo3::PyResult<pyo3::Py<pyo3::PyAny>> {
                $crate::protocols::radd(slf.into_any(), other)
            }
        });
    };
    (@add $ty:ident [equatable $(, $rest:ident)*] { $($methods:tt)* }) => {
        py_methods!(@add $ty [$($rest),*] {
            $($methods)*
            fn __richcmp__(
                &self,
                other: &pyo3::Bound<'_, pyo3::PyAny>,
                op: pyo3::pyclass::CompareOp,
            ) -> pyo3::Py<pyo3::PyAny> {
                $crate::protocols::eq_ne(other, op, |other: &pyo3::Bound<'_, Self>| {
                    self.equals(other.get(), other.py())
                })
            }
        });
    };
}
pub(crate) use py_methods;

/// `slf + other` with `other` on the left: `slf` itself when other is the int 0
/// (not False), NotImplemented otherwise.
pub fn radd(slf: Bound<'_, PyAny>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let py = other.py();
    let zero =
        other.is_instance_of::<PyInt>() && !other.is_instance_of::<PyBool>() && other.eq(0)?;
    Ok(if zero {
        slf.unbind()
    } else {
        py.NotImplemented()
    })
}

/// `==` and `!=` by `equal` when `other` is a `T`; NotImplemented otherwise, and
/// for the orderings.
pub fn eq_ne<T: pyo3::PyClass>(
    other: &Bound<'_, PyAny>,
    op: CompareOp,
    equal: impl FnOnce(&Bound<'_, T>) -> bool,
) -> Py<PyAny> {
    let py = other.py();
    let Ok(other) = other.cast::<T>() else {
        return py.NotImplemented();
    };
    match op {
        CompareOp::Eq => PyBool::new(py, equal(other)).to_owned().into_any().unbind(),
        CompareOp::Ne => PyBool::new(py, !equal(other))
            .to_owned()
            .into_any()
            .unbind(),
        _ => py.NotImplemented(),
    }
}

/// Lock a mutex, whatever a panicking holder left in it (nothing panics while
/// holding one, and the engine's values stay valid anyway).
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Lock a mutex that another Python thread may hold while it waits with the GIL
/// released (an iterator in `next()`): the wait for it is without the GIL too, so
/// that the holder, which takes the GIL now and then, can go on. (A guard cannot
/// leave `detach`, so the lock is tried again with the GIL once it is free.)
pub fn lock_detached<'a, T: Send>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => py.detach(|| drop(lock(mutex))),
        }
    }
}

/// `acesup.display.<function>(value)`: the notebook pictures are drawn once, in
/// Python, for both engines.
pub fn display(value: &Bound<'_, PyAny>, function: &str) -> PyResult<String> {
    value
        .py()
        .import("acesup.display")?
        .call_method1(function, (value,))?
        .extract()
}

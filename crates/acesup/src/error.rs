//! The engine's error: which exception of `acesup.errors` it stands for, and its
//! message.

use std::fmt;

/// Which exception of `acesup.errors` an [`Error`] stands for (`Value` is a plain
/// `ValueError`, `Memory` a `MemoryError`: an allocation or a memory limit refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Card,
    Deck,
    Position,
    Rules,
    Move,
    IllegalMove,
    Undo,
    Strategy,
    Value,
    Memory,
}

/// An error of the engine: its kind and the message shown to the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

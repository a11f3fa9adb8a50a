//! Errors a user can act on: bad input (with file, line and column), bad usage, solver trouble.

use crate::solver::SolverError;

/// A problem in an input file, with where it is (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{col}: {message}")]
pub struct InputError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl InputError {
    /// An error at `line`:`col` of `file`.
    pub fn new(file: &str, line: usize, col: usize, message: impl Into<String>) -> InputError {
        InputError {
            file: file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }
}

/// Everything that can stop a command.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input: exit code 2.
    #[error("{0}")]
    Input(#[from] InputError),
    /// Bad usage (options that do not fit, a file that cannot be read): exit code 2.
    #[error("{0}")]
    Usage(String),
    /// The solver could not answer: exit code 2.
    #[error("{0}")]
    Solver(#[from] SolverError),
    /// A solution failed the independent rule checker: a bug in gridsat, exit code 3.
    #[error("internal error (please report): {0}")]
    Bug(String),
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Bug(_) => 3,
            _ => 2,
        }
    }
}

/// Shorthand for results of gridsat operations.
pub type Result<T> = std::result::Result<T, Error>;

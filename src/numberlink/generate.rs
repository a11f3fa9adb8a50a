//! The Numberlink generator (in progress).

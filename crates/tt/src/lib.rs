//! Transposition tables (being written).

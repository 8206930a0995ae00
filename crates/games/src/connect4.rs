//! Connect-4 (being written).

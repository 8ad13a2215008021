//! Thread identities.
//!
//! Inside one execution a thread is addressed by its [`Tid`], the index in creation
//! order. Across executions the only stable identity is the [`ThreadName`], derived
//! from the spawn tree: `main` is `0`, the j-th thread created by thread `t` is `t.j`
//! (j counts from 1). Schedules, findings and reports use names, never `Tid`s.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Index of a thread in creation order within one execution (main is 0).
pub type Tid = u32;

/// Stable thread id from the spawn tree: the path of creation ordinals.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ThreadName(Vec<u32>);

impl ThreadName {
    /// The main thread, `0`.
    pub fn main() -> Self {
        ThreadName(vec![0])
    }

    /// The `ordinal`-th child (counting from 1) of `self`.
    pub fn child(&self, ordinal: u32) -> Self {
        let mut v = self.0.clone();
        v.push(ordinal);
        ThreadName(v)
    }

    /// The path components (`[0, 1, 2]` for `0.1.2`).
    pub fn parts(&self) -> &[u32] {
        &self.0
    }
}

impl fmt::Display for ThreadName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

/// Error parsing a thread name such as `0.1.2`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid thread name `{0}` (expected a dotted path such as 0 or 0.1)")]
pub struct ThreadNameError(pub String);

impl FromStr for ThreadName {
    type Err = ThreadNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Result<Vec<u32>, _> = s.split('.').map(|p| p.parse::<u32>()).collect();
        match parts {
            Ok(v) if !v.is_empty() && v[0] == 0 => Ok(ThreadName(v)),
            _ => Err(ThreadNameError(s.to_string())),
        }
    }
}

impl Serialize for ThreadName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ThreadName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let n = ThreadName::main().child(2).child(1);
        assert_eq!(n.to_string(), "0.2.1");
        assert_eq!("0.2.1".parse::<ThreadName>().unwrap(), n);
        assert!("1.2".parse::<ThreadName>().is_err());
        assert!("0..1".parse::<ThreadName>().is_err());
        assert!("".parse::<ThreadName>().is_err());
    }
}

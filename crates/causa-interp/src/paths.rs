//! Recording each thread's control-flow path (`--record-paths`): the decisions
//! `causa reproduce` needs to follow it (see `causa_core::paths`), made by the
//! interpreter as it runs. Off unless [`crate::Config::record_paths`] is set.

use crate::machine::Machine;
use causa_core::paths::{Decision, ThreadPath};
use causa_core::Tid;

impl Machine {
    fn path_of(&mut self, t: Tid) -> Option<&mut ThreadPath> {
        let paths = self.paths.as_mut()?;
        while paths.len() <= t as usize {
            paths.push(ThreadPath::new(self.names[paths.len()].clone()));
        }
        Some(&mut paths[t as usize])
    }

    /// Thread `t` took a conditional branch (`taken`: its true successor) or a
    /// switch case (index, 0 for the default).
    pub(crate) fn note_decision(&mut self, t: Tid, d: Decision) {
        if let Some(p) = self.path_of(t) {
            p.decisions.push(d);
        }
    }

    /// Thread `t` called `function` through a pointer.
    pub(crate) fn note_indirect_call(&mut self, t: Tid, function: &str) {
        if let Some(p) = self.path_of(t) {
            p.call(function);
        }
    }

    /// Thread `t` read the program input `value` through `function`.
    pub(crate) fn note_input(&mut self, t: Tid, function: &str, value: i128) {
        if let Some(p) = self.path_of(t) {
            p.inputs.push((function.to_string(), value));
        }
    }

    /// Every thread's path (empty when not recording).
    pub(crate) fn take_paths(&mut self) -> Vec<ThreadPath> {
        let n = self.threads.len() as Tid;
        if self.paths.is_none() {
            return Vec::new();
        }
        if n > 0 {
            let _ = self.path_of(n - 1);
        }
        self.paths.take().unwrap_or_default()
    }
}

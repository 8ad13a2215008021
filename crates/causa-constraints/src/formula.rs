//! A small formula language over event order variables.

/// Index of an event in its [`crate::Trace`]; `O(e)` is its order variable.
pub type Ev = usize;
/// Index of a named sub-formula (see [`Formula::Def`]).
pub type DefId = usize;

/// A Boolean formula over order variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    True,
    False,
    /// `O(a) < O(b)`
    Before(Ev, Ev),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    /// A shared sub-formula, defined once in [`Defs`] (memoisation: the
    /// recursive validity constraints refer to each other through these).
    Def(DefId),
    /// `O(a) = O(b)`: the two events can happen at the same point (races).
    Same(Ev, Ev),
    /// A free Boolean variable (e.g. "wait-return r was woken by signal s").
    Var(usize),
    /// The negation of a free Boolean variable.
    NotVar(usize),
    /// At most `k` of the free variables are true (a pseudo-Boolean bound).
    AtMost(Vec<usize>, u32),
    /// At least `k` of the formulas hold (a pseudo-Boolean bound; the formulas
    /// occur positively).
    AtLeast(Vec<Formula>, u32),
    /// A fact about program values rather than order (CLAP's read values,
    /// path conditions): the client defines atom `i` to the solver
    /// ([`crate::Z3Solver::set_atoms`]). [`Formula::eval_with`] knows only
    /// order and free variables: an atom is false there.
    Atom(usize),
}

impl Formula {
    pub fn and(parts: Vec<Formula>) -> Formula {
        let mut v = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Formula::True => {}
                Formula::False => return Formula::False,
                Formula::And(inner) => v.extend(inner),
                other => v.push(other),
            }
        }
        match v.len() {
            0 => Formula::True,
            1 => v.pop().unwrap_or(Formula::True),
            _ => Formula::And(v),
        }
    }

    pub fn or(parts: Vec<Formula>) -> Formula {
        let mut v = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Formula::False => {}
                Formula::True => return Formula::True,
                Formula::Or(inner) => v.extend(inner),
                other => v.push(other),
            }
        }
        match v.len() {
            0 => Formula::False,
            1 => v.pop().unwrap_or(Formula::False),
            _ => Formula::Or(v),
        }
    }

    /// Evaluate under the order `pos` (`pos[e]` = position of event `e`).
    pub fn eval(&self, pos: &[i64], defs: &Defs) -> bool {
        self.eval_with(pos, &[], defs)
    }

    /// Evaluate under the order `pos` and the values `vars` of the free variables
    /// (a variable beyond `vars` is false; every value atom is false).
    pub fn eval_with(&self, pos: &[i64], vars: &[bool], defs: &Defs) -> bool {
        match self {
            Formula::True => true,
            Formula::False => false,
            Formula::Before(a, b) => pos[*a] < pos[*b],
            Formula::Same(a, b) => pos[*a] == pos[*b],
            Formula::And(v) => v.iter().all(|f| f.eval_with(pos, vars, defs)),
            Formula::Or(v) => v.iter().any(|f| f.eval_with(pos, vars, defs)),
            Formula::Def(d) => defs.get(*d).eval_with(pos, vars, defs),
            Formula::Var(i) => vars.get(*i).copied().unwrap_or(false),
            Formula::NotVar(i) => !vars.get(*i).copied().unwrap_or(false),
            Formula::AtMost(v, k) => {
                v.iter().filter(|i| vars.get(**i).copied().unwrap_or(false)).count() <= *k as usize
            }
            Formula::AtLeast(v, k) => v.iter().filter(|f| f.eval_with(pos, vars, defs)).count() >= *k as usize,
            Formula::Atom(_) => false,
        }
    }
}

/// The shared sub-formulas a formula may refer to.
#[derive(Clone, Debug, Default)]
pub struct Defs {
    defs: Vec<Formula>,
    /// Facts every query assumes (e.g. "a signal wakes at most one waiter"),
    /// added as the variables they constrain are created.
    axioms: Vec<Formula>,
}

impl Defs {
    pub fn add(&mut self, f: Formula) -> DefId {
        self.defs.push(f);
        self.defs.len() - 1
    }

    /// Reserve a definition to fill in later with [`Defs::set`] (lets recursive
    /// definitions refer to themselves while they are being built).
    pub fn reserve(&mut self) -> DefId {
        self.add(Formula::False)
    }

    pub fn set(&mut self, d: DefId, f: Formula) {
        self.defs[d] = f;
    }

    pub fn get(&self, d: DefId) -> &Formula {
        &self.defs[d]
    }

    pub fn len(&self) -> usize {
        self.defs.len()
    }

    pub fn axiom(&mut self, f: Formula) {
        self.axioms.push(f);
    }

    pub fn axioms(&self) -> &[Formula] {
        &self.axioms
    }

    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplification_and_evaluation() {
        assert_eq!(Formula::and(vec![Formula::True, Formula::True]), Formula::True);
        assert_eq!(Formula::or(vec![Formula::False]), Formula::False);
        let mut defs = Defs::default();
        let d = defs.add(Formula::Before(0, 1));
        let f = Formula::and(vec![Formula::Def(d), Formula::or(vec![Formula::Before(2, 1), Formula::False])]);
        assert!(f.eval(&[0, 2, 1], &defs));
        assert!(!f.eval(&[1, 0, 2], &defs));
    }
}

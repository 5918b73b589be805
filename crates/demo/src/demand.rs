//! The kinds of business of a category tree ([`super::kinds`], plus a plain
//! kind for every parent they leave out), what each one does, and how often
//! each is a trade's line of work.

use super::kinds::KINDS;
use intake_core::categories::CategoryTree;
use rand::Rng;

/// A kind of business, checked against a tree: every category it names is in it.
#[derive(Debug, Clone)]
pub(super) struct Kind {
    /// Its main parent category: every trade of the kind registers for it
    /// (the parent itself, some of its sub categories, or both).
    pub main: u32,
    /// Relative demand.
    pub weight: u32,
    /// What its trading names call it ("Plumbing & Heating").
    pub words: Vec<String>,
    /// Other parents and sub categories it does, with the percentage of its
    /// trades that take each on.
    pub also: Vec<(u32, u32)>,
}

impl Kind {
    /// Whether a trade of this kind may register for `category`: its main
    /// parent or one of the others it does, any of their sub categories, or
    /// one of the sub categories it does.
    pub fn owns(&self, tree: &CategoryTree, category: u32) -> bool {
        let parent = tree.get(category).map(|c| c.parent.unwrap_or(c.id));
        (std::iter::once(self.main).chain(self.also.iter().map(|also| also.0)))
            .any(|line| line == category || Some(line) == parent)
    }
}

/// The kinds of business of a tree with their demand weights, ready to sample.
#[derive(Debug)]
pub(super) struct Demand {
    kinds: Vec<Kind>,
    total: u64,
}

impl Demand {
    /// The kinds of [`KINDS`] whose main parent is in `tree` (without the
    /// categories they name that are not), then a plain kind of weight 1 for
    /// each parent of `tree` that is no kind's main one, named by its label.
    pub fn new(tree: &CategoryTree) -> Self {
        let mut kinds: Vec<Kind> = (KINDS.iter())
            .filter(|(main, ..)| tree.get(*main).is_some_and(|c| c.parent.is_none()))
            .map(|&(main, weight, words, also)| Kind {
                main,
                weight,
                words: words.iter().map(|&w| w.to_owned()).collect(),
                also: (also.iter().copied())
                    .filter(|(id, _)| tree.get(*id).is_some())
                    .collect(),
            })
            .collect();
        for parent in tree.parents() {
            if !kinds.iter().any(|kind| kind.main == parent.id) {
                kinds.push(Kind {
                    main: parent.id,
                    weight: 1,
                    words: vec![parent.label.replace(" / ", " & ")],
                    also: Vec::new(),
                });
            }
        }
        let total = kinds.iter().map(|kind| u64::from(kind.weight)).sum();
        Demand { kinds, total }
    }

    /// Every kind, in table order.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// The index of a kind drawn in proportion to demand.
    pub fn pick(&self, rng: &mut impl Rng) -> usize {
        let mut ticket = rng.gen_range(0..self.total.max(1));
        for (index, kind) in self.kinds.iter().enumerate() {
            let weight = u64::from(kind.weight);
            if ticket < weight {
                return index;
            }
            ticket -= weight;
        }
        0
    }

    /// The index of the first kind whose main parent is `parent`.
    pub fn first_of(&self, parent: u32) -> Option<usize> {
        self.kinds.iter().position(|kind| kind.main == parent)
    }
}

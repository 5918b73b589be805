//! The category tree: parents and their sub categories, two levels, keyed by id.
//!
//! The tree shipped in the binary is `data/categories.json` (see
//! `docs/categories.md` for where it comes from); an operator may replace it with
//! their own through [`CategoryTree::from_json`], which checks the whole file first.

#[cfg(test)]
mod from_json_tests;
mod parse;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ops::Range;
use std::sync::LazyLock;

use intake_api::categories::CategoryNode;

/// The tree shipped with the service, checked by the unit tests.
const EMBEDDED_JSON: &str = include_str!("../../../data/categories.json");

static EMBEDDED: LazyLock<CategoryTree> = LazyLock::new(|| {
    CategoryTree::from_json(EMBEDDED_JSON).expect("data/categories.json is a valid category tree")
});

/// One category, parent or sub category.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    /// Stable key; what jobs and trades refer to.
    pub id: u32,
    /// Display label, trimmed and single-spaced.
    pub label: String,
    /// URL slug; not unique across the tree, so never a key.
    pub name: String,
    /// Search engines should not index the category's page.
    pub noindex: bool,
    /// Search engines should not follow links from the category's page.
    pub nofollow: bool,
    /// The parent's id for a sub category, `None` for a parent.
    pub parent: Option<u32>,
}

/// A checked two-level category tree with O(1) lookup by id.
///
/// Order is the order of the source file: parents in order, each followed by its
/// sub categories in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryTree {
    /// Every category, each parent directly followed by its sub categories.
    nodes: Vec<Category>,
    /// For each node, the range of `nodes` holding its sub categories.
    children: Vec<Range<usize>>,
    /// Indexes of the parents in `nodes`.
    parents: Vec<usize>,
    by_id: HashMap<u32, usize>,
}

/// Why an operator's category tree was refused: every problem found, each naming
/// where it is (`parent 20 (Plumber) at index 3 > sub category ...`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .problems.join("\n"))]
pub struct CategoryTreeError {
    /// One line per problem, in file order.
    pub problems: Vec<String>,
}

impl CategoryTree {
    /// The tree shipped in the binary (`data/categories.json`), parsed once.
    pub fn embedded() -> &'static CategoryTree {
        &EMBEDDED
    }

    /// Parses and checks an operator's tree, same JSON shape as `data/categories.json`.
    ///
    /// Checks all of: a JSON array of objects; ids integers from 1 and unique across
    /// the whole tree; two levels at most; labels non-blank (they are trimmed and
    /// whitespace runs collapsed); `name` non-blank (made from the label when
    /// absent). `noindex`/`nofollow` default to false and `subcategories` may be
    /// left out. Every problem is reported, not just the first.
    pub fn from_json(text: &str) -> Result<CategoryTree, CategoryTreeError> {
        let parents = parse::parse(text).map_err(|problems| CategoryTreeError { problems })?;
        Ok(Self::build(parents))
    }

    fn build(parents: Vec<(Category, Vec<Category>)>) -> CategoryTree {
        let mut tree = CategoryTree {
            nodes: Vec::new(),
            children: Vec::new(),
            parents: Vec::with_capacity(parents.len()),
            by_id: HashMap::new(),
        };
        for (parent, subs) in parents {
            let at = tree.nodes.len();
            tree.parents.push(at);
            tree.children.push(at + 1..at + 1 + subs.len());
            tree.nodes.push(parent);
            for sub in subs {
                let end = tree.nodes.len();
                tree.children.push(end..end);
                tree.nodes.push(sub);
            }
        }
        tree.by_id = (tree.nodes.iter().enumerate())
            .map(|(index, category)| (category.id, index))
            .collect();
        tree
    }

    /// The category with this id, parent or sub category.
    pub fn get(&self, id: u32) -> Option<&Category> {
        self.by_id.get(&id).map(|&index| &self.nodes[index])
    }

    /// The parents, in tree order.
    pub fn parents(&self) -> impl Iterator<Item = &Category> {
        self.parents.iter().map(|&index| &self.nodes[index])
    }

    /// The sub categories of `parent`, in tree order; empty for a sub category or an
    /// unknown id.
    pub fn children(&self, parent: u32) -> impl Iterator<Item = &Category> {
        let range = (self.by_id.get(&parent)).map_or(0..0, |&index| self.children[index].clone());
        self.nodes[range].iter()
    }

    /// The ids a job in category `id` reaches: a sub category just itself; a parent
    /// itself, then its sub categories. Empty for an unknown id.
    pub fn reach(&self, id: u32) -> Vec<u32> {
        if self.get(id).is_none() {
            return Vec::new();
        }
        std::iter::once(id)
            .chain(self.children(id).map(|category| category.id))
            .collect()
    }

    /// How many categories the tree holds, parents and sub categories.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds no category (never true of a checked tree).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The wire form answered by `GET /api/v1/category`, in tree order.
    pub fn to_wire(&self) -> Vec<CategoryNode> {
        let node = |category: &Category, subcategories| CategoryNode {
            id: category.id,
            label: category.label.clone(),
            name: category.name.clone(),
            subcategories,
            noindex: category.noindex,
            nofollow: category.nofollow,
        };
        self.parents()
            .map(|parent| {
                let subs = self.children(parent.id).map(|sub| node(sub, Vec::new()));
                node(parent, subs.collect())
            })
            .collect()
    }

    /// Canonical JSON of the tree ([`Self::to_wire`] serialised compactly): what is
    /// stored after an import and hashed for the `ETag`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.to_wire()).expect("category nodes always serialise")
    }
}

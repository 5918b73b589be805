//! Reading and checking a category tree file, collecting every problem on the way.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Category;

/// Parents with their sub categories, or every problem found.
pub(super) fn parse(text: &str) -> Result<Vec<(Category, Vec<Category>)>, Vec<String>> {
    let value: Value =
        serde_json::from_str(text).map_err(|error| vec![format!("not valid JSON: {error}")])?;
    let Value::Array(items) = value else {
        return Err(vec![format!(
            "the tree must be a JSON array of parent categories, found {}",
            kind(&value)
        )]);
    };
    if items.is_empty() {
        return Err(vec![
            "the tree is empty: give at least one parent category".into()
        ]);
    }
    let mut checker = Checker::default();
    let mut parents = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let (path, parent, subs) = checker.node(item, "", "parent", index, None);
        let mut children = Vec::with_capacity(subs.len());
        for (sub_index, sub) in subs.iter().enumerate() {
            let prefix = format!("{path} > ");
            let parent_id = parent.as_ref().map(|parent| parent.id);
            let (sub_path, child, grandchildren) =
                checker.node(sub, &prefix, "sub category", sub_index, parent_id);
            if !grandchildren.is_empty() {
                checker.problems.push(format!(
                    "{sub_path}: has {} sub categories of its own; the tree has two levels only",
                    grandchildren.len()
                ));
            }
            children.extend(child);
        }
        parents.extend(parent.map(|parent| (parent, children)));
    }
    if checker.problems.is_empty() {
        Ok(parents)
    } else {
        Err(checker.problems)
    }
}

/// Trims a label and collapses every run of whitespace to one space.
pub(super) fn clean_label(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A URL slug made from a label: lowercase ASCII letters and digits, any run of
/// other characters one hyphen (`"Brick / Concrete"` gives `brick-concrete`).
pub(super) fn slugify(label: &str) -> String {
    let mut slug = String::with_capacity(label.len());
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_owned()
}

#[derive(Default)]
struct Checker {
    problems: Vec<String>,
    /// Where each id was first seen, to name both places of a duplicate.
    seen: HashMap<u32, String>,
}

impl Checker {
    /// Reads one node; returns its path (for messages), the category when the node
    /// is sound, and its `subcategories` array (empty when absent or unusable).
    fn node<'a>(
        &mut self,
        value: &'a Value,
        prefix: &str,
        what: &str,
        index: usize,
        parent: Option<u32>,
    ) -> (String, Option<Category>, &'a [Value]) {
        let Value::Object(object) = value else {
            let path = format!("{prefix}{what} at index {index}");
            let found = kind(value);
            self.problems
                .push(format!("{path}: must be a JSON object, found {found}"));
            return (path, None, &[]);
        };
        let mut problems = Vec::new();
        let id = read_id(object, &mut problems);
        let label = read_label(object, &mut problems);
        let path = format!(
            "{prefix}{what}{}{} at index {index}",
            id.map(|id| format!(" {id}")).unwrap_or_default(),
            label
                .as_ref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default()
        );
        let name = read_name(object, label.as_deref(), &mut problems);
        let noindex = read_flag(object, "noindex", &mut problems);
        let nofollow = read_flag(object, "nofollow", &mut problems);
        let subs: &[Value] = match object.get("subcategories") {
            None => &[],
            Some(Value::Array(subs)) => subs,
            Some(other) => {
                let found = kind(other);
                problems.push(format!("subcategories must be an array, found {found}"));
                &[]
            }
        };
        if let Some(id) = id {
            match self.seen.get(&id) {
                Some(first) => problems.push(format!("duplicate id {id}, also used by {first}")),
                None => {
                    self.seen.insert(id, path.clone());
                }
            }
        }
        let sound = problems.is_empty();
        self.problems.extend(
            problems
                .into_iter()
                .map(|problem| format!("{path}: {problem}")),
        );
        let category = match (id, label, name) {
            (Some(id), Some(label), Some(name)) if sound => Some(Category {
                id,
                label,
                name,
                noindex: noindex.unwrap_or(false),
                nofollow: nofollow.unwrap_or(false),
                parent,
            }),
            _ => None,
        };
        (path, category, subs)
    }
}

fn read_id(object: &Map<String, Value>, problems: &mut Vec<String>) -> Option<u32> {
    let id = match object.get("id") {
        None => {
            problems.push("id is missing".to_owned());
            return None;
        }
        Some(id) => id,
    };
    let valid = id
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n >= 1);
    if valid.is_none() {
        problems.push(format!(
            "id must be an integer from 1 to {}, found {id}",
            u32::MAX
        ));
    }
    valid
}

fn read_label(object: &Map<String, Value>, problems: &mut Vec<String>) -> Option<String> {
    match object.get("label") {
        None => problems.push("label is missing".to_owned()),
        Some(Value::String(raw)) => {
            let label = clean_label(raw);
            if !label.is_empty() {
                return Some(label);
            }
            problems.push("label is blank".to_owned());
        }
        Some(other) => problems.push(format!("label must be a string, found {}", kind(other))),
    }
    None
}

fn read_name(
    object: &Map<String, Value>,
    label: Option<&str>,
    problems: &mut Vec<String>,
) -> Option<String> {
    match object.get("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => Some(name.trim().to_owned()),
        Some(Value::String(_)) => {
            problems.push("name is blank".to_owned());
            None
        }
        Some(other) => {
            problems.push(format!("name must be a string, found {}", kind(other)));
            None
        }
        None => {
            let slug = label.map(slugify).filter(|slug| !slug.is_empty());
            if slug.is_none() && label.is_some() {
                problems.push("name is missing and cannot be made from the label".to_owned());
            }
            slug
        }
    }
}

/// `Some(flag)` when usable (absent means false), `None` after recording a problem.
fn read_flag(object: &Map<String, Value>, key: &str, problems: &mut Vec<String>) -> Option<bool> {
    match object.get(key) {
        None => Some(false),
        Some(Value::Bool(flag)) => Some(*flag),
        Some(other) => {
            problems.push(format!(
                "{key} must be true or false, found {}",
                kind(other)
            ));
            None
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

//! Names no parent gives a child: keyboard runs, digits, "test", one letter,
//! or the same word twice.

use super::{Reason, Signal, SpamInput, SpamScreen};

// An odd name alone never rejects: people do type "J" or their nickname.
const _: () = assert!(ImplausibleName::MAX_WEIGHT < SpamScreen::DEFAULT_THRESHOLD);

/// Keyboard runs typed to fill a field, compared inside the lowercased name.
const KEYBOARD: &[&str] = &[
    "qwe", "asd", "sdf", "dfg", "fgh", "ghj", "hjk", "jkl", "zxc", "xcv",
];

/// Whole names that are placeholders, compared ignoring case.
const PLACEHOLDERS: &[&str] = &[
    "test", "testing", "tester", "user", "admin", "foo", "bar", "xxx", "none", "na", "n/a", "name",
    "first", "last", "aaa", "bbb", "abc", "dummy", "sample",
];

/// Flags implausible first and last names: one reason per fault, in the order
/// below, with weights summed and capped at [`ImplausibleName::MAX_WEIGHT`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ImplausibleName;

impl ImplausibleName {
    /// A placeholder such as "test" or "admin".
    pub const PLACEHOLDER: f64 = 0.5;
    /// A keyboard run such as "asdf".
    pub const KEYBOARD: f64 = 0.5;
    /// A digit in a name.
    pub const DIGITS: f64 = 0.4;
    /// The same first and last name.
    pub const SAME: f64 = 0.3;
    /// A one-letter name; an initial is common, so this is slight.
    pub const ONE_LETTER: f64 = 0.1;
    /// The most all name faults together add.
    pub const MAX_WEIGHT: f64 = 0.8;

    /// Each fault of the two names: its weight and a description.
    fn faults(first: &str, last: &str) -> Vec<(f64, String)> {
        let names = [first.trim(), last.trim()];
        let mut faults = Vec::new();
        let lower = names.map(str::to_lowercase);
        if let Some(name) = lower.iter().find(|n| PLACEHOLDERS.contains(&n.as_str())) {
            faults.push((Self::PLACEHOLDER, format!("placeholder name {name:?}")));
        }
        if let Some(name) = lower
            .iter()
            .find(|n| KEYBOARD.iter().any(|k| n.contains(k)))
        {
            faults.push((Self::KEYBOARD, format!("keyboard run in name {name:?}")));
        }
        if let Some(name) = names.iter().find(|n| n.chars().any(char::is_numeric)) {
            faults.push((Self::DIGITS, format!("digits in name {name:?}")));
        }
        if !lower[0].is_empty() && lower[0] == lower[1] {
            faults.push((Self::SAME, "first and last name the same".to_owned()));
        }
        if let Some(name) = names.iter().find(|n| n.chars().count() == 1) {
            faults.push((Self::ONE_LETTER, format!("one-letter name {name:?}")));
        }
        faults
    }
}

impl Signal for ImplausibleName {
    fn name(&self) -> &'static str {
        "implausible_name"
    }

    fn assess(&self, input: &SpamInput<'_>, reasons: &mut Vec<Reason>) {
        let mut left = Self::MAX_WEIGHT;
        for (weight, detail) in Self::faults(input.first_name, input.last_name) {
            let weight = weight.min(left);
            if weight <= 0.0 {
                break;
            }
            left -= weight;
            reasons.push(Reason {
                signal: self.name(),
                weight,
                detail,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weight(first: &str, last: &str) -> f64 {
        let input = SpamInput {
            description: "Leaking tap",
            first_name: first,
            last_name: last,
            email: "someone@example.co.uk",
            phone: "07700 900555",
            postcode: "CB1 3AZ",
            history: Default::default(),
        };
        let mut reasons = Vec::new();
        ImplausibleName.assess(&input, &mut reasons);
        reasons.iter().map(|reason| reason.weight).sum()
    }

    #[test]
    fn real_names_pass() {
        for (first, last) in [
            ("Gareth", "Evans"),
            ("Siobhan", "O'Neill"),
            ("Wojciech", "Nowak"),
            ("Mei", "Li"),
            ("Anne-Marie", "MacDonald"),
        ] {
            assert_eq!(weight(first, last), 0.0, "{first} {last}");
        }
    }

    #[test]
    fn each_fault_adds_its_weight() {
        assert_eq!(weight("J", "Davies"), ImplausibleName::ONE_LETTER);
        assert_eq!(weight("John", "Doe1"), ImplausibleName::DIGITS);
        assert_eq!(weight("Test", "User"), ImplausibleName::PLACEHOLDER);
        assert_eq!(weight("Sam", "sam"), ImplausibleName::SAME);
    }

    #[test]
    fn faults_together_are_capped_below_the_threshold() {
        assert_eq!(weight("asdf", "asdf"), ImplausibleName::MAX_WEIGHT);
        assert_eq!(weight("test", "test"), ImplausibleName::MAX_WEIGHT);
    }
}

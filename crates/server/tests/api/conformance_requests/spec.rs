//! Job requests built from the specification's tables, as raw JSON.
//!
//! Transcribed from "Resources and their fields" of the interface
//! specification (Job request, PreferredStart, Address) and its Limits, not
//! from `intake_api::jobs::JobRequest`: a member our types lost, or a rule
//! they tightened, still gets sent here.

use serde_json::{json, Map, Value};

/// Job request `phone`: "Must match `^\+?\d{5,15}$`", verbatim.
pub const SPEC_PHONE_PATTERN: &str = r"^\+?\d{5,15}$";
/// Job request `postcode`: the later revision's pattern, verbatim.
pub const SPEC_POSTCODE_PATTERN: &str = r"^([Gg][Ii][Rr] 0[Aa]{2})|((([A-Za-z][0-9]{1,2})|(([A-Za-z][A-Ha-hJ-Yj-y][0-9]{1,2})|(([A-Za-z][0-9][A-Za-z])|([A-Za-z][A-Ha-hJ-Yj-y][0-9][A-Za-z]?))))\s?[0-9][A-Za-z]{2})$";

/// PreferredStart `id`: "Example options named: URGENT, WITHIN_2_WEEKS, FLEXIBLE."
pub const NAMED_PREFERRED_STARTS: [&str; 3] = ["URGENT", "WITHIN_2_WEEKS", "FLEXIBLE"];

/// Postcodes in every shape the later pattern allows, each in a district the
/// test directory serves ([`SERVED_DISTRICTS`]), then the case and spacing
/// variants the pattern allows (`[A-Za-z]`, `\s?`), and `GIR 0AA`. A tab or
/// a line break for the `\s` is refused by design, as a control character
/// (`clean_text.rs`); a no-break space is sent instead.
pub const POSTCODES: [(&str, &str); 13] = [
    ("A9 9AA", "M1 1AE"),
    ("A99 9AA", "B33 8TH"),
    ("AA9 9AA", "CR2 6XH"),
    ("AA99 9AA", "LS10 1LH"),
    ("A9A 9AA", "W1A 1HQ"),
    ("AA9A 9AA", "EC1A 1BB"),
    ("lower case", "ec1a 1bb"),
    ("mixed case", "Sw1A 1aA"),
    ("no space, AA9A9AA", "SW1A1AA"),
    ("no space, A99AA", "M11AE"),
    ("a no-break space for the space (\\s)", "CR2\u{a0}6XH"),
    ("GIR 0AA", "GIR 0AA"),
    ("gir 0aa", "gir 0aa"),
];

/// The districts of [`POSTCODES`], which the test directory's trades list.
pub const SERVED_DISTRICTS: [&str; 7] = ["M1", "B33", "CR2", "LS10", "W1A", "EC1A", "SW1A"];

/// `GIR 0AA` is a valid postcode but not a place: it has no district a trade
/// can list (`GIR` is not a district) and no coordinates, so no trade serves it.
pub fn is_served(postcode: &str) -> bool {
    !postcode.eq_ignore_ascii_case("gir 0aa")
}

/// Phones at the edges of `^\+?\d{5,15}$`: 5 and 15 digits, with and without the plus.
pub const PHONE_EDGES: [(&str, &str); 4] = [
    ("5 digits", "24680"),
    ("+ and 5 digits", "+13579"),
    ("15 digits", "447700900123456"),
    ("+ and 15 digits", "+447700900654321"),
];

/// "Free text, more than 10 characters": 11, and a real job all the same.
pub const ELEVEN_CHARACTERS: &str = "Boiler leak";

/// A sub category (Boiler Repairs / Servicing) and its parent (Central Heating):
/// "A parent category is accepted, but a sub category is preferred".
pub const SUB_CATEGORY: u64 = 1335;
pub const PARENT_CATEGORY: u64 = 10;

/// How `preferredStart` is sent: the table makes it optional in the later
/// revision, and its `date` is optional.
#[derive(Debug, Clone, Copy)]
pub enum PreferredStart {
    Absent,
    Id,
    IdAndDate,
}

/// How `address` is sent: absent, or its required members with or without
/// each optional line.
#[derive(Debug, Clone, Copy)]
pub enum Address {
    Absent,
    Required,
    WithLine2,
    WithLine3,
    WithBothLines,
}

impl PreferredStart {
    pub const ALL: [PreferredStart; 3] = [Self::Absent, Self::Id, Self::IdAndDate];
}

impl Address {
    pub const ALL: [Address; 5] = [
        Self::Absent,
        Self::Required,
        Self::WithLine2,
        Self::WithLine3,
        Self::WithBothLines,
    ];
}

/// One request the specification allows.
#[derive(Debug, Clone)]
pub struct Case {
    /// What varies, for failure messages.
    pub name: String,
    /// The Job request, as raw JSON.
    pub job: Value,
    /// Whether a trade of the test directory covers its postcode.
    pub served: bool,
}

/// How `categoryId` is written: the table's JSON number, or the numeric
/// string of the multipart example.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CategoryId {
    Number,
    NumericString,
}

/// Every request of the conformance run: all combinations of the optional
/// members, then one member at a time at each value or edge the
/// specification names. `preferred_starts` is the list GET
/// /preferred-start-options answered; `first` numbers the contacts so that
/// runs against one store never share an e-mail address or phone number.
pub fn cases(preferred_starts: &[String], category_id: CategoryId, first: usize) -> Vec<Case> {
    let mut builder = Builder {
        cases: Vec::new(),
        next: first,
        category_id,
    };
    for preferred_start in PreferredStart::ALL {
        for address in Address::ALL {
            builder.push(
                format!("preferredStart {preferred_start:?}, address {address:?}"),
                |job| {
                    set_preferred_start(job, preferred_start, "URGENT");
                    set_address(job, address);
                },
            );
        }
    }
    let mut ids: Vec<String> = NAMED_PREFERRED_STARTS.map(String::from).to_vec();
    for listed in preferred_starts {
        if !ids.contains(listed) {
            ids.push(listed.clone());
        }
    }
    for id in &ids {
        builder.push(format!("preferredStart.id {id}"), |job| {
            set_preferred_start(job, PreferredStart::IdAndDate, id)
        });
    }
    for (edge, phone) in PHONE_EDGES {
        builder.push(format!("phone {edge} ({phone})"), |job| {
            job.insert("phone".into(), json!(phone))
        });
    }
    for (shape, postcode) in POSTCODES {
        builder.push(format!("postcode {shape} ({postcode:?})"), |job| {
            job.insert("postcode".into(), json!(postcode));
            set_address(job, Address::WithBothLines);
            job["address"]["postcode"] = json!(postcode);
        });
    }
    builder.push(
        format!("description of 11 characters ({ELEVEN_CHARACTERS:?})"),
        |job| job.insert("description".into(), json!(ELEVEN_CHARACTERS)),
    );
    builder.push("a parent category".to_owned(), |job| {
        job.insert(
            "categoryId".into(),
            builder_category(category_id, PARENT_CATEGORY),
        )
    });
    let other = match category_id {
        CategoryId::Number => CategoryId::NumericString,
        CategoryId::NumericString => CategoryId::Number,
    };
    builder.push(format!("categoryId as {other:?}"), |job| {
        job.insert("categoryId".into(), builder_category(other, SUB_CATEGORY))
    });
    builder.cases
}

struct Builder {
    cases: Vec<Case>,
    next: usize,
    category_id: CategoryId,
}

impl Builder {
    fn push<R>(&mut self, name: String, change: impl FnOnce(&mut Map<String, Value>) -> R) {
        let mut job = base(self.next, self.category_id);
        self.next += 1;
        change(&mut job);
        assert_allowed(&job);
        let served = is_served(job["postcode"].as_str().unwrap());
        self.cases.push(Case {
            name,
            job: Value::Object(job),
            served,
        });
    }
}

/// The generator's own check that a request is one the tables allow: the
/// required members present, `phone` and `postcode` matching the
/// specification's patterns, more than 10 characters of description.
fn assert_allowed(job: &Map<String, Value>) {
    for member in [
        "categoryId",
        "description",
        "email",
        "phone",
        "firstName",
        "lastName",
        "postcode",
    ] {
        assert!(job.contains_key(member), "{member} missing from {job:?}");
    }
    let text = |member: &str| job[member].as_str().unwrap();
    let phone = regex::Regex::new(SPEC_PHONE_PATTERN).unwrap();
    let postcode = regex::Regex::new(SPEC_POSTCODE_PATTERN).unwrap();
    assert!(phone.is_match(text("phone")), "{}", text("phone"));
    assert!(postcode.is_match(text("postcode")), "{}", text("postcode"));
    assert!(text("description").chars().count() > 10);
}

fn builder_category(category_id: CategoryId, id: u64) -> Value {
    match category_id {
        CategoryId::Number => json!(id),
        CategoryId::NumericString => json!(id.to_string()),
    }
}

/// People and jobs of the kind affiliates send, so the spam screen sees
/// ordinary traffic (its contact counts are kept apart by numbering).
const PEOPLE: [(&str, &str); 8] = [
    ("Sam", "Jones"),
    ("Priya", "Patel"),
    ("Tom", "Hughes"),
    ("Aisha", "Khan"),
    ("Gareth", "Evans"),
    ("Chloe", "Murphy"),
    ("Daniel", "Okafor"),
    ("Ruth", "Campbell"),
];

const DESCRIPTIONS: [&str; 8] = [
    "Boiler not working, no hot water since Monday.",
    "Annual boiler service needed before winter, combi boiler in the kitchen cupboard.",
    "Boiler pressure keeps dropping and the radiators upstairs stay cold.",
    "Our gas boiler makes a loud banging noise whenever the heating comes on.",
    "The pilot light on our boiler keeps going out, please can someone take a look.",
    "Boiler shows a fault light and will not fire up, so we have no heating at all.",
    "Looking for a Gas Safe engineer to service the boiler and check the flue.",
    "Water is dripping from underneath the boiler and it is getting worse each day.",
];

/// The required members only, with the `n`th contact details.
fn base(n: usize, category_id: CategoryId) -> Map<String, Value> {
    let (first, last) = PEOPLE[n % PEOPLE.len()];
    let job = json!({
        "categoryId": builder_category(category_id, SUB_CATEGORY),
        "description": DESCRIPTIONS[n % DESCRIPTIONS.len()],
        "email": format!("{}.{}.{n}@example.com", first.to_lowercase(), last.to_lowercase()),
        "phone": format!("07700{:06}", 900_000 + n),
        "firstName": first,
        "lastName": last,
        "postcode": "SW1A 1AA"
    });
    let Value::Object(job) = job else {
        unreachable!()
    };
    job
}

fn set_preferred_start(job: &mut Map<String, Value>, shape: PreferredStart, id: &str) {
    match shape {
        PreferredStart::Absent => None,
        PreferredStart::Id => job.insert("preferredStart".into(), json!({"id": id})),
        PreferredStart::IdAndDate => job.insert(
            "preferredStart".into(),
            json!({"id": id, "date": "2026-12-01"}),
        ),
    };
}

fn set_address(job: &mut Map<String, Value>, shape: Address) {
    let mut address =
        json!({"line1": "12 Acacia Avenue", "city": "London", "postcode": "SW1A 1AA"});
    match shape {
        Address::Absent => return,
        Address::Required => {}
        Address::WithLine2 => address["line2"] = json!("Flat B"),
        Address::WithLine3 => address["line3"] = json!("Westminster"),
        Address::WithBothLines => {
            address["line2"] = json!("Flat B");
            address["line3"] = json!("Westminster");
        }
    }
    job.insert("address".into(), address);
}

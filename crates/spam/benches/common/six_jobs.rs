//! The six jobs the spam benchmark and the `assess_many` example assess:
//! three real jobs of 5 to 90 words and three kinds of spam.

use intake_spam::SpamInput;

pub const DESCRIPTIONS: [&str; 6] = [
    "Boiler not working, no hot water",
    "Kitchen tap dripping constantly and the washer seems worn, need it replaced. Ref 1234.",
    "We would like a quote to rewire a three bedroom semi in SE1, about 1930s, consumer unit is old \
     and there are still a few round-pin sockets upstairs. Flexible on dates, prefer weekdays. £ budget \
     around 4,000 to 6,000 depending on what is needed. Loft is boarded and easy to get into.",
    "Buy cheap watches at www.cheap-watches.ru best prices",
    "asdf asdf asdf",
    "Roof tiles blown off in storm!!!!!!! need someone ASAP",
];

pub fn input(description: &str) -> SpamInput<'_> {
    SpamInput {
        description,
        first_name: "Sam",
        last_name: "Jones",
        email: "sam.jones@example.com",
        phone: "07900000000",
        postcode: "SW1A 1AA",
        history: Default::default(),
    }
}

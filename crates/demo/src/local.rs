//! The places without coordinates: Northern Ireland, the Channel Islands and
//! the Isle of Man. Their postcodes are valid but match only trades that list
//! their district, so a full demo directory gives each of their regions local
//! trades that list every district of the region.
//!
//! The districts and our grouping of them into regions are in
//! `data/uk-districts-without-coordinates.csv` (see `data/README.md`).

use super::demand::Demand;
use super::COMMON_CATEGORIES;
use std::sync::LazyLock;

/// `district,region,geographic`, one district a line, after a header.
const TABLE: &str = include_str!("../../../data/uk-districts-without-coordinates.csv");

/// Districts that trades near each other cover together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Region {
    /// E.g. `Belfast`, `Jersey`.
    pub name: &'static str,
    /// Every district of the region, in table order.
    pub districts: Vec<&'static str>,
    /// The districts with addresses, where a trade can be based (the others
    /// are PO boxes and large users).
    pub homes: Vec<&'static str>,
}

static REGIONS: LazyLock<Vec<Region>> = LazyLock::new(|| parse(TABLE));

/// The regions of the places without coordinates, in the order of the table.
pub(super) fn regions() -> &'static [Region] {
    &REGIONS
}

/// The local trades of a full directory: in every region, one trade of the
/// first kind of each of the [`COMMON_CATEGORIES`] (a plumber, an
/// electrician, a heating engineer...), as `(region, kind index)`.
pub(super) fn plan(demand: &Demand) -> Vec<(&'static Region, usize)> {
    let kinds: Vec<usize> = (COMMON_CATEGORIES.iter())
        .filter_map(|&category| demand.first_of(category))
        .collect();
    (regions().iter())
        .flat_map(|region| kinds.iter().map(move |&kind| (region, kind)))
        .collect()
}

fn parse(table: &'static str) -> Vec<Region> {
    let mut regions: Vec<Region> = Vec::new();
    for line in table.lines().skip(1).filter(|line| !line.trim().is_empty()) {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [district, name, geographic] = fields[..] else {
            panic!("data/uk-districts-without-coordinates.csv: `{line}` has not three fields");
        };
        let at = match regions.iter().position(|region| region.name == name) {
            Some(at) => at,
            None => {
                regions.push(Region {
                    name,
                    districts: Vec::new(),
                    homes: Vec::new(),
                });
                regions.len() - 1
            }
        };
        regions[at].districts.push(district);
        if geographic == "yes" {
            regions[at].homes.push(district);
        }
    }
    regions
}

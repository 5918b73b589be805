//! Which districts a category's trades cover, and the adjustment that makes a
//! large demo directory cover every district for the common categories.

use super::places::Places;
use super::MAX_DEMO_RADIUS_MILES;
use crate::categories::CategoryTree;
use crate::directory::record::TradeRecord;
use crate::geography::Point;

/// For each district of `places`, whether an active trade serving `category`
/// (registered for it or, for a parent, one of its sub categories) covers its
/// centroid: within the trade's radius of its base, or listed explicitly. The
/// same rule as the directory index, with the district centroid as the place.
pub(super) fn covered(
    records: &[TradeRecord],
    bases: &[Option<Point>],
    category: u32,
    tree: &CategoryTree,
    places: &Places,
) -> Vec<bool> {
    let reach = reach_mask(tree, category);
    let mut covered = vec![false; places.districts().len()];
    for (record, base) in records.iter().zip(bases) {
        if !serves(record, &reach) {
            continue;
        }
        for code in &record.coverage.districts {
            if let Some(index) = places.index_of(&code.trim().to_ascii_uppercase()) {
                covered[index] = true;
            }
        }
        if let (Some(base), Some(radius)) = (base, record.coverage.radius_miles) {
            places.for_each_within(base, radius, |index, _| covered[index] = true);
        }
    }
    covered
}

/// Makes every district covered for `category`: for each uncovered district,
/// in code order, the nearest trade serving the category widens its radius to
/// reach it (to whole miles, at most [`MAX_DEMO_RADIUS_MILES`]) or, when it is
/// further than that, lists the district explicitly. Returns how many
/// districts were uncovered before.
pub(super) fn complete(
    records: &mut [TradeRecord],
    bases: &[Option<Point>],
    category: u32,
    tree: &CategoryTree,
    places: &Places,
) -> usize {
    let reach = reach_mask(tree, category);
    let covered = covered(records, bases, category, tree, places);
    let mut open: Vec<usize> = (0..covered.len())
        .filter(|&index| !covered[index])
        .collect();
    let uncovered = open.len();
    let candidates: Vec<(usize, Point)> = (records.iter().zip(bases).enumerate())
        .filter_map(|(position, (record, base))| {
            Some((position, (*base)?)).filter(|_| serves(record, &reach))
        })
        .collect();
    while let Some(&district) = open.first() {
        let target = places.districts()[district].point;
        let nearest = candidates
            .iter()
            .map(|&(position, base)| (position, base, base.distance_miles(&target)))
            .min_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
        let Some((position, base, distance)) = nearest else {
            break;
        };
        let record = &mut records[position];
        let widened = distance.ceil();
        if widened <= MAX_DEMO_RADIUS_MILES {
            let radius = record.coverage.radius_miles.unwrap_or(0.0).max(widened);
            record.coverage.radius_miles = Some(radius);
            open.retain(|&index| base.distance_miles(&places.districts()[index].point) > radius);
        } else {
            record
                .coverage
                .districts
                .push(places.districts()[district].code.clone());
            open.remove(0);
        }
    }
    uncovered
}

/// Which category ids a job in `category` reaches, indexed by id.
fn reach_mask(tree: &CategoryTree, category: u32) -> Vec<bool> {
    let reach = tree.reach(category);
    let mut mask = vec![false; reach.iter().max().map_or(0, |&id| id as usize + 1)];
    for id in reach {
        mask[id as usize] = true;
    }
    mask
}

fn serves(record: &TradeRecord, reach: &[bool]) -> bool {
    record.active
        && record
            .categories
            .iter()
            .any(|&category| reach.get(category as usize).copied().unwrap_or(false))
}

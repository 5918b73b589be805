//! Which districts a category's trades cover, and the adjustment that makes a
//! large demo directory cover every postcode of Great Britain for the common
//! categories and their busiest sub categories.

use super::places::Places;
use super::MAX_DEMO_RADIUS_MILES;
use intake_core::categories::CategoryTree;
use intake_core::directory::record::TradeRecord;
use intake_core::geography::Point;

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

/// Makes every postcode of Great Britain covered for `category`: every
/// district centroid and every sector centroid, the places a job is put at.
///
/// For each district with an uncovered place, in code order, a trade whose
/// kind does the category (`owners`, active, with a base) takes it on: the
/// nearest one whose radius already reaches the district's uncovered places,
/// else the nearest one, widening its radius to reach them (to whole miles, at
/// most [`MAX_DEMO_RADIUS_MILES`]) or, when they are further than that,
/// listing the district. A trade not registered for anything the category
/// reaches registers for the category itself. Returns how many districts had
/// an uncovered place before.
pub(super) fn complete(
    records: &mut [TradeRecord],
    bases: &[Option<Point>],
    owners: &[bool],
    category: u32,
    tree: &CategoryTree,
    places: &Places,
) -> usize {
    let reach = reach_mask(tree, category);
    let mut covered = vec![false; places.points().len()];
    for (record, base) in records.iter().zip(bases) {
        if serves(record, &reach) {
            mark(record, *base, places, &mut covered);
        }
    }
    let open: Vec<usize> = (0..places.districts().len())
        .filter(|&district| places.points_of(district).any(|point| !covered[point]))
        .collect();
    let candidates: Vec<(usize, Point)> = (records.iter().zip(bases).zip(owners).enumerate())
        .filter_map(|(position, ((record, base), owner))| {
            Some((position, (*base)?)).filter(|_| *owner && record.active)
        })
        .collect();
    for &district in &open {
        let targets: Vec<Point> = (places.points_of(district))
            .filter(|&point| !covered[point])
            .map(|point| places.points()[point])
            .collect();
        if targets.is_empty() {
            continue;
        }
        let farthest = |base: &Point| {
            targets
                .iter()
                .map(|t| base.distance_miles(t))
                .fold(0.0, f64::max)
        };
        let code = &places.districts()[district].code;
        let nearest = (candidates.iter())
            .map(|&(position, base)| {
                let distance = farthest(&base);
                let coverage = &records[position].coverage;
                let reaches = distance <= coverage.radius_miles.unwrap_or(0.0)
                    || coverage.districts.contains(code);
                (position, base, distance, !reaches)
            })
            .min_by(|a, b| {
                (a.3.cmp(&b.3))
                    .then(a.2.total_cmp(&b.2))
                    .then(a.0.cmp(&b.0))
            });
        let Some((position, base, distance, short)) = nearest else {
            break;
        };
        let record = &mut records[position];
        if !serves(record, &reach) {
            record.categories.push(category);
        }
        if short && distance.ceil() <= MAX_DEMO_RADIUS_MILES {
            record.coverage.radius_miles = Some(distance.ceil());
        } else if short {
            record.coverage.districts.push(code.clone());
        }
        mark(record, Some(base), places, &mut covered);
    }
    open.len()
}

/// Marks the places `record` covers: within its radius of its base, and every
/// place of the districts it lists.
fn mark(record: &TradeRecord, base: Option<Point>, places: &Places, covered: &mut [bool]) {
    for code in &record.coverage.districts {
        if let Some(index) = places.index_of(&code.trim().to_ascii_uppercase()) {
            places
                .points_of(index)
                .for_each(|point| covered[point] = true);
        }
    }
    if let (Some(base), Some(radius)) = (base, record.coverage.radius_miles) {
        places.for_each_point_within(&base, radius, |point, _| covered[point] = true);
    }
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

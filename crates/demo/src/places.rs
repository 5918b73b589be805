//! Where demo trades are based: the districts of the geography with their
//! sectors, weighted by postcodes so trades follow population, and grids for
//! "districts (or sector centroids) near this point" queries.

use intake_core::geography::{Geography, Point};
use rand::Rng;
use std::collections::HashMap;
use std::ops::Range;

/// Side of a grid cell, in metres (10 miles).
const CELL_M: f64 = 16_093.44;
/// Letters a postcode's inward code may end with.
const INWARD_LETTERS: &[u8] = b"ABDEFGHJLNPQRSTUWXYZ";

/// A district of the geography, with the sectors it has centroids for.
#[derive(Debug, Clone)]
pub(super) struct District {
    /// Outward code, e.g. `SW1A`.
    pub code: String,
    /// District centroid.
    pub point: Point,
    /// Sector digit, sector centroid and postcodes of each known sector.
    pub sectors: Vec<(u8, Point, u32)>,
}

/// A trade's base: a plausible postcode and the point it locates to.
#[derive(Debug, Clone)]
pub(super) struct Base {
    /// Index of the district in [`Places::districts`].
    pub district: usize,
    /// Normalised postcode, e.g. `SW1A 1AB`.
    pub postcode: String,
    /// Sector centroid of the postcode (district centroid if the sector is unknown).
    pub point: Point,
}

/// Every district, sorted by code, with a sampling table and spatial grids.
#[derive(Debug)]
pub(super) struct Places {
    districts: Vec<District>,
    /// Running total of postcodes, for sampling in proportion to them.
    cumulative: Vec<u64>,
    cells: Grid,
    /// Every point a job can be placed at: each district's centroid followed
    /// by its sectors' centroids, district after district.
    points: Vec<Point>,
    /// For each district, where its points are in `points`.
    point_ranges: Vec<Range<usize>>,
    point_cells: Grid,
}

/// Indexes of points by the grid cell they fall in.
type Grid = HashMap<(i64, i64), Vec<usize>>;

impl Places {
    /// Reads every district and its sectors from `geography`.
    pub fn new(geography: &Geography) -> Self {
        let mut districts = Vec::with_capacity(geography.district_count());
        let mut cumulative = Vec::with_capacity(geography.district_count());
        let mut cells = Grid::new();
        let (mut points, mut point_ranges, mut point_cells) = (Vec::new(), Vec::new(), Grid::new());
        let mut total = 0u64;
        for (code, point) in geography.districts() {
            let sectors: Vec<(u8, Point, u32)> = (0..=9u8)
                .filter_map(|digit| {
                    let centroid = geography.sector_centroid(&format!("{code} {digit}"))?;
                    Some((digit, centroid.point, centroid.postcodes))
                })
                .collect();
            let postcodes = geography
                .district_centroid(code)
                .map_or(1, |c| c.postcodes.max(1));
            total += u64::from(postcodes);
            cumulative.push(total);
            cells.entry(cell(&point)).or_default().push(districts.len());
            let start = points.len();
            for place in std::iter::once(point).chain(sectors.iter().map(|sector| sector.1)) {
                point_cells
                    .entry(cell(&place))
                    .or_default()
                    .push(points.len());
                points.push(place);
            }
            point_ranges.push(start..points.len());
            districts.push(District {
                code: code.to_owned(),
                point,
                sectors,
            });
        }
        Places {
            districts,
            cumulative,
            cells,
            points,
            point_ranges,
            point_cells,
        }
    }

    /// Every district, sorted by code.
    pub fn districts(&self) -> &[District] {
        &self.districts
    }

    /// The index of the district `code` (normalised), if known.
    pub fn index_of(&self, code: &str) -> Option<usize> {
        self.districts
            .binary_search_by(|d| d.code.as_str().cmp(code))
            .ok()
    }

    /// A base somewhere in Great Britain, districts and then sectors drawn in
    /// proportion to their postcodes.
    pub fn pick_base(&self, rng: &mut impl Rng) -> Base {
        let total = self.cumulative.last().copied().unwrap_or(0);
        let ticket = rng.gen_range(0..total.max(1));
        let index = self
            .cumulative
            .partition_point(|&sum| sum <= ticket)
            .min(self.districts.len() - 1);
        let district = &self.districts[index];
        let (digit, point) = match pick_sector(&district.sectors, rng) {
            Some((digit, point)) => (digit, point),
            None => (rng.gen_range(1..=9), district.point),
        };
        let first = letter(rng);
        let second = letter(rng);
        let postcode = format!("{} {digit}{first}{second}", district.code);
        Base {
            district: index,
            postcode,
            point,
        }
    }

    /// Calls `visit(index, miles)` for every district whose centroid is within
    /// `miles` of `point`, in no particular order.
    pub fn for_each_within(&self, point: &Point, miles: f64, visit: impl FnMut(usize, f64)) {
        scan(
            &self.cells,
            |index| self.districts[index].point,
            point,
            miles,
            visit,
        );
    }

    /// Every place a job can be placed at: the centroid of each district and
    /// of each of its sectors.
    pub fn points(&self) -> &[Point] {
        &self.points
    }

    /// Where the points of the district `index` are in [`points`](Self::points).
    pub fn points_of(&self, index: usize) -> Range<usize> {
        self.point_ranges[index].clone()
    }

    /// Calls `visit(index, miles)` for every point of [`points`](Self::points)
    /// within `miles` of `point`, in no particular order.
    pub fn for_each_point_within(&self, point: &Point, miles: f64, visit: impl FnMut(usize, f64)) {
        scan(
            &self.point_cells,
            |index| self.points[index],
            point,
            miles,
            visit,
        );
    }

    /// Districts within `miles` of `point`, nearest first (ties by code).
    pub fn within(&self, point: &Point, miles: f64) -> Vec<(usize, f64)> {
        let mut found = Vec::new();
        self.for_each_within(point, miles, |index, distance| {
            found.push((index, distance))
        });
        found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        found
    }
}

/// Calls `visit(index, miles)` for every index of `grid` whose point (`at`)
/// is within `miles` of `point`.
fn scan(
    grid: &Grid,
    at: impl Fn(usize) -> Point,
    point: &Point,
    miles: f64,
    mut visit: impl FnMut(usize, f64),
) {
    let reach = (miles * 1_609.344 / CELL_M).ceil() as i64;
    let (x, y) = cell(point);
    let limit = (miles * 1_609.344 * 1.000_001).powi(2);
    for cx in x - reach..=x + reach {
        for cy in y - reach..=y + reach {
            for &index in grid.get(&(cx, cy)).map(Vec::as_slice).unwrap_or_default() {
                let other = at(index);
                let (east, north) = (
                    other.easting - point.easting,
                    other.northing - point.northing,
                );
                // Squares first: most points of the cells are out of reach.
                if east * east + north * north <= limit {
                    let distance = point.distance_miles(&other);
                    if distance <= miles {
                        visit(index, distance);
                    }
                }
            }
        }
    }
}

/// A letter an inward code may end with.
pub(super) fn letter(rng: &mut impl Rng) -> char {
    char::from(INWARD_LETTERS[rng.gen_range(0..INWARD_LETTERS.len())])
}

fn cell(point: &Point) -> (i64, i64) {
    (
        (point.easting / CELL_M).floor() as i64,
        (point.northing / CELL_M).floor() as i64,
    )
}

fn pick_sector(sectors: &[(u8, Point, u32)], rng: &mut impl Rng) -> Option<(u8, Point)> {
    let total: u64 = sectors.iter().map(|s| u64::from(s.2.max(1))).sum();
    if total == 0 {
        return None;
    }
    let mut ticket = rng.gen_range(0..total);
    for &(digit, point, postcodes) in sectors {
        let weight = u64::from(postcodes.max(1));
        if ticket < weight {
            return Some((digit, point));
        }
        ticket -= weight;
    }
    None
}

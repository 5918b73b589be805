//! Where postcodes are: sector and district centroids on the Ordnance Survey
//! National Grid, derived from Code-Point Open (see `NOTICE`).
//!
//! A job is placed at its sector's centroid, else at its district's. Northern
//! Ireland, the Channel Islands and the Isle of Man are not in Code-Point
//! Open: their postcodes are valid but [`Geography::locate`] gives `None`.

use crate::postcode::Postcode;
use std::collections::HashMap;
use std::sync::OnceLock;

mod table;
#[cfg(test)]
mod tests;

pub use table::{GeographyError, Table};

/// The shipped tables, compiled into the binary so a clone needs no data files.
const EMBEDDED_SECTORS: &str = include_str!("../../../data/uk-sectors.csv");
const EMBEDDED_DISTRICTS: &str = include_str!("../../../data/uk-outcodes.csv");

const METRES_PER_MILE: f64 = 1_609.344;

/// A point on the OSGB36 National Grid, in metres.
///
/// Within Great Britain the grid is flat enough that straight-line distance on
/// it is accurate enough for matching trades to jobs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Metres east of the grid's false origin.
    pub easting: f64,
    /// Metres north of the grid's false origin.
    pub northing: f64,
}

impl Point {
    /// Straight-line distance to `other` in metres.
    pub fn distance_m(&self, other: &Point) -> f64 {
        (self.easting - other.easting).hypot(self.northing - other.northing)
    }

    /// Straight-line distance to `other` in statute miles.
    pub fn distance_miles(&self, other: &Point) -> f64 {
        self.distance_m(other) / METRES_PER_MILE
    }
}

/// How finely a [`Location`] pins a postcode down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    /// The centroid of the postcode's sector (`SW1A 1`).
    Sector,
    /// The centroid of the postcode's district (`SW1A`): the sector is unknown.
    District,
}

/// Where a postcode is, and how precisely that is known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Location {
    /// The centroid used for the postcode.
    pub point: Point,
    /// Whether `point` is the sector's or the district's centroid.
    pub precision: Precision,
}

/// The centroid of a sector or district: the mean of its postcodes' positions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Centroid {
    /// The mean position on the National Grid.
    pub point: Point,
    /// WGS84 latitude in degrees.
    pub latitude: f64,
    /// WGS84 longitude in degrees.
    pub longitude: f64,
    /// How many live postcodes the centroid averages.
    pub postcodes: u32,
}

/// Sector and district centroids, keyed by normalised code (`SW1A 1`, `SW1A`).
#[derive(Debug, Clone, Default)]
pub struct Geography {
    sectors: HashMap<String, Centroid>,
    districts: HashMap<String, Centroid>,
    /// District codes in sorted order, so iteration is deterministic.
    district_codes: Vec<String>,
}

impl Geography {
    /// The geography shipped with the service (Great Britain, about 10,800
    /// sectors and 2,900 districts), parsed on first use and then shared.
    pub fn embedded() -> &'static Geography {
        static EMBEDDED: OnceLock<Geography> = OnceLock::new();
        EMBEDDED.get_or_init(|| {
            Geography::from_csv(EMBEDDED_SECTORS, EMBEDDED_DISTRICTS)
                .expect("the embedded postcode geography is valid")
        })
    }

    /// Builds a geography from two CSV tables with the columns
    /// `sector|outcode,easting,northing,latitude,longitude,postcodes`, in the
    /// format of `data/uk-sectors.csv` and `data/uk-outcodes.csv`.
    /// Codes are normalised to upper case with single spaces.
    pub fn from_csv(sectors: &str, districts: &str) -> Result<Geography, GeographyError> {
        let sectors = table::parse(Table::Sectors, sectors)?;
        let districts = table::parse(Table::Districts, districts)?;
        let mut district_codes: Vec<String> = districts.keys().cloned().collect();
        district_codes.sort_unstable();
        Ok(Geography {
            sectors,
            districts,
            district_codes,
        })
    }

    /// Where `postcode` is: its sector's centroid if known, else its
    /// district's, else `None` (e.g. Northern Ireland, Jersey, `GIR 0AA`).
    pub fn locate(&self, postcode: &Postcode) -> Option<Location> {
        if let Some(centroid) = self.sectors.get(postcode.sector()) {
            return Some(Location {
                point: centroid.point,
                precision: Precision::Sector,
            });
        }
        self.districts
            .get(postcode.district())
            .map(|centroid| Location {
                point: centroid.point,
                precision: Precision::District,
            })
    }

    /// The centroid of a district such as `SW1A` (any case), if known.
    pub fn district(&self, code: &str) -> Option<Point> {
        self.district_centroid(code).map(|c| c.point)
    }

    /// The full centroid record of a district such as `SW1A` (any case).
    pub fn district_centroid(&self, code: &str) -> Option<&Centroid> {
        lookup(&self.districts, code)
    }

    /// The centroid of a sector such as `SW1A 1` (any case, any spacing).
    pub fn sector(&self, code: &str) -> Option<Point> {
        self.sector_centroid(code).map(|c| c.point)
    }

    /// The full centroid record of a sector such as `SW1A 1`.
    pub fn sector_centroid(&self, code: &str) -> Option<&Centroid> {
        lookup(&self.sectors, code)
    }

    /// Every district with its centroid, sorted by code, so that a seeded
    /// generator spreading trades across Great Britain is deterministic.
    pub fn districts(&self) -> impl ExactSizeIterator<Item = (&str, Point)> + '_ {
        self.district_codes
            .iter()
            .map(|code| (code.as_str(), self.districts[code].point))
    }

    /// How many sectors have a centroid.
    pub fn sector_count(&self) -> usize {
        self.sectors.len()
    }

    /// How many districts have a centroid.
    pub fn district_count(&self) -> usize {
        self.districts.len()
    }
}

/// Looks `code` up as given, falling back to its normal form, so the common
/// already-normalised case costs no allocation.
fn lookup<'a>(map: &'a HashMap<String, Centroid>, code: &str) -> Option<&'a Centroid> {
    map.get(code)
        .or_else(|| map.get(table::normalise_code(code).as_str()))
}

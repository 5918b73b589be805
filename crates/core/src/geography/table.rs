//! Reading the centroid tables: plain comma-separated text without quoting,
//! one header line, one sector or district a line.

use super::{Centroid, Point};
use std::collections::HashMap;
use std::fmt;

/// The columns after the code, in this order, in both tables.
const VALUE_COLUMNS: [&str; 5] = ["easting", "northing", "latitude", "longitude", "postcodes"];

/// Which of the two centroid tables a [`GeographyError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// Postcode sectors (`SW1A 1`), first column `sector`.
    Sectors,
    /// Postcode districts (`SW1A`), first column `outcode` or `district`.
    Districts,
}

impl Table {
    fn accepts_code_column(self, name: &str) -> bool {
        match self {
            Table::Sectors => name == "sector",
            Table::Districts => name == "outcode" || name == "district",
        }
    }
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Table::Sectors => "sectors",
            Table::Districts => "districts",
        })
    }
}

/// Why a centroid table could not be read. Lines count from 1, the header.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeographyError {
    /// The first line is missing or does not name the expected columns.
    #[error("{table} table: the header must be `<code>,{}`, found `{found}`", VALUE_COLUMNS.join(","))]
    Header {
        /// The table at fault.
        table: Table,
        /// The first line as found.
        found: String,
    },
    /// A data line could not be read.
    #[error("{table} table, line {line}: {reason}")]
    Row {
        /// The table at fault.
        table: Table,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with the line.
        reason: String,
    },
}

/// Parses one table into centroids keyed by normalised code.
pub(super) fn parse(table: Table, text: &str) -> Result<HashMap<String, Centroid>, GeographyError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    let header = lines.next().map(|(_, line)| line).unwrap_or_default();
    check_header(table, header)?;

    let mut centroids = HashMap::new();
    for (line, row) in lines.filter(|(_, row)| !row.trim().is_empty()) {
        let row_error = |reason: String| GeographyError::Row {
            table,
            line,
            reason,
        };
        let (code, centroid) = parse_row(table, row).map_err(row_error)?;
        if centroids.contains_key(&code) {
            return Err(row_error(format!("`{code}` appears twice")));
        }
        centroids.insert(code, centroid);
    }
    Ok(centroids)
}

fn check_header(table: Table, header: &str) -> Result<(), GeographyError> {
    let names: Vec<String> = header
        .split(',')
        .map(|name| name.trim().to_ascii_lowercase())
        .collect();
    let fits = names.len() == 1 + VALUE_COLUMNS.len()
        && table.accepts_code_column(&names[0])
        && names[1..].iter().zip(VALUE_COLUMNS).all(|(a, b)| a == b);
    if fits {
        Ok(())
    } else {
        Err(GeographyError::Header {
            table,
            found: header.to_owned(),
        })
    }
}

fn parse_row(table: Table, row: &str) -> Result<(String, Centroid), String> {
    let cells: Vec<&str> = row.split(',').map(str::trim).collect();
    let [code, easting, northing, latitude, longitude, postcodes] = cells[..] else {
        return Err(format!("expected 6 columns, found {}", cells.len()));
    };
    let code = normalise_code(code);
    if !is_valid_code(table, &code) {
        return Err(format!("`{code}` is not a postcode {}", singular(table)));
    }
    let centroid = Centroid {
        point: Point {
            easting: number("easting", easting)?,
            northing: number("northing", northing)?,
        },
        latitude: number("latitude", latitude)?,
        longitude: number("longitude", longitude)?,
        postcodes: postcodes
            .parse()
            .map_err(|_| format!("postcodes `{postcodes}` is not a count"))?,
    };
    Ok((code, centroid))
}

fn number(column: &str, cell: &str) -> Result<f64, String> {
    cell.parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
        .ok_or_else(|| format!("{column} `{cell}` is not a number"))
}

fn singular(table: Table) -> &'static str {
    match table {
        Table::Sectors => "sector",
        Table::Districts => "district",
    }
}

/// Upper case with single spaces: `sw1a  1` becomes `SW1A 1`.
pub(super) fn normalise_code(code: &str) -> String {
    code.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_uppercase()
}

/// A district is 2 to 4 letters and digits starting with a letter; a sector
/// is a district, a space and one digit.
fn is_valid_code(table: Table, code: &str) -> bool {
    let is_district = |d: &str| {
        (2..=4).contains(&d.len())
            && d.starts_with(|c: char| c.is_ascii_alphabetic())
            && d.chars().all(|c| c.is_ascii_alphanumeric())
    };
    match table {
        Table::Districts => is_district(code),
        Table::Sectors => match code.split_once(' ') {
            Some((district, digit)) => {
                is_district(district) && digit.len() == 1 && digit.as_bytes()[0].is_ascii_digit()
            }
            None => false,
        },
    }
}

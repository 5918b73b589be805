//! `GET /trades/search?postcode&category&page&size` (signed).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use intake_api::trades::{SearchMeta, TradeSearchQuery, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE};
use intake_core::categories::CategoryTree;
use intake_core::geography::Geography;
use intake_core::postcode::Postcode;

/// A checked search request.
#[derive(Debug)]
struct Search {
    postcode: Postcode,
    category: u32,
    page: u32,
    size: u32,
}

/// Trades that serve a category and cover a postcode, best first.
#[utoipa::path(
    get,
    operation_id = "searchTrades",
    path = "/trades/search",
    tag = "trades",
    params(TradeSearchQuery),
    security(("signature" = [])),
    responses(
        (status = 200, description = "A page of matching trades (empty past the last page)", body = intake_api::trades::TradeSearchResponse),
        (status = 400, description = "A parameter is missing or invalid; the detail names it", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "Missing or invalid signature", body = intake_api::Problem, content_type = "application/problem+json"),
        (status = 500, description = "The server failed; nothing to fix on the client's side", body = intake_api::Problem, content_type = "application/problem+json")
    )
)]
pub async fn search(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let snapshot = state.directory.current();
    let search = parse(
        query.as_deref().unwrap_or_default(),
        &snapshot.directory.tree,
    )
    .map_err(ApiError::BadRequest)?;
    let location = Geography::embedded().locate(&search.postcode);
    let offset = (search.page as usize - 1).saturating_mul(search.size as usize);
    let directory = &snapshot.directory;
    let (total, page) = directory.index.search_page(
        search.category,
        &search.postcode,
        location,
        offset,
        search.size as usize,
    );
    let ids: Vec<u64> = page.iter().map(|found| found.company_id).collect();
    let cards = state.store.trade_cards(&ids).await?;
    let meta = SearchMeta::new(search.page, search.size, total as u64);
    // The cards are stored as JSON already; splice them in rather than re-encode.
    let body = format!(
        "{{\"items\":[{}],\"meta\":{}}}",
        cards.join(","),
        serde_json::to_string(&meta).expect("meta always serialises")
    );
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(response)
}

/// The parameters the search reads; any other is ignored, however often it is given.
const PARAMETERS: [&str; 4] = ["postcode", "category", "page", "size"];

/// Checks every parameter and reports every problem at once, each once: a parameter given
/// 5,000 times is one problem, so the detail stays short whatever the query holds.
fn parse(query: &str, tree: &CategoryTree) -> Result<Search, String> {
    let mut values: [Option<String>; PARAMETERS.len()] = Default::default();
    let mut repeated = [false; PARAMETERS.len()];
    for (name, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let Some(at) = PARAMETERS.iter().position(|known| *known == name) else {
            continue;
        };
        match &values[at] {
            Some(_) => repeated[at] = true,
            None => values[at] = Some(value.into_owned()),
        }
    }
    let mut problems: Vec<String> = PARAMETERS
        .iter()
        .zip(repeated)
        .filter(|(_, repeated)| *repeated)
        .map(|(name, _)| format!("`{name}` is given more than once"))
        .collect();
    let get = |name: &str| {
        let at = PARAMETERS.iter().position(|known| *known == name)?;
        values[at].as_deref()
    };

    let postcode = match get("postcode") {
        None => Err("`postcode` is required, e.g. postcode=SW1A%201AA".to_owned()),
        Some(text) => Postcode::parse(text).map_err(|error| format!("`postcode`: {error}")),
    };
    let category = match get("category") {
        None => Err("`category` is required: a category id from /api/v1/category".to_owned()),
        Some(text) => match integer(text, "category", 1, u32::MAX) {
            Ok(id) if tree.get(id).is_some() => Ok(id),
            Ok(id) => Err(format!(
                "`category` {id} is not a known category; see /api/v1/category"
            )),
            Err(problem) => Err(problem),
        },
    };
    let page = get("page").map_or(Ok(1), |text| integer(text, "page", 1, u32::MAX));
    let size = get("size").map_or(Ok(DEFAULT_PAGE_SIZE), |text| {
        integer(text, "size", 1, MAX_PAGE_SIZE)
    });

    match (postcode, category, page, size) {
        (Ok(postcode), Ok(category), Ok(page), Ok(size)) if problems.is_empty() => Ok(Search {
            postcode,
            category,
            page,
            size,
        }),
        (postcode, category, page, size) => {
            problems.extend(
                [postcode.err(), category.err(), page.err(), size.err()]
                    .into_iter()
                    .flatten(),
            );
            Err(problems.join("; "))
        }
    }
}

fn integer(text: &str, name: &str, min: u32, max: u32) -> Result<u32, String> {
    let out_of_range = || {
        if max == u32::MAX {
            format!("`{name}` must be an integer of at least {min}, not `{text}`")
        } else {
            format!("`{name}` must be an integer from {min} to {max}, not `{text}`")
        }
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(out_of_range());
    }
    match text.parse::<u32>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        _ => Err(out_of_range()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> &'static CategoryTree {
        CategoryTree::embedded()
    }

    #[test]
    fn defaults_apply_and_the_postcode_is_normalised() {
        let search = parse("postcode=sw1a1aa&category=20", tree()).unwrap();
        assert_eq!(
            (
                search.postcode.as_str(),
                search.category,
                search.page,
                search.size
            ),
            ("SW1A 1AA", 20, 1, 5)
        );
    }

    #[test]
    fn every_bad_parameter_is_named_at_once() {
        let problem = parse("category=0&page=-1&size=51", tree()).unwrap_err();
        for name in [
            "`postcode` is required",
            "`category` must be",
            "`page` must be",
            "`size` must be an integer from 1 to 50",
        ] {
            assert!(problem.contains(name), "{name}: {problem}");
        }
    }

    #[test]
    fn unknown_categories_junk_numbers_and_repeats_are_refused() {
        assert!(parse("postcode=SW1A1AA&category=999999", tree())
            .unwrap_err()
            .contains("not a known category"));
        assert!(parse("postcode=SW1A1AA&category=2x", tree())
            .unwrap_err()
            .contains("`category` must be"));
        assert!(parse("postcode=SW1A1AA&category=20&page=1.5", tree())
            .unwrap_err()
            .contains("`page`"));
        assert!(parse("postcode=SW1A1AA&category=20&size=", tree())
            .unwrap_err()
            .contains("`size`"));
        assert!(parse("postcode=SW1A1AA&category=20&category=12", tree())
            .unwrap_err()
            .contains("`category` is given more than once"));
        assert!(parse("postcode=NOPE&category=20", tree())
            .unwrap_err()
            .contains("`postcode`"));
        assert!(parse("postcode=SW1A1AA&category=99999999999", tree())
            .unwrap_err()
            .contains("`category`"));
    }

    #[test]
    fn a_parameter_given_5000_times_is_named_once() {
        let query = format!("postcode=SW1A1AA&category=20{}", "&page=2".repeat(5000));
        assert_eq!(
            parse(&query, tree()).unwrap_err(),
            "`page` is given more than once"
        );
    }

    #[test]
    fn each_repeated_parameter_is_named_once_beside_the_other_problems() {
        let query = format!(
            "{}{}&size=0",
            "postcode=SW1A1AA&".repeat(3),
            "page=x&".repeat(4)
        );
        assert_eq!(
            parse(&query, tree()).unwrap_err(),
            "`postcode` is given more than once; `page` is given more than once; \
             `category` is required: a category id from /api/v1/category; \
             `page` must be an integer of at least 1, not `x`; \
             `size` must be an integer from 1 to 50, not `0`"
        );
    }

    #[test]
    fn other_parameters_are_ignored_however_often_they_are_given() {
        let query = format!("postcode=SW1A1AA&category=20{}", "&utm=x&x1=2".repeat(5000));
        assert_eq!(parse(&query, tree()).unwrap().category, 20);
    }
}

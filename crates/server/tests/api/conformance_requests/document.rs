//! The OpenAPI document states the rules a job request is checked against,
//! and its patterns accept every value the specification allows.

use super::spec;
use crate::helpers::{api, spawn_app, TestApp};
use serde_json::{json, Value};

async fn document(app: &TestApp) -> Value {
    let response = app
        .http
        .get(app.url(&api("/openapi.json")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

/// Follows a `$ref` to `#/components/schemas/...`, or returns the schema itself.
fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.strip_prefix("#/components/schemas/").unwrap();
            &document["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// The schema of an optional object member: `oneOf [null, $ref]` in OpenAPI 3.1.
fn object_member<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    let alternatives = schema["oneOf"].as_array();
    let referenced = alternatives
        .and_then(|all| all.iter().find(|s| s.get("$ref").is_some()))
        .unwrap_or(schema);
    resolve(document, referenced)
}

fn required(schema: &Value) -> Vec<&str> {
    let mut names: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().map(|n| n.as_str().unwrap()).collect())
        .unwrap_or_default();
    names.sort_unstable();
    names
}

fn pattern(schema: &Value) -> regex::Regex {
    regex::Regex::new(schema["pattern"].as_str().expect("a pattern")).unwrap()
}

#[tokio::test]
async fn the_job_request_schema_states_the_rules_validation_applies() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let body = &document["paths"][api("/jobs")]["post"]["requestBody"]["content"]
        ["application/json"]["schema"];
    let job = resolve(&document, body);
    let members = &job["properties"];

    // Required in both revisions; preferredStart only in the earlier one, and
    // the later one wins.
    assert_eq!(
        required(job),
        [
            "categoryId",
            "description",
            "email",
            "firstName",
            "lastName",
            "phone",
            "postcode"
        ]
    );
    assert!(members["preferredStart"].is_object() && members["address"].is_object());
    assert_ne!(
        job["additionalProperties"],
        json!(false),
        "unknown members are ignored"
    );

    // categoryId: a JSON number from 1, or a string of digits.
    let one_of = members["categoryId"]["oneOf"].as_array().expect("oneOf");
    let integer = one_of.iter().find(|s| s["type"] == "integer").unwrap();
    assert_eq!(integer["minimum"], 1);
    let digits = one_of.iter().find(|s| s["type"] == "string").unwrap();
    let digits = pattern(digits);
    assert!(digits.is_match("1335") && digits.is_match("01335"));
    assert!(!digits.is_match("0") && !digits.is_match("12a") && !digits.is_match(""));

    // description: more than 10 characters.
    assert_eq!(members["description"]["type"], "string");
    assert_eq!(members["description"]["minLength"], 11);
    assert!(pattern(&members["description"]).is_match(spec::ELEVEN_CHARACTERS));

    assert_eq!(members["email"]["format"], "email");
    for name in ["firstName", "lastName"] {
        assert_eq!(members[name]["minLength"], 1, "{name}");
    }

    // phone: every value of the specification's pattern, and the separators we remove.
    let phone = pattern(&members["phone"]);
    for (_, sent) in spec::PHONE_EDGES {
        assert!(phone.is_match(sent), "{sent}");
    }
    for accepted in ["07900 000000", "+44 (0)7900-000.000"] {
        assert!(phone.is_match(accepted), "{accepted}");
    }
    for refused in [
        "1234",
        "1234567890123456",
        "+",
        "07900x000000",
        "++44123456",
    ] {
        assert!(!phone.is_match(refused), "{refused}");
    }
    assert!(members["phone"]["description"]
        .as_str()
        .unwrap()
        .contains(r"^\+?\d{5,15}$"));

    // postcode: every shape of the specification's pattern, anchored as a whole.
    let postcode = pattern(&members["postcode"]);
    for (shape, sent) in spec::POSTCODES {
        assert!(postcode.is_match(sent), "{shape}: {sent}");
    }
    for refused in ["XSW1A 1AA", "GIR 0AAjunk", "SW1A", "AI1 1AA", "12345"] {
        assert!(!postcode.is_match(refused), "{refused}");
    }

    // preferredStart: {id, date?}, the id one of the listed options.
    let preferred_start = object_member(&document, &members["preferredStart"]);
    assert_eq!(required(preferred_start), ["id"]);
    let id = resolve(&document, &preferred_start["properties"]["id"]);
    let ids: Vec<&str> = id["enum"]
        .as_array()
        .expect("an enum of ids")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for named in spec::NAMED_PREFERRED_STARTS {
        assert!(ids.contains(&named), "{named} not in {ids:?}");
    }
    let date = &preferred_start["properties"]["date"];
    assert!(pattern(date).is_match("2026-12-01") && pattern(date).is_match("2026-12-01T09:30:00Z"));

    // address: line1, city and postcode required, line2 and line3 optional.
    let address = object_member(&document, &members["address"]);
    assert_eq!(required(address), ["city", "line1", "postcode"]);
    for line in ["line2", "line3"] {
        assert!(address["properties"][line].is_object(), "{line}");
    }
    let address_postcode = pattern(&address["properties"]["postcode"]);
    assert!(address_postcode.is_match("ec1a1bb"));
}

#[tokio::test]
async fn the_multipart_form_names_data_and_at_most_five_images() {
    let app = spawn_app().await;
    let document = document(&app).await;
    for path in ["/jobs/with-attachments", "/verify/jobs/with-attachments"] {
        let body = &document["paths"][api(path)]["post"]["requestBody"]["content"]
            ["multipart/form-data"]["schema"];
        let form = resolve(&document, body);
        assert_eq!(required(form), ["data"], "{path}");
        assert_eq!(form["properties"]["data"]["type"], "string", "{path}");
        assert_eq!(form["properties"]["images"]["maxItems"], 5, "{path}");
    }
}

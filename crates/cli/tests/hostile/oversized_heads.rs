//! Oversized signature headers on a correctly signed job: a 400 KB
//! Authorization, 40,000 parameters, 50,000 covered names. The HTTP layer
//! refuses heads that size before the signature is parsed (hyper's bare 431,
//! or the connection closed while the client is still writing); heads that
//! fit in its buffer get the signature layer's 401 or the head limits' 431,
//! with a problem body. No job is created, whatever the size.

use crate::raw::{exchange, healthz, request, Reply};
use crate::target::{job, pairs, Target, API, FULL};

/// Each hostile head is sent this many times at once.
const AT_ONCE: usize = 10;

/// A job signed over every name, with its Authorization changed by `tamper`.
fn tampered_job(target: &Target, tamper: impl Fn(&str) -> String) -> Vec<u8> {
    let body = serde_json::to_vec(&job()).unwrap();
    let path = format!("{API}/jobs");
    let mut headers = target.signed("POST", &path, &body, &FULL, None);
    let authorization = &mut headers.last_mut().unwrap().1;
    *authorization = tamper(authorization);
    request("POST", &path, &pairs(&headers), &body)
}

/// Padded with an unknown parameter to `size` bytes.
fn padded_to(size: usize) -> impl Fn(&str) -> String {
    move |signed: &str| {
        let pad = size - signed.len() - r#",pad="""#.len();
        format!(r#"{signed},pad="{}""#, "p".repeat(pad))
    }
}

fn forty_thousand_parameters(signed: &str) -> String {
    let extra: String = (0..40_000).map(|n| format!(r#",p{n}="""#)).collect();
    format!("{signed}{extra}")
}

fn fifty_thousand_covered_names(signed: &str) -> String {
    let names: Vec<String> = (0..50_000).map(|n| format!("h{n}")).collect();
    let start = signed.find("headers=\"").unwrap() + "headers=\"".len();
    let end = start + signed[start..].find('"').unwrap();
    format!("{}{}{}", &signed[..start], names.join(" "), &signed[end..])
}

/// Refused as a head too large for the HTTP layer: a 431 (hyper's has no
/// body; ours has the problem body), or closed without a whole answer.
fn assert_refused_by_the_http_layer(what: &str, reply: Reply) {
    if let Reply::Answered(answer) = reply {
        assert_eq!(answer.status, 431, "{what}: {answer:?}");
        if !answer.body.is_empty() {
            answer.problem();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heads_of_hundreds_of_kilobytes_are_refused_before_the_signature_is_read_and_create_nothing(
) {
    let target = Target::start(&[]);
    let address = target.address();
    let hostile: [(&str, Vec<u8>); 3] = [
        (
            "a 400 KB Authorization",
            tampered_job(&target, padded_to(400 * 1024)),
        ),
        (
            "40,000 signature parameters",
            tampered_job(&target, forty_thousand_parameters),
        ),
        (
            "headers=\"h0 ... h49999\"",
            tampered_job(&target, fifty_thousand_covered_names),
        ),
    ];
    for (what, bytes) in &hostile {
        assert!(bytes.len() > 300 * 1024, "{what}: {} bytes", bytes.len());
        let sends: Vec<_> = (0..AT_ONCE)
            .map(|_| {
                let bytes = bytes.clone();
                tokio::spawn(async move { exchange(address, &bytes).await })
            })
            .collect();
        for send in sends {
            assert_refused_by_the_http_layer(what, send.await.unwrap());
        }
    }

    // Within the HTTP layer's buffer, the server's own limits answer.
    let answer = exchange(address, &tampered_job(&target, padded_to(12 * 1024)))
        .await
        .answer();
    assert_eq!(answer.status, 401, "{answer:?}");
    assert_eq!(answer.header("www-authenticate"), Some("Signature"));
    let detail = answer.detail();
    assert!(
        detail.contains("12288 bytes, over the limit of 8192 bytes"),
        "{detail}"
    );
    let body = serde_json::to_vec(&job()).unwrap();
    let path = format!("{API}/jobs");
    let mut headers = target.signed("POST", &path, &body, &FULL, None);
    headers.push(("x-filler".into(), "f".repeat(20 * 1024)));
    let answer = exchange(address, &request("POST", &path, &pairs(&headers), &body))
        .await
        .answer();
    assert_eq!(answer.status, 431, "{answer:?}");
    assert!(
        answer.detail().contains("over the limit of 16384"),
        "{answer:?}"
    );

    assert_eq!(target.counts().await, Default::default(), "nothing created");
    assert_eq!(healthz(address).await, Some(200));
    target.assert_peak_rss_within_budget("oversized signature headers");
}

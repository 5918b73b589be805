//! E-mail leads through a real SMTP relay (Python aiosmtpd), and without one.

use super::{create, import, job, production_app, quick_delivery, states, wait_for_states};
use crate::helpers::trade;
use intake_core::delivery::DeliveryFilter;
use intake_delivery::{DeliveryConfig, SmtpSettings};
use intake_test_support::smtp::SmtpSink;
use std::time::Duration;

#[tokio::test]
async fn without_an_smtp_relay_an_email_lead_waits_and_is_retried() {
    let (app, key) = production_app(quick_delivery()).await;
    let mut record = trade(51, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0);
    record.delivery.webhook_url = None;
    import(&app, vec![record]).await;
    let job_id = create(&app, &key, &job(40)).await;

    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let outbox = app
            .store
            .deliveries(&DeliveryFilter::default())
            .await
            .unwrap();
        if outbox.len() == 1 && outbox[0].attempts >= 2 {
            assert!(outbox[0].last_error.as_deref().unwrap().contains("SMTP"));
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{outbox:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        states(&app, &key, &job_id).await,
        [(51, "pending".to_owned())]
    );
}

#[tokio::test]
async fn an_email_lead_reaches_the_smtp_sink_with_a_message_id_made_from_the_delivery_id() {
    let Some(sink) = SmtpSink::start().await else {
        return;
    };
    let smtp = SmtpSettings::new(&sink.url(), "Leads <leads@example-trades.co.uk>").unwrap();
    let (app, key) = production_app(DeliveryConfig {
        smtp: Some(smtp),
        ..quick_delivery()
    })
    .await;
    let mut record = trade(61, &[1335], "SW1A 2AA", Some(10.0), &[], 9.0);
    record.delivery.webhook_url = None;
    import(&app, vec![record]).await;
    let job_id = create(&app, &key, &job(50)).await;

    wait_for_states(&app, &key, &job_id, &[(61, "delivered")]).await;
    let messages = sink.messages();
    assert_eq!(messages.len(), 1);
    // Long headers may be folded onto continuation lines.
    let message = &messages[0].replace("\r\n ", " ").replace("\n ", " ");
    let delivery_id = format!("{job_id}.61.email");
    assert!(
        message.contains(&format!(
            "Message-ID: <lead.{delivery_id}@example-trades.co.uk>"
        )),
        "{message}"
    );
    assert!(message.contains("To: leads61@example.com"), "{message}");
    assert!(message.contains("lead.json"));
    assert!(message.contains("07900000050"));
}

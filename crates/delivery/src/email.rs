//! E-mail leads through the SMTP relay (lettre). The `Message-ID` is made from
//! the delivery id, so a repeated attempt is recognisable as the same lead.

use super::attempt::Attempt;
use super::config::SmtpSettings;
use intake_api::leads::Lead;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::fmt::Write;
use std::time::Duration;

/// A connection pool to the relay and the sender address.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    /// A mailer for `settings`, each SMTP command limited to `timeout`.
    pub fn new(settings: &SmtpSettings, timeout: Duration) -> Result<Self, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(settings.url())
            .map_err(|error| format!("INTAKE_SMTP_URL is not usable: {error}"))?
            .timeout(Some(timeout))
            .build();
        Ok(Mailer {
            transport,
            from: settings.from().clone(),
        })
    }

    /// Sends `lead` to `to` once. Every failure is retried, a permanent (5xx)
    /// rejection too: from a relay it is mostly configuration (credentials,
    /// relaying rights) that the operator can fix within the window.
    pub async fn send(&self, to: &str, lead: &Lead, json: Vec<u8>) -> Attempt {
        let message = match self.message(to, lead, json) {
            Ok(message) => message,
            Err(error) => return Attempt::Failed(error),
        };
        match self.transport.send(message).await {
            Ok(_) => Attempt::Delivered,
            Err(error) if error.is_permanent() => {
                Attempt::Failed(format!("the relay refused the lead permanently: {error}"))
            }
            Err(error) => Attempt::Failed(format!("the relay did not take the lead: {error}")),
        }
    }

    fn message(&self, to: &str, lead: &Lead, json: Vec<u8>) -> Result<Message, String> {
        let to: Mailbox = to
            .parse()
            .map_err(|error| format!("`{to}` is not an e-mail address: {error}"))?;
        let json_type = ContentType::parse("application/json").expect("a valid media type");
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(format!(
                "New lead: {} in {}",
                lead.job.category.name, lead.job.postcode
            ))
            .message_id(Some(message_id(&lead.id, self.from.email.domain())))
            .multipart(
                MultiPart::mixed()
                    .singlepart(SinglePart::plain(text(lead)))
                    .singlepart(Attachment::new("lead.json".to_owned()).body(json, json_type)),
            )
            .map_err(|error| format!("the lead e-mail could not be built: {error}"))
    }
}

/// The `Message-ID` of a delivery: the same on every attempt.
pub fn message_id(delivery_id: &str, domain: &str) -> String {
    format!("<lead.{delivery_id}@{domain}>")
}

/// The lead as readable text; the same data is attached as `lead.json`.
pub fn text(lead: &Lead) -> String {
    let job = &lead.job;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "New lead for {} ({})\n",
        lead.trade.name, lead.trade.id
    );
    let _ = writeln!(out, "Category: {} ({})", job.category.name, job.category.id);
    if let Some(start) = &job.preferred_start {
        let date = start
            .date
            .as_deref()
            .map(|d| format!(", {d}"))
            .unwrap_or_default();
        let _ = writeln!(out, "Preferred start: {}{date}", start.label);
    }
    let _ = writeln!(out, "Postcode: {}", job.postcode);
    if let Some(a) = &job.address {
        let lines: Vec<&str> = [
            Some(a.line1.as_str()),
            a.line2.as_deref(),
            a.line3.as_deref(),
        ]
        .into_iter()
        .flatten()
        .chain([a.city.as_str(), a.postcode.as_str()])
        .collect();
        let _ = writeln!(out, "Address: {}", lines.join(", "));
    }
    let _ = writeln!(out, "\n{}\n", job.description);
    let c = &job.consumer;
    let _ = writeln!(out, "Homeowner: {} {}", c.first_name, c.last_name);
    let _ = writeln!(out, "Phone: {}", c.phone);
    let _ = writeln!(out, "E-mail: {}", c.email);
    if !job.images.is_empty() {
        let _ = writeln!(
            out,
            "\nPhotos (links work until {}):",
            job.images[0].url_expires_at
        );
        for image in &job.images {
            let _ = writeln!(out, "  {}", image.url);
        }
    }
    let _ = writeln!(
        out,
        "\nJob {} received {}. Lead {}: if this e-mail arrives again, it is the same lead.",
        job.id, lead.created_at, lead.id
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use intake_api::leads::{LeadCategory, LeadConsumer, LeadJob, LeadTrade, LEAD_CREATED};

    fn lead(category: &str, trade: &str) -> Lead {
        Lead {
            kind: LEAD_CREATED.into(),
            id: "j.1.email".into(),
            created_at: "2026-11-26T10:00:00Z".into(),
            trade: LeadTrade {
                id: 1,
                name: trade.into(),
            },
            job: LeadJob {
                id: "j".into(),
                category: LeadCategory {
                    id: 1335,
                    name: category.into(),
                },
                description: "Boiler not working".into(),
                preferred_start: None,
                postcode: "SW1A 1AA".into(),
                address: None,
                consumer: LeadConsumer {
                    first_name: "Sam".into(),
                    last_name: "Jones".into(),
                    email: "sam@example.com".into(),
                    phone: "07900000000".into(),
                },
                images: Vec::new(),
            },
        }
    }

    #[tokio::test]
    async fn a_line_break_in_operator_text_cannot_add_a_header_to_the_lead_email() {
        // Category and trade names come from the operator's imports, unchecked
        // for control characters; the category name is in the subject.
        let settings = SmtpSettings::new("smtp://127.0.0.1:2525", "leads@example.com").unwrap();
        let mailer = Mailer::new(&settings, Duration::from_secs(1)).unwrap();
        let injected = "Boiler repair\r\nBcc: everyone@example.com\r\n\r\nForged body";
        let message = mailer
            .message(
                "trade@example.com",
                &lead(injected, injected),
                b"{}".to_vec(),
            )
            .unwrap();
        let formatted = String::from_utf8(message.formatted()).unwrap();
        let (head, _body) = formatted.split_once("\r\n\r\n").unwrap();
        let names: Vec<&str> = head
            .split("\r\n")
            .filter(|line| !line.starts_with([' ', '\t']))
            .filter_map(|line| line.split_once(':').map(|(name, _)| name))
            .collect();
        assert!(!names.contains(&"Bcc"), "{head}");
        assert!(!head.contains("Forged body"), "{head}");
        // Lettre writes the words holding a line break as RFC 2047 encoded words.
        assert!(
            head.contains("Subject: New lead: Boiler =?utf-8?b?"),
            "{head}"
        );
    }

    #[test]
    fn the_message_id_is_a_valid_id_made_from_the_delivery_id() {
        assert_eq!(
            message_id("0193.42.email", "example.com"),
            "<lead.0193.42.email@example.com>"
        );
    }
}

//! A photo or video of a trade's work as an operator imports it.

use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use time::macros::format_description;
use time::Date;

/// The album of an image that names none.
pub const DEFAULT_ALBUM: &str = "work";

/// What an image is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageKind {
    /// A photo at `url`.
    #[default]
    Photo,
    /// A YouTube video, `youTubeId`.
    Youtube,
}

impl ImageKind {
    /// The `type` on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ImageKind::Photo => intake_api::trades::IMAGE_TYPE_PHOTO,
            ImageKind::Youtube => intake_api::trades::IMAGE_TYPE_YOUTUBE,
        }
    }

    /// The kind of a stored `type`.
    pub fn parse(text: &str) -> Option<Self> {
        [ImageKind::Photo, ImageKind::Youtube]
            .into_iter()
            .find(|kind| kind.as_str() == text)
    }
}

/// One image of the import file. Files written before the search answer
/// followed the specification (`{id, url, thumbnailUrl, caption, width,
/// height}`) stay valid: `caption` is read as `description`, and the sizes
/// and thumbnail are kept though the answer does not show them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageRecord {
    /// Unique within the trade.
    pub id: String,
    /// The album; [`DEFAULT_ALBUM`] when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub album_id: Option<String>,
    /// `photo` (the default) or `youtube`.
    #[serde(default, rename = "type")]
    pub kind: ImageKind,
    /// The full-size photo (required for a photo), or the video's page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// A small version for lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thumbnail_url: Option<String>,
    /// The photo at any size, with `{width}` and/or `{height}` in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url_template: Option<String>,
    /// What the image shows (`caption` in older files).
    #[serde(default, alias = "caption", skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A short tag such as `Before` or `After`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The day it was taken or published, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The YouTube id of a `youtube` image (11 characters).
    #[serde(default, rename = "youTubeId", skip_serializing_if = "Option::is_none")]
    pub you_tube_id: Option<String>,
    /// Width in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Height in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
}

impl ImageRecord {
    /// The day of `date`, if it is a valid `YYYY-MM-DD`.
    pub fn day(&self) -> Option<Date> {
        let format = format_description!("[year]-[month]-[day]");
        Date::parse(self.date.as_deref()?, &format).ok()
    }
}

/// The watch page of a YouTube video.
pub fn youtube_url(id: &str) -> String {
    format!("https://www.youtube.com/watch?v={id}")
}

/// Checks every image, naming each problem by its place in the list, and
/// brings the valid ones to the stored form (album named, blank text absent,
/// a video's `url` its watch page when none is given).
pub(super) fn check_images(images: &mut [ImageRecord], problems: &mut Vec<String>) {
    let mut ids = HashSet::new();
    for (index, image) in images.iter_mut().enumerate() {
        let at = format!("images[{index}]");
        if image.id.trim().is_empty() || !ids.insert(image.id.clone()) {
            problems.push(format!("{at}.id must be present and unique"));
        }
        for text in [
            &mut image.album_id,
            &mut image.description,
            &mut image.label,
            &mut image.title,
        ] {
            if let Some(value) = text {
                *value = value.trim().to_owned();
                if value.is_empty() {
                    *text = None;
                }
            }
        }
        image
            .album_id
            .get_or_insert_with(|| DEFAULT_ALBUM.to_owned());
        match image.kind {
            ImageKind::Photo => {
                if image.url.is_none() {
                    problems.push(format!("{at}.url is required for a photo"));
                }
                if image.you_tube_id.is_some() {
                    problems.push(format!(
                        "{at}.youTubeId is only for an image of type youtube"
                    ));
                }
            }
            ImageKind::Youtube => match &image.you_tube_id {
                Some(id) if is_youtube_id(id) => {
                    image.url.get_or_insert_with(|| youtube_url(id));
                }
                _ => problems.push(format!(
                    "{at}.youTubeId must be the video's 11-character YouTube id"
                )),
            },
        }
        for (name, url) in [
            ("url", &image.url),
            ("thumbnailUrl", &image.thumbnail_url),
            ("urlTemplate", &image.url_template),
        ] {
            if url.as_deref().is_some_and(|url| !super::is_web_url(url)) {
                problems.push(format!("{at}.{name} must be an http(s) address"));
            }
        }
        if let Some(template) = &image.url_template {
            if !template.contains("{width}") && !template.contains("{height}") {
                problems.push(format!(
                    "{at}.urlTemplate must hold {{width}} or {{height}}"
                ));
            }
        }
        if image.width == Some(0) || image.height == Some(0) {
            problems.push(format!("{at}: width and height must be at least 1"));
        }
        if image.date.is_some() && image.day().is_none() {
            problems.push(format!(
                "{at}.date `{}` is not a date such as 2026-03-14",
                image.date.as_deref().unwrap_or_default()
            ));
        }
    }
}

fn is_youtube_id(id: &str) -> bool {
    id.len() == 11
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

//! Where the image store is: the value of `INTAKE_IMAGE_STORE`.

use std::fmt;
use std::path::PathBuf;

/// Where images go, as configured by `INTAKE_IMAGE_STORE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageStoreLocation {
    /// A folder on this machine (`file:///srv/intake/images`).
    Local(PathBuf),
    /// An S3 bucket and key prefix (`s3://bucket/prefix`); credentials and
    /// region come from the usual `AWS_*` environment variables.
    S3 {
        /// The bucket.
        bucket: String,
        /// Key prefix inside the bucket, without slashes at either end.
        prefix: String,
    },
    /// Kept in memory and lost on exit: for tests and tools that take no images.
    Memory,
}

impl ImageStoreLocation {
    /// Reads `file:///ABSOLUTE/PATH`, `s3://BUCKET[/PREFIX]` or `memory://`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let url = url::Url::parse(text).map_err(|error| {
            format!("image store `{text}` is not a URL ({error}); use file:///PATH or s3://BUCKET/PREFIX")
        })?;
        match url.scheme() {
            "file" => url
                .to_file_path()
                .map(ImageStoreLocation::Local)
                .map_err(|()| format!("image store `{text}`: a file URL needs an absolute path")),
            "s3" => match url.host_str() {
                Some(bucket) if !bucket.is_empty() => Ok(ImageStoreLocation::S3 {
                    bucket: bucket.to_owned(),
                    prefix: url.path().trim_matches('/').to_owned(),
                }),
                _ => Err(format!("image store `{text}`: name the bucket, s3://BUCKET/PREFIX")),
            },
            "memory" => Ok(ImageStoreLocation::Memory),
            other => Err(format!(
                "image store `{text}`: the scheme `{other}` is not supported; use file:///PATH or s3://BUCKET/PREFIX"
            )),
        }
    }
}

impl fmt::Display for ImageStoreLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImageStoreLocation::Local(path) => write!(f, "file://{}", path.display()),
            ImageStoreLocation::S3 { bucket, prefix } => write!(f, "s3://{bucket}/{prefix}"),
            ImageStoreLocation::Memory => f.write_str("memory://"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configured_locations_are_read_from_urls() {
        assert_eq!(
            ImageStoreLocation::parse("file:///srv/intake/images").unwrap(),
            ImageStoreLocation::Local(PathBuf::from("/srv/intake/images"))
        );
        assert_eq!(
            ImageStoreLocation::parse("s3://photos/intake/jobs/").unwrap(),
            ImageStoreLocation::S3 {
                bucket: "photos".into(),
                prefix: "intake/jobs".into()
            }
        );
        assert_eq!(
            ImageStoreLocation::parse("memory://").unwrap(),
            ImageStoreLocation::Memory
        );
        assert!(ImageStoreLocation::parse("ftp://host/x").is_err());
        assert!(ImageStoreLocation::parse("./images").is_err());
        assert!(ImageStoreLocation::parse("s3:///prefix").is_err());
    }
}

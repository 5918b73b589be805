//! Multipart jobs and the files of the image store.

use super::{TestApp, TestKey};
use std::path::{Path, PathBuf};

impl TestApp {
    /// A signed POST of a multipart form, with extra headers.
    pub async fn post_form(
        &self,
        key: &TestKey,
        path: &str,
        form: &intake_client::MultipartForm,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        self.post_raw(key, path, &form.content_type(), form.body.clone(), headers)
            .await
    }

    /// Every file in the image store, relative to its folder, sorted.
    pub fn stored_files(&self) -> Vec<PathBuf> {
        fn walk(dir: &Path, root: &Path, found: &mut Vec<PathBuf>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, root, found);
                } else {
                    found.push(path.strip_prefix(root).unwrap().to_owned());
                }
            }
        }
        let mut found = Vec::new();
        walk(&self.image_dir, &self.image_dir, &mut found);
        found.sort();
        found
    }
}

/// A multipart job: `job` in `data`, then each `(file name, bytes)` in `images`.
pub fn job_form(
    job: &serde_json::Value,
    images: &[(&str, Vec<u8>)],
) -> intake_client::MultipartForm {
    let images: Vec<(String, Vec<u8>)> = images
        .iter()
        .map(|(name, bytes)| ((*name).to_owned(), bytes.clone()))
        .collect();
    intake_client::MultipartForm::new(&serde_json::to_vec(job).unwrap(), &images)
}

//! The client's file name, kept only to show people which photo is which.

/// Longest name kept, in characters.
const MAX_CHARS: usize = 100;

/// Longest extension kept whole when a long name is cut; anything longer is
/// not an extension a person would recognise.
const MAX_EXTENSION_CHARS: usize = 10;

/// The client's file name made safe to keep as metadata: last path component
/// only (after `/` or `\`, so "../../etc/passwd" is "passwd"), control and
/// bidirectional-override characters and quotes removed, trimmed, at most 100
/// characters (keeping the extension when cutting), and "image" when nothing
/// is left. The name is never used to pick a type or a storage path; this only
/// keeps it from breaking the pages, logs and messages it is shown in.
pub fn sanitize_file_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let kept: String = last.chars().filter(|&c| !is_unsafe(c)).collect();
    let kept = kept.trim();
    if kept.chars().all(|c| c == '.') {
        return "image".into();
    }
    shorten(kept)
}

/// Control characters could forge log lines, bidirectional overrides make
/// "photo\u{202E}gpj.exe" display as "photoexe.jpg", and quotes and backticks
/// would break the quoting of the messages that name the file.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '"' | '\'' | '`' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

fn shorten(name: &str) -> String {
    if name.chars().count() <= MAX_CHARS {
        return name.to_string();
    }
    let extension = name
        .rfind('.')
        .filter(|&dot| dot > 0)
        .map(|dot| &name[dot..])
        .filter(|ext| ext.chars().count() <= MAX_EXTENSION_CHARS + 1)
        .unwrap_or("");
    let stem_chars = MAX_CHARS - extension.chars().count();
    let stem: String = name.chars().take(stem_chars).collect();
    format!("{}{extension}", stem.trim_end())
}

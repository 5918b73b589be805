//! What is kept of the client's file name.

use super::super::sanitize_file_name;

#[test]
fn a_path_keeps_only_its_last_component() {
    assert_eq!(sanitize_file_name("../../etc/passwd"), "passwd");
    assert_eq!(sanitize_file_name("C:\\Users\\me\\photo.jpg"), "photo.jpg");
    assert_eq!(sanitize_file_name("..\\../x/kitchen.png"), "kitchen.png");
}

#[test]
fn a_name_left_empty_or_only_dots_becomes_image() {
    for name in ["", "  ", "/", "dir/", "..", "../..", "\u{0007}\"'"] {
        assert_eq!(sanitize_file_name(name), "image", "{name:?}");
    }
}

#[test]
fn control_characters_quotes_and_direction_overrides_are_removed() {
    assert_eq!(sanitize_file_name("pho\nto\t\r\u{0}.jpg"), "photo.jpg");
    assert_eq!(
        sanitize_file_name("\"boiler\" `leak`.jpg"),
        "boiler leak.jpg"
    );
    assert_eq!(sanitize_file_name("photo\u{202E}gpj.exe"), "photogpj.exe");
    assert_eq!(sanitize_file_name("  roof tiles.webp  "), "roof tiles.webp");
}

#[test]
fn a_long_name_is_cut_to_a_hundred_characters_keeping_its_extension() {
    let long = format!("{}.jpg", "a".repeat(296));
    let kept = sanitize_file_name(&long);
    assert_eq!(kept.chars().count(), 100);
    assert!(kept.ends_with("aaa.jpg"), "{kept}");

    let wide = "é".repeat(150);
    assert_eq!(sanitize_file_name(&wide).chars().count(), 100);

    let no_real_extension = format!("{}.{}", "b".repeat(50), "c".repeat(80));
    assert_eq!(sanitize_file_name(&no_real_extension).chars().count(), 100);
}

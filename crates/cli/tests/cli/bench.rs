//! `intake bench`'s command line (a run needs a server and is measured by hand, BENCHMARKS.md).

use crate::helpers::intake;

#[test]
fn bench_help_names_every_scenario() {
    let output = intake().args(["bench", "--help"]).output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    // The option's own lines: from `--scenario` to the next option.
    let mut lines = help.lines().skip_while(|line| !line.contains("--scenario"));
    let first = lines.next().expect("--scenario is listed");
    let rest = lines.take_while(|line| !line.trim_start().starts_with("--"));
    let scenario = std::iter::once(first)
        .chain(rest)
        .collect::<Vec<_>>()
        .join("\n");
    for name in ["options", "search", "categories", "jobs"] {
        assert!(
            scenario.contains(name),
            "`{name}` missing from --scenario's help: {scenario}"
        );
    }
}

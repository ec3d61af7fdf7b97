use super::*;

fn parse(text: &str) -> Result<Spec, SpecError> {
    Spec::parse_knuth("t.dlx", text, &Overrides::default())
}

fn cover(text: &str) -> ExactCover {
    let spec = parse(text).unwrap_or_else(|e| panic!("{e}"));
    spec.rules.exact_cover.expect("a cover")
}

#[test]
fn knuths_example_with_comments_and_title() {
    let c = cover(
        "| Knuth's example\n\n| more comment\na b c d e | f g\nc e f\n  | inside\na d g\nb c f\na d\nb g\nd e g\n",
    );
    let p = &c.problem;
    assert_eq!((p.num_items(), p.num_primary(), p.num_options()), (7, 5, 6));
    assert_eq!(p.item_name(5), "f");
    assert!(!p.is_primary(5));
    assert_eq!(p.option(3), &[(0, 0), (3, 0)]);
    let spec = parse("| Knuth's example\na b\na b\n").unwrap();
    assert_eq!(spec.title.as_deref(), Some("Knuth's example"));
    assert_eq!(spec.kind, Kind::Cover);
}

#[test]
fn ranges_colours_and_long_names() {
    let c = cover("2:3|a 2|b c0123456789 | x y\na b x:red\nb c0123456789 x:red y:blue\n");
    let p = &c.problem;
    assert_eq!(p.range(0), (2, 3));
    assert_eq!(p.range(1), (2, 2));
    assert_eq!(p.range(2), (1, 1));
    assert_eq!(p.item_name(2), "c0123456789");
    assert_eq!(p.option(1), &[(1, 0), (2, 0), (3, 1), (4, 2)]);
    assert_eq!(*c.colours, vec!["red".to_string(), "blue".to_string()]);
    // `|` glued to the next name, and no `|` at all.
    let c = cover("a |x\na x\n");
    assert_eq!(c.problem.num_primary(), 1);
    let c = cover("0:1|a\r\na\r\n");
    assert_eq!(c.problem.range(0), (0, 1));
}

#[test]
fn digest_tells_problems_apart() {
    let a = cover("a b\na\nb\n");
    let b = cover("a b\na b\n");
    let a2 = cover("| other comment\na  b\n\na\nb\n");
    assert_ne!(a.digest(), b.digest());
    assert_eq!(a.digest(), a2.digest());
}

fn error(text: &str) -> SpecError {
    parse(text).expect_err("an error")
}

#[test]
fn errors_name_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("a b\na c\n", 2, 3, "\"c\" is not an item"),
        ("a | x\nx\n", 2, 1, "no primary item"),
        ("a b\na b a\n", 2, 5, "appears twice"),
        ("a | x\na:red\n", 2, 2, "primary item and takes no colour"),
        ("a | x\na x:\n", 2, 4, "colour after ':' is empty"),
        (
            "3:2|a\na\n",
            1,
            1,
            "lower bound 3 exceeds the upper bound 2",
        ),
        ("b 0|a\na\n", 1, 3, "upper bound is 0"),
        ("x:2|a\na\n", 1, 1, "\"x\" is not a whole number"),
        ("2|\na\n", 1, 1, "names no item"),
        ("a | 2|x\na\n", 1, 6, "for a primary item"),
        ("a | x | y\na\n", 1, 7, "a second `|`"),
        ("a a\na\n", 1, 3, "declared twice"),
        ("a b:c\na\n", 1, 4, "holds no ':'"),
        ("| only a comment\n\n", 3, 1, "no items"),
        ("", 1, 1, "no items"),
    ];
    for &(text, line, column, needle) in cases {
        let e = error(text);
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e.message.contains(needle), "{text:?}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("t.dlx:{line}:{column}: ")),
            "{e}"
        );
    }
}

#[test]
fn flags_for_keys_and_boards_are_refused() {
    let o = Overrides {
        set: vec!["rules.count=3".into()],
        ..Overrides::default()
    };
    let e = Spec::parse_knuth("t.dlx", "a\na\n", &o).unwrap_err();
    assert!(e.message.contains("no keys to set"), "{e}");
    let o = Overrides {
        size: Some(4),
        ..Overrides::default()
    };
    let e = Spec::parse_knuth("t.dlx", "a\na\n", &o).unwrap_err();
    assert!(e.message.contains("no board"), "{e}");
}

#[test]
fn board_flags_are_named_as_given() {
    let o = Overrides {
        width: Some(3),
        ..Overrides::default()
    };
    let e = Spec::parse_knuth("t.xcc", "a\na\n", &o).unwrap_err();
    assert_eq!(e.key, "--width 3", "{e}");
    let o = Overrides {
        height: Some(4),
        ..Overrides::default()
    };
    let e = Spec::parse_knuth("t.xcc", "a\na\n", &o).unwrap_err();
    assert_eq!(e.key, "--height 4", "{e}");
}

#[test]
fn reading_estimate_counts_the_text_and_scales_a_sample_to_the_file() {
    let text = "| title\n\na bb | c\na bb\n  | a comment\nbb c\na\n";
    let len = text.len() as u64;
    let names = 1 + 2 + 1 + 3 * NAME_BYTES;
    let (bytes, what) = Spec::knuth_reading_estimate(text.as_bytes(), len);
    assert_eq!(bytes, reading_bytes(len, names, 3, 5));
    assert!(
        what.contains("about 5 item occurrences in 3 options"),
        "{what}"
    );
    // The same text as the first half of a file twice its size.
    let (bytes, what) = Spec::knuth_reading_estimate(text.as_bytes(), 2 * len);
    assert_eq!(bytes, reading_bytes(2 * len, names, 6, 10));
    assert!(
        what.contains("about 10 item occurrences in 6 options"),
        "{what}"
    );
    // A sample that ends within the item line holds a share of the names.
    let (bytes, _) = Spec::knuth_reading_estimate(b"a b", 30);
    assert_eq!(bytes, reading_bytes(30, 10 * 2 * (1 + NAME_BYTES), 0, 0));
}

#[test]
fn reading_stops_where_the_problem_would_pass_the_budget() {
    let mut text = String::from("a b c\n");
    for _ in 0..10_000 {
        text.push_str("a b c\n");
    }
    let advice = |need: u64| format!("give it {need}");
    let budget = reading_bytes(text.len() as u64, 3 + 3 * NAME_BYTES, 1000, 3000);
    let e = Spec::parse_knuth_within(
        "t.dlx",
        &text,
        &Overrides::default(),
        Some((budget, &advice)),
        None,
    )
    .unwrap_err();
    // The budget holds 1,000 options; the 1,024th doubles the list of their starts.
    assert!((1002..=1025).contains(&e.line) && e.column == 1, "{e}");
    assert!(
        e.message
            .starts_with("reading stopped at this option: the file's text and the problem"),
        "{e}"
    );
    assert!(
        e.message.contains("(--memory)") && e.message.contains("give it"),
        "{e}"
    );
    let budget = reading_bytes(text.len() as u64, 3 + 3 * NAME_BYTES, 10_001, 30_003);
    let spec = Spec::parse_knuth_within(
        "t.dlx",
        &text,
        &Overrides::default(),
        Some((budget, &advice)),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let cover = spec.rules.exact_cover.expect("a cover");
    assert_eq!(cover.problem.num_options(), 10_000);
}

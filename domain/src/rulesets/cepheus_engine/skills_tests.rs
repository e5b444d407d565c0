use super::*;

#[test]
fn ascii_names_normalise_as_the_general_path_does() {
    let general = |name: &str| -> String {
        name.split(|c: char| c.is_whitespace() || c == '_' || c == '-')
            .filter(|part| !part.is_empty())
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join("_")
    };
    let names = ["Gun Combat", "gun_combat", "  Zero-G  ", "a--b__c  d", "", "-_ ", "X\x0bY\tZ", "Vacc Suit-"];
    for name in names {
        assert_eq!(normalise_skill_name(name), general(name), "{name:?}");
    }
    assert_eq!(normalise_skill_name("Gun  Combat-"), "gun_combat");
}

fn skills(pairs: &[(&str, i64)]) -> Result<Skills, SkillsError> {
    let map: BTreeMap<String, SkillLevel> =
        pairs.iter().map(|(name, level)| ((*name).to_owned(), Score::new(*level).unwrap())).collect();
    Skills::try_from(map)
}

#[test]
fn a_name_already_normal_is_borrowed_and_every_other_is_normalised() {
    let names = [
        "gun_combat", "zero_g", "a", "", "x1_2y", "vacc_suit.", "Gun_combat", "gun__combat", "_gun",
        "gun_", "gun-combat", "gun combat", "gun\tcombat", "\u{1c}", "é", "a\x7fb",
    ];
    for name in names {
        let normalised = normalised(name);
        assert_eq!(normalised, normalise_any(name), "{name:?}");
        // Control characters are refused later; they are never taken as already normal.
        let already = name.bytes().all(|byte| byte.is_ascii_graphic()) && normalise_any(name) == name;
        assert_eq!(matches!(normalised, Cow::Borrowed(_)), already, "{name:?}");
    }
}

#[test]
fn the_plain_byte_table_is_printable_ascii_without_uppercase_or_hyphen() {
    for byte in 0..=u8::MAX {
        let plain = byte.is_ascii_graphic() && !byte.is_ascii_uppercase() && byte != b'-';
        assert_eq!(PLAIN[usize::from(byte)], plain, "{byte}");
    }
}

#[test]
fn a_level_is_found_by_its_stored_name_and_by_any_other_spelling() {
    let skills = skills(&[("gun_combat", 2), ("Zero G", 1)]).unwrap();
    assert_eq!(skills.level("gun_combat"), Some(2));
    assert_eq!(skills.level("zero_g"), Some(1));
    assert_eq!(skills.level("Zero-G"), Some(1));
    assert_eq!(skills.level("melee_combat"), None);
    assert_eq!(skills.level("Melee Combat"), None);
    assert_eq!(Skills::default().level("gun_combat"), None);
}

#[test]
fn the_quick_check_of_a_normal_name_agrees_with_the_full_one() {
    let full = fully_checked_key;
    let long = "a".repeat(64);
    let too_long = "a".repeat(65);
    let names = [
        "gun_combat", "a", "", "_", ".", "...", "a.b", "x1_2y", "_a", "a_", "a__b", "Gun", "a-b",
        "a b", "a\tb", "é", long.as_str(), too_long.as_str(), "!!", "a\x7f",
    ];
    for name in names {
        assert_eq!(checked_key(name).map(Cow::into_owned), full(name), "{name:?}");
    }
}

#[test]
fn the_first_spelling_listed_is_named_when_a_later_one_claims_its_skill() {
    let error = skills(&[("gun_combat", 1), ("gun-combat", 2)]).unwrap_err();
    assert_eq!(error, SkillsError::Duplicate { first: "gun-combat".into(), second: "gun_combat".into() });
    let error = skills(&[("Zero G", 1), ("zero-g", 2), ("zero_g", 3)]).unwrap_err();
    assert_eq!(error, SkillsError::Duplicate { first: "Zero G".into(), second: "zero-g".into() });
    let levels = skills(&[("Zero G", 1), ("gun_combat", 2)]).unwrap();
    assert_eq!(levels.iter().collect::<Vec<_>>(), vec![("gun_combat", 2), ("zero_g", 1)]);
}

/// What the body reads to through the `BTreeMap` the skills stand for.
fn through_map(body: &str) -> Result<Skills, String> {
    let map: BTreeMap<String, SkillLevel> = serde_json::from_str(body).map_err(|error| error.to_string())?;
    Skills::try_from(map).map_err(|error| error.to_string())
}

#[test]
fn skills_read_straight_as_through_a_map_whatever_the_body() {
    let long = format!(r#"{{"{}":1}}"#, "a".repeat(65));
    let many = format!("{{{}}}", (0..65).map(|i| format!(r#""s{i}":1"#)).collect::<Vec<_>>().join(","));
    let bodies = [
        r#"{}"#,
        r#"{"gun_combat":2}"#,
        r#"{"Gun Combat":2,"zero-g":0,"Admin":15}"#,
        r#"{"zero_g":1,"gun_combat":2,"gun_combat":3}"#,
        r#"{"gun_combat":1,"gun-combat":2}"#,
        r#"{"zero_g":3,"Zero G":1,"zero-g":2}"#,
        r#"{"Gun Combat":1,"gun_combat":2,"Gun Combat":3}"#,
        r#"{"gun\u005fcombat":4,"a\nb":1}"#,
        r#"{"a\nb":1}"#,
        r#"{" _- ":1}"#,
        r#"{"ok":1," ":2,"zz":16}"#,
        r#"{"gun_combat":16}"#,
        r#"{"gun_combat":-1}"#,
        r#"{"gun_combat":"two"}"#,
        r#"{"gun_combat":2.0,"melee":3.5}"#,
        r#"{"x":1,"x":99}"#,
        r#"[]"#,
        r#"3"#,
        r#"{"gun_combat":2"#,
        long.as_str(),
        many.as_str(),
    ];
    for body in bodies {
        let straight = serde_json::from_str::<Skills>(body).map_err(|error| error.to_string());
        assert_eq!(straight, through_map(body), "{body}");
    }
    assert_eq!(through_map(r#"{"x":1,"x":2}"#).map(|skills| skills.level("x")), Ok(Some(2)));
}

#[test]
fn names_match_whatever_the_case_and_separators() {
    assert_eq!(normalise_skill_name("Gun Combat"), "gun_combat");
    assert_eq!(normalise_skill_name("  gun__combat "), "gun_combat");
    assert_eq!(normalise_skill_name("Zero-G"), "zero_g");
    let skills = skills(&[("Gun Combat", 2), ("Zero-G", 0)]).unwrap();
    assert_eq!(skills.level("gun_combat"), Some(2));
    assert_eq!(skills.level("GUN COMBAT"), Some(2));
    assert_eq!(skills.level("zero g"), Some(0));
    assert_eq!(skills.level("Melee Combat"), None);
}

#[test]
fn names_are_stored_normalised() {
    let skills = skills(&[("Gun Combat", 2)]).unwrap();
    assert_eq!(skills.iter().collect::<Vec<_>>(), vec![("gun_combat", 2)]);
}

#[test]
fn two_spellings_of_one_skill_are_refused() {
    let error = skills(&[("Gun Combat", 1), ("gun_combat", 2)]).unwrap_err();
    // BTreeMap order: "Gun Combat" < "gun_combat" (uppercase sorts first).
    assert_eq!(error, SkillsError::Duplicate { first: "Gun Combat".into(), second: "gun_combat".into() });
    assert_eq!(error.to_string(), "'Gun Combat' and 'gun_combat' name the same skill; list it once");
}

#[test]
fn bad_names_and_too_many_skills_are_refused() {
    assert!(matches!(skills(&[(" _- ", 1)]), Err(SkillsError::BlankName { .. })));
    assert!(matches!(skills(&[("", 1)]), Err(SkillsError::BlankName { .. })));
    let long = "a".repeat(65);
    assert!(matches!(skills(&[(long.as_str(), 1)]), Err(SkillsError::NameTooLong { .. })));
    assert!(skills(&[("a".repeat(64).as_str(), 1)]).is_ok());
    assert!(matches!(skills(&[("gun\ncombat", 1)]), Err(SkillsError::ControlCharacter { .. })));
    let names: Vec<String> = (0..65).map(|i| format!("skill {i}")).collect();
    let pairs: Vec<(&str, i64)> = names.iter().map(|name| (name.as_str(), 1)).collect();
    assert_eq!(skills(&pairs), Err(SkillsError::TooMany { count: 65 }));
    assert!(skills(&pairs[..64]).is_ok());
}

use super::*;

/// Every example the spec publishes reads back as its operation's request.
#[test]
fn every_operation_example_reads_as_its_request() {
    struct Check(Vec<String>);
    impl CommandVisitor for Check {
        fn command<C: Command>(&mut self) {
            if let Err(error) = serde_json::from_str::<C::Request>(C::EXAMPLE) {
                self.0.push(format!("{} {}: {error}", <C::Ruleset as Ruleset>::ID, C::NAME));
            }
        }
        fn stateless<C: Stateless>(&mut self) {
            self.command::<C>();
            if let Err(error) = serde_json::from_str::<C::InlineRequest>(C::INLINE_EXAMPLE) {
                self.0.push(format!("{} {} inline: {error}", <C::Ruleset as Ruleset>::ID, C::NAME));
            }
        }
    }
    let mut check = Check(Vec::new());
    for_each_command(&mut check);
    assert!(check.0.is_empty(), "examples that do not parse: {:#?}", check.0);
}

#[test]
fn operation_names_become_pascal_case() {
    assert_eq!(pascal("attacks"), "Attacks");
    assert_eq!(pascal("called_shot"), "CalledShot");
}

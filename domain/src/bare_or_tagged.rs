//! A choice a client writes as a plain string when it carries nothing but its name
//! (`"action": "brace"`), or as the tagged object when it has fields
//! (`"action": {"action": "aim", "target_id": "…"}`): one rule for every ruleset
//! (docs/api-conventions.md). A field of such a type takes
//! `#[serde(deserialize_with = "crate::bare_or_tagged::deserialize")]` and, for the spec,
//! `#[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<T>))]`.
//!
//! The string is read as the object `{TAG: name}`, so a variant whose fields are all optional
//! may be written either way, and a variant with a required field named bare gets the same
//! "missing field" error as its object would. Errors keep their field path: the object form is
//! read through the caller's own map, never through a copy.

use serde::de::value::{MapAccessDeserializer, MapDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// An internally tagged enum that may also be written as its bare variant name.
pub trait BareOrTagged {
    /// The tag's field name (`#[serde(tag = "…")]`).
    const TAG: &'static str;
    /// The variants that may be written as a bare string (those without a required field).
    const BARE: &'static [&'static str];
}

/// Reads a bare variant name or the tagged object.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + BareOrTagged,
{
    deserializer.deserialize_any(NameOrObject(PhantomData))
}

/// The same for an optional field (`null` or absent is `None`).
pub fn deserialize_option<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + BareOrTagged,
{
    struct Optional<T>(PhantomData<T>);
    impl<'de, T: Deserialize<'de> + BareOrTagged> Visitor<'de> for Optional<T> {
        type Value = Option<T>;
        fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
            NameOrObject::<T>(PhantomData).expecting(formatter)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
            deserialize(deserializer).map(Some)
        }
    }
    deserializer.deserialize_option(Optional(PhantomData))
}

/// The same for a list: each item a bare name or a tagged object.
pub fn deserialize_vec<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + BareOrTagged,
{
    struct Item<T>(T);
    impl<'de, T: Deserialize<'de> + BareOrTagged> Deserialize<'de> for Item<T> {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserialize(deserializer).map(Item)
        }
    }
    Vec::<Item<T>>::deserialize(deserializer).map(|items| items.into_iter().map(|Item(item)| item).collect())
}

struct NameOrObject<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + BareOrTagged> Visitor<'de> for NameOrObject<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "one of {:?} or an object with `{}`", T::BARE, T::TAG)
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<T, E> {
        if !T::BARE.contains(&name) {
            return Err(E::custom(format_args!(
                "`{name}` cannot be written as a bare name: write one of {:?}, or an object with `{}`",
                T::BARE,
                T::TAG
            )));
        }
        T::deserialize(MapDeserializer::new(std::iter::once((T::TAG, name))))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map))
    }
}

/// The spec of such a field: one of the bare names, or the tagged object `T`.
#[cfg(feature = "schema")]
pub fn schema<T: BareOrTagged + utoipa::ToSchema>() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    use utoipa::openapi::{Ref, RefOr};
    let names = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(T::BARE.iter().copied()))
        .description(Some(format!(
            "A choice without fields, by its name (the same as `{{\"{}\": name}}`).",
            T::TAG
        )));
    OneOfBuilder::new().item(names).item(RefOr::Ref(Ref::from_schema_name(T::name()))).build().into()
}

/// The component schemas of every type offered bare: a field spelled with [`schema`] refers to its
/// type by name, so the type's own derive never collects it; the api adds these to the document
/// (a spec test finds any `$ref` that resolves to nothing).
#[cfg(feature = "schema")]
pub fn component_schemas() -> Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)> {
    use crate::rulesets::{adeva_d100, arrgs, lur_asko, spycraft2};
    fn one<T: BareOrTagged + utoipa::ToSchema>(
        out: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
    ) {
        out.push((T::name().into_owned(), T::schema()));
        T::schemas(out);
    }
    let mut out = Vec::new();
    one::<adeva_d100::actions::charge::ChargeStrike>(&mut out);
    one::<adeva_d100::actions::grapple::GrappleMove>(&mut out);
    one::<adeva_d100::actions::grapple::GrappleFollowUp>(&mut out);
    one::<adeva_d100::actions::overwatch::OverwatchAttack>(&mut out);
    one::<adeva_d100::actions::overwatch::OverwatchTrigger>(&mut out);
    one::<arrgs::attacking::Manoeuvre>(&mut out);
    one::<arrgs::manoeuvres::Manoeuvre>(&mut out);
    one::<arrgs::strike::Effect>(&mut out);
    one::<arrgs::strike::Collision>(&mut out);
    one::<arrgs::commands::conditions::ConditionChange>(&mut out);
    one::<lur_asko::pipeline::CriticalChoice>(&mut out);
    one::<lur_asko::commands::request::DefenseRequest>(&mut out);
    one::<spycraft2::commands::actions::Action>(&mut out);
    out
}

/// The spec of an optional such field: `null`, one of the bare names, or the tagged object.
#[cfg(feature = "schema")]
pub fn schema_option<T: BareOrTagged + utoipa::ToSchema>() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new().item(ObjectBuilder::new().schema_type(Type::Null)).item(schema::<T>()).build().into()
}

/// The spec of a list of such items.
#[cfg(feature = "schema")]
pub fn schema_vec<T: BareOrTagged + utoipa::ToSchema>() -> utoipa::openapi::Schema {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::RefOr::T(schema::<T>()))
        .build()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
    enum Choice {
        Brace,
        Aim {
            #[serde(default)]
            target: Option<u8>,
        },
        Press {
            by: i8,
        },
    }

    impl BareOrTagged for Choice {
        const TAG: &'static str = "kind";
        const BARE: &'static [&'static str] = &["brace", "aim"];
    }

    #[derive(Debug, Deserialize)]
    struct Holder {
        #[serde(deserialize_with = "deserialize")]
        choice: Choice,
        #[serde(default, deserialize_with = "deserialize_option")]
        spare: Option<Choice>,
        #[serde(default, deserialize_with = "deserialize_vec")]
        list: Vec<Choice>,
    }

    fn read(text: &str) -> Result<Holder, String> {
        serde_json::from_str(text).map_err(|error| error.to_string())
    }

    #[test]
    fn a_bare_name_and_its_object_read_the_same() {
        assert_eq!(read(r#"{"choice": "brace"}"#).unwrap().choice, Choice::Brace);
        assert_eq!(read(r#"{"choice": {"kind": "brace"}}"#).unwrap().choice, Choice::Brace);
        assert_eq!(read(r#"{"choice": "aim"}"#).unwrap().choice, Choice::Aim { target: None });
        let pressed = read(r#"{"choice": {"kind": "press", "by": -2}, "spare": "aim"}"#).unwrap();
        assert_eq!(
            (pressed.choice, pressed.spare),
            (Choice::Press { by: -2 }, Some(Choice::Aim { target: None }))
        );
        assert_eq!(read(r#"{"choice": "brace", "spare": null}"#).unwrap().spare, None);
    }

    #[test]
    fn a_list_mixes_bare_names_and_objects() {
        let held =
            read(r#"{"choice": "brace", "list": ["aim", {"kind": "press", "by": 1}, "brace"]}"#).unwrap();
        assert_eq!(held.list, [Choice::Aim { target: None }, Choice::Press { by: 1 }, Choice::Brace]);
        let press = read(r#"{"choice": "brace", "list": ["brace", "press"]}"#).unwrap_err();
        assert!(press.contains("`press` cannot be written as a bare name"), "{press}");
    }

    #[test]
    fn a_variant_with_required_fields_or_an_unknown_name_is_refused_by_name() {
        let press = read(r#"{"choice": "press"}"#).unwrap_err();
        assert!(press.contains("`press` cannot be written as a bare name"), "{press}");
        let unknown = read(r#"{"choice": "dance"}"#).unwrap_err();
        assert!(unknown.contains("`dance`"), "{unknown}");
        let extra = read(r#"{"choice": {"kind": "aim", "loud": true}}"#).unwrap_err();
        assert!(extra.contains("loud"), "{extra}");
    }
}

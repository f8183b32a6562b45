//! The custom requests' parameters read by name only. serde's derived `Deserialize` reads a
//! struct from a JSON array too, its fields taken in order, so that `ctlpgn/board` answered
//! `[{"uri": …}, {"line": 0, "character": 0}]` as it answers the object; the protocol's
//! requests take named parameters, and an array that happens to fit would tie clients to the
//! order of our fields. `ByName` refuses anything but an object: tower-lsp answers the request
//! with `InvalidParams` and the reason.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, MapAccess};

/// Parameters `T`, read from a JSON object only.
#[derive(Clone, Debug)]
pub struct ByName<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByName<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ByName<T>, D::Error> {
        deserializer.deserialize_map(ObjectOnly(PhantomData)).map(ByName)
    }
}

/// Reads `T` from a map, and refuses every other kind of value.
struct ObjectOnly<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> de::Visitor<'de> for ObjectOnly<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("the parameters as an object, by name")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Place {
        uri: String,
        line: u32,
    }

    #[test]
    fn an_object_is_read_and_an_array_refused() {
        let read: ByName<Place> =
            serde_json::from_value(json!({"uri": "file:///a", "line": 3})).expect("an object");
        assert_eq!(read.0, Place { uri: "file:///a".to_string(), line: 3 });
        // What the derived `Deserialize` alone accepts.
        assert!(serde_json::from_value::<Place>(json!(["file:///a", 3])).is_ok());
        let refused = serde_json::from_value::<ByName<Place>>(json!(["file:///a", 3]));
        let message = refused.expect_err("an array").to_string();
        assert_eq!(
            message,
            "invalid type: sequence, expected the parameters as an object, by name"
        );
    }
}

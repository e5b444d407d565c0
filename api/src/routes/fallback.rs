//! Answers for requests no route took: 405 with `Allow` when the path exists under another
//! method, else 404 — both as problem+json.

use crate::error::ApiError;
use actix_web::{HttpRequest, HttpResponse, web};
use std::collections::BTreeMap;
use utoipa::openapi::path::HttpMethod;

/// The methods a route table names, in the order an `Allow` header lists them.
const METHODS: [(HttpMethod, &str); 5] = [
    (HttpMethod::Get, "GET"),
    (HttpMethod::Post, "POST"),
    (HttpMethod::Put, "PUT"),
    (HttpMethod::Patch, "PATCH"),
    (HttpMethod::Delete, "DELETE"),
];

/// The documented paths and their methods, read from the OpenAPI document or the routes' paths.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RouteTable {
    routes: Vec<(Vec<String>, Vec<String>)>,
}

impl RouteTable {
    /// From the OpenAPI document: what [`RouteTable::from_patterns`] must agree with.
    #[cfg(test)]
    fn from_openapi(spec: &utoipa::openapi::OpenApi) -> Self {
        Self::from_methods(spec.paths.paths.iter().map(|(path, item)| (path.clone(), methods_of(item))))
    }

    /// From each route's path and methods; a path served by several routes gets all their
    /// methods, and the paths are kept in the order of the OpenAPI document (sorted).
    pub fn from_patterns(patterns: Vec<(String, Vec<HttpMethod>)>) -> Self {
        let mut merged: BTreeMap<String, Vec<HttpMethod>> = BTreeMap::new();
        for (path, methods) in patterns {
            merged.entry(path).or_default().extend(methods);
        }
        Self::from_methods(merged.into_iter().map(|(path, methods)| {
            let names = METHODS.iter().filter(|(method, _)| methods.contains(method)).map(|(_, name)| *name);
            (path, names.map(str::to_owned).collect())
        }))
    }

    fn from_methods(paths: impl Iterator<Item = (String, Vec<String>)>) -> Self {
        let mut routes: Vec<(Vec<String>, Vec<String>)> =
            paths.map(|(path, methods)| (path.split('/').map(str::to_owned).collect(), methods)).collect();
        routes.push((vec![String::new(), "openapi.json".into()], vec!["GET".into()]));
        // The untyped operation aliases (see `operations.rs`), not in the spec.
        for alias in ["/v1/encounters/{id}/{operation}", "/v1/rulesets/{ruleset}/{operation}"] {
            routes.push((alias.split('/').map(str::to_owned).collect(), vec!["POST".into()]));
        }
        Self { routes }
    }

    /// Every route's path pattern (`/v1/encounters/{id}`).
    pub fn patterns(&self) -> impl Iterator<Item = String> + '_ {
        self.routes.iter().map(|(segments, _)| segments.join("/"))
    }

    fn allowed(&self, path: &str) -> Option<String> {
        let segments: Vec<&str> = path.split('/').collect();
        self.routes
            .iter()
            .find(|(template, _)| {
                template.len() == segments.len()
                    && template
                        .iter()
                        .zip(&segments)
                        .all(|(t, s)| if t.starts_with('{') { !s.is_empty() } else { t == s })
            })
            .map(|(_, methods)| methods.join(", "))
    }
}

#[cfg(test)]
fn methods_of(item: &utoipa::openapi::PathItem) -> Vec<String> {
    let candidates = [
        ("GET", item.get.is_some()),
        ("POST", item.post.is_some()),
        ("PUT", item.put.is_some()),
        ("PATCH", item.patch.is_some()),
        ("DELETE", item.delete.is_some()),
    ];
    candidates.into_iter().filter(|(_, present)| *present).map(|(method, _)| method.to_owned()).collect()
}

pub async fn not_found_or_method_not_allowed(
    request: HttpRequest,
    table: web::Data<RouteTable>,
) -> Result<HttpResponse, ApiError> {
    Err(match table.allowed(request.path()) {
        Some(allowed) => ApiError::MethodNotAllowed { method: request.method().to_string(), allowed },
        None => ApiError::NotFound(format!("no route for {}", request.path())),
    })
}

#[cfg(test)]
mod tests {
    use super::RouteTable;

    /// The table built from the routes' patterns alone names the same paths and methods, in the
    /// same order, as one read from the full OpenAPI document.
    #[test]
    fn the_route_table_agrees_with_the_openapi_document() {
        let from_document = RouteTable::from_openapi(&crate::openapi::openapi());
        assert_eq!(crate::routes::route_table(), from_document);
        assert!(from_document.routes.len() > 40, "{} routes", from_document.routes.len());
    }
}

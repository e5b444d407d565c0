//! Answers for requests no route took: 405 with `Allow` when the path exists under another
//! method, else 404 — both as problem+json.

use crate::error::ApiError;
use actix_web::{HttpRequest, HttpResponse, web};

/// The documented paths and their methods, read from the OpenAPI document or the routes' paths.
#[derive(Debug, Clone, Default)]
pub struct RouteTable {
    routes: Vec<(Vec<String>, Vec<String>)>,
}

impl RouteTable {
    pub fn from_openapi(spec: &utoipa::openapi::OpenApi) -> Self {
        Self::from_paths(&spec.paths)
    }

    pub fn from_paths(paths: &utoipa::openapi::path::Paths) -> Self {
        let mut routes: Vec<(Vec<String>, Vec<String>)> = paths
            .paths
            .iter()
            .map(|(path, item)| {
                let segments = path.split('/').map(str::to_owned).collect();
                let methods = methods_of(item);
                (segments, methods)
            })
            .collect();
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

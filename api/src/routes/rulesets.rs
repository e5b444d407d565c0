use super::responses::AuthErrors;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::reply::json_response;
use crate::wire::RulesetResponse;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, get};
use skirmish_domain::rulesets::{Ruleset, RulesetVisitor, for_each_ruleset};

/// The rule systems Skirmish runs, with the operations each implements.
#[utoipa::path(operation_id = "list_rulesets", tag = "rulesets", responses((status = 200, body = Vec<RulesetResponse>), AuthErrors))]
#[get("/v1/rulesets")]
pub async fn list(_caller: Caller) -> Result<HttpResponse, ApiError> {
    struct Describe(Vec<RulesetResponse>);
    impl RulesetVisitor for Describe {
        fn ruleset<R: Ruleset>(&mut self) {
            self.0.push(RulesetResponse::of::<R>());
        }
    }
    let mut rulesets = Describe(Vec::new());
    for_each_ruleset(&mut rulesets);
    json_response(StatusCode::OK, &rulesets.0)
}

//! A bare actix-web server, one worker: `GET /` answers a small JSON body like `/healthz`, and
//! `POST /echo` sends the request body back as JSON. Usage: `bare-actix 127.0.0.1:PORT`.

use actix_web::{App, HttpResponse, HttpServer, web};

async fn get() -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(r#"{"status":"ok","version":"0.1.0"}"#)
}

async fn echo(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type("application/json").body(body)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let bind = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8081".to_owned());
    HttpServer::new(|| App::new().route("/", web::get().to(get)).route("/echo", web::post().to(echo)))
        .workers(1)
        .bind(bind)?
        .run()
        .await
}

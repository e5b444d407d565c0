//! Write-to-stream delivery across replicas: opens the encounter's event stream on replica B,
//! then, one at a time, posts `advance` to replica A and times from A's answer (the change is
//! committed and acknowledged) until the last event it appended arrives on B's stream. Prints
//! how many were timed and the median, p99 and largest delay; an event that arrived before the
//! answer counts as 0 ms (and is counted).
//!
//! Usage: `sse-delivery WRITE_ADDR READ_ADDR ENCOUNTER_ID [COUNT (default 200, at most 2000)]
//! [SECONDS (default 30, at most 120)]`, addresses as `127.0.0.1:PORT`. Bounded by COUNT writes
//! and by SECONDS in all; plain HTTP/1.1 on std's TCP, nothing else.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const ADVANCE: &str = r#"{"to":"next_turn"}"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [write_addr, read_addr, encounter, rest @ ..] = args.as_slice() else {
        return Err("usage: sse-delivery WRITE_ADDR READ_ADDR ENCOUNTER_ID [COUNT] [SECONDS]".into());
    };
    let count: usize = rest.first().map(|s| s.parse()).transpose()?.unwrap_or(200).clamp(1, 2000);
    let seconds: u64 = rest.get(1).map(|s| s.parse()).transpose()?.unwrap_or(30).clamp(1, 120);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut stream = Stream::open(read_addr, encounter)?;
    let mut writer = TcpStream::connect(write_addr)?;
    writer.set_read_timeout(Some(Duration::from_secs(seconds)))?;
    let mut writes = BufReader::new(writer.try_clone()?);
    let (mut delays, mut early, mut unfinished) = (Vec::new(), 0, 0);
    while delays.len() < count && Instant::now() < deadline {
        let request = format!(
            "POST /v1/encounters/{encounter}/advance HTTP/1.1\r\nHost: {write_addr}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{ADVANCE}",
            ADVANCE.len()
        );
        writer.write_all(request.as_bytes())?;
        let body = read_response(&mut writes)?;
        let acked = Instant::now();
        let last = last_seq(&body).ok_or_else(|| format!("no event in the answer: {body}"))?;
        // A write whose event has not arrived when the time is up is counted, not fatal: under
        // load the last probe's event may still be on its way.
        let arrived = match stream.wait_for(last, deadline) {
            Ok(arrived) => arrived,
            Err(_) if Instant::now() >= deadline => {
                unfinished += 1;
                break;
            }
            Err(error) => return Err(error),
        };
        if arrived <= acked {
            early += 1;
        }
        delays.push(arrived.saturating_duration_since(acked));
    }
    delays.sort_unstable();
    let at = |q: usize| delays.get((delays.len() * q / 100).min(delays.len().saturating_sub(1)));
    let ms = |d: Option<&Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0);
    println!(
        "deliveries {} p50 {:.2}ms p99 {:.2}ms max {:.2}ms before-ack {early} unfinished-at-deadline {unfinished}",
        delays.len(),
        ms(at(50)),
        ms(at(99)),
        ms(delays.last())
    );
    Ok(())
}

/// The largest `"seq":N` in an answer's body: the last event the change appended.
fn last_seq(body: &str) -> Option<i64> {
    body.split("\"seq\":")
        .skip(1)
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .max()
}

/// Reads one HTTP/1.1 answer with a `Content-Length` body; its body, or an error if not 2xx.
fn read_response(reader: &mut impl BufRead) -> Result<String, Box<dyn std::error::Error>> {
    let mut status = String::new();
    reader.read_line(&mut status)?;
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err("the connection closed mid-answer".into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse()?;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body = String::from_utf8(body)?;
    if !status.split_whitespace().nth(1).is_some_and(|code| code.starts_with('2')) {
        return Err(format!("{}: {body}", status.trim_end()).into());
    }
    Ok(body)
}

/// An open event stream (a chunked HTTP/1.1 answer) and the largest event id read from it.
struct Stream {
    reader: BufReader<TcpStream>,
    seen: i64,
    /// Text of an event not yet ended by its blank line.
    pending: String,
}

impl Stream {
    fn open(addr: &str, encounter: &str) -> Result<Self, Box<dyn std::error::Error>> {
        let mut socket = TcpStream::connect(addr)?;
        let request = format!(
            "GET /v1/encounters/{encounter}/stream HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        socket.write_all(request.as_bytes())?;
        let mut reader = BufReader::new(socket);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Err("the stream closed before its headers ended".into());
            }
            if line.trim_end().is_empty() {
                break;
            }
            if line.starts_with("HTTP/") && !line.contains(" 200 ") {
                return Err(format!("the stream answered {}", line.trim_end()).into());
            }
        }
        Ok(Self { reader, seen: 0, pending: String::new() })
    }

    /// Reads chunks until an event with id `last` or later has arrived; when it arrived.
    fn wait_for(&mut self, last: i64, deadline: Instant) -> Result<Instant, Box<dyn std::error::Error>> {
        while self.seen < last {
            let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
            self.reader.get_ref().set_read_timeout(Some(left))?;
            let chunk = self.chunk()?;
            self.pending.push_str(&chunk);
            while let Some(end) = self.pending.find("\n\n") {
                let event: String = self.pending.drain(..end + 2).collect();
                if let Some(id) = event.lines().find_map(|line| line.strip_prefix("id:")) {
                    self.seen = self.seen.max(id.trim().parse()?);
                }
            }
        }
        Ok(Instant::now())
    }

    /// The next chunk of the chunked body.
    fn chunk(&mut self) -> Result<String, Box<dyn std::error::Error>> {
        let mut size = String::new();
        if self.reader.read_line(&mut size)? == 0 {
            return Err("the stream closed".into());
        }
        let size = usize::from_str_radix(size.trim(), 16)?;
        if size == 0 {
            return Err("the stream ended".into());
        }
        let mut data = vec![0; size + 2];
        self.reader.read_exact(&mut data)?;
        data.truncate(size);
        Ok(String::from_utf8(data)?)
    }
}

//! `serve`: the web server started from the command line answers on the address it prints, and refuses an address
//! it cannot listen on in one line.

use crate::common::refused;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

#[test]
fn serve_prints_its_address_and_answers_there() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_bench-suite"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut first).unwrap();
    let addr = first.split("http://").nth(1).and_then(|rest| rest.split('/').next()).unwrap_or_default().to_string();
    let answer = std::net::TcpStream::connect(&addr).and_then(|mut stream| {
        stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer)?;
        Ok(answer)
    });
    server.kill().unwrap();
    server.wait().unwrap();
    let answer = answer.unwrap_or_else(|err| panic!("{first:?}: {err}"));
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains("\"name\":\"connect4\""), "{answer}");
}

#[test]
fn serve_refuses_an_address_it_cannot_listen_on() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    refused(&["serve", "--port", &port], "cannot listen on 127.0.0.1");
    refused(&["serve", "--bind", "nowhere"], "nowhere");
    refused(&["serve", "--max-searches", "0"], "--max-searches");
}

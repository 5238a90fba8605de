//! `firsttoken-mock`: runs the mock provider (and optionally a static server for the built page)
//! until killed. The first stdout line gives the URL, so scripts can start it with `--port 0`
//! and read the port back.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use firsttoken_mock::listener::loopback_address;
use firsttoken_mock::{MockConfig, MockError};

const USAGE: &str = "usage: firsttoken-mock [--host 127.0.0.1] [--port 8787] \
[--keep-alive-s S] [--close-delay-ms MS] [--connect-delay-ms MS] \
[--static-dir DIR [--static-port P] [--static-prefix /firsttoken/]]

  --host           loopback address to bind (127.0.0.1, ::1 or localhost)
  --port           provider port, 0 picks a free one (default 8787)
  --keep-alive-s   close a connection idle this long, as uvicorn does after 5 (default 120)
  --close-delay-ms the keep-alive close reaches the client this much later, as over a
                   network; a request sent meanwhile is lost (default 0)
  --connect-delay-ms  each new connection waits this long before its first request is
                   read, standing for a TLS handshake (default 0)
  --static-dir     also serve this directory (e.g. dist/) for the page
  --static-port    port of the static server, 0 picks a free one (default 0)
  --static-prefix  URL prefix of the static site (default /firsttoken/)";

/// Parsed command line.
struct Options {
    host: String,
    port: u16,
    static_dir: Option<PathBuf>,
    static_port: u16,
    static_prefix: String,
    connections: firsttoken_mock::listener::Connections,
}

fn parse_port(flag: &str, value: &str) -> Result<u16, String> {
    value
        .parse()
        .map_err(|_| format!("{flag} needs a port number from 0 to 65535, got '{value}'"))
}

/// A duration given as a non-negative number of units of `seconds` each.
fn parse_duration(flag: &str, value: &str, seconds: f64) -> Result<std::time::Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .and_then(|v| std::time::Duration::try_from_secs_f64(v * seconds).ok())
        .ok_or_else(|| {
            format!(
                "{flag} needs a number of {}, got '{value}'",
                if seconds >= 1.0 {
                    "seconds"
                } else {
                    "milliseconds"
                }
            )
        })
}

fn parse_options(arguments: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        host: "127.0.0.1".into(),
        port: 8787,
        static_dir: None,
        static_port: 0,
        static_prefix: "/firsttoken/".into(),
        connections: firsttoken_mock::listener::Connections::default(),
    };
    let mut static_flags_seen = false;
    let mut arguments = arguments;
    while let Some(flag) = arguments.next() {
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let (name, inline_value) = match flag.split_once('=') {
            Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
            None => (flag.clone(), None),
        };
        let known = [
            "--host",
            "--port",
            "--static-dir",
            "--static-port",
            "--static-prefix",
            "--keep-alive-s",
            "--close-delay-ms",
            "--connect-delay-ms",
        ];
        if !known.contains(&name.as_str()) {
            return Err(format!("unknown option '{flag}'"));
        }
        let value = inline_value
            .or_else(|| arguments.next())
            .ok_or_else(|| format!("{name} needs a value"))?;
        match name.as_str() {
            "--host" => options.host = value,
            "--port" => options.port = parse_port(&name, &value)?,
            "--static-dir" => options.static_dir = Some(PathBuf::from(value)),
            "--keep-alive-s" => {
                options.connections.keep_alive = parse_duration(&name, &value, 1.0)?;
            }
            "--close-delay-ms" => {
                options.connections.close_delay = parse_duration(&name, &value, 0.001)?;
            }
            "--connect-delay-ms" => {
                options.connections.connect_delay = parse_duration(&name, &value, 0.001)?;
            }
            "--static-port" => {
                static_flags_seen = true;
                options.static_port = parse_port(&name, &value)?;
            }
            _ => {
                static_flags_seen = true;
                options.static_prefix = value;
            }
        }
    }
    if static_flags_seen && options.static_dir.is_none() {
        return Err("--static-port and --static-prefix need --static-dir".into());
    }
    Ok(Some(options))
}

/// The message for a start error, naming the flag that fixes it.
fn describe(error: &MockError, flag: &str) -> String {
    match error {
        MockError::PortInUse { .. } => format!("{error}; choose another with {flag}"),
        _ => error.to_string(),
    }
}

fn main() -> ExitCode {
    let options = match parse_options(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let host = match loopback_address(&options.host) {
        Ok(host) => host,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let mock = match firsttoken_mock::start(MockConfig {
        host,
        port: options.port,
        connections: options.connections,
        ..MockConfig::default()
    }) {
        Ok(mock) => mock,
        Err(error) => {
            eprintln!("error: {}", describe(&error, "--port"));
            return ExitCode::from(2);
        }
    };
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "mock provider listening on {}", mock.base_url());
    // Keep the static server alive for the life of the process.
    let _static_site = match &options.static_dir {
        Some(dir) => {
            match firsttoken_mock::start_static_on(
                host,
                dir,
                options.static_port,
                &options.static_prefix,
            ) {
                Ok(site) => {
                    let _ = writeln!(stdout, "static site at {}", site.url());
                    Some(site)
                }
                Err(error) => {
                    eprintln!("error: {}", describe(&error, "--static-port"));
                    return ExitCode::from(2);
                }
            }
        }
        None => None,
    };
    // Scripts read these lines through a pipe, where stdout is block-buffered.
    let _ = stdout.flush();
    mock.wait();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(arguments: &[&str]) -> Result<Option<Options>, String> {
        parse_options(arguments.iter().map(|argument| (*argument).to_owned()))
    }

    #[test]
    fn defaults_and_flags() {
        let options = parse(&[]).unwrap().unwrap();
        assert_eq!(options.port, 8787);
        assert_eq!(options.host, "127.0.0.1");
        let options = parse(&["--port", "0", "--static-dir=dist", "--static-port", "9000"])
            .unwrap()
            .unwrap();
        assert_eq!(options.port, 0);
        assert_eq!(options.static_dir, Some(PathBuf::from("dist")));
        assert_eq!(options.static_port, 9000);
        assert!(parse(&["--help"]).unwrap().is_none());
        let options = parse(&["--keep-alive-s", "5", "--connect-delay-ms=150"])
            .unwrap()
            .unwrap();
        assert_eq!(
            options.connections,
            firsttoken_mock::listener::Connections {
                keep_alive: std::time::Duration::from_secs(5),
                connect_delay: std::time::Duration::from_millis(150),
                close_delay: std::time::Duration::ZERO,
            }
        );
    }

    #[test]
    fn bad_flags_are_errors() {
        assert!(parse(&["--verbose"]).is_err());
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--port", "99999"]).is_err());
        assert!(parse(&["--static-port", "1"]).is_err());
        assert!(parse(&["--keep-alive-s", "-1"]).is_err());
        assert!(parse(&["--connect-delay-ms", "soon"]).is_err());
    }
}

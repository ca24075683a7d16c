//! `kifudex serve`: the database in a web browser, and as JSON for scripts.

use std::{
    net::{IpAddr, SocketAddr, ToSocketAddrs},
    process::ExitCode,
};

use anyhow::{Context, bail};
use kifudex::serve::{ServeError, Server, is_loopback};

use super::db::DbOpt;

/// Browse the database in a web browser.
///
/// The page has an opening explorer over the games, a game list and a game viewer. The same
/// answers are JSON for scripts: /api/query (the parameters and output of `query --format
/// json`), /api/game/ID (a game ply by ply, with what each record format leaves out of it),
/// /api/game/ID.kif (.ki2 .csa .jkf .usi .psn: the record as `show --to` writes it),
/// /api/position?moves=… or ?sfen=… (a position's moves in three notations and its legal
/// moves), /api/status (whether an index run is writing or did not finish), and POST
/// /api/jump (any pasted text read as a position). The server runs until Ctrl-C.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address or host name to listen on (a name is resolved, and the first of its
    /// addresses that can be bound is); anything but loopback makes the archive visible on the
    /// network
    #[arg(long, value_name = "ADDRESS|NAME", default_value = "127.0.0.1")]
    host: String,
    /// The port to listen on (0: any free port)
    #[arg(long, value_name = "N", default_value_t = 8080, allow_negative_numbers = true)]
    port: u16,
    /// Open the page in the default web browser
    #[arg(long)]
    open: bool,
    /// Close a connection that has not sent a whole request's headers this many seconds after
    /// it connected or after its last answer (at most 256 connections are served at once; past
    /// that, the one that has waited longest for its client's request is closed)
    #[arg(long, value_name = "SECONDS", default_value_t = 20, value_parser = clap::value_parser!(i64).range(1..=3600), allow_negative_numbers = true)]
    idle_timeout: i64,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let path = args.db.path();
    let addrs = resolve(&args.host, args.port)?;
    let server = Server::bind(&path, &addrs)
        .map_err(|e| match e {
            ServeError::Db(e) => super::db::explain(e),
            e => e.into(),
        })?
        .idle_timeout(std::time::Duration::from_secs(args.idle_timeout.unsigned_abs()));
    let addr = server.local_addr()?;
    let url = match addr.ip() {
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
    };
    if !is_loopback(addr.ip()) {
        say!(
            "kifudex: warning: listening on {}, not loopback: anyone who can reach this machine on the network can browse the archive",
            addr.ip()
        );
    }
    // Also where the process started with the signals ignored (a server started in the
    // background by a script, whose shell ignores SIGINT for it): it holds nothing to clean up.
    super::exit_on_signals(|| {});
    say!("kifudex: serving {} at {url} (Ctrl-C stops)", super::shown_path(&path));
    if args.open {
        open_browser(&url);
    }
    server.run().context("the server stopped")?;
    Ok(ExitCode::SUCCESS)
}

/// The addresses `--host` names: an IP address, or those a host name resolves to.
fn resolve(host: &str, port: u16) -> anyhow::Result<Vec<SocketAddr>> {
    // An IPv6 address may be written as in a URL, in brackets.
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    let addrs: Vec<SocketAddr> = (bare, port)
        .to_socket_addrs()
        .with_context(|| format!("--host {host}: cannot resolve this name"))?
        .collect();
    if addrs.is_empty() {
        bail!("--host {host}: the name resolves to no address");
    }
    Ok(addrs)
}

/// Asks the desktop to open `url`; a failure is a warning, the server runs on.
fn open_browser(url: &str) {
    let (program, leading): (&str, &[&str]) = if cfg!(target_os = "macos") {
        ("open", &[])
    } else if cfg!(windows) {
        ("cmd", &["/C", "start", ""])
    } else {
        ("xdg-open", &[])
    };
    let spawned = std::process::Command::new(program)
        .args(leading)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        Err(e) => say!("kifudex: warning: cannot open a browser ({program}: {e}); open {url} yourself"),
        // One that starts may still fail (no browser, no display): said when it ends so.
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || {
                if let Ok(status) = child.wait()
                    && !status.success()
                {
                    say!(
                        "kifudex: warning: cannot open a browser ({program} ended with {status}); open {url} yourself"
                    );
                }
            });
        }
    }
}

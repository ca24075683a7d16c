//! A running `kifudex serve` for tests and benchmarks: started on a free port of loopback (or
//! the address asked), its address read from what it prints, stopped when dropped.

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::Path,
    process::{Child, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

/// A running `kifudex serve`, stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// What it printed on stderr before it was ready.
    pub banner: String,
}

impl Server {
    /// Starts the server on `db` with `args` besides, on a free port, and waits until it
    /// prints its address.
    pub fn start(db: &Path, args: &[&str]) -> Server {
        let mut cmd = crate::util::command();
        cmd.args(["serve", "--port", "0", "--db"]).arg(db).args(args);
        Server::spawn(cmd)
    }

    /// Starts `cmd`, which runs `kifudex serve`, and waits until it prints its address.
    pub fn spawn(mut cmd: Command) -> Server {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kifudex serve starts");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut banner = String::new();
        let url = loop {
            let mut line = String::new();
            if stderr.read_line(&mut line).unwrap() == 0 {
                let _ = child.kill();
                panic!("kifudex serve stopped: {banner}");
            }
            banner.push_str(&line);
            if let Some(at) = line.find("http://") {
                break line[at + 7..].split('/').next().unwrap().to_string();
            }
        };
        // Keep reading stderr, so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let addr = url.parse().unwrap_or_else(|_| panic!("an address in {banner}"));
        Server { child, addr, banner }
    }

    /// The server's process id.
    #[allow(dead_code)]
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// How the server ended, when it ends within `limit`.
    #[allow(dead_code)]
    pub fn ended_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + limit;
        while Instant::now() < until {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

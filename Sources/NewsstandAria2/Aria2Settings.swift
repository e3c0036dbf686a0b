/// The daemon's settings, written as its `--conf-path` file (mode 0600): the command line
/// holds nothing but that path, so `ps` shows every local user no secret.
enum Aria2Settings {
    static let fileName = "aria2.conf"
    /// A proxy no connection can reach (connecting to port 0 is refused at once).
    static let noProxy = "http://127.0.0.1:0"

    /// The settings of a daemon listening on `port` with `secret`, downloading into `files`
    /// and keeping its session in `session` (absolute paths without line breaks).
    static func text(port: Int, secret: Aria2Secret, files: String, session: String, configuration: Aria2Configuration) -> String
    {
        var lines = [
            // JSON-RPC on the loopback interface only, with the secret; no browser page may read answers.
            "enable-rpc=true", "rpc-listen-all=false", "rpc-listen-port=\(port)", "rpc-secret=\(secret.hex)",
            "rpc-allow-origin-all=false",
            // Unfinished and failed downloads saved every second and read back at start.
            "dir=\(files)", "input-file=\(session)", "save-session=\(session)", "save-session-interval=1",
            // Finished downloads are not saved: restarted, aria2 would fetch them again.
            // (Their files stay, without a control file: `Aria2Files.isComplete`.)
            "force-save=false", "save-not-found=false",
            // One connection per download, written as it arrives, its control file saved every
            // second: a file holds exactly the bytes in order, and a kill loses at most a second.
            "split=1", "max-connection-per-server=1", "file-allocation=none", "disk-cache=0", "auto-save-interval=1",
            // Resume what is there; where the server ignores Range, start again from zero.
            "continue=true", "always-resume=false", "max-resume-failure-tries=0",
            // The file is the name given, never renamed or overwritten.
            "auto-file-renaming=false", "allow-overwrite=false", "remote-time=false",
            // Exactly the bytes of the URL: no decoding, no torrent or metalink followed from it,
            // no peer-to-peer listening, no credentials from ~/.netrc.
            "http-accept-gzip=false", "follow-torrent=false", "follow-metalink=false", "enable-dht=false",
            "enable-dht6=false", "bt-enable-lpd=false", "enable-peer-exchange=false", "no-netrc=true",
            // Redirects kept to http(s), as the in-process engine keeps them: aria2 follows one to
            // `ftp://` or `sftp://` (any host and port a hostile server names) and has no option
            // against it, but sends both through the FTP proxy, and this one refuses every
            // connection (port 0 cannot be connected to), so no such host is ever reached.
            "ftp-proxy=\(noProxy)",
            "max-concurrent-downloads=\(max(1, configuration.maxConcurrentDownloads))",
            "max-tries=\(max(1, configuration.maxTries))", "retry-wait=\(max(0, configuration.retryWait))",
            "timeout=\(max(1, configuration.networkTimeout))", "connect-timeout=\(max(1, configuration.networkTimeout))",
            "quiet=true", "summary-interval=0",
        ]
        if let watched = configuration.stopWithProcess { lines.append("stop-with-process=\(watched)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

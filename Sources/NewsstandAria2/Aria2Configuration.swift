import Foundation
import NewsstandReader

/// How an `Aria2Engine` runs its daemon: which `aria2c`, how it downloads, and the limits on
/// talking to it. The defaults suit an app; tests shorten the waits and set `stopWithProcess`.
public struct Aria2Configuration: Sendable, Equatable {
    /// The program: a path, or a name looked up on `PATH` (and in /usr/bin, /usr/local/bin).
    public var executable = "aria2c"
    /// Downloads aria2 runs at once; the rest wait in its queue.
    public var maxConcurrentDownloads = 3
    /// aria2's own attempts per download before it reports a failure (`--max-tries`).
    public var maxTries = 5
    /// Seconds between those attempts (`--retry-wait`).
    public var retryWait = 5
    /// Seconds without data (or without a connection) before aria2 gives up an attempt
    /// (`--timeout`, `--connect-timeout`).
    public var networkTimeout = 60
    /// Every call to the daemon must be answered within this many seconds...
    public var rpcTimeout: TimeInterval = 5
    /// ...in at most this many bytes.
    public var maxResponseBytes = 8 << 20
    /// A daemon started must listen within this many seconds.
    public var startTimeout: TimeInterval = 10
    /// A daemon asked to shut down that is still running after this many seconds is killed.
    public var shutdownGrace: TimeInterval = 5
    /// How often an attached engine asks the daemon for news.
    public var pollInterval: TimeInterval = 0.5
    /// When set, the daemon stops when that process ends (aria2's `--stop-with-process`):
    /// tests tie every daemon to the test runner so that none outlives the run. An app leaves
    /// it nil: the daemon is meant to outlive the app.
    public var stopWithProcess: Int32?

    /// The defaults.
    public init() {}
}

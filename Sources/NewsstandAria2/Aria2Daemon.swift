import Foundation
import NewsstandCore
import NewsstandReader

/// The aria2c daemon of one engine folder: found and reconnected to, started when needed (from
/// its session file, which brings back what a killed daemon left unfinished), and stopped. At
/// most one runs per folder: starting and stopping happen under a lock file, and a daemon of
/// this folder that cannot be talked to (its record lost or tampered with) is stopped before
/// another starts. Blocking: runs on the engine's lane.
///
/// The engine folder (mode 0700) holds `aria2.conf` (settings with the secret, 0600),
/// `daemon.json` (`Aria2DaemonRecord`), `session` (aria2's), `daemon.lock` and `files/`.
final class Aria2Daemon: Sendable {
    let folder: URL
    let configuration: Aria2Configuration
    /// The daemon talked to last, to skip the checks while it still runs.
    private let current = Locked<Aria2DaemonRecord?>(nil)

    static let sessionName = "session"
    static let lockName = "daemon.lock"

    init(folder: URL, configuration: Aria2Configuration) {
        self.folder = folder
        self.configuration = configuration
    }

    /// The engine folder, created when missing, readable by this user only.
    func openFolder() throws(Aria2Error) -> OpenFolder {
        let path = folder.path
        guard !path.contains("\n"), !path.contains("\r") else { throw .unsafeFolderPath(path) }
        do throws(FileSystemError) {
            let opened = try OpenFolder.open(folder, create: true)
            guard fchmod(opened.descriptor, 0o700) == 0 else { throw .fromErrno(path) }
            return opened
        } catch {
            throw .folder(error)
        }
    }

    /// The path aria2 is told for its settings: also how its process is recognised.
    var settingsPath: String { folder.appendingPathComponent(Aria2Settings.fileName).path }

    /// Whether the session file lists downloads (aria2 writes it empty when nothing is left):
    /// a daemon that is not running should then be started to go on with them.
    func sessionHasWork(in engineFolder: OpenFolder) -> Bool {
        guard let status = engineFolder.status(of: Self.sessionName), status.kind == .regularFile else { return false }
        return status.size > 0
    }

    /// When to start a daemon that is not running.
    enum StartPolicy: Sendable {
        /// Always: a download is being handed over.
        case always
        /// When the session file lists downloads a daemon that died left unfinished.
        case whenSessionHasWork
        /// Never: only a running daemon is talked to.
        case never
    }

    /// A client of the running daemon; when none runs, one is started as `policy` says (nil
    /// when it says not to).
    func client(_ policy: StartPolicy) throws(Aria2Error) -> Aria2Client? {
        if let record = current.current, isOurs(record.pid) { return client(for: record) }
        let engineFolder = try openFolder()
        return try locked(engineFolder) { () throws(Aria2Error) -> Aria2Client? in try unlockedClient(policy, engineFolder) }
    }

    /// Runs `body` with a client of the daemon (started as `policy` says; nil when it says not
    /// to), holding the folder's lock throughout: what another process does with the daemon
    /// (stopping it as idle, say) waits until `body` is done, so a job handed over in `body`
    /// is never sent to a daemon that is on its way out.
    func withClient<T>(_ policy: StartPolicy, _ body: (Aria2Client?) throws(Aria2Error) -> T) throws(Aria2Error) -> T {
        let engineFolder = try openFolder()
        return try locked(engineFolder) { () throws(Aria2Error) -> T in try body(try unlockedClient(policy, engineFolder)) }
    }

    /// Stops the daemon when `isIdle` (asked under the folder's lock, of the running daemon)
    /// says it runs nothing; whether it was stopped.
    func stop(ifIdle isIdle: (Aria2Client) throws(Aria2Error) -> Bool) throws(Aria2Error) -> Bool {
        let engineFolder = try openFolder()
        return try locked(engineFolder) { () throws(Aria2Error) -> Bool in
            guard let client = try unlockedClient(.never, engineFolder) else {
                // A daemon of this folder nothing can talk to (its record lost, say to a full
                // disk, and nothing in its session) is ours and tracked by nothing: stopped (on
                // SIGTERM aria2 saves its session, so what it held goes on with the next one).
                Aria2Platform.processes(withArgument: "--conf-path=" + settingsPath).filter(isOurs).forEach(terminate)
                return runningProcess() == nil
            }
            guard try isIdle(client) else { return false }
            unlockedStop(engineFolder)
            return true
        }
    }

    /// `client(_:)`'s work, the folder's lock held by the caller.
    private func unlockedClient(_ policy: StartPolicy, _ engineFolder: OpenFolder) throws(Aria2Error) -> Aria2Client? {
        if let record = Aria2DaemonRecord.read(in: engineFolder), let client = try? reconnect(record) { return client }
        // A daemon of this folder that cannot be talked to (its record lost, damaged, readable
        // by others, its secret refused) is replaced: stopped (aria2 saves its session on
        // SIGTERM) and started again with a new secret, so its downloads go on; never two
        // at once. Looked for only when there are signs of one, not on every idle poll.
        let hadRecord = engineFolder.kind(of: Aria2DaemonRecord.fileName).map { $0 != .folder } ?? false
        let strays =
            hadRecord || sessionHasWork(in: engineFolder)
            ? Aria2Platform.processes(withArgument: "--conf-path=" + settingsPath).filter(isOurs) : []
        strays.forEach(terminate)
        if hadRecord { try? engineFolder.removeFile(Aria2DaemonRecord.fileName) }
        let wanted = policy == .always || policy == .whenSessionHasWork && sessionHasWork(in: engineFolder)
        guard wanted || !strays.isEmpty else { return nil }
        return try launch(in: engineFolder)
    }

    /// Stops the daemon: SIGTERM, on which aria2 saves its session and exits (in about a
    /// second; `aria2.shutdown` took four here), then SIGKILL after the grace period; removes
    /// its settings and record (the secret is spent).
    func stop() throws(Aria2Error) {
        let engineFolder = try openFolder()
        try locked(engineFolder) { () throws(Aria2Error) in unlockedStop(engineFolder) }
    }

    /// `stop()`'s work, the folder's lock held by the caller.
    private func unlockedStop(_ engineFolder: OpenFolder) {
        if let record = Aria2DaemonRecord.read(in: engineFolder) { terminate(record.pid) }
        Aria2Platform.processes(withArgument: "--conf-path=" + settingsPath).filter(isOurs).forEach(terminate)
        current.exchange(nil)
        try? engineFolder.removeRegularFile(Aria2DaemonRecord.fileName)
        try? engineFolder.removeRegularFile(Aria2Settings.fileName)
    }

    /// The pid of the daemon running for this folder, if one does.
    func runningProcess() -> Int32? {
        Aria2Platform.processes(withArgument: "--conf-path=" + settingsPath).first(where: isOurs)
    }

    // MARK: Reconnecting

    /// A client of the daemon `record` describes, once it is seen to be this folder's aria2c,
    /// holding the listening socket on the port, answering with the secret and naming this
    /// folder's files and session: the secret is sent to no other program.
    func reconnect(_ record: Aria2DaemonRecord) throws(Aria2Error) -> Aria2Client {
        guard isOurs(record.pid), let inode = Aria2Platform.loopbackListener(port: record.port),
            Aria2Platform.holdsSocket(record.pid, inode: inode)
        else { throw .connection(port: record.port, code: ECONNREFUSED) }
        let client = client(for: record)
        let options = try client.globalOptions()
        let files = folder.appendingPathComponent(Aria2Files.folderName).path
        let session = folder.appendingPathComponent(Self.sessionName).path
        guard options["dir"] == files, options["save-session"] == session else {
            throw .badResponse(method: "aria2.getGlobalOption", reason: "a daemon of another folder")
        }
        current.exchange(record)
        return client
    }

    func client(for record: Aria2DaemonRecord) -> Aria2Client {
        Aria2Client(
            connection: Aria2Connection(
                port: record.port, timeout: configuration.rpcTimeout, maxResponseBytes: configuration.maxResponseBytes),
            secret: record.secret)
    }

    /// Holds the folder's start lock around `body`.
    private func locked<T>(_ engineFolder: OpenFolder, _ body: () throws(Aria2Error) -> T) throws(Aria2Error) -> T {
        let wait = configuration.startTimeout * 3 + configuration.shutdownGrace * 2
        let lock: FileLock?
        do throws(FileSystemError) { lock = try FileLock.acquire(Self.lockName, in: engineFolder, timeout: wait) } catch {
            throw .folder(error)
        }
        guard let lock else { throw .lockTimeout(seconds: wait) }
        defer { lock.release() }
        return try body()
    }
}

import Foundation
import NewsstandCore
import NewsstandReader

/// Starting a daemon: a free port, a new secret, settings of mode 0600, a session file, and a
/// detached aria2c that must be seen holding its port before anything is sent to it.
extension Aria2Daemon {
    /// Starts a daemon on a free port with a new secret, from the session file; tries another
    /// port when the one chosen is taken before aria2c binds it.
    func launch(in engineFolder: OpenFolder) throws(Aria2Error) -> Aria2Client {
        guard Aria2Platform.isSupported else { throw .notSupported }
        let executable = try Self.locate(configuration.executable)
        let files: Aria2Files
        do throws(FileSystemError) {
            files = try Aria2Files.open(in: engineFolder)
            try prepareSession(in: engineFolder)
        } catch {
            throw .folder(error)
        }
        // What a process killed while writing the engine's files left behind.
        let ownNames: Set = [Aria2Settings.fileName, Aria2DaemonRecord.fileName, Self.sessionName]
        AtomicFile.removeAbandonedTemporaries(in: engineFolder) { ownNames.contains($0) }
        files.removeAbandonedControlSaves()
        var lastFailure = Aria2Error.didNotStart(seconds: configuration.startTimeout)
        for _ in 0..<3 {
            let port = try Self.freePort()
            let secret = Aria2Secret.random()
            let settings = Aria2Settings.text(
                port: port, secret: secret, files: files.path, session: engineFolder.path(of: Self.sessionName),
                configuration: configuration)
            do throws(FileSystemError) {
                // Durable is not needed: a daemon does not survive a power cut either.
                try AtomicFile.write(
                    Data(settings.utf8), named: Aria2Settings.fileName, in: engineFolder, .bestEffort, permissions: 0o600)
            } catch {
                throw .folder(error)
            }
            // Through the shell, which sets the file-size limit and execs aria2c in its place
            // (the same process: its command line is aria2c's): `Aria2Daemon+FileSizeCap`.
            let pid = try Aria2Platform.spawnDetached(
                "/bin/sh", ["-c", Self.limitedStart(cap: Self.fileSizeCap(files)), executable, "--conf-path=" + settingsPath])
            Self.children.withLock { _ = $0.insert(pid) }
            let record = Aria2DaemonRecord(port: port, secret: secret, pid: pid)
            do throws(Aria2Error) {
                let client = try waitUntilListening(record)
                do throws(FileSystemError) { try record.write(in: engineFolder) } catch { throw .folder(error) }
                return client
            } catch {
                lastFailure = error
                terminate(pid)
                _ = Self.isRunning(pid)  // reaps it when it exited on its own
            }
        }
        throw lastFailure
    }

    /// Waits until the new daemon holds its port and answers; fails at once when the port is
    /// held by someone else (aria2c then listens on IPv6 only) or the daemon exited.
    private func waitUntilListening(_ record: Aria2DaemonRecord) throws(Aria2Error) -> Aria2Client {
        let deadline = Date().addingTimeInterval(configuration.startTimeout)
        while Date() < deadline {
            guard Self.isRunning(record.pid) else { break }
            if let inode = Aria2Platform.loopbackListener(port: record.port) {
                guard Aria2Platform.holdsSocket(record.pid, inode: inode) else { break }
                return try reconnect(record)
            }
            usleep(20_000)
        }
        throw .didNotStart(seconds: configuration.startTimeout)
    }

    /// An empty session file when there is none (aria2c refuses to start without its input
    /// file); anything but a regular file under the name is replaced.
    private func prepareSession(in engineFolder: OpenFolder) throws(FileSystemError) {
        let kind = engineFolder.kind(of: Self.sessionName)
        if kind == .regularFile { return }
        if kind != nil, kind != .folder { try engineFolder.removeFile(Self.sessionName) }
        if kind == .folder { try engineFolder.removeTree(Self.sessionName) }
        try AtomicFile.write(Data(), named: Self.sessionName, in: engineFolder, .bestEffort, permissions: 0o600)
    }

    /// `executable` as a path: as given when it holds a `/`, else the first on `PATH`.
    static func locate(_ executable: String) throws(Aria2Error) -> String {
        if executable.contains("/") {
            guard access(executable, X_OK) == 0 else { throw .notInstalled(executable: executable) }
            return executable
        }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for folder in path + ["/usr/bin", "/usr/local/bin"] where !folder.isEmpty {
            let candidate = folder + "/" + executable
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw .notInstalled(executable: executable)
    }

    /// A port nobody listens on now (the kernel's choice for a socket bound to port 0).
    private static func freePort() throws(Aria2Error) -> Int {
        let socket = Aria2Platform.streamSocket()
        guard socket >= 0 else { throw .connection(port: 0, code: errno) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw .connection(port: 0, code: errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stand-in for the OS transfer service (`Scripts/transfer_service.py`, a process of its own)
/// and the app it launches and relaunches (`app`, the `StandInApp` executable, over the library
/// in `library`). The app's processes append each install, one name a line, to `installs`.
///
/// The service (see the script for the whole of what it does): downloads go on after the app's
/// process is gone; when events wait and no app runs it relaunches the app (`wake`) and counts
/// that wake's completion-handler calls; a finished file is deleted once the app handled it;
/// task identifiers start at 1 in every session; a force-quit cancels every task and relaunches
/// nothing; faults on demand (`fault(_:_:)`): `duplicate`, `stale`, `status404`,
/// `killDuringHandOff`, each for one issue's next finished transfer, and `cut`, its next
/// transfer's connection reset after the first 64 KB (a failure with resume data).
public final class TransferServiceStandIn: Sendable {
    private let server: PythonServer
    /// The service's own folder: its downloads (`tmp/`) and each wake's output.
    public let folder: URL
    public let installs: URL
    public let library: URL
    public let app: String
    public var url: String { "http://127.0.0.1:\(server.port)/" }

    public init(library: URL, app: String) throws {
        self.library = library
        self.app = app
        folder = try Shell.temporaryFolder("transfer-service")
        installs = folder.appendingPathComponent("installs.log")
        try Data().write(to: installs)
        server = try PythonServer(
            script: PythonServer.script("transfer_service.py"), arguments: [folder.path, app, library.path])
    }

    public func stop() { server.stop() }

    /// The app, launched by the user, handing `names` over to the service; returns once it has.
    public func launch(_ names: [String]) throws -> BackgroundProcess {
        let process = try BackgroundProcess(
            app, [library.path, url, "launch"] + names, environment: ["STANDIN_INSTALLS": installs.path])
        guard BackgroundProcess.poll(timeout: 60, { process.output.contains("handed") }) else {
            process.killNow()
            throw TestFailure("the app did not hand its downloads over: \(process.output) \(process.errors)")
        }
        return process
    }

    /// The user opens the app: it reconciles until no transfer runs, then exits. Returns what it
    /// printed (each issue's name and status last).
    public func open() throws -> String {
        let process = try BackgroundProcess(app, [library.path, url, "open"], environment: ["STANDIN_INSTALLS": installs.path])
        let status = process.wait()
        guard status == 0 else { throw TestFailure("the opened app failed (\(status)): \(process.errors)") }
        return process.output
    }

    /// One of the service's verbs (`stats`, `forcequit`, `fault`, …), answered as JSON.
    public func call(_ verb: String, _ body: [String: Any] = [:]) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: url + verb)!)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (data, _) = try await URLSession(configuration: .ephemeral).data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Arms the fault `kind` for the next finished transfer of `name`.
    public func fault(_ kind: String, _ name: String) async throws { _ = try await call("fault", ["kind": kind, "name": name]) }

    /// The service's figures once it has nothing left to do (no task running, no event waiting,
    /// no wake under way, no file of its own left), or after `seconds`.
    public func settled(within seconds: TimeInterval = 120) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let stats = try await call("stats")
            let idle =
                (stats["live"] as? [String])?.isEmpty == true && stats["pending_events"] as? Int == 0
                && stats["waking"] as? Bool == false && (stats["files"] as? [String])?.isEmpty == true
            if idle || Date() > deadline { return stats }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
    }

    /// Waits (up to `seconds`) until each of `names` was installed at least once: a live app
    /// installs what the service handed it after the service is idle, and killing it sooner
    /// tests the kill, not the install.
    public func installed(_ names: [String], within seconds: TimeInterval = 60) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !names.allSatisfy({ installCounts[$0, default: 0] > 0 }) {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    /// How many times each issue was installed, over every process of the app.
    public var installCounts: [String: Int] {
        let lines = ((try? String(contentsOf: installs, encoding: .utf8)) ?? "").split(separator: "\n")
        return lines.reduce(into: [:]) { $0[String($1), default: 0] += 1 }
    }

    /// What the wakes printed, for a failure's story.
    public var wakeLogs: String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("wake-") }.sorted().map { name in
            "\(name): " + ((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }
}

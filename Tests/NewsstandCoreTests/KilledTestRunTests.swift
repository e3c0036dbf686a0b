import Foundation
import NewsstandTestSupport
import Testing

/// Nothing a test starts outlives it: a test process killed with SIGKILL (it cannot clean up)
/// takes its nginx and Python servers with it (`TestChild`: the parent-death signal), and its
/// folder of temporary folders is removed when the next test process starts (`TestRunFolders`).
@Suite(.tags(.needsServer)) struct KilledTestRunTests {
    private static var probe: String {
        URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("TestRunProbe").path
    }

    private struct Started: Decodable {
        var nginx: Int32
        var nginxWorkers: [Int32]
        var nginxPort: Int
        var python: Int32
        var pythonPort: Int
        var folder: String
    }

    @Test func aKilledTestProcessLeavesNoServerAndItsFolderGoesAtTheNextStart() throws {
        // This process removes the folders of dead runs first (they may hold gigabytes), so the
        // probe does not spend its start doing it.
        _ = try Shell.temporaryFolder("killed-run")
        let run = try BackgroundProcess(Self.probe, [])
        defer { run.kill() }
        #expect(
            BackgroundProcess.poll(timeout: 60) { run.output.contains("\n") || run.errors.contains("Error") },
            "output: \(run.output) errors: \(run.errors)")
        let started = try JSONDecoder().decode(Started.self, from: Data(run.output.utf8))
        #expect(Nginx.canConnect(port: started.nginxPort) && Nginx.canConnect(port: started.pythonPort))
        #expect(Self.isRunning(started.nginx) && Self.isRunning(started.python))
        #expect(FileManager.default.fileExists(atPath: started.folder))

        run.killNow()
        #expect(run.wait() == SIGKILL)
        let gone = BackgroundProcess.poll(timeout: 10) { !Self.isRunning(started.nginx) && !Self.isRunning(started.python) }
        #expect(gone, "nginx \(started.nginx) or python \(started.python) outlived the killed test process")
        #expect(!Nginx.canConnect(port: started.pythonPort))
        // nginx's worker is its master's child, which nginx does not tie to it (see Nginx.child):
        // not yet covered; killed here so this test leaves nothing.
        #expect(!started.nginxWorkers.isEmpty)
        for worker in started.nginxWorkers where Self.isRunning(worker) { kill(worker, SIGKILL) }
        // Killed, it could not remove its folder: the next test process to start does.
        #expect(FileManager.default.fileExists(atPath: started.folder))
        let next = try Shell.run(Self.probe, ["start"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: started.folder))
    }

    /// Only folders named for a process that is gone are removed; a link is removed as a link.
    @Test func onlyTheFoldersOfRunsThatAreGoneAreRemoved() throws {
        let parent = try Shell.temporaryFolder("runs")
        let ended = try TestChild.start("/bin/true", [])
        ended.wait()
        let outside = try Shell.temporaryFolder("outside")
        try Data("keep".utf8).write(to: outside.appendingPathComponent("file"))
        let dead = TestRunFolders.folder(of: ended.pid, in: parent)
        let live = TestRunFolders.folder(of: getppid(), in: parent)
        let mine = TestRunFolders.folder(of: getpid(), in: parent)
        let others = [
            "newsstand-tests-", "newsstand-tests-12ab", "newsstand-tests--1", "newsstand-tests-0", "other-\(ended.pid)",
        ]
        for folder in [dead, live, mine] + others.map({ parent.appendingPathComponent($0) }) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: folder.appendingPathComponent("file"))
        }
        // A link named for a dead run (pid 4194304 is above Linux's largest).
        let link = parent.appendingPathComponent("newsstand-tests-4194304")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)

        let removed = TestRunFolders.removeDeadRuns(in: parent)
        #expect(Set(removed) == [dead.path, link.path])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: parent.path).sorted()
                == ([live, mine].map(\.lastPathComponent) + others).sorted())
        #expect(FileManager.default.fileExists(atPath: outside.appendingPathComponent("file").path))
    }

    /// Whether `pid` is a process that has not ended (a zombie has: it only waits to be reaped).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }
}

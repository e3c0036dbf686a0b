import Foundation
import NewsstandTestSupport
import Testing

/// Nothing a test starts outlives it: a test process killed with SIGKILL (it cannot clean up)
/// takes its nginx, Python, moto and Varnish servers with it, and every process they started, nginx's worker
/// among them (`TestChild`), and its folder of temporary folders is removed when the next test
/// process starts (`TestRunFolders`).
@Suite(.tags(.needsServer)) struct KilledTestRunTests {
    private static var probe: String {
        URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("TestRunProbe").path
    }

    private struct Started: Decodable {
        var nginx: Int32
        var nginxPort: Int
        var python: Int32
        var pythonPort: Int
        var motoPort: Int
        var varnishPort: Int
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
        #expect(Nginx.canConnect(port: started.motoPort) && Nginx.canConnect(port: started.varnishPort))
        #expect(FileManager.default.fileExists(atPath: started.folder))

        // What the probe started, found by ancestry and process group rather than by command
        // line (nginx's worker calls itself "nginx: worker process"). The worker comes a moment
        // after the master's pid file.
        var tree: [ProcessStatus] = []
        let hasWorker = BackgroundProcess.poll(timeout: 10) {
            tree = ProcessStatus.tree(of: run.processIdentifier)
            return tree.contains { $0.parent == started.nginx && !$0.hasEnded }
        }
        #expect(hasWorker, "nginx's master \(started.nginx) started no worker: \(tree)")
        let servers = Array(tree.dropFirst())
        #expect(Set(servers.map(\.pid)).isSuperset(of: [started.nginx, started.python]), "\(tree)")
        let groups = Set(servers.map(\.group))
        try #require(!groups.contains(getpgrp()) && !groups.contains(run.processIdentifier), "\(tree)")

        run.killNow()
        #expect(run.wait() == SIGKILL)
        // What still runs of it: a process recorded above, or any in the servers' process groups
        // (a zombie has ended: nothing here may reap what is re-parented to PID 1).
        func left() -> [ProcessStatus] {
            let inGroups = ProcessStatus.all().filter { groups.contains($0.group) && !$0.hasEnded }
            return servers.filter(\.isRunning) + inGroups.filter { process in !servers.contains { $0.pid == process.pid } }
        }
        var remaining: [ProcessStatus] = []
        let gone = BackgroundProcess.poll(timeout: 10) {
            remaining = left()
            return remaining.isEmpty
        }
        #expect(gone, "outlived the killed test process: \(remaining.map { "\($0.pid) \($0.name)" })")
        // The servers' ports are not probed again: once freed, the kernel may give one to a server
        // another test starts meanwhile (CI saw moto's port answer again after its process had
        // gone). That no process of the run is left, checked above, is what closes them.
        // Killed here, so that this test leaves nothing even when it fails.
        for process in remaining { kill(process.pid, SIGKILL) }
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
}

// The app the stand-in OS transfer service launches and relaunches (StandInServiceTests): a
// library whose background engine is that service, in a process of its own, so that it can be
// killed, force-quit and woken as iOS does to an app.
//   StandInApp <library> <service URL> launch <name>…   hands the downloads over, then waits to be killed
//   StandInApp <library> <service URL> wake             the system's relaunch: takes the events, installs, exits
//   StandInApp <library> <service URL> open             the user opens the app: reconciles until nothing runs
// Installs are appended, one name a line, to the file `STANDIN_INSTALLS` names.
import Foundation
import NewsstandCore
import NewsstandCurl
import NewsstandReader

/// Appends every install to a file shared by all the app's processes.
struct InstallLog: AnalyticsSink {
    let path: String
    func record(_ event: AnalyticsEvent) {
        guard case .issueDownloaded(let name, _) = event, let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data("\(name)\n".utf8))
        try? handle.close()
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("StandInApp: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let service = URL(string: arguments[2]) else {
    fail("usage: StandInApp <library> <service URL> launch <name>… | wake | open")
}
let mode = arguments[3]
var configuration = LibraryConfiguration.onCurl
configuration.retryDelay = 0.01
configuration.stallTimeout = 10
configuration.lockTimeout = 10
// A wake's events come from another process (the stand-in service): on a loaded test machine
// they took longer than the default grace, and then 10 s, and a transfer restarted for that is
// fetched twice. A wake's wait ends when the service says every event is delivered (as
// `urlSessionDidFinishEvents`), so its bound can be long; the user's open has no such word.
configuration.eventGrace = mode == "wake" ? 120 : 10
if let path = ProcessInfo.processInfo.environment["STANDIN_INSTALLS"] { configuration.analytics = InstallLog(path: path) }
let library: IssueLibrary
do {
    library = try IssueLibrary(folder: URL(fileURLWithPath: arguments[1]), configuration: configuration)
} catch {
    fail("\(error)")
}
let engine = StandInEngine(service: service, openedByUser: mode != "wake")
let adopted = await library.useBackgroundEngine(.custom(engine))
print("opened: \(adopted)")

switch mode {
case "launch":
    for name in arguments.dropFirst(4) {
        do { try await library.startBackgroundDownload(name) } catch { fail("\(name): \(error)") }
    }
    FileHandle.standardOutput.write(Data("handed\n".utf8))
    while true { try? await Task.sleep(nanoseconds: 60_000_000_000) }
case "wake":
    // As iOS: the app has until the wake's completion handler, and a little after.
    let ended = await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: engine.wakeEnded.wait(timeout: .now() + 60) == .success) }
    }
    if !ended { fail("the wake's events never ended") }
    await library.waitForInstalls()
case "open":
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, await !library.backgroundTransfers.isEmpty {
        try? await Task.sleep(nanoseconds: 200_000_000)
        await library.reconcileTransfers()
    }
default:
    fail("unknown mode \(mode)")
}
for issue in await library.issues { print("\(issue.name) \(issue.status)") }
await library.close()

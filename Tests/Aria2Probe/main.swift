// Starts one aria2 job the way an app does, says so, and waits to be killed: the process whose
// death the daemon must survive (Aria2RecoveryTests).
//   Aria2Probe <engine-folder> <url> <name#generation> <pid the daemon stops with>
import Foundation
import NewsstandAria2
import NewsstandReader

let arguments = CommandLine.arguments
guard arguments.count == 5, let id = TransferID(arguments[3]), let url = URL(string: arguments[2]),
    let watched = Int32(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: Aria2Probe <engine-folder> <url> <name#generation> <pid>\n".utf8))
    exit(2)
}
var configuration = Aria2Configuration()
configuration.stopWithProcess = watched
configuration.startTimeout = 30  // as the tests' own engines: the machine may be loaded
let engine = Aria2Engine(folder: URL(fileURLWithPath: arguments[1]), configuration: configuration)
do {
    try await engine.start(TransferJob(id: id, url: url, expectedSize: nil, intent: .automatic))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
// Unbuffered, so the test reads it at once.
FileHandle.standardOutput.write(Data("started\n".utf8))
while true { sleep(60) }

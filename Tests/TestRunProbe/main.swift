// TestRunProbe [start]
//
// A test process stand-in for KilledTestRunTests. Without arguments: starts a test-support
// nginx and a Python server as a test would, and moto's S3 server with Varnish in front of it, prints one line (JSON: their process ids and
// ports, and this process's folder of temporary folders), and waits to be killed. With `start`:
// only starts as a test process does (which removes the folders of dead runs) and exits.
import Foundation
import NewsstandTestSupport

if CommandLine.arguments.dropFirst().first == "start" {
    _ = try Shell.temporaryFolder("probe")
    exit(0)
}
let nginx = try Nginx()
let script = Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandReaderTests/Scripts/stalled_server.py")
let python = try PythonServer(script: script)
let moto = try MotoS3()
let varnish = try Varnish(originPort: moto.port)
let started: [String: Any] = [
    "nginx": Int(nginx.processIdentifier), "nginxPort": nginx.port, "python": Int(python.processIdentifier),
    "pythonPort": python.port, "motoPort": moto.port, "varnishPort": varnish.port, "folder": TestRunFolders.own.path,
]
FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: started) + Data("\n".utf8))
while true { sleep(60) }

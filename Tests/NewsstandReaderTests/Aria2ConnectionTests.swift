import Foundation
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// A daemon that does not answer, drips, floods or speaks another protocol is an error within
/// the call's deadline and size cap, never a hang; and no error carries the secret.
@Suite("aria2 connection", .timeLimit(.minutes(1)), .tags(.needsServer))
struct Aria2ConnectionTests {
    /// A server on a loopback port that reads a request and then misbehaves as `argv[1]` says.
    static let script = PythonServer.script("aria2_connection_server.py")

    /// What `aria2.getGlobalOption` fails with against a server in `mode`.
    static func failure(against mode: String) async throws -> Aria2Error? {
        let server = try PythonServer(script: script, arguments: [mode])
        defer { server.stop() }
        let secret = Aria2Secret.random()
        let client = Aria2Client(
            connection: Aria2Connection(port: server.port, timeout: 1, maxResponseBytes: 1 << 16), secret: secret)
        let failure = try await offPool { () -> Aria2Error? in
            do throws(Aria2Error) {
                _ = try client.globalOptions()
                return nil
            } catch {
                return error
            }
        }
        #expect(failure.map { !"\($0)".contains(secret.hex) } ?? true, "an error shows the secret")
        return failure
    }

    @Test func aDaemonThatDoesNotAnswerTimesOut() async throws {
        #expect(try await Self.failure(against: "silent") == .timedOut(method: "aria2.getGlobalOption", seconds: 1))
    }

    @Test func aDaemonThatDripsTimesOutAsAWhole() async throws {
        #expect(try await Self.failure(against: "drip") == .timedOut(method: "aria2.getGlobalOption", seconds: 1))
    }

    @Test(arguments: ["endless", "declared"])
    func anAnswerPastTheCapIsRefused(_ mode: String) async throws {
        #expect(try await Self.failure(against: mode) == .responseTooLarge(method: "aria2.getGlobalOption", limit: 1 << 16))
    }

    @Test func anEndlessHeadIsRefused() async throws {
        let failure = try await Self.failure(against: "endless-head")
        #expect(failure == .badResponse(method: "aria2.getGlobalOption", reason: "the response head is too long"))
    }

    @Test(arguments: [
        ("garbage", "not an HTTP response"), ("chunked", "a Transfer-Encoding aria2 does not send"),
        ("cut", "the connection closed early"), ("not-json", "not the JSON-RPC answer expected"),
        ("other-id", "an answer to another request"),
    ])
    func anAnswerThatIsNotAria2sIsRefused(_ mode: String, _ reason: String) async throws {
        #expect(try await Self.failure(against: mode) == .badResponse(method: "aria2.getGlobalOption", reason: reason))
    }

    @Test func aPortNobodyListensOnIsAConnectionFailure() async throws {
        let server = try PythonServer(script: Self.script, arguments: ["silent"])
        let port = server.port
        server.stop()
        let client = Aria2Client(
            connection: Aria2Connection(port: port, timeout: 1, maxResponseBytes: 1 << 16), secret: .random())
        let failure = try await offPool { () -> Aria2Error? in
            do throws(Aria2Error) {
                _ = try client.globalOptions()
                return nil
            } catch {
                return error
            }
        }
        #expect(failure == .connection(port: port, code: ECONNREFUSED))
        #expect(failure?.transferFailure.isTransient == true)
    }
}

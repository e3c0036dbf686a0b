import Foundation
import NewsstandCore
import NewsstandProcess
import NewsstandReader

/// `library … --access-command CMD`: the `AccessProvider` of a terminal. For each paid issue's
/// bundle or index it runs `CMD <name> <url>` through `/bin/sh -c` (so CMD may carry its own
/// arguments) with `NEWSSTAND_ISSUE`, `NEWSSTAND_PRODUCT_ID`, `NEWSSTAND_URL`,
/// `NEWSSTAND_RESOURCE` (`bundle` or `index`) and `NEWSSTAND_RENEWAL` (`1` when the server
/// refused the last link) in its environment, and uses the first line it prints. A non-zero
/// exit is a refusal, with the first line of its standard error (queries stripped: it could
/// echo the link). Runs through `ChildProcess` (a deadline, capped output, stopped with
/// newsstand).
struct CommandAccessProvider: AccessProvider {
    let command: String
    /// Seconds the command may take: an entitlement service behind it may be slow, not stuck.
    var deadline: Double = 30
    /// Bytes of output kept: a URL, not a document.
    static let outputLimit = 64 << 10

    func authorize(_ request: AccessRequest) async throws(AccessDenial) -> URL {
        var environment = ProcessInfo.processInfo.environment
        environment["NEWSSTAND_ISSUE"] = request.name
        environment["NEWSSTAND_PRODUCT_ID"] = request.productID ?? ""
        environment["NEWSSTAND_URL"] = request.url.absoluteString
        environment["NEWSSTAND_RESOURCE"] = request.resource.rawValue
        environment["NEWSSTAND_RENEWAL"] = request.isRenewal ? "1" : "0"
        let options = ChildOptions(
            outputLimit: Self.outputLimit, errorLimit: Self.outputLimit, deadline: deadline, grace: 2, environment: environment)
        let arguments = ["-c", "\(command) \"$@\"", "newsstand-access", request.name, request.url.absoluteString]
        let outcome: ChildOutcome
        switch await ChildProcess.run("/bin/sh", arguments, options: options) {
        case .success(let finished): outcome = finished
        case .failure(let failure): throw AccessDenial(reason: "the access command cannot run: \(failure.reason)")
        }
        switch outcome.stop {
        case .deadline?: throw AccessDenial(reason: "the access command did not answer within \(Int(deadline)) s")
        case .outputLimit?: throw AccessDenial(reason: "the access command printed more than \(Self.outputLimit) bytes")
        case .cancelled?, .interrupted?: throw AccessDenial(reason: "the access command was stopped")
        case nil: break
        }
        let status = outcome.termination.status
        guard status == 0 else {
            let line = Self.firstLine(outcome.errorOutput).map(Redacted.withoutURLSecrets)
            throw AccessDenial(
                reason: line.map { $0.isEmpty ? nil : $0 }.flatMap { $0 } ?? "the access command exited with status \(status)")
        }
        guard let line = Self.firstLine(outcome.output), let url = URL(string: line), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host != nil
        else {
            throw AccessDenial(reason: "the access command's first line is not an http or https URL")
        }
        return url
    }

    /// The first line of `data`, trimmed, when it is UTF-8.
    static func firstLine(_ data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return line.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

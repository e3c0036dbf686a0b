import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// The network policy of each request, and the failures no retry can help: no network the
/// request may use (offline, or only networks its policy refuses) and a connection refused as
/// insecure (App Transport Security, an untrusted certificate). On a scripted transport (the
/// fast tier): the policy is the library's to pass on, whatever transport carries it.
@Suite("Network policy", .timeLimit(.minutes(1)))
struct NetworkPolicyTests {
    /// Runs every request on `inner`, noting each one's URL and policy first.
    final class RecordingTransport: HTTPTransport, @unchecked Sendable {  // `requests` is Locked
        let inner: any HTTPTransport
        let requests = Locked<[(path: String, policy: NetworkPolicy)]>([])
        init(_ inner: any HTTPTransport) { self.inner = inner }
        func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            requests.withLock { $0.append((request.url.path, request.policy)) }
            try await inner.perform(request, into: sink)
        }
        func policies(of suffix: String) -> [NetworkPolicy] {
            requests.current.filter { $0.path.hasSuffix(suffix) }.map(\.policy)
        }
    }

    /// Fails every bundle request with `failure` (counting them); the rest goes to `inner`.
    final class FailingTransport: HTTPTransport, @unchecked Sendable {  // `attempts` is Locked
        let inner: any HTTPTransport
        let failure: TransferFailure
        let attempts = Locked(0)
        init(_ failure: TransferFailure, over inner: any HTTPTransport) {
            self.failure = failure
            self.inner = inner
        }
        func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            guard request.url.pathExtension == "zip" else {
                return try await inner.perform(request, into: sink)
            }
            attempts.withLock { $0 += 1 }
            throw failure
        }
    }

    @Test func eachDownloadCarriesItsOwnPolicyAndEveryOtherRequestTheConfigurations() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let transport = RecordingTransport(bed.transport)
            let library = try bed.library {
                $0.transport = transport
                $0.networkPolicy = NetworkPolicy(allowsCellularAccess: false)
            }
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a", policy: .automatic)
            try await library.download("b")
            let configured = NetworkPolicy(allowsCellularAccess: false)
            #expect(transport.policies(of: "issues.plist") == [configured])
            #expect(transport.policies(of: "cover.png") == [configured, configured])
            #expect(transport.policies(of: "a.zip") == [.automatic])
            #expect(transport.policies(of: "b.zip") == [configured])
        }
    }

    @Test(arguments: [
        (TransferFailure.networkUnavailable(.offline), NetworkUnavailableReason.offline),
        (.networkUnavailable(.constrainedNotAllowed), .constrainedNotAllowed),
    ])
    func noNetworkEndsADownloadAtOnceWithATypedError(failure: TransferFailure, reason: NetworkUnavailableReason) async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("a", day: 1)])
            let transport = FailingTransport(failure, over: bed.transport)
            let library = try bed.library {
                $0.transport = transport
                $0.maxAttempts = 4
            }
            try await library.refresh(from: bed.catalogURL)
            await #expect(throws: LibraryError.networkUnavailable(url: entries[0].content, reason: reason)) {
                try await library.download("a")
            }
            #expect(transport.attempts.current == 1, "not retried")
            #expect(await library.issue(named: "a")?.status == IssueStatus.none)
        }
    }

    @Test func aConnectionRefusedAsInsecureIsNotRetried() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("a", day: 1)])
            let reason = "App Transport Security requires a secure connection (https)"
            let transport = FailingTransport(.insecureConnectionRefused(reason: reason), over: bed.transport)
            let library = try bed.library { $0.transport = transport }
            try await library.refresh(from: bed.catalogURL)
            await #expect(throws: LibraryError.insecureConnectionRefused(url: entries[0].content, reason: reason)) {
                try await library.download("a")
            }
            #expect(transport.attempts.current == 1)
        }
    }

    /// What a URLSession task's error means, by its code: the mapping the Apple build uses, run
    /// here (`URLErrorClassification`; Apple's `networkUnavailableReason` is read in its island).
    @Test func urlSessionErrorsAreClassifiedByCode() {
        let cases: [(URLError.Code, TransferFailure)] = [
            (.notConnectedToInternet, .networkUnavailable(.offline)),
            (.dataNotAllowed, .networkUnavailable(.cellularNotAllowed)),
            (.internationalRoamingOff, .networkUnavailable(.roamingOff)),
            (.callIsActive, .networkUnavailable(.callIsActive)),
            (.cancelled, .cancelled),
            (.timedOut, .stalled),
        ]
        for (code, failure) in cases {
            #expect(URLErrorClassification.failure(for: URLError(code)) == failure, "\(code)")
        }
        for code: URLError.Code in [
            .appTransportSecurityRequiresSecureConnection, .serverCertificateUntrusted, .serverCertificateHasBadDate,
        ] {
            guard case .insecureConnectionRefused = URLErrorClassification.failure(for: URLError(code)) else {
                Issue.record("\(code) is not refused as insecure")
                continue
            }
        }
        let lost = URLErrorClassification.failure(for: URLError(.networkConnectionLost))
        #expect(lost.isTransient, "a lost connection is retried: \(lost)")
        #expect(!TransferFailure.networkUnavailable(.offline).isTransient)
        #expect(!TransferFailure.networkUnavailable(.offline).discardsPartialFile, "a resume continues the part file")
    }
}

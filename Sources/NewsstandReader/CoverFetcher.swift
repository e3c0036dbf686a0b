import Foundation
import NewsstandCore

/// Downloads covers into `Covers/`, a few at a time, each streamed into a temporary file,
/// checked and renamed into place.
struct CoverFetcher: Sendable {
    struct Job: Sendable {
        var name: String
        var url: URL
        var sha256: String?
    }

    enum Outcome: Sendable {
        case fetched(name: String, fileName: String, url: URL, sha256: String?)
        case failed(RefreshProblem)
    }

    let client: CatalogClient
    let folder: URL
    let concurrency = 4

    func fetch(_ jobs: [Job]) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes: [Outcome] = []
            var pending = jobs[...]
            for _ in 0..<concurrency {
                guard let job = pending.popFirst() else { break }
                group.addTask { await fetch(job) }
            }
            for await outcome in group {
                outcomes.append(outcome)
                if let job = pending.popFirst() { group.addTask { await fetch(job) } }
            }
            return outcomes
        }
    }

    private func fetch(_ job: Job) async -> Outcome {
        let fileName = Self.fileName(for: job.name, url: job.url)
        func failed(_ reason: String) -> Outcome {
            .failed(.coverUnavailable(name: job.name, url: job.url.absoluteString, reason: reason))
        }
        let fetched: (file: AtomicFile, sha256: String)
        do {
            fetched = try await client.fetchCover(job.url, into: try OpenFolder.open(folder), named: fileName)
        } catch let error as TransferFailure {
            if case .tooLarge(let limit) = error {
                return .failed(.coverTooLarge(name: job.name, url: job.url.absoluteString, limit: limit))
            }
            return failed(error.description)
        } catch {
            return failed("\(error)")
        }
        if let expected = job.sha256, expected.lowercased() != fetched.sha256 {
            fetched.file.discard()
            return failed("SHA-256 is \(fetched.sha256), the catalog says \(expected)")
        }
        do {
            // Durable: a cover is trusted by its name later, so the name must never hold an
            // empty file after a power cut.
            try fetched.file.commit(.durable)
        } catch {
            return failed(error.reason)
        }
        return .fetched(name: job.name, fileName: fileName, url: job.url, sha256: job.sha256)
    }

    /// `<name>.<extension of the URL>`; the extension only when it is short and alphanumeric.
    static func fileName(for name: String, url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        let usable = !ext.isEmpty && ext.count <= 5 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return usable ? "\(name).\(ext)" : name
    }
}

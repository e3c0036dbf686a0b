import Foundation
import NewsstandCore

/// Downloads covers into `Covers/`, a few at a time, each streamed into a temporary file,
/// checked and renamed into place.
struct CoverFetcher: Sendable {
    struct Job: Sendable {
        var name: String
        var url: URL
        var sha256: String?
        /// The normal cover to fetch when `url` (a `@2x` one) answers 404 or 410.
        var fallbackURL: URL?
        var fallbackSHA256: String?
    }

    /// A cover in place under `fileName`, from `url`.
    struct Fetched: Sendable {
        var name: String
        var fileName: String
        var url: URL
        var sha256: String?
        /// Whether it is the normal cover, fetched because the `@2x` one was missing.
        var isFallback: Bool
    }

    enum Outcome: Sendable {
        case fetched(Fetched)
        case failed(RefreshProblem)
    }

    let client: CatalogClient
    let folder: URL
    /// The library's cover requests at once (shared by `refresh` and `cover(of:)`).
    let slots: DownloadSlots
    let concurrency: Int

    func fetch(_ jobs: [Job]) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes: [Outcome] = []
            var pending = jobs[...]
            for _ in 0..<max(1, concurrency) {
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

    /// One cover in one of the library's cover slots: the normal one when the `@2x` one is missing.
    func fetch(_ job: Job) async -> Outcome {
        guard await slots.acquire() else {
            return .failed(.coverUnavailable(name: job.name, url: job.url.absoluteString, reason: "cancelled"))
        }
        var result = await fetch(job, from: job.url, sha256: job.sha256)
        if case .failure(let failure) = result, let transfer = failure.transfer, NormalScaleFallback.isMissing(transfer),
            let fallback = job.fallbackURL
        {
            result = await fetch(job, from: fallback, sha256: job.fallbackSHA256, isFallback: true)
        }
        await slots.release()
        switch result {
        case .success(let fetched): return .fetched(fetched)
        case .failure(let failure): return .failed(failure.problem)
        }
    }

    /// Why one cover request failed: the transfer's failure when there was one, and the problem
    /// to report.
    private struct Failure: Error {
        var transfer: TransferFailure?
        var problem: RefreshProblem
    }

    private func fetch(_ job: Job, from url: URL, sha256 expected: String?, isFallback: Bool = false) async -> Result<
        Fetched, Failure
    > {
        let fileName = Self.fileName(for: job.name, url: url)
        func failed(_ reason: String, _ transfer: TransferFailure? = nil) -> Result<Fetched, Failure> {
            .failure(
                Failure(transfer: transfer, problem: .coverUnavailable(name: job.name, url: url.absoluteString, reason: reason)))
        }
        let fetched: (file: AtomicFile, sha256: String)
        do {
            fetched = try await client.fetchCover(url, into: try OpenFolder.open(folder), named: fileName)
        } catch let error as TransferFailure {
            if case .tooLarge(let limit) = error {
                return .failure(
                    Failure(transfer: error, problem: .coverTooLarge(name: job.name, url: url.absoluteString, limit: limit)))
            }
            return failed(error.description, error)
        } catch {
            return failed("\(error)")
        }
        if let expected, expected.lowercased() != fetched.sha256 {
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
        return .success(Fetched(name: job.name, fileName: fileName, url: url, sha256: expected, isFallback: isFallback))
    }

    /// `<name>.<extension of the URL>`; the extension only when it is short and alphanumeric.
    static func fileName(for name: String, url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        let usable = !ext.isEmpty && ext.count <= 5 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return usable ? "\(name).\(ext)" : name
    }
}

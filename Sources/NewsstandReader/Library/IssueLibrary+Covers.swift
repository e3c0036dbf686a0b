import Foundation
import NewsstandCore

extension IssueLibrary {
    /// The cached cover of an issue, fetched now when it is not cached yet or is out of date
    /// (`refresh` fetches only the newest `coversFetchedOnRefresh` covers). Concurrent calls for
    /// one issue share one request; at most `maxConcurrentCoverRequests` run at once.
    /// - Returns: the cover file in the library's `Covers/` folder.
    /// - Throws: `unknownIssue`, `libraryClosed` when it must be fetched after `close()`,
    ///   `coverNotFetched` with the problem (unavailable, too large, wrong checksum).
    public func cover(of name: String) async throws(LibraryError) -> URL {
        guard let record = state.issues[name] else { throw .unknownIssue(name: name) }
        guard let job = coverJob(for: record) else {
            if let file = record.coverFileName { return layout.covers.appendingPathComponent(file) }
            throw .unknownIssue(name: name)
        }
        try checkOpen()
        if let running = coverFetches[name] { return try await running.value.get() }
        let task = Task { await self.fetchCover(job) }
        coverFetches[name] = task
        return try await task.value.get()
    }

    /// The fetcher of covers: the library's client, folder and request slots.
    var coverFetcher: CoverFetcher {
        CoverFetcher(
            client: catalogClient, folder: layout.covers, slots: coverSlots, concurrency: configuration.maxConcurrentCoverRequests
        )
    }

    private func fetchCover(_ job: CoverFetcher.Job) async -> Result<URL, LibraryError> {
        defer { coverFetches[job.name] = nil }
        switch await coverFetcher.fetch(job) {
        case .failed(let problem):
            log("cover of \(job.name) not fetched: \(problem)")
            return .failure(.coverNotFetched(problem))
        case .fetched(let fetched):
            // The issue may have left the shelf while its cover was on the way.
            guard state.issues[job.name] != nil else {
                layout.removeCover(fetched.fileName)
                return .failure(.unknownIssue(name: job.name))
            }
            keepCover(fetched)
            do {
                try await save()
            } catch {
                return .failure(error)
            }
            emit(.coverChanged(name: job.name))
            return .success(layout.covers.appendingPathComponent(fetched.fileName))
        }
    }
}

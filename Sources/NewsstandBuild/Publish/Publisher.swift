import Foundation
import NewsstandFormat

/// What a publish did.
public struct PublishReport: Sendable {
    public var uploaded: [String] = []
    public var replacedCatalogs: [String] = []
    public var deleted: [String] = []
    public var unchanged = 0
    /// Problems found by verification (empty when it passed or did not run).
    public var verificationProblems: [String] = []
}

/// Publishes a built magazine so that no reader ever sees a broken catalog: bundles and covers
/// first, then each changed catalog replaced atomically (uploaded under a temporary name and
/// moved into place; where the destination cannot move, uploaded last and read back), then the
/// publish manifest, and only then, with `prune`, deletion of files no catalog refers to.
/// A failure part-way leaves the previous catalog in place; running again finishes the job.
public struct Publisher: Sendable {
    public var destination: any PublishDestination
    public var prune: Bool

    public init(destination: any PublishDestination, prune: Bool) {
        self.destination = destination
        self.prune = prune
    }

    /// Reads what the destination holds and plans the publish of `builtFolder`.
    public func plan(builtFolder: URL) async throws(PublishError) -> PublishPlan {
        var remote: PublishManifest?
        if let data = try await destination.read(PublishManifest.path) {
            remote = try? JSONDecoder().decode(PublishManifest.self, from: data)
        }
        return try PublishPlan.make(builtFolder: builtFolder, remote: remote)
    }

    /// Carries out `plan`; `progress` hears each step as it starts.
    public func run(_ plan: PublishPlan, progress: @Sendable (String) -> Void = { _ in }) async throws(PublishError)
        -> PublishReport
    {
        var report = PublishReport(unchanged: plan.unchanged)
        for file in plan.uploads {
            progress("upload \(file.path)")
            try await destination.upload(file.source, to: file.path)
            report.uploaded.append(file.path)
        }
        for file in plan.catalogs {
            progress("replace \(file.path)")
            try await replace(file.path, with: file.source, sha256: file.sha256)
            report.replacedCatalogs.append(file.path)
        }
        // Stale files are recorded as retired before any is deleted, so that an interrupted
        // prune still knows, next time, which files were ours.
        let published = plan.resultingManifest(pruned: false)
        if published != plan.remote {
            try await writeManifest(published)
        }
        if prune, !plan.stale.isEmpty {
            for path in plan.stale {
                progress("delete \(path)")
                try await destination.delete(path)
                report.deleted.append(path)
            }
            try await writeManifest(plan.resultingManifest(pruned: true))
        }
        return report
    }

    private func replace(_ path: String, with source: URL, sha256: String) async throws(PublishError) {
        if destination.supportsAtomicMove {
            let temporary = ".\(path).\(UUID().uuidString).tmp"
            try await destination.upload(source, to: temporary)
            do {
                try await destination.move(temporary, to: path)
            } catch {
                try? await destination.delete(temporary)
                throw error
            }
        } else {
            try await destination.upload(source, to: path)
            guard let data = try await destination.read(path), SHA256.hex(of: data) == sha256 else {
                throw PublishError(step: "verify", target: path, reason: "the uploaded catalog does not read back identical")
            }
        }
    }

    private func writeManifest(_ manifest: PublishManifest) async throws(PublishError) {
        let local = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-publish-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: local) }
        do { try manifest.encoded().write(to: local) } catch {
            throw PublishError(step: "manifest", target: local.path, reason: error.localizedDescription)
        }
        if destination.supportsAtomicMove {
            let temporary = ".newsstand-publish.\(UUID().uuidString).tmp"
            try await destination.upload(local, to: temporary)
            try await destination.move(temporary, to: PublishManifest.path)
        } else {
            try await destination.upload(local, to: PublishManifest.path)
        }
    }
}

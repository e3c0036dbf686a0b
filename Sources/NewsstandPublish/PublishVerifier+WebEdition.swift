import Foundation

extension PublishVerifier {
    /// After a web edition's publish: every file of it (pages, images, static files, the index
    /// page) asked for at its `PreviewURL` + path must answer 200 with its size. The problems
    /// found (empty when every one does); none to ask when the plan has no `PreviewURL`.
    public func verifyWebEdition(_ plan: PublishPlan) async -> [String] {
        guard plan.isWebEdition, let base = plan.catalogURL?.deletingLastPathComponent() else { return [] }
        let probes = plan.files.map { SwitchChecks.Probe(path: $0.path, size: $0.size, isNew: false) }
        return await check(SwitchChecks(probes: probes, replacedInPlace: [], unsigned: 0), at: base)
    }
}

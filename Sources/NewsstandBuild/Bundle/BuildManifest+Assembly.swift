import Foundation

extension BuildManifest {
    /// The manifest of `plan` as this build made it: every input read (the bundles' and the
    /// images' made for them, once each), the outputs `outputs` names, and `settings`.
    init(built plan: IssuePlan, outputs: IssueBuildOutputs, images: PreparedImages, settings: OutputSettings) {
        var inputs: [String: InputRecord] = [:]
        for input in images.inputs + outputs.normal.inputs + outputs.retina.inputs { inputs[input.path] = input }
        let (normal, retina) = (outputs.normal, outputs.retina)
        self.init(
            toolVersion: ToolVersion.current, name: plan.name, metadata: plan.metadata,
            inputs: inputs.values.sorted { $0.path < $1.path }, bundle: normal.bundle, retinaBundle: retina.bundle,
            cover: normal.cover, retinaCover: retina.cover, index: normal.index, retinaIndex: retina.index, hpub: outputs.book,
            isVersioned: settings.isVersioned, validation: plan.validation)
        optimized = settings.isOptimized ? true : nil
        epub = outputs.epub?.record
        epubKey = outputs.epub != nil ? settings.epubKey : nil
    }
}

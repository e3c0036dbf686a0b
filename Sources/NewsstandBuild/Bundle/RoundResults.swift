import Foundation

/// What a round's jobs made, filed by issue and output: each issue's manifest is made from the
/// outputs its own jobs made, whatever order they finished or were listed in. An output that
/// is missing, or made twice, is an error naming the issue and the output: a manifest never
/// pairs one issue's bundle with another's, and no issue is skipped in silence.
struct RoundResults {
    private var filed: [String: [IssueOutputKind: IssueJob.Output]] = [:]
    private var duplicate: (issue: String, kind: IssueOutputKind)?

    init(_ results: [IssueJob.Result]) {
        for result in results {
            let kind = result.output.kind
            if filed[result.issue, default: [:]].updateValue(result.output, forKey: kind) != nil, duplicate == nil {
                duplicate = (result.issue, kind)
            }
        }
    }

    /// The outputs of `plan`'s jobs: every output `expected` lists, both scales among them.
    func outputs(of plan: IssuePlan, expected: [IssueOutputKind]) throws(BuildError) -> IssueBuildOutputs {
        if let duplicate, duplicate.issue == plan.name {
            throw .outputMadeTwice(issue: plan.name, path: duplicate.kind.fileName(of: plan), output: duplicate.kind.description)
        }
        let made = filed[plan.name] ?? [:]
        for kind in expected where made[kind] == nil {
            throw .outputMissing(issue: plan.name, path: kind.fileName(of: plan), output: kind.description)
        }
        // Filed under `Output.kind`: the scale keys hold scales.
        guard case .scale(let normal, _)? = made[.normalScale] else {
            throw .outputMissing(issue: plan.name, path: IssueOutputKind.normalScale.fileName(of: plan), output: "normal bundle")
        }
        guard case .scale(let retina, _)? = made[.retinaScale] else {
            throw .outputMissing(issue: plan.name, path: IssueOutputKind.retinaScale.fileName(of: plan), output: "@2x bundle")
        }
        var outputs = IssueBuildOutputs(normal: normal, retina: retina)
        if case .book(let record)? = made[.book] { outputs.book = record }
        if case .epub(let epub)? = made[.epub] { outputs.epub = epub }
        return outputs
    }
}

/// One issue's outputs from a round's jobs.
struct IssueBuildOutputs {
    var normal: ScaleOutput
    var retina: ScaleOutput
    var book: OutputRecord?
    var epub: EPUBBuilder.Output?
}

/// One JSON-RPC 2.0 request as aria2 reads it.
struct Aria2Request: Encodable {
    let jsonrpc = "2.0"
    var id: String
    var method: String
    var params: [Aria2Param]
}

/// A parameter of an aria2 call: text, a number, a list of texts, a dictionary of options, or
/// (for `system.multicall`) calls.
indirect enum Aria2Param: Encodable {
    case text(String)
    case number(Int)
    case list([String])
    case options([String: String])
    case call(String, [Aria2Param])
    case calls([Aria2Param])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .list(let list): try container.encode(list)
        case .options(let options): try container.encode(options)
        case .call(let method, let params): try container.encode(MethodCall(methodName: method, params: params))
        case .calls(let calls): try container.encode(calls)
        }
    }

    private struct MethodCall: Encodable {
        var methodName: String
        var params: [Aria2Param]
    }
}

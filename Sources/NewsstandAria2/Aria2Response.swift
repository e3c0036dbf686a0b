/// A JSON-RPC 2.0 answer from aria2: a result or an error.
struct Aria2Response<Result: Decodable>: Decodable {
    var id: String?
    var result: Result?
    var error: Failure?

    struct Failure: Decodable {
        var code: Int
        var message: String
    }
}

/// One answer inside a `system.multicall` result: the call's value wrapped in a one-element
/// list, or an error object.
enum Aria2Multicall<Value: Decodable>: Decodable {
    case value(Value)
    case failure(code: Int, message: String)

    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer(), list.count == 1 {
            self = .value(try list.decode(Value.self))
        } else {
            let failure = try Aria2Response<Value>.Failure(from: decoder)
            self = .failure(code: failure.code, message: Aria2Text.printable(failure.message))
        }
    }
}

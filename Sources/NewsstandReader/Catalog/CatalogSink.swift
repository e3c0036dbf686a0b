import NewsstandCore

/// Takes a catalog response: a 304 means "not modified"; a 2xx body is parsed as it arrives
/// (`CatalogStreamParser`), so neither the text nor a tree of it is ever held whole, and is cut
/// once more than `limit` decoded bytes came; any other status is refused.
final class CatalogSink: ResponseSink, @unchecked Sendable {
    private let limit: Int64
    private var parser = CatalogStreamParser()
    private var received: Int64 = 0
    /// The final response head.
    private(set) var head: HTTPHead?
    /// Why the body is not a catalog, when the transfer ended with `.rejected`.
    private(set) var malformation: CatalogError?
    /// The catalog, once the body ended well.
    private(set) var catalog: (entries: [CatalogEntry], problems: [CatalogError])?

    init(limit: Int64) { self.limit = limit }

    func open(_ head: HTTPHead) throws(TransferFailure) {
        self.head = head
        guard head.status == 304 || (200..<300).contains(head.status) else { throw .httpStatus(head.status) }
    }

    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {
        received += Int64(chunk.count)
        if received > limit { throw .tooLarge(limit: limit) }
        guard head?.status != 304 else { return }
        do {
            try parser.consume(chunk)
        } catch {
            malformation = error
            throw .rejected
        }
    }

    func finish() throws(TransferFailure) {
        guard head?.status != 304 else { return }
        do {
            catalog = try parser.finish()
        } catch {
            malformation = error
            throw .rejected
        }
    }

    func close() {}
}

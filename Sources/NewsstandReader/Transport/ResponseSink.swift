/// What a request does with its response: the transport (libcurl or URLSession) does HTTP,
/// deadlines and rates; a sink decides from the head whether it wants the body, takes it chunk
/// by chunk within its own size limit, and says at the end whether it got all of it.
///
/// A transport calls a sink from one thread at a time, in this order: `open` once, `write`
/// for each chunk, `finish` when the body ended normally, and `close` always, last.
public protocol ResponseSink: AnyObject {
    /// The final response head; throwing refuses the response and stops the transfer.
    func open(_ head: HTTPHead) throws(TransferFailure)
    /// A chunk of the body (decoded when the transport decoded a `Content-Encoding`).
    func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure)
    /// The body ended as the transport saw it; throwing says it was incomplete.
    func finish() throws(TransferFailure)
    /// The transfer is over, whichever way: release files.
    func close()
}

import HTTPServer
import Storage

/// Runs a store call on the read path and turns its failure into the client's HTTP error.
enum StoreFailure {
    static func wrap<T>(_ body: () throws(StoreError) -> T) throws(HTTPError) -> T {
        do {
            return try body()
        } catch {
            throw error.httpError
        }
    }
}

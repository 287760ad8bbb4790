import Domain
import FuzzSupport
import HTTPServer
import Storage

@testable import APIServer

/// Cursors and change tokens: signed base64url text, and the payloads inside the signature.
///
/// The first byte picks what the rest is (mode = byte % 4) and the query shape. A made-up
/// token almost never carries a valid tag, so modes 1 and 3 sign the fuzzed payload first and
/// so reach the payload readers. Invariants: whatever opens re-seals to exactly the token that
/// was opened (one spelling per token, no extra bytes tolerated); base64url decoding inverts
/// encoding; refusals are 400s with the documented code.
/// Key bytes 0...31: the seed corpus (Fuzz/make-seeds.py) seals valid tokens with the same key.
private let signer = TokenSigner(key: Array(0..<32))

private let shapes: [CatalogShape] = {
    let catalog = DemoCatalog.catalog
    func shape(_ name: String, sort: [SortKey], search: String? = nil) -> CatalogShape? {
        guard let collection = catalog.collection(named: name) else { return nil }
        let parameters = ListParameters(sort: sort, search: search, limit: 50)
        return CatalogShape(collection: ServedCollection(collection, catalog: catalog), parent: nil, parameters: parameters)
    }
    return [
        shape("products", sort: [SortKey("name")]),
        shape("products", sort: [SortKey("price", descending: true)]),
        shape("people", sort: [SortKey("familyName"), SortKey("givenName")], search: "ann"),
        shape("samples", sort: [SortKey("timestamp")]),
    ].compactMap { $0 }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokens(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let selector = Int(input.byte())
    let shape = shapes[(selector / 4) % shapes.count]
    let rest = input.rest()
    switch selector % 4 {
    case 0, 2:
        let text = String(decoding: rest, as: UTF8.self)
        if let decoded = Base64URL.decode(text) {
            fuzzCheck(Base64URL.encode(decoded) == text, "base64url \(text) decodes, but is not how its bytes encode")
        }
        if selector % 4 == 0 { checkCursor(text, shape) } else { checkChangeToken(text, shape.collection.name) }
    default:
        fuzzCheck(Base64URL.decode(Base64URL.encode(rest)) == rest, "base64url decoding does not invert encoding")
        if selector % 4 == 1 { checkCursor(signer.seal(rest), shape) } else { checkChangeToken(signer.seal(rest), shape.collection.name) }
    }
    return 0
}

private func checkCursor(_ token: String, _ shape: CatalogShape) {
    let position: Cursor.Position
    do throws(HTTPError) {
        position = try Cursor.open(token, shape: shape, signer: signer)
    } catch {
        fuzzCheck(error.status == 400 && error.code == "INVALID_CURSOR" && error.parameter == "cursor", "cursor refused with \(error.code)")
        return
    }
    let resealed: String
    switch position {
    case .after(let values): resealed = Cursor.seal(after: values, shape: shape, signer: signer)
    case .before(let values): resealed = Cursor.seal(before: values, shape: shape, signer: signer)
    }
    fuzzCheck(resealed == token, "cursor \(token) opens to \(position), which seals as \(resealed)")
}

private func checkChangeToken(_ token: String, _ collection: String) {
    let sequence: Int64
    do throws(HTTPError) {
        sequence = try ChangeToken.open(token, collection: collection, signer: signer)
    } catch {
        fuzzCheck(error.status == 400 && error.code == "INVALID_TOKEN" && error.parameter == "since", "change token refused with \(error.code)")
        return
    }
    fuzzCheck(sequence >= 0, "negative sequence \(sequence)")
    let resealed = ChangeToken.seal(collection: collection, after: sequence, signer: signer)
    fuzzCheck(resealed == token, "change token \(token) opens to \(sequence), which seals as \(resealed)")
}

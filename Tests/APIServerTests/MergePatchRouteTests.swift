import Domain
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

@Suite("Merge patches that name unknown fields")
struct MergePatchRouteTests {
    static let patches = [#"{"": null}"#, #"{"colour": null}"#, #"{"name": "Lamp", "typo": null}"#, #"{"price": {"cents": null}}"#]

    /// `"x": null` removes nothing from the item, so a merge would silently drop it: 422 instead.
    @Test(arguments: patches)
    func removingAnUnknownFieldIs422AndChangesNothing(patch: String) async throws {
        let app = try LiveStoreApplication()
        let row = try #require((try await fetch(port: app.port, "/v1/products?limit=1").json?["rows"] as? [[String: Any]])?.first)
        let link = try #require(row["detail"] as? String)
        let before = try await fetch(port: app.port, link)
        let response = try await app.write("PATCH", link, headers: [("Content-Type", "application/merge-patch+json")], body: Array(patch.utf8))
        #expect(response.status == 422)
        #expect(response.json?["code"] as? String == "VALIDATION_FAILED")
        let after = try await fetch(port: app.port, link)
        #expect(after.header("ETag") == before.header("ETag"))
        #expect(after.body == before.body)
    }
}

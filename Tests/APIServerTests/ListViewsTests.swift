import DemoData
import Domain
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

@Suite("Sections, tables, revalidation and the change feed over HTTP")
struct ListViewsTests {
    @Test func sectionsMergeByIDAcrossPagesInDepartmentOrder() async throws {
        let app = try LiveStoreApplication()
        var merged: [(id: String, header: String, rows: [String])] = []
        var target: String? = "/v1/people?group=department&limit=7"
        var continued = 0
        while let current = target {
            let json = try #require(try await fetch(port: app.port, current).json)
            for section in try #require(json["sections"] as? [[String: Any]]) {
                let id = try #require(section["id"] as? String)
                let names = (section["rows"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
                if let last = merged.indices.last, merged[last].id == id {
                    merged[last].rows += names
                    continued += 1
                } else {
                    #expect(!merged.contains { $0.id == id }, "section \(id) came back after another one")
                    merged.append((id, section["header"] as? String ?? "", names))
                }
            }
            target = (json["links"] as? [String: Any])?["next"] as? String
        }
        #expect(continued > 0, "no section continued across pages")
        let headers = merged.map(\.header)
        #expect(headers == headers.sorted { searchFolded($0) < searchFolded($1) })
        let sales = try #require(merged.first { $0.header == "Sales" })
        #expect(sales.rows.contains("Juan Chavez"))
        #expect(sales.rows.contains("Mei Chen"))
        let engineering = try #require(merged.first { $0.header == "Engineering" })
        #expect(engineering.rows.contains("Bill James"))
        #expect(engineering.rows.contains("Anne Johnson"))
        let all = merged.flatMap(\.rows)
        let total = try allIDs(app.store, CatalogQuery(collection: try app.store.definition("people"), limit: 200)).count
        #expect(all.count == total)
    }

    @Test func productTableHasComputedTipColumnsAndCompactSummaries() async throws {
        let app = try LiveStoreApplication()
        let json = try #require(try await fetch(port: app.port, "/v1/products?view=table&q=keyboard").json)
        let columns = try #require(json["columns"] as? [[String: Any]])
        #expect(columns.compactMap { $0["id"] as? String } == ["name", "shortDescription", "price", "tip15", "tip20"])
        #expect(columns.compactMap { $0["sortable"] as? Bool } == [true, false, true, false, false])
        let price = try #require(columns.first { $0["id"] as? String == "price" })
        #expect(price["alignment"] as? String == "numeric")
        let links = try #require(price["links"] as? [String: String])
        #expect(links["descending"]?.contains("sort=-price") == true)
        #expect((json["sort"] as? [[String: String]])?.first?["column"] == "name")
        let rows = try #require(json["rows"] as? [[String: Any]])
        let keyboard = try #require(rows.first { ($0["cells"] as? [String: Any])?["name"] as? String == "Keyboard" })
        let cells = try #require(keyboard["cells"] as? [String: Any])
        #expect(cells["price"] as? String == "$120.00")
        #expect(cells["tip15"] as? String == "$138.00")
        #expect(cells["tip20"] as? String == "$144.00")
        let compact = try #require(keyboard["compact"] as? [String: Any])
        #expect(compact["title"] as? String == "Keyboard")
        #expect(compact["subtitle"] as? String == "$120.00")
    }

    @Test func peopleTableCompactColumnIsFullNameAndEmail() async throws {
        let app = try LiveStoreApplication()
        let json = try #require(try await fetch(port: app.port, "/v1/people?view=table&sort=givenName&limit=200").json)
        let columns = try #require(json["columns"] as? [[String: Any]])
        #expect(columns.compactMap { $0["title"] as? String } == ["Given Name", "Family Name", "E-Mail Address"])
        for row in try #require(json["rows"] as? [[String: Any]]) {
            let cells = try #require(row["cells"] as? [String: String])
            let compact = try #require(row["compact"] as? [String: Any])
            #expect(compact["title"] as? String == "\(cells["givenName"] ?? "") \(cells["familyName"] ?? "")")
            #expect(compact["subtitle"] as? String == cells["emailAddress"])
        }
    }

    @Test func samplesTableHasOneColumnPerChannelOfItsTrack() async throws {
        let app = try LiveStoreApplication()
        let tracks = try #require(try await fetch(port: app.port, "/v1/tracks").json?["rows"] as? [[String: Any]])
        #expect(!tracks.isEmpty)
        for track in tracks {
            let id = try #require(track["id"] as? String)
            let channels = try app.store.channels(ofTrack: try #require(EntityID(parsing: id)))
            let json = try #require(try await fetch(port: app.port, "/v1/tracks/\(id)/samples?view=table&limit=3").json)
            let columns = try #require(json["columns"] as? [[String: Any]])
            #expect(columns.count == channels.count + 1)
            #expect(columns.first?["title"] as? String == "Timestamp (ms)")
            #expect(columns.dropFirst().compactMap { $0["title"] as? String } == channels.map(\.name))
            let row = try #require((json["rows"] as? [[String: Any]])?.first)
            let cells = try #require(row["cells"] as? [String: Any])
            #expect(cells.count == columns.count)
            #expect((row["detail"] as? String)?.hasPrefix("/v1/tracks/\(id)/samples/smp_") == true)
        }
        let missing = try await fetch(port: app.port, "/v1/tracks/trk_0000000000000000/samples")
        #expect(missing.status == 404)
        let firstTrack = try #require(tracks.first?["id"] as? String)
        let search = try await fetch(port: app.port, "/v1/tracks/\(firstTrack)/samples?q=a%C3%A0")
        #expect(search.status == 400, "samples have nothing to search")
        #expect(search.json?["code"] as? String == "INVALID_SEARCH")
    }

    @Test func ifNoneMatchWithTheCurrentTagIs304UntilAWriteLands() async throws {
        let app = try LiveStoreApplication()
        let first = try await fetch(port: app.port, "/v1/products?limit=5")
        let tag = try #require(first.header("ETag"))
        let again = try await fetch(port: app.port, "/v1/products?limit=5", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.header("ETag") == tag)
        #expect(again.body.isEmpty)
        #expect(again.header("Cache-Control") == "no-cache")
        let otherLocale = try await fetch(port: app.port, "/v1/products?limit=5", headers: [("If-None-Match", tag), ("Accept-Language", "de-DE")])
        #expect(otherLocale.status == 200, "the locale is part of the tag")
        try await app.store.insert(
            product: Product(
                id: EntityID.generate(kind: .product), name: "Aardvark lamp", shortDescription: "New", longDescription: "",
                price: Money(minorUnits: 100, currency: "USD")))
        let afterWrite = try await fetch(port: app.port, "/v1/products?limit=5", headers: [("If-None-Match", tag)])
        #expect(afterWrite.status == 200)
        #expect(afterWrite.header("ETag") != tag)
    }

    /// Cached pages and exact-tag 304s skip reading the parameters again; a tag belongs to one
    /// target, so it never lets another (here invalid) target through unchecked.
    @Test func aTagAnswersOnlyItsOwnTarget() async throws {
        let app = try LiveStoreApplication()
        let tag = try #require(try await fetch(port: app.port, "/v1/products?limit=5").header("ETag"))
        let cached = try await fetch(port: app.port, "/v1/products?limit=5")
        #expect(cached.status == 200 && cached.header("ETag") == tag)
        for target in ["/v1/products?limit=0", "/v1/products?limit=5&typo=1", "/v1/products?limit=5&limit=5"] {
            let plain = try await fetch(port: app.port, target)
            let revalidated = try await fetch(port: app.port, target, headers: [("If-None-Match", tag)])
            #expect(plain.status == 400, "\(target)")
            #expect(revalidated.status == 400, "\(target) with another target's tag")
        }
        let weak = try await fetch(port: app.port, "/v1/products?limit=5", headers: [("If-None-Match", "W/\(tag), \"other\"")])
        #expect(weak.status == 304, "a tag in a list, weak or not, still matches through the full path")
    }

    @Test func changeFeedReportsUpsertsAndDeletesInCommitOrder() async throws {
        let app = try LiveStoreApplication()
        let start = try #require(try await fetch(port: app.port, "/v1/products/changes").json)
        #expect((start["changes"] as? [Any])?.isEmpty == true)
        let token = try #require(start["next"] as? String)
        let product = Product(
            id: EntityID.generate(kind: .product), name: "Zebra mat", shortDescription: "Striped", longDescription: "",
            price: Money(minorUnits: 2_500, currency: "EUR"))
        try await app.store.insert(product: product)
        let other = Product(
            id: EntityID.generate(kind: .product), name: "Yak bell", shortDescription: "Loud", longDescription: "",
            price: Money(minorUnits: 900, currency: "USD"))
        try await app.store.insert(product: other)
        try await app.store.delete(other.id, from: "products", ifVersion: nil)
        let response = try await fetch(port: app.port, "/v1/products/changes?since=\(token)", headers: [("Accept-Language", "de-DE")])
        #expect(response.header("Content-Language") == "de-DE")
        let json = try #require(response.json)
        let changes = try #require(json["changes"] as? [[String: Any]])
        // One entry per item, in its last state: the other product's create and delete read as one delete.
        #expect(changes.compactMap { $0["op"] as? String } == ["upsert", "delete"])
        #expect(changes.first?["id"] as? String == product.id.rawValue)
        let row = try #require(changes.first?["row"] as? [String: Any])
        #expect(row["trailing"] as? String == "25,00\u{00A0}€")
        #expect(row["detail"] as? String == "/v1/products/\(product.id.rawValue)")
        #expect(json["more"] as? Bool == false)
        let next = try #require(json["next"] as? String)
        let replay = try #require(try await fetch(port: app.port, "/v1/products/changes?since=\(next)").json)
        #expect((replay["changes"] as? [Any])?.isEmpty == true)
        let otherCollection = try await fetch(port: app.port, "/v1/people/changes?since=\(token)")
        #expect(otherCollection.json?["code"] as? String == "INVALID_TOKEN")
    }

    @Test func aTokenOlderThanTheRetainedHistoryIs410() async throws {
        let app = try LiveStoreApplication(changeRetention: 2)
        let token = try #require(try await fetch(port: app.port, "/v1/departments/changes").json?["next"] as? String)
        for index in 0..<6 {
            try await app.store.insert(department: Department(id: EntityID.generate(kind: .department), name: "Dept \(index)"))
        }
        let response = try await fetch(port: app.port, "/v1/departments/changes?since=\(token)")
        #expect(response.status == 410)
        #expect(response.json?["code"] as? String == "CHANGES_EXPIRED")
    }

    static let getRoutes = ["/v1", "/v1/products", "/v1/people?group=department", "/v1/products?view=table", "/v1/products/changes", "/health"]

    @Test(arguments: getRoutes)
    func headAnswersLikeGetWithoutABody(path: String) async throws {
        let app = try LiveStoreApplication()
        let get = try await fetch(port: app.port, path)
        let head = try await fetch(port: app.port, "HEAD", path)
        #expect(head.status == get.status)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(get.body.count) || path.contains("changes"))
        #expect(head.header("Content-Type") == get.header("Content-Type"))
    }

    @Test func everyRowsDetailLinkResolvesToThatItem() async throws {
        let app = try LiveStoreApplication()
        var paths = ["/v1/products", "/v1/departments", "/v1/people", "/v1/articles", "/v1/documents", "/v1/tracks"]
        let track = try #require((try await fetch(port: app.port, "/v1/tracks?limit=1").json?["rows"] as? [[String: Any]])?.first)
        paths.append("/v1/tracks/\(track["id"] as? String ?? "")/samples")
        for path in paths {
            let rows = try #require(try await fetch(port: app.port, path + "?limit=5").json?["rows"] as? [[String: Any]])
            #expect(!rows.isEmpty, "\(path) is empty")
            for row in rows {
                let link = try #require(row["detail"] as? String)
                let detail = try await fetch(port: app.port, link)
                #expect(detail.status == 200, "\(link)")
                #expect(detail.json?["id"] as? String == row["id"] as? String, "\(link)")
            }
        }
    }

    @Test func indexListsEveryCollectionWithItsLinksAndSorts() async throws {
        let app = try LiveStoreApplication()
        let response = try await fetch(port: app.port, "/v1")
        let collections = try #require(response.json?["collections"] as? [[String: Any]])
        #expect(collections.compactMap { $0["id"] as? String } == ["products", "departments", "people", "articles", "documents", "tracks"])
        let people = try #require(collections.first { $0["id"] as? String == "people" })
        #expect(people["sections"] as? Bool == true)
        #expect(people["table"] as? Bool == true)
        #expect((people["links"] as? [String: Any])?["sections"] as? String == "/v1/people?group=department")
        #expect((people["filters"] as? [[String: Any]])?.first?["name"] as? String == "department")
        for collection in collections {
            let list = try #require((collection["links"] as? [String: Any])?["list"] as? String)
            #expect(try await fetch(port: app.port, list).status == 200)
        }
        let revalidated = try await fetch(port: app.port, "/v1", headers: [("If-None-Match", response.header("ETag") ?? "")])
        #expect(revalidated.status == 304)
    }
}

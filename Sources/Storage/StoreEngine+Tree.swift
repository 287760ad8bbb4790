import Domain
import GRDB

extension StoreEngine {
    /// An outline node's ancestors, root first (none for a root, a node of no outline, or no
    /// node), read in one statement on either database: a recursive walk up the parent column,
    /// each step one seek of the primary key, bounded at `CatalogWriter.maxTreeDepth` steps so
    /// that a cycle written into the database by hand cannot make it loop.
    public func ancestors(_ collection: String, of id: EntityID) throws(StoreError) -> [Versioned<Item>] {
        let table = try table(collection)
        guard let column = table.treeColumn else { return [] }
        let name = CatalogTable.quote(table.name)
        let parent = CatalogTable.quote(column)
        let sql = """
            WITH RECURSIVE up(id, depth) AS (
              SELECT a.\(parent), 1 FROM \(name) AS a WHERE a."id" = ?
              UNION ALL
              SELECT a.\(parent), up.depth + 1 FROM \(name) AS a JOIN up ON a."id" = up.id WHERE up.depth < \(CatalogWriter.maxTreeDepth)
            )
            SELECT \(table.selectList) FROM up JOIN \(name) AS t ON t."id" = up.id ORDER BY up.depth DESC
            """
        return try StoreError.catching {
            try readStatement { source in try source.all(sql, [id.rawValue.databaseValue]) { try CatalogColumns.decode($0, in: table) } }
        }
    }
}

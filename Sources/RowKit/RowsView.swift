#if canImport(SwiftUI)
    import SwiftUI

    /// A SwiftUI list over a `RowList`: sections when the list has them, the empty state, more
    /// rows as the last one appears, search, and pull to refresh. `onSelect` gets the row; follow
    /// its `detail` link with `RowClient.detail(_:)`.
    @available(macOS 14, iOS 17, *)
    public struct RowsView: View {
        let list: RowList
        let onSelect: (Row) -> Void
        @State private var shown: RowList?
        @State private var query = ""
        @State private var snapshot = RowListSnapshot()
        @State private var problem: String?

        public init(_ list: RowList, onSelect: @escaping (Row) -> Void = { _ in }) {
            self.list = list
            self.onSelect = onSelect
        }

        public var body: some View {
            let current = shown ?? list
            Group {
                if let empty = snapshot.empty, snapshot.rows.isEmpty {
                    ContentUnavailableView(empty.title, systemImage: empty.image, description: Text(empty.description))
                } else {
                    List {
                        if snapshot.sections.isEmpty {
                            rows(snapshot.rows, of: current)
                        } else {
                            ForEach(snapshot.sections) { section in
                                SwiftUI.Section(section.header) { rows(section.rows, of: current) }
                            }
                        }
                    }
                    .refreshable { await run { try await current.refresh() } }
                }
            }
            .searchable(text: $query)
            .onSubmit(of: .search) { shown = list.searching(query) }
            .onChange(of: query) { _, text in if text.isEmpty { shown = nil } }
            .overlay(alignment: .bottom) { if let problem { Text(problem).font(.footnote).foregroundStyle(.red) } }
            .task(id: ObjectIdentifier(current)) {
                await run { try await current.load() }
                for await snapshot in await current.snapshots() { self.snapshot = snapshot }
            }
        }

        private func rows(_ rows: [Row], of list: RowList) -> some View {
            ForEach(rows) { row in
                Button {
                    onSelect(row)
                } label: {
                    HStack {
                        VStack(alignment: .leading) {
                            Text(row.title)
                            if let subtitle = row.subtitle { Text(subtitle).font(.subheadline).foregroundStyle(.secondary) }
                        }
                        Spacer()
                        if let trailing = row.trailing { Text(trailing).monospacedDigit().foregroundStyle(.secondary) }
                    }
                }
                .onAppear {
                    if row.id == snapshot.rows.last?.id, snapshot.hasMore { Task { await run { _ = try await list.loadMore() } } }
                }
            }
        }

        private func run(_ step: () async throws(RowKitError) -> Void) async {
            do {
                try await step()
                problem = nil
            } catch {
                problem = error.problem?.detail ?? "\(error)"
            }
        }
    }
#endif

import Domain
import Storage

/// Maps stored items to the render rows their lists show.
enum ItemRows {
    static func row(_ item: StoredItem, in context: RenderContext, track: Track? = nil) -> RenderRow {
        switch item {
        case .product(let product): product.row(in: context)
        case .department(let department): department.row(in: context)
        case .person(let person): person.row(in: context)
        case .article(let article): article.row(in: context)
        case .document(let document): document.row(in: context)
        case .track(let track): track.row(in: context)
        case .sample(let sample):
            // A sample's row is its table row's compact form: the time, then each channel's level.
            sampleRow(sample, track: track, in: context)
        }
    }

    static func sampleRow(_ sample: AudioSample, track: Track?, in context: RenderContext) -> RenderRow {
        let compact = SampleTable(track: track ?? Track(id: sample.trackID, title: "", channels: [])).row(for: sample, in: context).compact
        return RenderRow(id: sample.id, title: compact.title, subtitle: compact.subtitle, image: "waveform.path")
    }
}

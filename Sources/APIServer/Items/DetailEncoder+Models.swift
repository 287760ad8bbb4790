import Domain
import HTTPServer
import Storage

extension DetailEncoder {
    static func writeProduct(_ product: Product, context: RenderContext, into json: inout JSONWriter) {
        json.field("id", product.id.rawValue)
        json.field("name", product.name)
        json.field("shortDescription", product.shortDescription)
        json.field("longDescription", product.longDescription)
        json.key("price")
        json.beginObject()
        json.key("minorUnits")
        json.int64(product.price.minorUnits)
        json.field("currency", product.price.currency)
        json.field("formatted", context.currency(product.price))
        json.endObject()
        writeLinks(.products, product.id, into: &json)
    }

    static func writeDepartment(_ department: Department, into json: inout JSONWriter) {
        json.field("id", department.id.rawValue)
        json.field("name", department.name)
        writeLinks(.departments, department.id, extra: [("people", "/v1/people?department=\(department.id.rawValue)")], into: &json)
    }

    /// `department.name` is null only if the department vanished, which the store prevents.
    static func writePerson(_ person: Person, department: Department?, into json: inout JSONWriter) {
        json.field("id", person.id.rawValue)
        json.field("givenName", person.givenName)
        json.field("familyName", person.familyName)
        json.field("fullName", person.fullName)
        json.field("emailAddress", person.emailAddress)
        json.field("phoneNumber", person.phoneNumber)
        json.field("departmentID", person.departmentID.rawValue)
        json.key("department")
        json.beginObject()
        json.field("id", person.departmentID.rawValue)
        json.field("name", department?.name)
        json.field("detail", ListLinks.detail(.departments, person.departmentID))
        json.endObject()
        writeLinks(.people, person.id, into: &json)
    }

    static func writeTrack(_ track: Track, into json: inout JSONWriter) {
        json.field("id", track.id.rawValue)
        json.field("title", track.title)
        json.key("channels")
        json.beginArray()
        for channel in track.channels {
            json.beginObject()
            json.field("id", channel.id.rawValue)
            json.field("name", channel.name)
            json.endObject()
        }
        json.endArray()
        let samples = ListLinks.list(.samples, parent: track.id)
        writeLinks(.tracks, track.id, extra: [("samples", samples), ("samplesTable", samples + "?view=table")], into: &json)
    }

    /// One level per channel of the track, in channel order (levels are stored by position);
    /// a channel the sample has no level for gets `null`s.
    static func writeSample(_ sample: AudioSample, track: Track?, context: RenderContext, into json: inout JSONWriter) {
        json.field("id", sample.id.rawValue)
        json.field("trackID", sample.trackID.rawValue)
        json.key("timestampMilliseconds")
        json.int64(sample.timestampMilliseconds)
        json.field("timestamp", context.integer(sample.timestampMilliseconds) + " ms")
        json.key("levels")
        json.beginArray()
        let channels: [AudioChannel?] = track.map { $0.channels.map(Optional.some) } ?? sample.levels.map { _ in nil }
        for (index, channel) in channels.enumerated() {
            let level = sample.level(at: index)
            json.beginObject()
            json.field("channel", channel?.id.rawValue)
            json.field("name", channel?.name)
            json.key("level")
            if let level { json.double(level) } else { json.null() }
            json.field("formatted", level.map { context.decimal($0, fractionDigits: SampleTable.levelFractionDigits) })
            json.endObject()
        }
        json.endArray()
        writeLinks(.samples, sample.id, parent: sample.trackID, extra: [("track", ListLinks.detail(.tracks, sample.trackID))], into: &json)
    }
}

import Domain
import Storage

extension ItemDecoder {
    static func track(_ document: JSONValue, _ mode: Mode, _ reader: inout FieldReader) -> StoredItem? {
        guard let fields = reader.object(document, at: "", fields: ["id", "title", "channels"], readOnly: ["links"]) else { return nil }
        checkID(fields["id"], mode, &reader)
        let title = reader.text(fields["title"], at: "/title", ValidationLimits.trackTitle)
        var existing: [AudioChannel] = []
        if case .replace(.track(let track)) = mode { existing = track.channels }
        var taken = Set(existing.map(\.id))
        var channels: [AudioChannel] = []
        let elements = reader.array(fields["channels"], at: "/channels", count: ValidationLimits.channelCount)
        for (index, element) in elements.enumerated() {
            let pointer = JSONPointer.appending("/channels", index)
            guard let channel = reader.object(element, at: pointer, fields: ["id", "name"]) else { continue }
            let name = reader.text(channel["name"], at: pointer + "/name", ValidationLimits.channelName)
            let idValue = channel["id"] == .null ? nil : channel["id"]
            if index < existing.count {
                // Samples store levels by channel position: a channel that moved or vanished
                // from the middle would silently take another channel's levels.
                let expected = existing[index].id
                guard idValue == .string(expected.rawValue) else {
                    reader.fail(
                        pointer + "/id",
                        "Must be \(expected.rawValue): existing channels keep their ids and positions; append new ones without an id.")
                    continue
                }
                channels.append(AudioChannel(id: expected, name: name))
            } else {
                guard idValue == nil else {
                    reader.fail(pointer + "/id", "Channel ids are assigned by the server; leave it out for a new channel.")
                    continue
                }
                var id = EntityID.generate(kind: .channel)
                while !taken.insert(id).inserted { id = EntityID.generate(kind: .channel) }
                channels.append(AudioChannel(id: id, name: name))
            }
        }
        return .track(Track(id: mode.id, title: title, channels: channels))
    }
}

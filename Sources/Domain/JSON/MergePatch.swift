/// JSON Merge Patch (RFC 7396): the document a PATCH body describes.
///
/// A patch object's members replace the target's, `null` removes a member, nested objects
/// merge recursively, and anything that is not an object (arrays included) replaces the
/// target whole. The id of an item is not special here; the item validation refuses a result
/// whose id differs from the item's.
public enum MergePatch {
    /// RFC 7396 §2 `MergePatch(Target, Patch)`. New members are appended after the target's
    /// existing ones, which keep their order.
    public static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let patchMembers) = patch else { return patch }
        var result: [JSONMember]
        if case .object(let targetMembers) = target { result = targetMembers } else { result = [] }
        for member in patchMembers {
            let existing = result.firstIndex { $0.key == member.key }
            if member.value == .null {
                if let existing { result.remove(at: existing) }
            } else if let existing {
                result[existing].value = apply(member.value, to: result[existing].value)
            } else {
                // Applying to "no value" strips the nulls nested inside the new member.
                result.append(JSONMember(member.key, apply(member.value, to: .null)))
            }
        }
        return .object(result)
    }
}

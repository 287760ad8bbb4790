extension BadDefinition {
    static let second = """
          memos:
            idPrefix: mem
            title: Memos
            fields:
              name: {type: text}
            row: {title: name}
        """

    /// The file's shape: YAML, the top level, collections and their names.
    static let structure: [BadDefinition] = [
        .init("YAML syntax error", "rowserver: 1\ncollections: [notes\n", "yaml-syntax", 3, 1, "YAML syntax error"),
        .init("duplicate key", "rowserver: 1\nrowserver: 1\ncollections: {}\n", "duplicate-key", 1, 1, "`rowserver`"),
        .init("empty document", "", "empty-document", 1, 1, "rowserver: 1"),
        .init("missing rowserver", String(notes().split(separator: "\n", maxSplits: 1)[1]), "missing-key", 1, 1, "`rowserver`"),
        .init("wrong version", notes().replacingOccurrences(of: "rowserver: 1", with: "rowserver: 2"), "unsupported-version", 1, 12, "number 1"),
        .init(
            "version as a string", notes().replacingOccurrences(of: "rowserver: 1", with: "rowserver: \"1\""), "unsupported-version", 1, 12, "string"),
        .init("unknown top-level key", "rowserver: 1\nversion: 1\ncollections: {}\n", "unknown-key", 2, 1, "Known keys: rowserver, collections"),
        .init("no collections", "rowserver: 1\ncollections: {}\n", "no-collections", 2, 14, "at least one collection"),
        .init(
            "bad collection name", notes().replacingOccurrences(of: "  notes:", with: "  Notes:"), "bad-name", 3, 3, "\"Notes\" is not a valid name"),
        .init(
            "collection names equal ignoring case", notes(extra: second.replacingOccurrences(of: "memos", with: "noTes")), "duplicate-collection",
            9, 3, "only in letter case"),
        .init(
            "missing idPrefix", notes().replacingOccurrences(of: "    idPrefix: not\n", with: ""), "missing-key", 4, 5,
            "lacks the required key `idPrefix`"),
        .init("bad idPrefix", notes().replacingOccurrences(of: "idPrefix: not", with: "idPrefix: no"), "bad-id-prefix", 4, 15, "three lowercase"),
        .init(
            "idPrefix of two collections", notes(extra: second.replacingOccurrences(of: "mem", with: "not")), "duplicate-id-prefix", 10, 15,
            "already used by collection `notes`"),
        .init(
            "idPrefix of a collection and a names field", notes(fields: "      name: {type: text}\n      tags: {type: names, idPrefix: not}"),
            "duplicate-id-prefix", 8, 37, "already used by collection `notes`"),
        .init("unknown collection key", notes(extra: "    colour: red"), "unknown-key", 9, 5, "Known keys: idPrefix, title"),
        .init(
            "unquoted comma in a flow mapping", notes(fields: "      name: {type: text, label: Name, as written}"), "unknown-key", 7, 39,
            "a comma ends a value: quote a text that holds one"),
        .init("read neither public nor key", notes(extra: "    read: maybe"), "invalid-read-access", 9, 11, "`public` (anyone may read) or `key`"),
        .init("read as a list", notes(extra: "    read: [key]"), "wrong-kind", 9, 11, "a string"),
        .init(
            "count of no kind", notes(extra: "    count: planned"), "invalid-count", 9, 12,
            "`exact` (counted up to 10,000 rows), `estimated` or `none`"),
        .init("fields as a list", notes(fields: "      - name"), "wrong-kind", 7, 7, "must be a mapping, not a list"),
        .init(
            "unknown locale tag", notes().replacingOccurrences(of: "title: Notes", with: "title: {en: Notes, xx: Notes}"), "unknown-locale", 5, 24,
            "`xx`"),
        .init("huge number", notes(extra: "    limit: {max: 99999999999999999999}"), "out-of-range", 9, 18, "64 bits"),
    ]

    /// Fields: names, types, keys, rules and defaults.
    static let fields: [BadDefinition] = [
        .init("bad field name", notes(fields: "      Name: {type: text}"), "bad-name", 7, 7, "\"Name\" is not a valid name"),
        .init("reserved field name", notes(fields: "      name: {type: text}\n      id: {type: text}"), "reserved-field-name", 8, 7, "reserved"),
        .init(
            "field names equal ignoring case", notes(fields: "      name: {type: text}\n      nAme: {type: text}"), "duplicate-field", 8, 7,
            "only in letter case"),
        .init("non-string field key", notes(fields: "      [a]: {type: text}\n      name: {type: text}"), "wrong-kind", 7, 7, "must be a name"),
        .init("missing type", notes(fields: "      name: {label: Name}"), "missing-key", 7, 13, "lacks `type`"),
        .init("unknown type", notes(fields: "      name: {type: txt}"), "unknown-type", 7, 20, "Did you mean `text`?"),
        .init(
            "key that does not apply to the type", notes(fields: "      name: {type: integer, maxLength: 5}"), "key-not-for-type", 7, 29,
            "does not apply to integer fields"),
        .init("unknown field key", notes(fields: "      name: {type: text, colour: red}"), "unknown-key", 7, 26, "Known keys: type, label"),
        .init(
            "embed on a non-reference", notes(fields: "      name: {type: text, embed: owner}"), "key-not-for-type", 7, 26, "`embed` does not apply"),
        // `embed: true` reads as a switch but is a valid name: the detail grew a key "true".
        .init(
            "embed as a switch", notes(fields: "      name: {type: text}\n      ownerID: {type: reference, to: notes, embed: true}"),
            "embed-needs-name", 8, 52, "not a switch: write `embed: owner`"),
        .init(
            "embed switched off", notes(fields: "      name: {type: text}\n      ownerID: {type: reference, to: notes, embed: false}"),
            "embed-needs-name", 8, 52, "leave it out for none, or write `embed: owner`"),
        .init(
            "embed as a switch on a field without ID",
            notes(fields: "      name: {type: text}\n      parent: {type: reference, to: notes, embed: true}"),
            "embed-needs-name", 8, 51, "write `embed: parentItem`"),
        .init(
            "link as a switch", notes(fields: "      name: {type: text}\n      ownerID: {type: reference, to: notes, link: yes}"),
            "link-needs-name", 8, 51, "the name of the detail's link to the referenced item, not a switch: write `link: owner`"),
        .init(
            "minimum above maximum", notes(fields: "      name: {type: text}\n      size: {type: integer, minimum: 5, maximum: 1}"),
            "min-greater-than-max", 8, 38, "greater than its `maximum`"),
        .init("bad pattern", notes(fields: "      name: {type: text, pattern: \"[a-\"}"), "bad-pattern", 7, 35, "not a valid regular expression"),
        .init(
            "default of the wrong kind", notes(fields: "      name: {type: text}\n      size: {type: integer, default: abc}"), "bad-default", 8, 38,
            "whole number"),
        .init(
            "default out of range", notes(fields: "      name: {type: text}\n      size: {type: integer, maximum: 10, default: 11}"),
            "bad-default", 8, 51, "above the field's `maximum`"),
        .init(
            "default not among the enum's values", notes(fields: "      name: {type: text}\n      state: {type: enum, values: [a, b], default: c}"),
            "bad-default", 8, 52, "not one of its values: a, b"),
        .init(
            "date default that does not exist", notes(fields: "      name: {type: text}\n      due: {type: date, default: 2026-02-30}"),
            "bad-default", 8, 34, "real date"),
        .init(
            "decimal default finer than the scale", notes(fields: "      name: {type: text}\n      cost: {type: decimal, scale: 1, default: 1.25}"),
            "bad-default", 8, 48, "more than 1 digit after the decimal point"),
        .init(
            "unknown currency", notes(fields: "      name: {type: text}\n      price: {type: money, currencies: [USD, EURO]}"), "unknown-currency", 8,
            46, "\"EURO\""),
        .init(
            "reference to an unknown collection", notes(fields: "      name: {type: text}\n      owner: {type: reference, to: people}"),
            "unknown-collection", 8, 36, "refers to `people`, which is not a collection"),
        .init("empty enum", notes(fields: "      name: {type: text}\n      state: {type: enum, values: []}"), "empty-enum", 8, 35, "is empty"),
        .init(
            "repeated enum value", notes(fields: "      name: {type: text}\n      state: {type: enum, values: [a, a]}"), "duplicate-enum-value", 8,
            39,
            "`a` appears twice"),
        .init(
            "required readOnly field without default", notes(fields: "      name: {type: text, required: true, readOnly: true}"),
            "readonly-required-without-default", 7, 7, "give it a `default`"),
        .init(
            "bad labels from", notes(fields: "      name: {type: text}\n      levels: {type: numbers, labels: {from: channels}}"),
            "bad-labels-from", 8, 46, "referenceField.namesField"),
    ]

    /// Computed fields and the values rows show.
    static let values: [BadDefinition] = [
        .init(
            "malformed template", notes(fields: "      name: {type: text}\n      full: {template: \"{name\"}"), "bad-template", 8, 24, "unclosed {"),
        .init(
            "template naming an unknown field", notes(fields: "      name: {type: text}\n      full: {template: \"{nme}\"}"),
            "template-unknown-field", 8, 24, "Did you mean `name`?"),
        .init(
            "template naming a computed field",
            notes(fields: "      name: {type: text}\n      full: {template: \"{name}\"}\n      again: {template: \"{full}\"}"),
            "template-computed-field", 9, 25, "computed field"),
        .init(
            "preview of a non-text field",
            notes(fields: "      name: {type: text}\n      size: {type: integer}\n      short: {preview: size, length: 5}"),
            "preview-not-text", 9, 24, "an integer field"),
        .init("row without title", notes(row: "    row: {subtitle: name}"), "missing-key", 8, 10, "lacks the required key `title`"),
        .init(
            "blank row placeholder", notes(row: "    row: {title: name, placeholder: {en: Untitled note, de: \" \"}}"), "blank-placeholder", 8, 37,
            "blank in de-DE"),
        .init("row placeholder as a list", notes(row: "    row: {title: name, placeholder: [a]}"), "wrong-kind", 8, 37, "a string or a mapping"),
        .init("row naming an unknown field", notes(row: "    row: {title: nme}"), "unknown-field", 8, 18, "not a field of collection `notes`"),
        .init(
            "three search values", notes(extra: "    search: [name, name, name]"), "search-value-count", 9, 13, "one or two"),
        .init(
            "search reading a reference",
            notes(fields: "      name: {type: text}\n      owner: {type: reference, to: notes}", extra: "    search: [owner]"),
            "search-reads-reference", 10, 14, "reads a reference"),
    ]

    /// Sorts, filters, sections, tables, limits and parents.
    static let lists: [BadDefinition] = [
        .init("sort on a missing field", notes(extra: "    sort: [nme]"), "sort-on-missing-field", 9, 12, "`nme`"),
        .init(
            "sort on an unsortable type", notes(fields: "      name: {type: text}\n      body: {type: longText}", extra: "    sort: [body]"),
            "sort-unsortable-type", 10, 12, "cannot be sorted"),
        .init("repeated sort name", notes(extra: "    sort: [name, name]"), "duplicate-sort", 9, 18, "appears twice"),
        .init(
            "defaultSort naming an unknown sort", notes(extra: "    sort: [name]\n    defaultSort: [-title]"), "default-sort-unknown", 10, 19,
            "`title`"),
        .init("filter on a missing field", notes(extra: "    filters: {mine: {field: nme}}"), "filter-on-missing-field", 9, 29, "`nme`"),
        .init(
            "filter op not allowed for the type", notes(extra: "    filters: {mine: {field: name, op: atLeast}}"), "filter-op-not-allowed", 9, 39,
            "text fields allow equals, oneOf"),
        .init("reserved filter name", notes(extra: "    filters: {sort: {field: name}}"), "reserved-filter-name", 9, 15, "rename it"),
        .init("count as a filter name", notes(extra: "    filters: {count: {field: name}}"), "reserved-filter-name", 9, 15, "rename it"),
        .init("sections on a text field", notes(extra: "    sections: {by: name}"), "section-field-type", 9, 20, "reference or an enum"),
        .init("table column on an unknown field", notes(extra: "    table: {columns: [nme]}"), "column-unknown-field", 9, 23, "`nme`"),
        .init(
            "forEach on numbers without labels",
            notes(fields: "      name: {type: text}\n      levels: {type: numbers}", extra: "    table: {columns: [{forEach: levels}]}"),
            "foreach-without-labels", 10, 33, "with `labels`"),
        .init(
            "percentOf a non-money field", notes(extra: "    table: {columns: [{id: tip, title: Tip, percentOf: name, percent: 115}]}"),
            "percent-of-non-money", 9, 56, "money field"),
        .init("repeated column id", notes(extra: "    table: {columns: [name, {field: name}]}"), "duplicate-column-id", 9, 37, "the id `name`"),
        .init(
            "daysBetween one field",
            notes(
                fields: "      name: {type: text}\n      due: {type: date}",
                extra: "    table: {columns: [{id: sla, title: SLA, daysBetween: [due]}]}"),
            "days-between-two-fields", 10, 58, "it takes two"),
        .init(
            "daysBetween a text field",
            notes(
                fields: "      name: {type: text}\n      due: {type: date}",
                extra: "    table: {columns: [{id: sla, title: SLA, daysBetween: [name, due]}]}"),
            "days-between-non-date", 10, 59, "not a date or dateTime field"),
        .init(
            "query in the collection's empty state", notes(extra: "    empty: {title: \"Nothing for {query}\"}"), "empty-state-unknown-placeholder",
            9, 20, "it offers none"),
        .init(
            "filters in a search's empty state", notes(extra: "    searchEmpty: {title: \"No {query}\", description: \"Not in {filters}\"}"),
            "empty-state-unknown-placeholder", 9, 53, "it offers `{query}` only"),
        .init(
            "query in a filtered list's empty state",
            notes(extra: "    filteredEmpty:\n      title: {en: No Matches, de: \"Nichts für {query}\"}"), "empty-state-unknown-placeholder", 10, 14,
            "`{query}`, which it cannot fill: it offers `{filters}` only"),
        .init(
            "misspelt filters placeholder", notes(extra: "    filteredEmpty: {title: None, description: \"No {filter}\"}"),
            "empty-state-unknown-placeholder", 9, 47, "`{filter}`"),
        .init("limit default above max", notes(extra: "    limit: {default: 300, max: 200}"), "limit-default-above-max", 9, 22, "above its `max`"),
        .init("parent that is not a reference", notes(extra: "    parent: name"), "bad-parent", 9, 13, "not a reference field"),
        .init(
            "parent of itself",
            notes(fields: "      name: {type: text}\n      up: {type: reference, to: notes, required: true}", extra: "    parent: up"),
            "parent-self", 10, 13, "itself"),
        .init(
            "parent with its own parent",
            """
            rowserver: 1
            collections:
              tracks:
                idPrefix: trk
                title: Tracks
                fields:
                  name: {type: text}
                row: {title: name}
              samples:
                idPrefix: smp
                title: Samples
                parent: track
                fields:
                  track: {type: reference, to: tracks, required: true}
                row: {title: track}
              notes:
                idPrefix: not
                title: Notes
                parent: sample
                fields:
                  sample: {type: reference, to: samples, required: true}
                row: {title: sample}
            """, "nested-parent", 19, 13, "has a parent itself"),
        .init(
            "tree on a child collection",
            """
            rowserver: 1
            collections:
              tracks:
                idPrefix: trk
                title: Tracks
                fields:
                  name: {type: text}
                row: {title: name}
              samples:
                idPrefix: smp
                title: Samples
                parent: track
                fields:
                  track: {type: reference, to: tracks, required: true}
                  up: {type: reference, to: samples}
                row: {title: track}
                tree: {parent: up}
            """, "tree-under-parent", 17, 11, "an outline is a top-level collection"),
        .init(
            "setNull on a required reference",
            notes(fields: "      name: {type: text}\n      up: {type: reference, to: notes, required: true, onDelete: setNull}"),
            "set-null-on-required", 8, 66, "make the field optional"),
        .init("tree parent that is not a reference", notes(extra: "    tree: {parent: name}"), "bad-tree", 9, 20, "not a reference field"),
        .init("tree parent that is no field", notes(extra: "    tree: {parent: up}"), "bad-tree", 9, 20, "not a field of collection `notes`"),
        .init("tree without a parent", notes(extra: "    tree: {}"), "missing-key", 9, 11, "`parent`"),
        .init(
            "tree parent in another collection",
            notes(fields: "      name: {type: text}\n      up: {type: reference, to: memos}", extra: "    tree: {parent: up}\n" + second),
            "tree-parent-elsewhere", 10, 20, "refers to `memos`"),
        .init(
            "required tree parent",
            notes(fields: "      name: {type: text}\n      up: {type: reference, to: notes, required: true}", extra: "    tree: {parent: up}"),
            "tree-parent-required", 10, 20, "must be optional"),
    ]

    static let all = structure + fields + money + values + lists
}

import Domain

/// Word lists the demo generator draws from. Changing them changes the generated data.
enum DemoVocabulary {
    static let productAdjectives = [
        "Wireless", "Ergonomic", "Compact", "Vintage", "Modular", "Portable", "Silent", "Smart", "Classic", "Rugged",
        "Walnut", "Bamboo", "Titanium", "Ceramic", "Recycled", "Foldable", "Heated", "Solar", "Magnetic", "Adjustable",
    ]
    static let productNouns = [
        "Keyboard", "Mouse", "Desk Lamp", "Monitor Stand", "Headphones", "Notebook", "Backpack", "Water Bottle",
        "Coffee Grinder", "Chair", "Speaker", "Charger", "Webcam", "Microphone", "Tea Kettle", "Phone Case",
        "Standing Desk", "Cable Organizer", "Pen Set", "Travel Mug", "Bike Light", "Sketchbook", "Tripod", "Router",
    ]
    static let productFinishes = [
        "Graphite", "Oak", "Sand", "Forest Green", "Navy", "Chalk", "Terracotta", "Slate", "Brass", "Matte Black",
        "Ivory", "Copper", "Sky Blue", "Charcoal", "Olive", "Pearl",
    ]
    static let productTaglines = [
        "Mechanical", "Bluetooth 5.3", "Hand-finished", "USB-C", "Noise-cancelling", "Dishwasher-safe", "Low-profile",
        "Made to last", "Limited edition", "Refurbished", "Water-resistant", "Lightweight", "Backlit", "Cordless",
    ]
    static let productSentences = [
        "Built for long days at the desk.", "Ships in plastic-free packaging.", "Covered by a two-year warranty.",
        "Designed in Lisbon and assembled in Porto.", "Tested for ten thousand cycles.", "Pairs with up to three devices.",
        "Includes a braided cable.", "Available while stocks last.", "Each piece varies slightly in grain and colour.",
    ]

    static let departments = ["Sales", "Engineering", "Design", "Finance", "Marketing", "Operations", "Support", "Legal"]

    static let givenNames = [
        "José", "Zoë", "François", "Søren", "Chloé", "Björn", "Ana", "Noah", "Amélie", "Łukasz", "Hélène", "Jürgen", "Maya",
        "Olivia", "Liam", "Mateo", "Inés", "Yuki", "Priya", "Ahmed", "Fatima", "Chen", "Aoife", "Renée", "Dmitri", "Émile",
        "Sofia", "Ethan", "Grace", "Kwame", "Lucía", "Nils", "Oskar", "Raphaël", "Siobhán", "Tomás", "Ümit", "Valentina",
    ]
    static let familyNames = [
        "García", "Müller", "Nguyen", "Smith", "Johansson", "Dubois", "O'Brien", "Kowalski", "Rossi", "Tanaka", "Fernández",
        "Schäfer", "Brown", "Lefèvre", "Ødegaard", "Novák", "Papadopoulos", "Kim", "Martín", "Jensen", "Okafor", "Wright",
        "Patel", "Yamamoto", "Lindqvist", "Moreau", "Żukowski", "Costa", "Haddad", "Walsh", "Silva", "Van der Berg",
    ]
    static let areaCodes = ["408", "415", "212", "617", "919", "417", "503", "206", "312", "512"]

    static let headlineOpeners = [
        "Ten Tips for", "A Field Guide to", "Rethinking", "The Quiet Power of", "Notes on", "Why We Chose", "Inside",
        "Lessons from", "Getting Started with", "The Future of",
    ]
    static let headlineTopics = [
        "Remote Teams", "Swift Concurrency", "Offline-First Apps", "Keyboard Design", "Accessible Lists", "Server Rendering",
        "Release Trains", "Type-Safe IDs", "Coffee Culture", "Small Pull Requests", "Sustainable Packaging", "Sorting",
    ]
    static let sentences = [
        "Lists are where most apps spend their time.", "Stable identity keeps animations honest.",
        "We measured before we optimised, and it paid off.", "The first draft was twice as long as it needed to be.",
        "Every row should render in constant time.", "Nobody reads the second paragraph unless the first earns it.",
        "Naming is a design decision, not an afterthought.", "Small files make small diffs.",
        "Our customers in Zürich asked for it first.", "Il était une fois une équipe très curieuse.",
        "Die Überschrift war länger als der Artikel.", "Tests describe behaviour, not implementation.",
    ]
    /// Text that exercises grapheme-safe cutting: emoji with modifiers and joiners, flags, CJK, combining marks.
    static let unicodeSentences = [
        "🚀 Launch day! 👩🏽‍💻👨‍👩‍👧‍👦 The whole team 🇯🇵🇫🇷🇩🇪 shipped the release together 🎉🎉🎉 and celebrated.",
        "東京の新しいオフィスは駅から歩いて五分です。会議室は十二部屋あり、全員が快適に働けます。",
        "新功能已经上线，请大家试用并反馈意见。我们会在下周整理所有的建议。",
        "Cafe\u{301} cre\u{300}me bru\u{302}le\u{301}e — combining marks stay on their letters when cut.",
        "한국어 문서도 잘려도 글자가 깨지지 않아야 합니다. 예시 문장입니다.",
    ]
    static let trackTitles = ["Studio Session", "Field Recording", "Surround Mix", "Podcast Master", "Rehearsal Take"]
    /// Channel names in 7.1 order; a track with n channels uses the first n.
    static let channelNames = ["Left", "Right", "Center", "LFE", "Left Surround", "Right Surround", "Left Rear", "Right Rear"]
}

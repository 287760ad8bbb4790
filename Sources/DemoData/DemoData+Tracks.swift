import Domain

extension DemoData {
    /// Tracks with between 2 and 8 channels: the first is stereo, the last (of several) 7.1,
    /// the others in between, so the dynamic columns always span the whole range.
    func makeTracks(count: Int) -> [Track] {
        var random = random(.tracks)
        var channelIndex = 0
        return (0..<max(count, 0)).map { index in
            let id = Self.id(.track, index: index, using: &random)
            let channelCount = index == 0 ? 2 : (index == count - 1 ? 8 : random.next(in: 3...7))
            let channels = DemoVocabulary.channelNames.prefix(channelCount).map { name in
                defer { channelIndex += 1 }
                return AudioChannel(id: Self.id(.channel, index: channelIndex, using: &random), name: name)
            }
            let titles = DemoVocabulary.trackTitles
            let title = index < titles.count ? titles[index] : "Take \(index + 1)"
            return Track(id: id, title: title, channels: channels)
        }
    }

    /// `perTrack` samples per track, 10 ms apart; levels wander smoothly in 0...1 per channel.
    func makeSamples(perTrack: Int, tracks: [Track]) -> [AudioSample] {
        var random = random(.samples)
        var samples: [AudioSample] = []
        samples.reserveCapacity(max(perTrack, 0) * tracks.count)
        for track in tracks {
            var levels = track.channels.map { _ in random.nextUnit() }
            for step in 0..<max(perTrack, 0) {
                let id = Self.id(.sample, index: samples.count, using: &random)
                for channel in levels.indices {
                    levels[channel] = min(1, max(0, levels[channel] + (random.nextUnit() - 0.5) * 0.2))
                }
                samples.append(AudioSample(id: id, trackID: track.id, timestampMilliseconds: Int64(step) * 10, levels: levels))
            }
        }
        return samples
    }
}

import CFFmpeg
import GlimtCore

/// libswresample behind one small type: decoded sound of any layout, rate and sample format
/// to 48 kHz stereo interleaved Float32, as one continuous stream. Rebuilds itself when the
/// decoded frames change shape midway, so the stream runs on without a break.
final class AudioResampler {

    private var context: OpaquePointer?
    /// What `context` was built for.
    private var inputLayout = AVChannelLayout()
    private var inputFormat: Int32 = -1
    private var inputRate: Int32 = 0
    private var scratch: [Float] = []

    deinit {
        swr_free(&context)
        av_channel_layout_uninit(&inputLayout)
    }

    /// Converts `frame`, handing the output samples (interleaved, possibly none) to `take`.
    func convert(_ frame: UnsafePointer<AVFrame>, _ take: (UnsafeBufferPointer<Float>) -> Void) throws {
        try prepare(for: frame, take)
        guard let data = frame.pointee.extended_data else { return }
        let count = frame.pointee.nb_samples
        let planes = Int(max(frame.pointee.ch_layout.nb_channels, 1))
        try data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: planes) { planes in
            try run(input: planes, count: count, take)
        }
    }

    /// Whatever the resampler still holds, at the end of the stream.
    func flush(_ take: (UnsafeBufferPointer<Float>) -> Void) throws {
        guard context != nil else { return }
        try run(input: nil, count: 0, take)
    }

    /// Builds the converter for the first frame, which starts at sample `first` of the source's
    /// clock (in the source's rate), and leads it in with silence so that output samples fall on
    /// whole 48 kHz ticks of that clock. Returns the tick of the first output sample. Without
    /// this, where a read began would shift its samples by a fraction of one, and pieces read
    /// separately would not join up.
    func start(with frame: UnsafePointer<AVFrame>, atSample first: Int) throws -> Int {
        try prepare(for: frame) { _ in }
        let rate = Int(inputRate)
        // Input and output ticks coincide every `period` input samples (147 for 44.1 kHz).
        let common = greatestCommonDivisor(rate, AudioFormat.sampleRate)
        let period = rate / common
        let lead = ((first % period) + period) % period
        if lead > 0 { _ = swr_inject_silence(context, Int32(lead)) }
        return (first - lead) / period * (AudioFormat.sampleRate / common)
    }

    private func run(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32, _ take: (UnsafeBufferPointer<Float>) -> Void) throws {
        guard let context else { return }
        let room = swr_get_out_samples(context, count)
        guard room >= 0 else { throw GlimtError("cannot resample the sound: \(ffmpegReason(room))") }
        if room == 0 { return }
        if scratch.count < Int(room) * AudioFormat.channels { scratch = [Float](repeating: 0, count: Int(room) * AudioFormat.channels) }
        let produced = scratch.withUnsafeMutableBytes { bytes -> Int32 in
            var output: UnsafeMutablePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &output, room, input, count)
        }
        guard produced >= 0 else { throw GlimtError("cannot resample the sound: \(ffmpegReason(produced))") }
        scratch.withUnsafeBufferPointer { take(UnsafeBufferPointer(rebasing: $0[0..<(Int(produced) * AudioFormat.channels)])) }
    }

    /// Builds the converter for this frame's shape, first flushing one built for another shape.
    private func prepare(for frame: UnsafePointer<AVFrame>, _ take: (UnsafeBufferPointer<Float>) -> Void) throws {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        var source = frame.pointee.ch_layout
        if source.order == AV_CHANNEL_ORDER_UNSPEC || av_channel_layout_check(&source) == 0 {
            // Some decoders know only how many channels there are: FFmpeg's usual layout for that many.
            av_channel_layout_default(&layout, source.nb_channels)
        } else if av_channel_layout_copy(&layout, &source) < 0 {
            throw GlimtError("out of memory")
        }
        guard layout.nb_channels > 0, (1...768_000).contains(frame.pointee.sample_rate) else {
            throw GlimtError("the sound has \(layout.nb_channels) channels at \(frame.pointee.sample_rate) Hz, which cannot be played")
        }
        if context != nil && frame.pointee.format == inputFormat && frame.pointee.sample_rate == inputRate
            && av_channel_layout_compare(&layout, &inputLayout) == 0
        {
            return
        }
        if context != nil { try run(input: nil, count: 0, take) }
        swr_free(&context)
        var output = AVChannelLayout()
        av_channel_layout_default(&output, Int32(AudioFormat.channels))
        defer { av_channel_layout_uninit(&output) }
        var built: OpaquePointer?
        var status = swr_alloc_set_opts2(
            &built, &output, AV_SAMPLE_FMT_FLT, Int32(AudioFormat.sampleRate),
            &layout, AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        if status >= 0, let built, layout.nb_channels == 1 {
            // Players put mono on both speakers at full level; swresample's default is -3 dB,
            // which would make a mono day quieter than it sounds on its own.
            var matrix: [Double] = [1, 1]
            status = swr_set_matrix(built, &matrix, 1)
        }
        if status >= 0 { status = swr_init(built) }
        guard status >= 0, let built else {
            swr_free(&built)
            throw GlimtError("cannot resample the sound: \(ffmpegReason(status))")
        }
        context = built
        av_channel_layout_uninit(&inputLayout)
        _ = av_channel_layout_copy(&inputLayout, &layout)
        inputFormat = frame.pointee.format
        inputRate = frame.pointee.sample_rate
    }
}

private func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    b == 0 ? a : greatestCommonDivisor(b, a % b)
}

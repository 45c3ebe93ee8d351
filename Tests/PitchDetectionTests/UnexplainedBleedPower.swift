/// What a bleed path leaves of the power it should explain, summed over the frames added: a bin
/// holding more than 2.5× the path's prediction counts as unexplained.
struct UnexplainedBleedPower {
    private(set) var unexplained = 0.0, total = 0.0, predicted = 0.0

    mutating func add(real spectrum: UnsafeMutablePointer<(Float, Float)>, predicted power: UnsafeMutablePointer<Float>, bins: Int) {
        for k in 0..<bins {
            let p = Double(spectrum[k].0 * spectrum[k].0 + spectrum[k].1 * spectrum[k].1)
            total += p
            predicted += Double(power[k])
            if p > 2.5 * Double(power[k]) { unexplained += p }
        }
    }

    /// The unexplained share of the real power, and the predicted power over the real.
    var shares: (Double, Double) { (unexplained / total, predicted / total) }
}

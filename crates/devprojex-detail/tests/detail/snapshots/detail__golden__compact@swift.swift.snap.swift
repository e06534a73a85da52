// swift-tools-version: 5.9
import Foundation
/// Doc for Point.
struct Point {
    var x: Int
    var y: Int = 0
    let s = "// not a comment"
    let m = """
    multi // not a comment

    """
    init(x: Int) {
        self.x = x
    }
    /** Doc for norm. */
    func norm() -> Double {
        let r = /\d+/
        return Double(x * x + y * y).squareRoot()
    }
    func one() -> Int { 1 }
}
/// A file overview: a blank line below, so not part of the next doc.

/// Doc for Platform.
struct Platform {
    let name: String
}
/// Doc for Index, then an Xcode mark.
// MARK: - Index
/// Doc for RefIndex.
struct RefIndex {}

package p
import kotlin.math.abs
/** KDoc for C. /* nested */ still doc */
data class C(val x: Int, val y: String = "// not a comment") {
    init { /* ... */ }
    fun f(a: Int): Int { /* ... */ }
    fun g(a: Int) = a * 2
    val p: Int
        get() { /* ... */ }
}
fun builder() = buildList {
    add(1)
    add(2)
}

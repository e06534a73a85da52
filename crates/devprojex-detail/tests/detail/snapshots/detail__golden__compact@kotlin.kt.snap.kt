package p
import kotlin.math.abs
/** KDoc for C. /* nested */ still doc */
data class C(val x: Int, val y: String = "// not a comment") {
    init {
        require(x > 0)
        println("init")
    }
    fun f(a: Int): Int {
        val s = """raw // not a comment

        /* nor this */"""
        return a + x
    }
    fun g(a: Int) = a * 2
    val p: Int
        get() {
            return x
        }
}
fun builder() = buildList {
    add(1)
    add(2)
}

//> using scala 3.3.1
package p
import scala.util.Try
/** Scaladoc for C. */
case class C(x: Int) {
  val s = "// not a comment"
  def f(a: Int): Int = {
    a + x
  }
  def g(a: Int): Int = a * 2
  def h(a: Int): Int =
    val b = a + 1
    b * 2
}
object O {
  def main(args: Array[String]): Unit = {
    println("""raw // not a comment

    """)
  }
}
class Service:
  def start(): Unit =
    println("starting")
    println("started")
  /** Stops the service: the doc of the next method, not part of the body above.
   *
   *  Waits for pending work.
   */
  def stop(): Unit =
    println("stopping")
    println("stopped")

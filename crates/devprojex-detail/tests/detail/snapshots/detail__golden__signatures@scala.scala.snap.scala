//> using scala 3.3.1
package p
import scala.util.Try
/** Scaladoc for C. */
case class C(x: Int) {
  val s = "// not a comment"
  def f(a: Int): Int = { /* ... */ }
  def g(a: Int): Int = a * 2
  def h(a: Int): Int =
    { /* ... */ }
}
object O {
  def main(args: Array[String]): Unit = { /* ... */ }
}
class Service:
  def start(): Unit =
    { /* ... */ }
  /** Stops the service: the doc of the next method, not part of the body above.
   */
  def stop(): Unit =
    { /* ... */ }

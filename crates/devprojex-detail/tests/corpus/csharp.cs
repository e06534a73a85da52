using System; // trailing

namespace N
{
    /// <summary>Doc.</summary>
    public class C
    {
        // field comment
        private string s = "// not a comment";
        private string v = @"verbatim
// not a comment

";
        public int P { get; set; }

        public int Q
        {
            get
            {
                return 1;
            }
        }

        /// <summary>Method.</summary>
        [Obsolete]
        public int M(int a)
        {
            /* comment */
            Func<int, int> f = x =>
            {
                return x;
            };
            return a;
        }

#if DEBUG
        public void D() { }
#endif
        public int E(int a) => a * 2;
    }
}

/// <summary>
/// A file overview: a blank line below, so not part of the next doc.
/// </summary>

/// <summary>
/// The summary element is the summary,
///
/// blank lines and all.
/// </summary>
/// <param name="v">Dropped at signatures.</param>
public struct Handle
{
    public int Value;
}

#!/usr/bin/env bash
# Comment.
set -euo pipefail

echo "# not a comment" # trailing
x=${y#prefix}  # param expansion, then comment

cat <<EOF2
# not a comment in heredoc

EOF2

f() {
  # inside
  echo hi
}

# A blank line ends a continued command: it stays.
echo first \

echo second

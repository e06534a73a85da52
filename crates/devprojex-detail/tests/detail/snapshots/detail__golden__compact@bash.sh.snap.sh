#!/usr/bin/env bash
set -euo pipefail
echo "# not a comment"
x=${y#prefix}
cat <<EOF2
# not a comment in heredoc

EOF2
f() {
  echo hi
}
echo first \

echo second

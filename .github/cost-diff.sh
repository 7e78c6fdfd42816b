#!/usr/bin/env bash
# The cost of a pull request's change, as .github/workflows/cost-diff.yml runs it (and test/commands/cost-diff.test.ts
# on two committed templates): npm run cost -- --compare-to for the seed profile and each profile in COST_PROFILES
# (names or JSON files, spaces or commas between), into <out>/comment.md: the comment's hidden marker on its first
# line (the posting workflow finds its comment by it), then each profile's markdown. COST_FAIL_ABOVE and
# COST_FAIL_BELOW, when set, are the gates (--fail-above, --fail-below): every profile is compared, then it fails.
# Usage: .github/cost-diff.sh <base cdk.out folder or template> <head template> <out folder>
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 <base cdk.out folder or template> <head template> <out folder>" >&2
  exit 2
fi
base=$1 head=$2 out=$3
mkdir -p "$out"
comment="$out/comment.md"
: > "$comment"
gates=()
[ -n "${COST_FAIL_ABOVE:-}" ] && gates+=(--fail-above "$COST_FAIL_ABOVE")
[ -n "${COST_FAIL_BELOW:-}" ] && gates+=(--fail-below "$COST_FAIL_BELOW")
status=0
seen=" "
for profile in seed ${COST_PROFILES//,/ }; do
  case "$seen" in *" $profile "*) continue ;; esac
  seen="$seen$profile "
  # A gate passed is exit 1 with its line on stderr, and the markdown written all the same; any other failure stops.
  rc=0
  npm run -s cost -- --compare-to "$base" --template "$head" --profile "$profile" --format markdown "${gates[@]}" \
    > "$out/$profile.md" || rc=$?
  if [ "$rc" -ne 0 ] && { [ "$rc" -ne 1 ] || [ ! -s "$out/$profile.md" ]; }; then exit "$rc"; fi
  [ "$rc" -eq 0 ] || status=$rc
  # One marker, the first line: each profile's markdown starts with it.
  if [ -s "$comment" ]; then tail -n +2 "$out/$profile.md" >> "$comment"; else cat "$out/$profile.md" > "$comment"; fi
done
exit "$status"

#!/usr/bin/env bash
# openapi.yaml through swift-openapi-generator 1.14.3 (types and client): fails when the
# generator warns (a schema it skips, such as `Schema "null" is not supported`) or makes no client.
#   scripts/openapi-generator.sh [SPEC]      # default: openapi.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
spec=$(realpath "${1:-openapi.yaml}")
package=Tests/OpenAPIGeneratorCheck
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build --package-path "$package" --product swift-openapi-generator > "$work/build.log" 2>&1 || {
  tail -30 "$work/build.log" >&2
  echo "openapi-generator: building swift-openapi-generator failed" >&2
  exit 1
}
generator="$(swift build --package-path "$package" --show-bin-path)/swift-openapi-generator"
cp "$spec" "$work/openapi.yaml"
printf 'generate:\n  - types\n  - client\naccessModifier: public\n' > "$work/openapi-generator-config.yaml"
"$generator" generate --config "$work/openapi-generator-config.yaml" --output-directory "$work/out" "$work/openapi.yaml" > "$work/log" 2>&1 || {
  cat "$work/log" >&2
  echo "openapi-generator: the generator failed" >&2
  exit 1
}
if grep -iE "warning|not supported|skipping" "$work/log" >&2; then
  echo "openapi-generator: the generator skipped or warned about parts of $spec (above)" >&2
  exit 1
fi
for file in Types.swift Client.swift; do
  [[ -s $work/out/$file ]] || { echo "openapi-generator: no $file" >&2; exit 1; }
done
# The properties that a nullable written as `oneOf` with a null schema used to lose.
for property in "var empty: Components.Schemas.RowPage.emptyPayload?" "var links: Components.Schemas.TableColumn.linksPayload?" \
  "var section: Components.Schemas.ChangeFeed"; do
  grep -qF "$property" "$work"/out/Types*.swift || { echo "openapi-generator: no '$property' in the generated types" >&2; exit 1; }
done
echo "openapi-generator: $(grep -c 'public func ' "$work/out/Client.swift") client operations, no warning, no skipped schema"

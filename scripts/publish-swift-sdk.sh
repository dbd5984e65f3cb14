#!/usr/bin/env bash
# Publishes the Swift SDK (sdk/purchase-sli-swift) as the repository apps add by URL and version: the
# directory's history split out of this repository (git subtree split), pushed to DESTINATION's main and
# tagged VERSION. DESTINATION is a git URL, or a local path made a bare repository when missing. What is
# published is HEAD's SDK, so uncommitted changes to it are refused; a tag that exists is never moved.
#
#   scripts/publish-swift-sdk.sh 1.0.0 git@github.com:purchase-sli/purchase-sli-swift.git
set -euo pipefail
usage="usage: scripts/publish-swift-sdk.sh VERSION DESTINATION (e.g. 1.0.0 git@github.com:purchase-sli/purchase-sli-swift.git)"
[ $# -eq 2 ] || { echo "$usage" >&2; exit 64; }
version=$1
destination=$2
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "VERSION: expected a semantic version such as 1.0.0, got '$version'" >&2; exit 64; }
cd "$(dirname "$0")/.."
prefix=sdk/purchase-sli-swift
if ! git diff --quiet HEAD -- "$prefix" || [ -n "$(git ls-files --others --exclude-standard -- "$prefix")" ]; then
    echo "$prefix has changes HEAD does not hold: the published SDK is HEAD's; commit them first" >&2
    exit 1
fi
commit=$(git subtree split -q --prefix="$prefix" HEAD)
if [[ $destination != *:* && ! -e $destination ]]; then
    git init --quiet --bare --initial-branch=main "$destination"
fi
git push --quiet "$destination" "$commit:refs/heads/main"
git push --quiet "$destination" "$commit:refs/tags/$version"
echo "published $prefix at $commit as $version to $destination"

#!/bin/sh
# Empty sources for every workspace crate, so that `cargo build` compiles the dependencies
# alone: the Dockerfile's cached dependency layer. Run at the workspace root where only the
# manifests and Cargo.lock have been copied; api/tests/dockerfile.rs checks that cargo accepts
# the result with --locked.
set -eu
for crate in domain db api bench; do
  mkdir -p "$crate/src"
  : >"$crate/src/lib.rs"
done
printf 'fn main() {}\n' >api/src/main.rs
mkdir -p tests/api
: >tests/lib.rs
: >tests/api/main.rs

# The static release build every shipped artefact (the package, the image, their tests'
# simulator) is made from. Sourced; ROOT is the repository.
#   release_build SCRATCH PRODUCT
release_build() {
  local scratch=$1 product=$2
  # Package.swift lists migrations/ when it is evaluated: without the two flags a build
  # planned before a new migration file keeps the old list and fails on the new one.
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --product "$product" --scratch-path "$scratch" \
    --manifest-cache none --disable-build-manifest-caching >&2)
}

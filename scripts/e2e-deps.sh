#!/usr/bin/env bash
# Installs what the e2e tests need and a fresh machine lacks: Debian's Chromium, and the Playwright
# driver that playwright-go expects (playwright-core at its exact version, from npm; never
# `npx playwright install`, which downloads browsers). Idempotent and quick when already done.
set -euo pipefail
driver_version=1.52.0 # playwright-go v0.5200.1 accepts exactly this driver
dir="${PLAYWRIGHT_DRIVER_PATH:-$PWD/.data/playwright-driver}"

if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "e2e-deps: installing chromium with apt-get" >&2
    apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2
  else
    echo "e2e-deps: chromium is missing; install it (apt-get install chromium)" >&2; exit 1
  fi
fi

if [ ! -f "$dir/package/cli.js" ] || ! grep -q "\"version\": \"$driver_version\"" "$dir/package/package.json"; then
  echo "e2e-deps: fetching playwright-core@$driver_version from npm" >&2
  rm -rf "$dir" && mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "playwright-core@$driver_version" >/dev/null && tar xzf playwright-core-*.tgz && rm playwright-core-*.tgz)
fi
ln -sf "$(command -v node)" "$dir/node"

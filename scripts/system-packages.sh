#!/usr/bin/env bash
# Debian packages the tests need and PyPI cannot give: socat (the real pseudo-terminal pairs
# the serial tests talk over) and the AVR toolchain with the Arduino core (the clock
# firmware is compiled in the tests). Installs only what is missing.
set -euo pipefail
need=()
command -v socat >/dev/null || need+=(socat)
command -v avr-gcc >/dev/null || need+=(gcc-avr binutils-avr avr-libc)
[ -d /usr/share/arduino/hardware/arduino/avr/cores/arduino ] || need+=(arduino-core-avr)
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing Debian packages: ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"

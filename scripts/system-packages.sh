#!/usr/bin/env bash
# Debian packages the tests need and PyPI cannot give: socat (the real pseudo-terminal pairs
# the serial tests talk over), the AVR toolchain with the Arduino core and simavr (the clock
# firmware is compiled and run in the tests), Chromium (the web pages are tested in a
# real headless browser, with a Chinese font), Mosquitto (the hall tests run a real MQTT
# broker), and the PostgreSQL server (the store tests run each store on a real PostgreSQL too,
# started from its binaries in a temporary folder; see tests/pg.py), and the fonts the card
# renderer draws indices with (vision/synth/fonts.py: a dataset built from a recipe's seed is
# the same on every machine with the same fonts; the training recipes with `fonts: extra` need
# the eighteen more families), and the real deck designs with the SVG renderer that draws them
# (datasets/art-decks.toml: gnome-cards-data, kdegames-card-data-kf5, librsvg2-bin), and OpenGL
# without a display for the stage, the second rendered world (vision/stage: moderngl through EGL on
# Mesa's software rasteriser: libegl1, libgl1, libegl-mesa0, libgl1-mesa-dri).
# Installs only what is missing.
# `system-packages.sh demo`: only what `make demo` needs (socat: the demo's emulated clock).
set -euo pipefail
need=()
command -v socat >/dev/null || need+=(socat)
if [ "${1:-}" != demo ]; then
command -v avr-gcc >/dev/null || need+=(gcc-avr binutils-avr avr-libc)
[ -d /usr/share/arduino/hardware/arduino/avr/cores/arduino ] || need+=(arduino-core-avr)
command -v simavr >/dev/null || need+=(simavr)
command -v chromium >/dev/null || need+=(chromium)
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)  # Debian puts it in /usr/sbin
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)  # Debian keeps it off PATH
fonts=$(fc-list 2>/dev/null || true)  # read once: under pipefail, fc-list | grep -q fails when grep stops early
has_font() { grep -qi "$1" <<<"$fonts"; }
has_font "wqy\|noto sans cjk" || need+=(fonts-wqy-microhei)  # Chinese in screenshots
has_font "Liberation Serif" || need+=(fonts-liberation)  # deck fonts, two held out
has_font "DejaVu Serif Condensed" || need+=(fonts-dejavu-extra)  # deck fonts, one held out
# more training deck fonts (vision/synth/fonts.py EXTRA_TRAIN_FAMILIES; recipes with fonts: extra)
for pair in "URW Bookman:fonts-urw-base35" "FreeSans:fonts-freefont-ttf" "Roboto:fonts-roboto" \
            "Open Sans:fonts-open-sans" "Lato:fonts-lato" "Carlito:fonts-crosextra-carlito" \
            "Linux Libertine O:fonts-linuxlibertine" "Cantarell:fonts-cantarell"; do
  has_font "${pair%%:*}" || need+=("${pair##*:}")
done
[ -d /usr/share/aisleriot/cards ] || need+=(gnome-cards-data)  # real deck designs
[ -d /usr/share/carddecks/svg-standard ] || need+=(kdegames-card-data-kf5)
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
gl_lib() { compgen -G "/usr/lib/*/$1" >/dev/null || compgen -G "/usr/lib/*/*/$1" >/dev/null; }  # multiarch folders
gl_lib libEGL.so.1 || need+=(libegl1)  # the stage's OpenGL (glvnd's dispatch)
gl_lib libGL.so.1 || need+=(libgl1)
gl_lib libEGL_mesa.so.0 || need+=(libegl-mesa0)  # Mesa's EGL vendor
gl_lib dri/swrast_dri.so || need+=(libgl1-mesa-dri)  # llvmpipe, OpenGL on the CPU
fi
[ ${#need[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "installing Debian packages: ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"

#!/usr/bin/env bash
# Installs the Debian 12 packages pcv builds and tests with (skips apt when all are present).
# The CUDA toolkit is not a Debian package: pcv finds it at /usr/local/cuda when it is there and
# builds the CPU backend alone when it is not.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libglfw3-dev libimgui-dev libglm-dev libepoxy-dev libpng-dev libcli11-dev libpugixml-dev
  nlohmann-json3-dev liblzf-dev libproj-dev libcurl4-openssl-dev libturbojpeg0-dev
  openmpi-bin libopenmpi-dev
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  pybind11-dev python3-dev python3-numpy python3-pytest libdlpack-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang lld libclang-rt-14-dev
  xvfb xauth mesa-utils libgl1-mesa-dri libegl-mesa0
  libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers
  libboost-dev libssl-dev openssl chromium chromium-driver
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "pcv: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

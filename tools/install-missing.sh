# Sourced by tools/setup.sh and the benchmark scripts:
#   install_missing WHO PACKAGE...
# installs, from Debian and as root, those of the packages that are not
# installed yet; WHO starts its messages. Without root it says what is
# missing and exits 1.
install_missing() {
  local who=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "$who: installing ${missing[*]}"
  if [[ $(id -u) -ne 0 ]]; then
    echo "$who: run as root to install packages: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
}

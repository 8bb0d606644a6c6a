# Sourced by bench scripts. private_dir DIR SETTING: makes DIR (mode 700) and prints it; refuses
# (status 2, naming SETTING, the variable that picks another directory) when DIR is a link or
# belongs to another user, so no benchmark works in a directory someone else controls.
private_dir() {
  local dir=$1 setting=$2
  mkdir -m 700 -p "$dir"
  if [[ -L "$dir" || ! -O "$dir" ]]; then
    echo "$(basename "$0"): $dir is a link or not owned by $(id -un); set $setting" >&2
    return 2
  fi
  chmod 700 "$dir"
  printf '%s\n' "$dir"
}

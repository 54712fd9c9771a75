#!/bin/sh
# tests/layers.sh SRC: checks that LoomCL's layers only include and call
# downward. The layers, highest first, are the top folders of SRC:
#   api > core > devices > compiler > config   (and ../builtins, for loom_abi.h)
# Fails (exit 1, one "file:line: why" per offence) when
#   (a) a file includes anything through "../";
#   (b) a quoted #include names a header that lives in a higher layer (a
#       quoted name resolves relative to the including file's folder, else
#       from a layer root: SRC/<layer>/name, or ../builtins/name);
#   (c) a file in api/ uses ->ops (the api never calls a driver) or
#       includes device.h or cpu/... directly;
#   (d) a file in devices/ includes a core or api header (loom.h, command.h,
#       program.h, kernel.h, memobj.h, platform.h).
# Exit 2: usage or a missing folder.
set -u
LC_ALL=C
export LC_ALL

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 <src folder>" >&2
  exit 2
fi
src=${1%/}
builtins=$(dirname "$src")/builtins
LAYERS="api core devices compiler config"
for l in $LAYERS; do
  if [ ! -d "$src/$l" ]; then
    echo "layers: $src/$l: no such layer folder" >&2
    exit 2
  fi
done

# rank of a layer: higher layers have higher ranks; builtins is below all
rank() {
  case $1 in
  api) echo 5 ;; core) echo 4 ;; devices) echo 3 ;; compiler) echo 2 ;;
  config) echo 1 ;; builtins) echo 0 ;; *) echo -1 ;;
  esac
}

files=$(find "$src" -type f \( -name '*.c' -o -name '*.h' \) | sort)
nfiles=0
bad=0
report() {
  echo "$1: $2"
  bad=$((bad + 1))
}

for f in $files; do
  nfiles=$((nfiles + 1))
  rel=${f#"$src"/}
  layer=${rel%%/*}
  myrank=$(rank "$layer")
  dir=$(dirname "$f")

  # every #include (outside /* */ comments): "line<TAB>q|a<TAB>name"
  includes=$(awk '
    {
      line = $0
      # drop /* ... */ comments, including ones that span lines
      out = ""
      while (line != "") {
        if (incomment) {
          e = index(line, "*/")
          if (!e) { line = ""; break }
          line = substr(line, e + 2); incomment = 0
        } else {
          s = index(line, "/*")
          if (!s) { out = out line; break }
          out = out substr(line, 1, s - 1) " "
          line = substr(line, s + 2); incomment = 1
        }
      }
      if (out ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
        sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", out); sub(/".*/, "", out)
        print NR "\tq\t" out
      } else if (out ~ /^[ \t]*#[ \t]*include[ \t]*</) {
        sub(/^[ \t]*#[ \t]*include[ \t]*</, "", out); sub(/>.*/, "", out)
        print NR "\ta\t" out
      }
    }' "$f")

  if [ -n "$includes" ]; then
    tab=$(printf '\t')
    while IFS=$tab read -r line kind name; do
      where="$f:$line"
      base=${name##*/}
      # (a) nothing through ../
      case $name in
      ../* | */../* | *..) report "$where" "includes \"$name\" through ../ (use the layer's include path)" ;;
      esac
      # (c) the api never reaches a driver
      if [ "$layer" = api ]; then
        case $name in
        device.h | */device.h | cpu/* | */cpu/*)
          report "$where" "the api includes the driver header \"$name\" (go through core)" ;;
        esac
      fi
      # (d) a driver sees no core or api header
      if [ "$layer" = devices ]; then
        case $base in
        loom.h | command.h | program.h | kernel.h | memobj.h | platform.h)
          report "$where" "a driver includes the core/api header \"$name\"" ;;
        esac
      fi
      # (b) quoted includes resolve downward
      [ "$kind" = q ] || continue
      case $name in ../* | */../* | *..) continue ;; esac
      [ -f "$dir/$name" ] && continue # beside the including file: same layer
      found=""
      lowest=""
      for l in $LAYERS builtins; do
        if [ "$l" = builtins ]; then root=$builtins; else root=$src/$l; fi
        if [ -f "$root/$name" ]; then
          found="$found $l"
          lowest=$l
        fi
      done
      if [ -z "$found" ]; then
        report "$where" "\"$name\" is in no layer (neither beside the file nor under a layer root)"
        continue
      fi
      if [ "$(rank "$lowest")" -gt "$myrank" ]; then
        report "$where" "layer $layer includes \"$name\" from the higher layer$found"
      fi
    done <<EOF
$includes
EOF
  fi

  # (c) the api never calls a driver's ops table
  if [ "$layer" = api ]; then
    hits=$(grep -n -E -e '->[[:space:]]*ops([^[:alnum:]_]|$)' "$f" | cut -d: -f1)
    for line in $hits; do
      report "$f:$line" "the api calls a driver (->ops); go through core"
    done
  fi
done

if [ "$bad" -ne 0 ]; then
  echo "layers: $bad offence(s) in $nfiles files"
  exit 1
fi
echo "layers: $nfiles files checked, all includes go downward"
exit 0

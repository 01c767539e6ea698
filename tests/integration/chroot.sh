# Inside a chroot, which hides the mounts outside its root, the result still names the
# filesystem (ext4, not statfs's "ext2/ext3/ext4"), its source and its options, found by
# the directory's device number in PID 1's mount table; the mount point, a path outside
# the chroot, is left out rather than guessed. The chroot is a plain directory on an ext4
# loop rig with /usr bound in and /proc and /sys mounted, as a debootstrapped one has.
source "$(dirname "$0")/lib.sh"
make_rig --sector 4096 --fs ext4 --size 64M
root="$RIG/root"
mkdir -p "$root"/{usr,proc,sys,dev,opt,data,tmp}
for link in bin lib lib64 sbin; do
  [ -L "/$link" ] && ln -s "$(readlink "/$link")" "$root/$link"
done
# Unmounted before the rig is destroyed: these hooks run first, the innermost first.
mounts=()
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2> /dev/null || umount -l "${mounts[i]}"
  done
}
cleanup_hooks=("unmount_all" "${cleanup_hooks[@]}")
mount_in() {  # mount_in TARGET MOUNT-ARGS...
  local target=$1
  shift
  mount "$@" "$target" && mounts+=("$target")
}
mount_in "$root/usr" --bind /usr || { echo "FAIL: bind /usr" >&2; exit 1; }
mount_in "$root/proc" -t proc proc || { echo "FAIL: mount proc" >&2; exit 1; }
mount_in "$root/sys" --bind /sys || { echo "FAIL: bind /sys" >&2; exit 1; }
mount_in "$root/dev" --bind /dev || { echo "FAIL: bind /dev" >&2; exit 1; }
cp "$ALIGNBENCH" "$root/opt/alignbench"
source_dev=$(findmnt -n -o SOURCE --target "$RIG")

in_chroot() { chroot "$root" /opt/alignbench "$@"; }
check "env in the chroot runs" in_chroot env /data --format json > "$WORK/env.json"
env_check() {
  "$PY" - "$WORK/env.json" "$source_dev" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["target"]
want = {"fs_type": "ext4", "mount_source": sys.argv[2]}
ok = True
for key, value in want.items():
    if t.get(key) != value:
        print("    %s: %r, wanted %r" % (key, t.get(key), value), file=sys.stderr)
        ok = False
for key in ("mount_point",):
    if key in t:
        print("    %s: %r, a path outside the chroot" % (key, t[key]), file=sys.stderr)
        ok = False
if "rw" not in t.get("mount_options", "").split(","):
    print("    mount_options: %r" % t.get("mount_options"), file=sys.stderr)
    ok = False
sys.exit(0 if ok else 1)
PY
}
check "the filesystem is ext4 on the rig's device, with its options, no mount point" env_check
check "a run in the chroot" \
  in_chroot --dir /data --sizes 4K --repetitions 1 --writes 8 --out /tmp/r.json > /dev/null
check "its result names ext4 and the device" json_check "$root/tmp/r.json" \
  'a["environment"]["target"]["fs_type"] == "ext4"' \
  "a['environment']['target']['mount_source'] == '$source_dev'"
check "the text names the filesystem" sh -c "chroot '$root' /opt/alignbench show /tmp/r.json | head -n 1 | grep -q '(ext4 '"
finish

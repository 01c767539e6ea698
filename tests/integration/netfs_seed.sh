# The other seed's question end to end: one run over an sshfs mount (scripts/netfs-rig),
# a local disk directory and tmpfs at 1 MiB with --format ioping. Each directory's ioping
# lines are held to its result file (requests, total ms, iops, MiB/s, min/avg/max/mdev);
# the results say what a sync does where no block device is (the sshfs server asked:
# fsync@openssh.com offered, or on a --no-fsync rig not; tmpfs: nothing to write), and
# `alignbench compare` sets them beside the 2013 post, labelled, saying that the post
# read and the run synced writes.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces and mounts (CI runs as root)"
[ -c /dev/fuse ] || skip "no /dev/fuse: this kernel has no FUSE"
[ -x /usr/sbin/sshd ] || skip "/usr/sbin/sshd missing (Debian package openssh-server)"
for tool in sshfs fusermount3 sftp ip unshare nsenter; do
  command -v $tool > /dev/null ||
    skip "$tool missing (Debian packages sshfs, fuse3, openssh-client, iproute2, util-linux)"
done
unshare --net true 2> /dev/null || skip "cannot make a network namespace here (unshare --net)"
NR=$ALIGNBENCH_SOURCE_DIR/scripts/netfs-rig
mkdir "$WORK/base"
chmod 755 "$WORK"
cleanup_hooks+=("for r in '$WORK/base'/alignbench-netfs.*; do [ -e \"\$r\" ] && '$NR' destroy \"\$r\"; done >/dev/null 2>&1")
local_dir=$(mktemp -d /var/tmp/alignbench-seed-test.XXXXXX)
shm=$(mktemp -d /dev/shm/alignbench-seed-test.XXXXXX)
cleanup_hooks+=("rm -rf '$local_dir' '$shm'")
netfs=$("$NR" create --base "$WORK/base" 2> "$WORK/rig.err") ||
  { cat "$WORK/rig.err" >&2; echo "FAIL: netfs-rig create" >&2; exit 1; }
plain=$("$NR" create --base "$WORK/base" --no-fsync 2> "$WORK/rig.err") ||
  { cat "$WORK/rig.err" >&2; echo "FAIL: netfs-rig create --no-fsync" >&2; exit 1; }

"$ALIGNBENCH" --dir "$netfs" --dir "$local_dir" --dir "$shm" --sizes 1M --repetitions 6 \
  --format ioping --out "$WORK/r.json" > "$WORK/ioping.txt" 2> "$WORK/run.err"
check "the run over sshfs, a local disk and tmpfs: exit 0 ($(tail -n 1 "$WORK/run.err"))" [ $? -eq 0 ]
results=("$WORK"/r-in-*.json)
check "three result files (${#results[@]})" [ "${#results[@]}" -eq 3 ]

# Every directory's two ioping blocks, as the JSON says them.
ioping_matches() {
  "$PY" - "$WORK/ioping.txt" "${results[@]}" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
bad = 0
for path in sys.argv[2:]:
    a = json.load(open(path))["alignbench"]
    title = a["environment"]["target"]["dir"]
    pair = a["pairs"][0]
    for variant in ("unaligned", "aligned"):
        t = pair[variant]["write_sync"]
        n, avg = t["count"], t["mean_ns"] / 1e6
        block = re.search(re.escape(title) + r" \([^)]*\) alignbench statistics: 1M [^\n]*, "
                          + variant + r"[^\n]*---\n(\d+) requests completed in ([\d.]+) ms, "
                          r"(\d+) iops, ([\d.]+) MiB/s\nmin/avg/max/mdev = ([\d.]+)/([\d.]+)/"
                          r"([\d.]+)/([\d.]+) ms", text)
        if not block:
            print("    no %s block for %s" % (variant, title), file=sys.stderr)
            bad += 1
            continue
        got = [float(x) for x in block.groups()]
        want = [n, n * avg, 1000 / avg, 1000 / avg, t["min_ns"] / 1e6, avg,
                t["max_ns"] / 1e6, t["stddev_ns"] / 1e6]
        # What the rounding of each printed number allows: whole requests and iops,
        # one decimal at least for the rest.
        allowed = {"requests": 0, "total": 0.051, "iops": 0.51, "MiB/s": 0.051,
                   "min": 0.051, "avg": 0.051, "max": 0.051, "mdev": 0.051}
        for g, w, what in zip(got, want, allowed):
            if abs(g - w) > allowed[what]:
                print("    %s %s %s: printed %s, JSON %s" % (title, variant, what, g, w),
                      file=sys.stderr)
                bad += 1
sys.exit(1 if bad else 0)
PY
}
check "each directory's ioping lines hold its result's numbers" ioping_matches
netfs_json=$(grep -l '"fuse.sshfs"' "${results[@]}")
shm_json=$(grep -l '"tmpfs"' "${results[@]}")
check "sshfs: the server offers fsync@openssh.com, said" json_check "$netfs_json" \
  '"offers fsync@openssh.com, so a sync returns once the server" in a["environment"]["target"]["sync_effect"]' \
  '"device" not in a["environment"]["target"] or a["environment"]["target"]["device"] is None'
check "tmpfs: a sync has nothing to write, said" json_check "$shm_json" \
  '"nothing to write" in a["environment"]["target"]["sync_effect"]'
"$ALIGNBENCH" env "$plain" > "$WORK/plain.txt" 2>&1
check "a server without fsync@openssh.com: a sync makes nothing durable, said" \
  grep -q "does not offer fsync@openssh.com, so a sync only waits for the writes to be sent" \
  "$WORK/plain.txt"

"$ALIGNBENCH" compare "$ALIGNBENCH_SOURCE_DIR/results/reference/ioping-2013-know-your-disk-latency.json" \
  "${results[@]}" > "$WORK/compare.txt" 2> "$WORK/compare.err"
check "compare with the 2013 post: exit 0 ($(head -n 1 "$WORK/compare.err"))" [ $? -eq 0 ]
beside_post() {
  "$PY" - "$WORK/compare.txt" "$netfs" "$local_dir" "$shm" <<'PY'
import sys
text, netfs, local, shm = open(sys.argv[1]).read(), *sys.argv[2:]
sections = {}
for name in ("network filesystem:", "local disk:", "memory:"):
    sections[name] = text.split("\n" + name + "\n", 1)[1].split("\n\n", 1)[0]
checks = [
    ("says what each measured", "the post measured reads and the run synced writes" in text),
    ("the post's NFS line under network", "post  --- /home/kilo (nfs " in sections["network filesystem:"]),
    ("the sshfs run under network", netfs + " (fuse.sshfs " in sections["network filesystem:"]),
    ("the local run under local disk", local + " (" in sections["local disk:"]),
    ("the tmpfs run under memory", shm + " (tmpfs " in sections["memory:"]),
    ("the ratios for both", "post 1.96 x (9.8 / 5 ms)   run " in text and "run n/a" not in text),
]
for what, ok in checks:
    if not ok:
        print("    " + what, file=sys.stderr)
sys.exit(0 if all(ok for _, ok in checks) else 1)
PY
}
check "the post beside the run, each directory under its kind" beside_post
for dir in "$netfs" "$local_dir" "$shm"; do
  check "no test file left in $dir" no_leftovers "$dir"
done
finish

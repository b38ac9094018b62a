#!/usr/bin/env python3
"""Decode a capture in N parts with `ualink-decode --chunk K/N` and join the
parts' outputs into exactly the serial output.

Each part K > 1 starts decoding W records (--warmup) before its own records
and writes, to its side file, its output for the last V (--overlap) warm-up
records. Here that output is compared with the output the previous parts
really gave for those records: equal means the part's trackers were in the
serial decode's state when its own records began; different means the
warm-up was too short, and the part is decoded again with a warm-up four
times longer, up to the whole prefix (which is the serial decode itself).

  ualink-merge.py -N 4 CAPTURE [-- DECODE-OPTIONS]       run the parts here
  ualink-merge.py --merge-only DIR -N 4 CAPTURE [-- ...]  join parts already
      decoded into DIR (part-K.out, part-K.side, part-K.err), e.g. by GNU
      parallel or a Slurm array job

The merged output goes to stdout (or -o FILE), the parts' messages to
stderr in part order; the exit status is the worst of the parts'.
--stats, --report, -w and -c need the whole capture: not in chunked mode.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

UNSUPPORTED = ("--stats", "--report", "-w", "--write", "-c", "--count")


def unsupported(decode_args):
    """The first option that chunked mode cannot make exact, else None."""
    for a in decode_args:
        name = a.split("=", 1)[0]
        if name in UNSUPPORTED or (name.startswith("-c") and not name.startswith("--") and len(name) > 2
                                   and name[2:].isdigit()):
            return name
    return None


def part_paths(workdir, k):
    base = os.path.join(workdir, "part-%d" % k)
    return base + ".out", base + ".side", base + ".err"


def part_cmd(decoder, decode_args, capture, k, n, warmup, overlap, workdir):
    """The command line of part k of n (the same one GNU parallel or Slurm runs)."""
    _, side, _ = part_paths(workdir, k)
    return [decoder, "--chunk", "%d/%d" % (k, n), "--warmup", str(warmup), "--overlap", str(overlap),
            "--chunk-side", side] + list(decode_args) + [capture]


def run_cmd(cmd, out, err):
    """Runs one part: its output to out, its messages to err; the exit status."""
    with open(out, "wb") as fo, open(err, "wb") as fe:
        return subprocess.run(cmd, stdout=fo, stderr=fe).returncode


def read_side(path):
    with open(path, "rb") as f:
        meta = json.loads(f.readline())
        ov = f.read()
    if len(ov) != meta["overlap_bytes"]:
        raise ValueError("%s: overlap of %d bytes, header says %d" % (path, len(ov), meta["overlap_bytes"]))
    return meta, ov


class Merger:
    """Joins parts in order, keeping the merged output of the last V frames
    to check the next part's overlap against."""

    def __init__(self, out, overlap):
        self.out = out
        self.overlap = overlap
        self.pos = 0            # bytes of merged output so far
        self.frame_at = {}      # frame -> offset of its output in the merged output
        self.tail = b""         # merged output from offset tail_base on
        self.tail_base = 0
        self.next_frame = 1
        self.stopped = False    # a part stopped at --frames' end: no more records
        self.state_end = None   # the analysis state where the last part joined ended

    def check(self, k, meta, ov):
        """None when part k joins exactly, else what is wrong."""
        if meta["empty"] or self.stopped:
            return None
        if meta["first"] != self.next_frame:
            return "part %d starts at frame %d, the parts before end at frame %d" % (
                k, meta["first"], self.next_frame - 1)
        if meta["warm_from"] <= 1:
            return None  # decoded from the capture's first record: the serial decode itself
        end = self.state_end
        if end is not None and meta["state_start"] != end:
            return "part %d: after its warm-up the analysis state is %s, the parts before end in %s" % (
                k, json.dumps(meta["state_start"]), json.dumps(end))
        if end is not None and (end.get("other_fabric") or meta["state_start"].get("other_fabric")):
            # PCIe or UB records: their analyses' state is not in the comparison
            return "part %d: records of another fabric before it: needs the whole prefix" % k
        if end is not None and any(d[2] and not d[0] for d in end.get("sync", [])):
            # a stream not yet synchronized: its hidden state is not in the comparison
            return "part %d: a direction is not synchronized at its start: needs the whole prefix" % k
        vf = meta["verify_from"]
        if vf >= meta["first"]:
            return None
        if vf not in self.frame_at:
            return "part %d: no output offset of frame %d to check against (--overlap larger than a part?)" % (k, vf)
        have = self.tail[self.frame_at[vf] - self.tail_base:]
        if have != ov:
            return "part %d: its warm-up from frame %d gives output different from the parts before" % (
                k, meta["warm_from"])
        return None

    def add(self, meta, out_path):
        if self.stopped:
            return
        with open(out_path, "rb") as f:
            shutil.copyfileobj(f, self.out)
            size = f.tell()
            tail = [(fr, off) for fr, off in meta["tail"] if fr <= meta["last"]]
            if tail:
                f.seek(tail[0][1])
                data = f.read()
                base = self.pos + tail[0][1]
            else:  # no records of its own (the end of the capture): all of it
                f.seek(0)
                data, base = f.read(), self.pos
        for fr, off in tail:
            self.frame_at[fr] = self.pos + off
        # keep the last V frames (the tail may span parts shorter than V)
        if base > self.tail_base + len(self.tail):
            self.tail, self.tail_base = b"", base
        self.tail = self.tail[:base - self.tail_base] + data
        frames = sorted(self.frame_at)
        for fr in frames[:max(0, len(frames) - self.overlap)]:
            del self.frame_at[fr]
        if self.frame_at:
            cut = min(self.frame_at.values())
            self.tail = self.tail[cut - self.tail_base:]
            self.tail_base = cut
        self.pos += size
        if not meta["empty"]:
            self.next_frame = meta["last"] + 1
        self.stopped = meta["stopped"]
        self.state_end = meta["state_end"]


def merge(workdir, n, out, redo, overlap, log=sys.stderr):
    """Joins parts 1..n of workdir into out. redo(k, warmup) decodes part k
    again with a longer warm-up (returns its exit status). Returns the exit
    status of the whole run."""
    m = Merger(out, overlap)
    worst = 0
    for k in range(1, n + 1):
        out_path, side, err = part_paths(workdir, k)
        rc = None
        if not os.path.exists(side):  # the part failed before it could write one
            with open(err, "rb") as f:
                log.write(f.read().decode(errors="replace"))
            return 2
        while True:
            meta, ov = read_side(side)
            why = m.check(k, meta, ov)
            if why is None:
                break
            if meta["warm_from"] <= 1:
                raise RuntimeError(why + ", although it decoded the whole prefix")
            warmup = min(max(4 * (meta["first"] - meta["warm_from"]), 1), meta["first"] - 1)
            if why.endswith("whole prefix"):
                warmup = meta["first"] - 1
            print("ualink-merge: %s; decoding it again with --warmup %d" % (why, warmup), file=log)
            rc = redo(k, warmup)
        m.add(meta, out_path)
        with open(err, "rb") as f:
            log.buffer.write(f.read()) if hasattr(log, "buffer") else log.write(f.read().decode(errors="replace"))
        log.flush()
        if rc is None and os.path.exists(out_path + ".rc"):
            with open(out_path + ".rc") as f:
                rc = int(f.read().strip() or 0)
        worst = max(worst, rc or 0)
    out.flush()
    return worst


def local_runner(decoder, decode_args, capture, n, overlap, workdir):
    def redo(k, warmup):
        out, _, err = part_paths(workdir, k)
        rc = run_cmd(part_cmd(decoder, decode_args, capture, k, n, warmup, overlap, workdir), out, err)
        write_rc(out, rc)
        return rc
    return redo


def write_rc(out_path, rc):
    with open(out_path + ".rc", "w") as f:
        f.write("%d\n" % rc)


def parse(argv, description=__doc__):
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-N", "--parts", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--decoder", default=shutil.which("ualink-decode") or "ualink-decode")
    ap.add_argument("--warmup", type=int, default=8192)
    ap.add_argument("--overlap", type=int, default=256)
    ap.add_argument("--workdir", help="where the parts' files go (default: a temporary directory)")
    ap.add_argument("-o", "--output", help="merged output file (default stdout)")
    ap.add_argument("capture")
    ap.add_argument("decode_args", nargs=argparse.REMAINDER, help="-- then ualink-decode options")
    return ap


def decode_args_of(a):
    args = a.decode_args
    if args and args[0] == "--":
        args = args[1:]
    return args


def main(argv=None):
    ap = parse(argv)
    ap.add_argument("--merge-only", metavar="DIR", help="join the parts already decoded into DIR")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="parts decoded at once here")
    a = ap.parse_args(argv)
    args = decode_args_of(a)
    bad = unsupported(args)
    if bad:
        print("ualink-merge: %s is not supported in chunked mode (it needs the whole capture)" % bad, file=sys.stderr)
        return 2
    if a.parts < 1:
        print("ualink-merge: -N needs at least 1 part", file=sys.stderr)
        return 2
    workdir = a.merge_only or a.workdir or tempfile.mkdtemp(prefix="ualink-merge.")
    os.makedirs(workdir, exist_ok=True)
    redo = local_runner(a.decoder, args, a.capture, a.parts, a.overlap, workdir)
    if not a.merge_only:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            list(ex.map(lambda k: redo(k, a.warmup), range(1, a.parts + 1)))
    out = open(a.output, "wb") if a.output else sys.stdout.buffer
    try:
        return merge(workdir, a.parts, out, redo, a.overlap)
    finally:
        if a.output:
            out.close()
        if not a.merge_only and not a.workdir:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

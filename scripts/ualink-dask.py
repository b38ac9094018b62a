#!/usr/bin/env python3
"""Decode a capture on a Dask distributed cluster: one task per part runs
`ualink-decode --chunk K/N` on the capture (which every worker must see at
the same path: a shared filesystem), then the parts are joined here by
ualink-merge.py (checked, with parts decoded again on a mismatch).

  ualink-dask.py -N 8 CAPTURE [-- DECODE-OPTIONS]            a LocalCluster
  ualink-dask.py --scheduler tcp://host:8786 --workdir /shared/tmp -N 64 CAPTURE

--workdir must be shared too when the workers are on other machines.
--stats, --report, -w and -c are not supported in chunked mode.
"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time


def load_merge():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ualink-merge.py")
    spec = importlib.util.spec_from_file_location("ualink_merge", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def decode_part(cmd, out, err):
    """A worker's task: one part to files on the shared filesystem; its exit status."""
    with open(out, "wb") as fo, open(err, "wb") as fe:
        rc = subprocess.run(cmd, stdout=fo, stderr=fe).returncode
    with open(out + ".rc", "w") as f:
        f.write("%d\n" % rc)
    return rc


def main(argv=None):
    um = load_merge()
    ap = um.parse(argv, __doc__)
    ap.add_argument("--scheduler", help="a running scheduler's address (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    ap.add_argument("--threads", action="store_true", help="LocalCluster workers as threads of this process")
    ap.add_argument("--time", action="store_true", help="print the wall time of the run to stderr")
    a = ap.parse_args(argv)
    args = um.decode_args_of(a)
    bad = um.unsupported(args)
    if bad:
        print("ualink-dask: %s is not supported in chunked mode (it needs the whole capture)" % bad, file=sys.stderr)
        return 2
    from distributed import Client, LocalCluster

    t0 = time.monotonic()
    capture = os.path.abspath(a.capture)
    decoder = shutil.which(a.decoder) or a.decoder
    decoder = os.path.abspath(decoder) if os.path.exists(decoder) else decoder
    workdir = a.workdir or tempfile.mkdtemp(prefix="ualink-dask.")
    os.makedirs(workdir, exist_ok=True)
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=not a.threads,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        def submit(k, warmup):
            out, _, err = um.part_paths(workdir, k)
            cmd = um.part_cmd(decoder, args, capture, k, a.parts, warmup, a.overlap, workdir)
            return client.submit(decode_part, cmd, out, err, pure=False, key="ualink-part-%d-%d" % (k, warmup))

        client.gather([submit(k, a.warmup) for k in range(1, a.parts + 1)])
        out = open(a.output, "wb") if a.output else sys.stdout.buffer
        try:
            rc = um.merge(workdir, a.parts, out, lambda k, w: submit(k, w).result(), a.overlap)
        finally:
            if a.output:
                out.close()
    finally:
        client.close()
        if cluster:
            cluster.close()
        if not a.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    if a.time:
        print("ualink-dask: %d parts in %.3f s" % (a.parts, time.monotonic() - t0), file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
